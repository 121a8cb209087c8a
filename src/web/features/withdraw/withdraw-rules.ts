// What the withdraw screens offer and how they reckon money (SPEC §4 "Withdraw status", §5
// "Withdraw request"; DECISIONS "Money"). machines/withdraw.machine.ts owns the rules: a row's
// buttons are the events the machine accepts for the row's status and cancelFlag, through the same
// `allowedEvents` the server's `decide` reads, so a button shows exactly when the server would
// accept it:
// - the member (/user/withdraw-request): change card (wd.changeCard, waited), request cancel
//   (wd.requestCancel, waited while cancelFlag is set), mark paid (wd.pay, waited);
// - the admin (/admin/withdraw-list): agree cancel and reject cancel (requestedCancel), mark paid
//   (waited).
// Money is summed in integer cents only: typed amounts through the machine's amountToCents, amounts
// that come from the server (two places at most) through machines/cents.ts toCents.
import { paymentMachine, type PaymentStatus } from '../../../../machines/payment.machine';
import { paymentTypeLabel } from '../../../../machines/bank-card';
import { allowedEvents } from '../../../../machines/stored-state';
import { PAID_WITHDRAW_STATUS, WITHDRAW_STATUSES, withdrawMachine, type WithdrawEvent, type WithdrawStatus } from '../../../../machines/withdraw.machine';
import { zh } from '../../i18n/zh';

export type WithdrawAction = 'changeCard' | 'requestCancel' | 'pay' | 'agreeCancel' | 'rejectCancel';

/** The event each action is, for the side that offers it. */
const MEMBER_EVENTS = {
  changeCard: { type: 'wd.changeCard' },
  requestCancel: { type: 'wd.requestCancel' },
  pay: { type: 'wd.pay', by: 'user' },
} as const satisfies Partial<Record<WithdrawAction, WithdrawEvent>>;

const ADMIN_EVENTS = {
  agreeCancel: { type: 'wd.agreeCancel' },
  rejectCancel: { type: 'wd.rejectCancel' },
  pay: { type: 'wd.pay', by: 'admin' },
} as const satisfies Partial<Record<WithdrawAction, WithdrawEvent>>;

export type WithdrawSide = 'member' | 'admin';
const EVENTS_BY_SIDE: Record<WithdrawSide, Partial<Record<WithdrawAction, WithdrawEvent>>> = { member: MEMBER_EVENTS, admin: ADMIN_EVENTS };

/** The actions `side` offers on a line, in the order a row shows them. */
export function withdrawActions(line: { status: WithdrawStatus; cancelFlag: boolean }, side: WithdrawSide): WithdrawAction[] {
  const offered = Object.entries(EVENTS_BY_SIDE[side]) as Array<[WithdrawAction, WithdrawEvent]>;
  const allowed = new Set(
    allowedEvents(
      withdrawMachine,
      line.status,
      { cancelFlag: line.cancelFlag },
      offered.map(([, event]) => event),
    ),
  );
  return offered.filter(([, event]) => allowed.has(event)).map(([action]) => action);
}

/**
 * A paid line offers 确认收款: its order's applications, paid once every line of the order is,
 * wait for the member to confirm receipt (the payment machine's pay.collect, canCollect).
 */
export function mayConfirmReceipt(line: { status: WithdrawStatus }): boolean {
  return line.status === PAID_WITHDRAW_STATUS;
}

/** The payment machine lets the member confirm receipt of this application (pay.collect). */
export function canCollect(apply: { status: PaymentStatus }): boolean {
  return allowedEvents(paymentMachine, apply.status, {}, [{ type: 'pay.collect' }]).length > 0;
}

/** The admin may mark the line paid (wd.pay): the rows the bulk pay and the payment file may choose. */
export function adminMayPay(line: { status: WithdrawStatus; cancelFlag: boolean }): boolean {
  return withdrawActions(line, 'admin').includes('pay');
}

// ---------------------------------------------------------------- labels

/** How a card reads in a select: id, type, masked number and holder. */
export function cardLabel(card: { id: number; paymentType: string; cardNo: string; accountName: string }): string {
  return zh.withdraw.cardLabel(card.id, paymentTypeLabel(card.paymentType), card.cardNo, card.accountName);
}

/** The status filter's choices (SPEC §4), in the machine's order. */
export const WITHDRAW_STATUS_OPTIONS = WITHDRAW_STATUSES.map((status) => ({ value: status, label: zh.withdraw.status[status] }));
