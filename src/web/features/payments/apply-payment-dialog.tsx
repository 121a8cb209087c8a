// Applying for payment of a task (SPEC §2 /user/my-task "payment-application dialog", §4 "user
// applies (locked tasks only, unless an application exists, then a disabled 'already applied'
// button shows)", §5 "Payment apply bonus: a number, 0 if empty"; DECISIONS "Money").
//
// - <ApplyPaymentDialog>: the task's amounts, a bonus (blank is 0) and a note; POST
//   /api/trade/user/pay/apply {taskId, bonus, note}. The income it leads to (buyIn x arrived units +
//   bonus - discount, never below 0) is shown as the bonus is typed, reckoned in cents with the
//   server's own incomeCents. '申请成功' (SPEC §8) closes it; a refusal toasts the server's msg
//   (e.g. '该任务已申请付款') and keeps it open.
// - <ApplyPaymentScope tasks={...} onApplied={...}> holds one table's apply state (useApplyState:
//   one call for the page's tasks) and its dialog; <ApplyPaymentCell task={...} /> in a row shows
//   the enabled '申请付款' (the task machine accepts task.apply), the disabled '已申请付款' (an
//   application exists) or nothing. So a table's columns can stay at module scope.
import { createContext, useCallback, useContext, useId, useMemo, useState, type JSX, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { Form, TextArea, TextField, useValibotForm } from '../../components/ui/form';
import { formatMoney } from '../../components/ui/format';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { PaymentDialogFrame, incomePreview } from './payment-dialog-frame';
import { bonusText, centsToAmount, moneyTextToCents, paymentTaskLabel } from './payment-rules';
import { applyPayment, type PayApplyRequest, type Task } from './payments-api';
import { useApplyState, type ApplyTaskFacts } from './use-apply-state';

const t = zh.payments.apply;

export const NOTE_MAX = 1000;

const applySchema = v.object({
  bonus: bonusText,
  note: v.pipe(v.string(), v.trim(), v.maxLength(NOTE_MAX, t.noteTooLong)),
});
type ApplyInput = v.InferInput<typeof applySchema>;
type ApplyValues = v.InferOutput<typeof applySchema>;

/** The apply call's body: a blank bonus is 0 (SPEC §5). */
export function applyBody(taskId: number, values: ApplyValues): PayApplyRequest {
  const bonus = values.bonus === '' ? 0 : centsToAmount(moneyTextToCents(values.bonus));
  return { taskId, bonus, note: values.note };
}

export type ApplyTask = Pick<Task, 'id' | 'mainId' | 'subId' | 'itemName' | 'buyIn' | 'productCount' | 'punish'>;

export interface ApplyPaymentDialogProps {
  /** The task applied for (nothing is shown while it is null). */
  task: ApplyTask | null;
  open: boolean;
  onClose: () => void;
  /** Called after the application was made. */
  onApplied: () => void;
  /** Called after the server refused it (the task may have an application by now). */
  onRefused?: () => void;
}

export function ApplyPaymentDialog({ task, open, onClose, onApplied, onRefused }: ApplyPaymentDialogProps): JSX.Element | null {
  if (!open || task === null) return null;
  return <OpenApplyDialog key={task.id} task={task} onClose={onClose} onApplied={onApplied} onRefused={onRefused} />;
}

function OpenApplyDialog({ task, onClose, onApplied, onRefused }: Omit<ApplyPaymentDialogProps, 'task' | 'open'> & { task: ApplyTask }): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const [saving, setSaving] = useState(false);
  const form = useValibotForm(applySchema, { defaultValues: { bonus: '', note: '' } });
  const typed = useWatch({ control: form.control, name: 'bonus' }) ?? '';

  async function submit(values: ApplyValues) {
    setSaving(true);
    try {
      const outcome = await applyPayment(api, applyBody(task.id, values));
      if (outcome.ok) {
        toast.success(zh.payments.applySuccess);
        onApplied();
        onClose();
      } else {
        toast.error(outcome.msg || zh.payments.failed);
        onRefused?.();
      }
    } finally {
      setSaving(false);
    }
  }

  const bonusCents = typed.trim() === '' ? 0 : moneyTextToCents(typed);
  const income = incomePreview({ buyIn: task.buyIn, count: task.productCount, punish: task.punish }, bonusCents);

  return (
    <PaymentDialogFrame
      title={t.title}
      subject={t.subject(paymentTaskLabel(task), task.itemName)}
      formId={formId}
      saving={saving}
      cancelLabel={t.cancel}
      submitLabel={t.submit}
      onClose={onClose}
    >
      <Form id={formId} form={form} onSubmit={(values) => void submit(values)} className="flex flex-col gap-3">
        <p className="text-slate-600 tabular-nums">{t.basis(formatMoney(task.buyIn), task.productCount, formatMoney(task.punish))}</p>
        <TextField<ApplyInput, 'bonus'> name="bonus" label={t.bonus} inputMode="decimal" autoComplete="off" placeholder="0.00" hint={t.bonusHint} />
        <TextArea<ApplyInput, 'note'> name="note" label={t.note} rows={3} maxLength={NOTE_MAX} />
        {income && <p className="text-sm font-medium text-slate-800 tabular-nums">{t.expected(income)}</p>}
      </Form>
    </PaymentDialogFrame>
  );
}

// ---------------------------------------------------------------- a table's apply buttons

type ScopeTask = ApplyTask & ApplyTaskFacts;

interface ApplyController {
  stateOf: ReturnType<typeof useApplyState>['stateOf'];
  open: (task: ScopeTask) => void;
}

const ApplyContext = createContext<ApplyController | null>(null);

export interface ApplyPaymentScopeProps {
  /** The tasks the table shows (the page's rows): asked about in one call. */
  tasks: readonly ScopeTask[];
  /** Reloads the table (after an application the task has moved on to processing). */
  onApplied: () => void;
  children: ReactNode;
}

export function ApplyPaymentScope({ tasks, onApplied, children }: ApplyPaymentScopeProps): JSX.Element {
  const state = useApplyState(tasks.map((task) => task.id));
  const [applying, setApplying] = useState<ScopeTask | null>(null);
  const { stateOf, reload } = state;
  const open = useCallback((task: ScopeTask) => setApplying(task), []);
  const controller = useMemo(() => ({ stateOf, open }), [stateOf, open]);
  return (
    <ApplyContext.Provider value={controller}>
      {children}
      <ApplyPaymentDialog
        task={applying}
        open={applying !== null}
        onClose={() => setApplying(null)}
        onApplied={() => {
          reload();
          onApplied();
        }}
        onRefused={reload}
      />
    </ApplyContext.Provider>
  );
}

/** The payment button of one task row: '申请付款', a disabled '已申请付款', or nothing. */
export function ApplyPaymentCell({ task }: { task: ScopeTask }): JSX.Element | null {
  const controller = useContext(ApplyContext);
  if (!controller) throw new Error('ApplyPaymentCell needs an ApplyPaymentScope');
  const state = controller.stateOf(task);
  if (state === 'none') return null;
  if (state === 'applied') {
    return (
      <Button variant="link" disabled>
        {t.applied}
      </Button>
    );
  }
  return (
    <Button variant="link" aria-label={t.buttonNamed(paymentTaskLabel(task))} onClick={() => controller.open(task)}>
      {t.button}
    </Button>
  );
}
