/**
 * A payment application, from the member's apply to their confirmation of receipt (SPEC §4
 * "Payment application status"; DECISIONS "Money"). The one place these rules live (the transitions
 * and decisions at paymentMachine): the buttons of /user/my-task, /user/apply-list and
 * /admin/apply-list come from `allowedEvents`, and the server applies every change through `decide`
 * with this machine, refusing what it refuses with the message the UI would show.
 */
import { emit, setup } from 'xstate';
import type { TaskEvent } from './task.machine';
import { PAYMENT_STATUSES, type PaymentStatus } from './payment.statuses';
import { decide, statesAllowing } from './stored-state';

export { PAYMENT_STATUSES, type PaymentStatus };
/** An application waiting for the admin's agree (the admin home's count, /admin/apply-list?status=). */
export const AWAITING_AGREE_PAYMENT_STATUS = 'applied' satisfies PaymentStatus;
/** A new application's status: the machine's first state (the member has applied). */
export const NEW_PAYMENT_STATUS = AWAITING_AGREE_PAYMENT_STATUS;
/** Every status after the admin side's agree: the application's bonus is then the agreed one. */
export const AGREED_PAYMENT_STATUSES: readonly PaymentStatus[] = PAYMENT_STATUSES.filter((s) => s !== AWAITING_AGREE_PAYMENT_STATUS);
/**
 * The bonus of an application as a member's task row shows it (decision 106): the one asked for,
 * and the one agreed to - null until the admin side has agreed.
 */
export function applicationBonuses<T>(a: { status: PaymentStatus; askedBonus: T; bonus: T }): { askedBonus: T; agreedBonus: T | null } {
  return { askedBonus: a.askedBonus, agreedBonus: AGREED_PAYMENT_STATUSES.includes(a.status) ? a.bonus : null };
}
/** An application paid, waiting for its member to confirm receipt (pay.collect; the withdrawal page asks for these). */
export const AWAITING_RECEIPT_PAYMENT_STATUS = 'paid' satisfies PaymentStatus;

/** Applications the admin side has paid out (paid, and paid then confirmed by the member): the member home's 已付款 total. */
export const PAID_PAYMENT_STATUSES: readonly PaymentStatus[] = [AWAITING_RECEIPT_PAYMENT_STATUS, 'collected'];

/** Nothing beyond the status decides a payment event; the machine keeps no context. */
export type PaymentContext = Record<string, never>;

export type PaymentEvent =
  { type: 'pay.agree' } | { type: 'pay.withdraw' } | { type: 'pay.release' } | { type: 'pay.paid' } | { type: 'pay.confirm' } | { type: 'pay.collect' };

export const paymentMessages = {
  applied: '申请成功',
  alreadyApplied: '该任务已申请付款',
  agreeAppliedOnly: '只有已申请的记录可以同意',
  withdrawAgreedOnly: '只有已同意的付款申请可以提现',
  releaseWithdrawingOnly: '该付款申请不在提现中',
  confirmWithdrawingOnly: '只有提现中的付款申请可以确认付款',
  collectPaidOnly: '只有已付款的记录可以确认收款',
  notFound: '付款申请不存在',
} as const;

/**
 *   applied --pay.agree (admin, optional new bonus)--> agreed
 *   agreed --pay.withdraw (the member puts it in a withdraw request)--> withdrawing
 *   withdrawing --pay.release (its withdraw order is cancelled)--> agreed
 *   withdrawing --pay.paid (every line of its withdraw order is paid)--> paid, emits task.pay
 *   withdrawing --pay.confirm (admin confirms payment, /admin/apply-list)--> paid, emits task.pay
 *
 * What it emits follows in the server's lifecycle store (src/server/entities/payment.ts delivers
 * task.pay to the application's task, whose machine sends record.pay on to its parcels).
 *   paid --pay.collect (the member confirms receipt)--> collected
 *
 * Decisions (DECISIONS "Money"):
 * - One application per task, and only for a locked task (the task machine's task.apply; the task
 *   then moves to processing, and to finished when the application is paid).
 * - The admin's "confirm payment" is for money that reached the member for an application already
 *   in a withdraw request (DECISIONS: withdrawing -> paid by withdraw paid, or admin pay/confirm).
 *   It is not offered on agreed rows: an agreed application is part of the member's balance, and
 *   paying it outside a withdraw would let the member withdraw it a second time. Once it is
 *   confirmed, its withdraw order can no longer be cancelled (payment has started).
 * - The balance is the income of the member's agreed applications (none of them is in a live
 *   withdraw: that is what withdrawing means).
 */
export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    emitted: {} as TaskEvent,
  },
  actions: {
    // Paid (by its withdraw or the admin's confirm): its task is paid too. `cause` names the payment
    // event, which the task's parcels are audited with (task.machine's record.pay).
    payTask: emit(({ event }) => ({ type: 'task.pay', cause: event.type }) as TaskEvent),
  },
}).createMachine({
  id: 'payment',
  context: {},
  initial: 'applied',
  states: {
    applied: { on: { 'pay.agree': 'agreed' } },
    agreed: { on: { 'pay.withdraw': 'withdrawing' } },
    withdrawing: {
      on: { 'pay.release': 'agreed', 'pay.paid': { target: 'paid', actions: 'payTask' }, 'pay.confirm': { target: 'paid', actions: 'payTask' } },
    },
    paid: { on: { 'pay.collect': 'collected' } },
    collected: {},
  },
});

/** Does an application in `status` take `event`? (The machine's answer; the server's moves ask decide through the lifecycle store, entities/payment.ts.) */
export const paymentAccepts = (status: PaymentStatus, event: PaymentEvent): boolean => decide(paymentMachine, status, {}, event, explainPaymentRefusal).ok;

/** The applications a withdraw request may take (pay.withdraw: agreed); with no live withdraw holding them, the member's balance. */
export const WITHDRAWABLE_PAYMENT_STATUSES: readonly PaymentStatus[] = statesAllowing(paymentMachine, PAYMENT_STATUSES, {}, { type: 'pay.withdraw' });

/** The message for a refused payment event. */
export function explainPaymentRefusal(_status: PaymentStatus, _context: PaymentContext, event: PaymentEvent): string {
  switch (event.type) {
    case 'pay.agree':
      return paymentMessages.agreeAppliedOnly;
    case 'pay.withdraw':
      return paymentMessages.withdrawAgreedOnly;
    case 'pay.release':
      return paymentMessages.releaseWithdrawingOnly;
    case 'pay.paid':
    case 'pay.confirm':
      return paymentMessages.confirmWithdrawingOnly;
    case 'pay.collect':
      return paymentMessages.collectPaidOnly;
  }
}

/**
 * A task's income in cents (DECISIONS "Money"): buyIn x productCount (units that arrived and
 * matched) + bonus - punish. Never below zero: a punishment larger than the earnings leaves nothing
 * to pay, not a debt.
 */
export function incomeCents(a: { buyIn: number; count: number; bonus: number; punish: number }): number {
  return Math.max(0, a.buyIn * a.count + a.bonus - a.punish);
}
