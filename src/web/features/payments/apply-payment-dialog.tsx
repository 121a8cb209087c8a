// Applying for payment of a task (SPEC §2 /user/my-task, §4 "user applies (locked tasks only, unless
// an application exists, then a disabled 'already applied' button shows)", §5 bonus 0 if empty).
// <ApplyPaymentDialog>: the amounts, a bonus and a note, the income it leads to (incomeCents, in
// cents); POST /api/trade/user/pay/apply, or for a partly arrived task (mode 'arrived', decision 053)
// /api/trade/user/pay/apply-arrived, which splits the arrived units off and applies for them in one
// step. '申请成功' closes it; a refusal toasts the server's msg and keeps it open.
// <ApplyPaymentScope> holds one table's apply state (useApplyState) and its dialog; <ApplyPaymentCell>
// shows '申请付款' (task.apply, or canApplyForArrived with a hint), a disabled '已申请付款', or nothing.
import { taskDisplayId } from '../../../../machines/task.machine';
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
import { fromCents, moneyTextToCents } from '../../../../machines/cents';
import { bonusText } from './payment-rules';
import { applyPayment, applyPaymentForArrived, type PayApplyRequest, type Task } from './payments-api';
import { useApplyState, type ApplyTaskFacts } from './use-apply-state';

const t = zh.payments.apply;
const ta = zh.payments.applyArrived;

export const NOTE_MAX = 1000;

const applySchema = v.object({
  bonus: bonusText,
  note: v.pipe(v.string(), v.trim(), v.maxLength(NOTE_MAX, t.noteTooLong)),
});
type ApplyInput = v.InferInput<typeof applySchema>;
type ApplyValues = v.InferOutput<typeof applySchema>;

/** The apply call's body: a blank bonus is 0 (SPEC §5). */
export function applyBody(taskId: number, values: ApplyValues): PayApplyRequest {
  const bonus = values.bonus === '' ? 0 : fromCents(moneyTextToCents(values.bonus));
  return { taskId, bonus, note: values.note };
}

export type ApplyTask = Pick<Task, 'id' | 'mainId' | 'subId' | 'itemName' | 'buyIn' | 'count' | 'productCount' | 'punish'>;

/** 'all': the task as it is (locked); 'arrived': its arrived units, split off into a sub-task first. */
export type ApplyMode = 'all' | 'arrived';

export interface ApplyPaymentDialogProps {
  /** The task applied for (nothing is shown while it is null). */
  task: ApplyTask | null;
  mode?: ApplyMode;
  open: boolean;
  onClose: () => void;
  /** Called after the application was made. */
  onApplied: () => void;
  /** Called after the server refused it (the task may have an application by now). */
  onRefused?: () => void;
}

export function ApplyPaymentDialog({ task, mode = 'all', open, onClose, onApplied, onRefused }: ApplyPaymentDialogProps): JSX.Element | null {
  if (!open || task === null) return null;
  return <OpenApplyDialog key={`${mode}:${task.id}`} task={task} mode={mode} onClose={onClose} onApplied={onApplied} onRefused={onRefused} />;
}

function OpenApplyDialog({
  task,
  mode,
  onClose,
  onApplied,
  onRefused,
}: Omit<ApplyPaymentDialogProps, 'task' | 'open'> & { task: ApplyTask; mode: ApplyMode }): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const [saving, setSaving] = useState(false);
  const form = useValibotForm(applySchema, { defaultValues: { bonus: '', note: '' } });
  const typed = useWatch({ control: form.control, name: 'bonus' }) ?? '';

  /** The call of the mode; the words of its success ('申请成功', or the sub-task it applied for), or null on a refusal (toasted). */
  async function send(body: PayApplyRequest): Promise<string | null> {
    if (mode === 'arrived') {
      const outcome = await applyPaymentForArrived(api, body);
      // The answer names the original task, then the sub-task applied for.
      const sub = outcome.ok ? outcome.data.tasks?.[1] : undefined;
      if (outcome.ok) return sub ? ta.success(taskDisplayId(sub)) : zh.payments.applySuccess;
      toast.error(outcome.msg || zh.payments.failed);
      return null;
    }
    const outcome = await applyPayment(api, body);
    if (outcome.ok) return zh.payments.applySuccess;
    toast.error(outcome.msg || zh.payments.failed);
    return null;
  }

  async function submit(values: ApplyValues) {
    setSaving(true);
    try {
      const done = await send(applyBody(task.id, values));
      if (done === null) {
        onRefused?.();
        return;
      }
      toast.success(done);
      onApplied();
      onClose();
    } finally {
      setSaving(false);
    }
  }

  const bonusCents = typed.trim() === '' ? 0 : moneyTextToCents(typed);
  // The sub-task of a split keeps no discount: the claim's stays with the original task.
  const punish = mode === 'arrived' ? 0 : task.punish;
  const income = incomePreview({ buyIn: task.buyIn, count: task.productCount, punish }, bonusCents);

  return (
    <PaymentDialogFrame
      title={mode === 'arrived' ? ta.title : t.title}
      subject={t.subject(taskDisplayId(task), task.itemName)}
      formId={formId}
      saving={saving}
      cancelLabel={t.cancel}
      submitLabel={t.submit}
      onClose={onClose}
    >
      <Form id={formId} form={form} onSubmit={(values) => void submit(values)} className="flex flex-col gap-3">
        {mode === 'arrived' ? (
          <>
            <p className="text-slate-700">{ta.explain(task.productCount, task.count - task.productCount)}</p>
            <p className="text-slate-600 tabular-nums">{ta.basis(formatMoney(task.buyIn), task.productCount)}</p>
          </>
        ) : (
          <p className="text-slate-600 tabular-nums">{t.basis(formatMoney(task.buyIn), task.productCount, formatMoney(task.punish))}</p>
        )}
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
  open: (task: ScopeTask, mode: ApplyMode) => void;
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
  const [applying, setApplying] = useState<{ task: ScopeTask; mode: ApplyMode } | null>(null);
  const { stateOf, reload } = state;
  const open = useCallback((task: ScopeTask, mode: ApplyMode) => setApplying({ task, mode }), []);
  const controller = useMemo(() => ({ stateOf, open }), [stateOf, open]);
  return (
    <ApplyContext.Provider value={controller}>
      {children}
      <ApplyPaymentDialog
        task={applying?.task ?? null}
        mode={applying?.mode}
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

/** The payment button of one task row: '申请付款' (of the task, or of its arrived units), a disabled '已申请付款', or nothing. */
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
  if (state === 'applyArrived') {
    return (
      <Button
        variant="link"
        aria-label={ta.buttonNamed(taskDisplayId(task))}
        title={ta.hint(task.productCount, task.count)}
        onClick={() => controller.open(task, 'arrived')}
      >
        {ta.button}
      </Button>
    );
  }
  return (
    <Button variant="link" aria-label={t.buttonNamed(taskDisplayId(task))} onClick={() => controller.open(task, 'all')}>
      {t.button}
    </Button>
  );
}
