// The request dialog of /user/withdraw-request (SPEC §5 "Withdraw request"; DECISIONS "Money"): the
// member picks withdrawable applications and says where the money goes, one line per own card
// (card, amount, note). Every withdrawable application starts ticked (decision 055: a member withdraws
// what they earned, usually all of it, and a single task is then ticked without a click; unticking
// keeps a task for later). "任务合计" and "提现合计" follow in cents; while there is one line its
// amount is the selection's total (card chosen when there is one), so the usual request is: submit.
// The checks are the machine's (withdrawRequestError, which the server runs too) inside the form's
// valibot schema, in the order a member fixes them; the task check shows under the task table (with
// what to do), the others under the lines. Submit sends requestWithdraw once at a time;
// '申请成功' (or the server's msg) closes the dialog, a refusal toasts it and keeps the dialog open.
import { taskDisplayId } from '../../../../machines/task.machine';
import { useEffect, useId, useMemo, useState, type JSX } from 'react';
import { useController, useFieldArray, useWatch, type Control, type UseFieldArrayReturn } from 'react-hook-form';
import * as v from 'valibot';
import { amountToCents, withdrawMessages, withdrawRequestError } from '../../../../machines/withdraw.machine';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, FormError, SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useRemote } from '../../lib/use-remote';
import { useAppContext } from '../../app/app-context';
import { loadWithdrawableApplies, requestWithdraw, type BankCard, type PaymentApply, type WithdrawSubmitRequest } from './withdraw-api';
import { formatCents, fromCents, toCents } from '../../../../machines/cents';
import { cardLabel } from './withdraw-rules';
import { ApplicationsTable } from './applications-table';
import { useSaveOnce } from '../../lib/use-save-once';

const t = zh.withdraw.dialog;

export const MAX_NOTE_LENGTH = 500;

export interface RequestLineValues {
  cardId: number | '';
  amount: string;
  userNote: string;
}

export interface RequestValues {
  /** The selected applications (PaymentApply ids). */
  applyIds: number[];
  lines: RequestLineValues[];
}

const EMPTY_LINE: RequestLineValues = { cardId: '', amount: '', userNote: '' };

/** The form's schema for these applications: the shape, then the machine's checks on the whole. */
export function requestSchema(applies: readonly PaymentApply[]) {
  const incomeOf = new Map(applies.map((apply) => [apply.id, toCents(apply.income)]));
  return v.pipe(
    v.object({
      applyIds: v.array(v.number()),
      lines: v.array(
        v.object({
          cardId: v.union([v.literal(''), v.number()]),
          amount: v.string(),
          userNote: v.pipe(v.string(), v.maxLength(MAX_NOTE_LENGTH, t.noteTooLong)),
        }),
      ),
    }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const values = dataset.value;
      const message = withdrawRequestError(
        values.applyIds.map((id) => incomeOf.get(id) ?? 0),
        values.lines.map((line) => ({ cardId: line.cardId === '' ? null : line.cardId, amount: line.amount })),
      );
      if (message === null) return;
      // The task check belongs to the task table, every other one to the lines.
      const key = message === withdrawMessages.taskRequired ? 'applyIds' : 'lines';
      addIssue({ message, path: [{ type: 'object', origin: 'value', input: values, key, value: values[key] }] });
    }),
  );
}

/** The call's body for checked values: amounts from their cents, notes only when written. */
export function requestBody(values: RequestValues, applies: readonly PaymentApply[]): WithdrawSubmitRequest {
  const chosen = new Set(values.applyIds);
  return {
    requests: values.lines.map((line) => {
      const userNote = line.userNote.trim();
      return { cardId: Number(line.cardId), withdrawAmount: fromCents(amountToCents(line.amount) ?? 0), ...(userNote ? { userNote } : {}) };
    }),
    taskIds: applies.filter((apply) => chosen.has(apply.id)).map((apply) => apply.taskId),
  };
}

export interface WithdrawRequestDialogProps {
  /** The member's own cards. */
  cards: readonly BankCard[];
  onClose: () => void;
  /** Called after the request was made. */
  onRequested: () => void;
}

export function WithdrawRequestDialog({ cards, onClose, onRequested }: WithdrawRequestDialogProps): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const [saving, setSaving] = useState(false);
  // Loaded afresh each time the dialog opens: what is withdrawable changes with every request.
  const applies = useRemote('withdrawable', () => loadWithdrawableApplies(api));

  return (
    <Modal
      open
      size="lg"
      onClose={() => {
        if (!saving) onClose();
      }}
      title={t.title}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" form={formId} loading={saving} disabled={applies.data === undefined}>
            {t.submit}
          </Button>
        </>
      }
    >
      {applies.data === undefined ? (
        <p role="status" className="text-slate-500">
          {applies.loading ? t.loading : t.noTasks}
        </p>
      ) : (
        <RequestForm formId={formId} applies={applies.data} cards={cards} onSaving={setSaving} onRequested={onRequested} />
      )}
    </Modal>
  );
}

function RequestForm({
  formId,
  applies,
  cards,
  onSaving,
  onRequested,
}: {
  formId: string;
  applies: readonly PaymentApply[];
  cards: readonly BankCard[];
  onSaving: (saving: boolean) => void;
  onRequested: () => void;
}): JSX.Element {
  const { api } = useAppContext();
  const schema = useMemo(() => requestSchema(applies), [applies]);
  const { saveOnce } = useSaveOnce(onSaving);
  const form = useValibotForm(schema, {
    // Every withdrawable application ticked; one card: it is the line's card already.
    defaultValues: { applyIds: applies.map((apply) => apply.id), lines: [{ ...EMPTY_LINE, cardId: cards.length === 1 ? cards[0]!.id : '' }] },
  });
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  const [applyIds, typedLines] = useWatch({ control: form.control, name: ['applyIds', 'lines'] });

  const incomeOf = new Map(applies.map((apply) => [apply.id, toCents(apply.income)]));
  const taskCents = (applyIds ?? []).reduce((sum, id) => sum + (incomeOf.get(id) ?? 0), 0);
  // One line: its amount is the selection's total, kept so as the selection changes.
  const oneLine = lines.fields.length === 1;
  const { setValue, getValues } = form;
  useEffect(() => {
    if (!oneLine) return;
    const amount = taskCents > 0 ? formatCents(taskCents) : '';
    if (getValues('lines.0.amount') !== amount) setValue('lines.0.amount', amount, { shouldDirty: true });
  }, [oneLine, taskCents, getValues, setValue]);
  const lineCents = (typedLines ?? []).reduce((sum, line) => sum + (amountToCents(line?.amount) ?? 0), 0);
  const errors = form.formState.errors;
  const taskProblem = errors.applyIds?.message;
  const lineProblem = errors.lines?.root?.message ?? errors.lines?.message;

  const submit = (values: RequestValues) =>
    saveOnce(async () => {
      const outcome = await requestWithdraw(api, requestBody(values, applies));
      if (outcome.ok) {
        toast.success(outcome.msg || zh.withdraw.requested);
        onRequested();
      } else {
        toast.error(outcome.msg || zh.withdraw.failed);
      }
    });

  return (
    <Form id={formId} form={form} onSubmit={(values) => void submit(values)} className="flex flex-col gap-4">
      <section className="flex flex-col gap-2">
        <h3 className="text-sm font-medium text-slate-700">{t.tasks}</h3>
        {applies.length > 1 && <p className="text-xs text-slate-500">{t.allChosen}</p>}
        <TaskPicker control={form.control} applies={applies} />
        <p className="text-sm font-medium text-slate-800 tabular-nums">{t.taskTotal(formatCents(taskCents))}</p>
        <FormError message={taskProblem && t.taskRequired(taskProblem)} />
      </section>

      <PayoutLines lines={lines} cards={cards} lineCents={lineCents} />

      <FormError message={lineProblem} />
    </Form>
  );
}

/** The lines the money is paid out in: a card, an amount and a note each, and their total. */
function PayoutLines({
  lines,
  cards,
  lineCents,
}: {
  lines: UseFieldArrayReturn<RequestValues, 'lines'>;
  cards: readonly BankCard[];
  lineCents: number;
}): JSX.Element {
  const cardOptions = cards.map((card) => ({ value: card.id, label: cardLabel(card) }));
  return (
    <section className="flex flex-col gap-2">
      <h3 className="text-sm font-medium text-slate-700">{t.lines}</h3>
      {cards.length === 0 && <p className="text-xs text-orange-700">{t.noCards}</p>}
      {lines.fields.map((line, index) => (
        <fieldset
          key={line.id}
          aria-label={t.line(index + 1)}
          className="grid grid-cols-1 items-start gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[2fr_1fr_2fr_auto]"
        >
          <SelectField<RequestValues, `lines.${number}.cardId`, number> name={`lines.${index}.cardId`} label={t.card} options={cardOptions} />
          <TextField<RequestValues, `lines.${number}.amount`> name={`lines.${index}.amount`} label={t.amount} inputMode="decimal" autoComplete="off" />
          <TextField<RequestValues, `lines.${number}.userNote`>
            name={`lines.${index}.userNote`}
            label={t.note}
            maxLength={MAX_NOTE_LENGTH}
            autoComplete="off"
          />
          <Button variant="link" className="text-red-600 sm:pt-7" aria-label={t.removeLineNamed(index + 1)} onClick={() => lines.remove(index)}>
            {t.removeLine}
          </Button>
        </fieldset>
      ))}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="secondary" size="sm" onClick={() => lines.append({ ...EMPTY_LINE })}>
          {t.addLine}
        </Button>
        <p className="text-sm font-medium text-slate-800 tabular-nums">{t.lineTotal(formatCents(lineCents))}</p>
      </div>
    </section>
  );
}

/** The withdrawable applications with a checkbox each (and one for all); the selection is the form's applyIds. */
function TaskPicker({ control, applies }: { control: Control<RequestValues>; applies: readonly PaymentApply[] }): JSX.Element {
  const { field } = useController({ control, name: 'applyIds' });
  const chosen = new Set(field.value);
  if (applies.length === 0) return <p className="text-sm text-slate-500">{t.noTasks}</p>;
  const all = applies.every((apply) => chosen.has(apply.id));
  const set = (ids: Iterable<number>) => field.onChange(applies.map((apply) => apply.id).filter((id) => new Set(ids).has(id)));
  return (
    <div className="max-h-64 overflow-y-auto rounded-md border border-slate-200">
      <ApplicationsTable
        applies={applies}
        caption={t.tasksCaption}
        rowClassName={(apply) => (chosen.has(apply.id) ? 'bg-blue-50' : undefined)}
        before={{
          className: 'w-10 px-3 py-2 text-center',
          header: (
            <input
              type="checkbox"
              aria-label={t.selectAll}
              checked={all}
              onChange={() => set(all ? [] : applies.map((apply) => apply.id))}
              className="size-4 rounded border-slate-300 align-middle"
            />
          ),
          cell: (apply) => (
            <input
              type="checkbox"
              aria-label={t.selectTask(taskDisplayId(apply))}
              checked={chosen.has(apply.id)}
              onChange={(e) => set(e.target.checked ? [...chosen, apply.id] : [...chosen].filter((id) => id !== apply.id))}
              className="size-4 rounded border-slate-300 align-middle"
            />
          ),
        }}
      />
    </div>
  );
}
