// What the payment screens offer and how they read money (SPEC §2, §4 "Payment application status",
// §5 "Payment apply bonus"; DECISIONS "Money"). machines/payment.machine.ts owns the rules: a row's
// buttons are the events the machine accepts in the row's status, through the same `allowedEvents`
// the server's `decide` reads, so a button shows exactly when the server would accept it:
// - the member: 'collect' (pay.collect, status paid) on /user/apply-list;
// - the admin side: 'agree' (pay.agree, applied) and 'confirm' (pay.confirm, withdrawing).
// The apply button of /user/my-task is the task machine's task.apply (a locked task), or its
// canApplyForArrived (a partly arrived task), unless the task has an application (use-apply-state.ts).
//
// Money is typed and compared in integer cents, never summed as floats.
import { moneyTextToCents } from '../../../../machines/cents';
import * as v from 'valibot';
import { paymentMachine, type PaymentEvent, type PaymentStatus } from '../../../../machines/payment.machine';
import { allowedEvents } from '../../../../machines/stored-state';
import { taskMachine, type TaskStatus } from '../../../../machines/task.machine';
import { zh } from '../../i18n/zh';

export type PaymentAction = 'collect' | 'agree' | 'confirm';

export const PAYMENT_ACTION_EVENTS = {
  collect: { type: 'pay.collect' },
  agree: { type: 'pay.agree' },
  confirm: { type: 'pay.confirm' },
} as const satisfies Record<PaymentAction, PaymentEvent>;

/** Which side offers which actions, in the order a row shows them. */
export const MEMBER_PAYMENT_ACTIONS: readonly PaymentAction[] = ['collect'];
export const ADMIN_PAYMENT_ACTIONS: readonly PaymentAction[] = ['agree', 'confirm'];

/** The actions of `offered` the payment machine accepts for a row in `status`. */
export function paymentActions(status: PaymentStatus, offered: readonly PaymentAction[]): PaymentAction[] {
  const allowed = new Set<PaymentEvent>(
    allowedEvents(
      paymentMachine,
      status,
      {},
      offered.map((action) => PAYMENT_ACTION_EVENTS[action]),
    ),
  );
  return offered.filter((action) => allowed.has(PAYMENT_ACTION_EVENTS[action]));
}

/** Whether the task machine lets the member apply for payment of the task (locked only). */
export function canApplyForPayment(task: { status: TaskStatus; productCount: number; canSplit: boolean }): boolean {
  return allowedEvents(taskMachine, task.status, { productCount: task.productCount, canSplit: task.canSplit }, [{ type: 'task.apply' }]).length > 0;
}

/**
 * A bonus field (SPEC §5): blank, or a number of at least 0 with at most two places. What blank
 * means is the caller's: 0 when applying, "keep the original" when the admin agrees.
 */
export const bonusText = v.pipe(
  v.string(),
  v.trim(),
  v.check((text) => text === '' || Number.isFinite(moneyTextToCents(text)), zh.payments.bonusInvalid),
);
