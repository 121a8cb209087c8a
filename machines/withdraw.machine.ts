/**
 * A withdraw line: the amount of one withdraw order paid to one card (SPEC §4 "Withdraw status";
 * DECISIONS "Money"). The one place these rules live (the transitions at withdrawMachine; the
 * order's at withdraw-order.machine.ts): /user/withdraw-request and /admin/withdraw-list offer the buttons
 * `allowedEvents` allows, and the server applies every status change through `decide` with this
 * machine, refusing what it refuses with its message.
 */
import { moneyTextToCents } from './cents';
import { setup } from 'xstate';
import { cardMessages } from './bank-card';
import { decide, type Decision } from './stored-state';
import { AWAITING_PAY_WITHDRAW_STATUS, WITHDRAW_STATUSES, type WithdrawStatus } from './withdraw.statuses';

export { AWAITING_PAY_WITHDRAW_STATUS, WITHDRAW_STATUSES, type WithdrawStatus };
/** A paid line: its member may confirm receipt of the applications its order paid (pay.collect). */
export const PAID_WITHDRAW_STATUS = 'paid' satisfies WithdrawStatus;
/** A line whose member asked to cancel, waiting for the admin's agree or reject. */
export const CANCEL_REQUESTED_WITHDRAW_STATUS = 'requestedCancel' satisfies WithdrawStatus;

export interface WithdrawContext {
  /** True while the member may still request cancel (payment of the order has not started). */
  cancelFlag: boolean;
}

export type WithdrawEvent =
  | { type: 'wd.pay'; by: 'user' | 'admin' }
  | { type: 'wd.requestCancel' }
  | { type: 'wd.agreeCancel' }
  | { type: 'wd.rejectCancel' }
  | { type: 'wd.changeCard' };

/**
 * - open: the line may still be paid (waited, or its cancel asked and not yet answered): its card
 *   cannot be unbound (cards.ts).
 * - live: the line is part of its order's money (every status but canceled): the order's
 *   state and "all paid" read these (withdraw-order.machine.ts).
 */
export type WithdrawTag = 'open' | 'live';

export const withdrawMessages = {
  // SPEC §5 (the request dialog and change card).
  taskRequired: '请填写需要提现的任务',
  cardRequired: '请填写银行卡',
  amountRequired: '请填写金额，金额必须为数字',
  sumMismatch: '"提现合计"必须与"任务合计"金额相同',
  changeCardRequired: '请要更换的银行卡',
  // Decided (DECISIONS "Money").
  cardOnce: '同一张银行卡只能填写一次',
  payWaitedOnly: '只有待付款的提现可以标记为已付款',
  cancelNotAllowed: '该提现已开始付款，不能取消',
  agreeCancelOnly: '只有申请取消的提现可以同意或拒绝取消',
  changeCardWaitedOnly: '只有待付款的提现可以更换银行卡',
  notFound: '提现记录不存在',
  cardNotFound: cardMessages.notFound,
  taskNotWithdrawable: '所选任务中有不可提现的任务',
  requested: '提交成功',
} as const;

/**
 *   waited --wd.pay (the member or an admin marks it paid; admin Excel confirm)--> paid
 *   waited --wd.requestCancel (member, while cancelFlag is set)--> requestedCancel
 *   requestedCancel --wd.agreeCancel (admin)--> canceled
 *   requestedCancel --wd.rejectCancel (admin)--> waited
 *   waited --wd.changeCard (member)--> waited
 *
 * The order-level rules (cancel per order, cancelFlag cleared once payment starts, every live line
 * paid -> the applications paid, cancelled -> released) are the order's own machine,
 * withdraw-order.machine.ts, which sends each line these events.
 */
export const withdrawMachine = setup({
  types: {
    context: {} as WithdrawContext,
    events: {} as WithdrawEvent,
    input: {} as WithdrawContext,
    tags: {} as WithdrawTag,
  },
  guards: {
    mayCancel: ({ context }) => context.cancelFlag,
  },
}).createMachine({
  id: 'withdraw',
  context: ({ input }) => input,
  initial: 'waited',
  states: {
    waited: {
      tags: ['open', 'live'],
      on: {
        'wd.pay': 'paid',
        'wd.requestCancel': { guard: 'mayCancel', target: 'requestedCancel' },
        'wd.changeCard': 'waited',
      },
    },
    requestedCancel: { tags: ['open', 'live'], on: { 'wd.agreeCancel': 'canceled', 'wd.rejectCancel': 'waited' } },
    paid: { tags: ['live'] },
    canceled: {},
  },
});

/** A new line's status (the machine's first state): waiting to be paid. */
export const NEW_WITHDRAW_STATUS = withdrawMachine.config.initial as WithdrawStatus;

const statusesTagged = (tag: WithdrawTag) =>
  WITHDRAW_STATUSES.filter((status) => withdrawMachine.resolveState({ value: status, context: { cancelFlag: true } }).hasTag(tag));
/** Lines that may still be paid (waited, requestedCancel): a card they pay to stays bound. */
export const OPEN_WITHDRAW_STATUSES: readonly WithdrawStatus[] = statusesTagged('open');
/** Lines that are part of their order's money (all but canceled). */
export const LIVE_WITHDRAW_STATUSES: readonly WithdrawStatus[] = statusesTagged('live');
/** The line counts in its order (not canceled). */
export const isLiveLine = (line: { status: WithdrawStatus }) => LIVE_WITHDRAW_STATUSES.includes(line.status);

/** The machine's verdict on one line (status and cancelFlag) for `event`. */
export const decideWithdrawLine = (line: { status: WithdrawStatus; cancelFlag: boolean }, event: WithdrawEvent): Decision<WithdrawStatus> =>
  decide(withdrawMachine, line.status, { cancelFlag: line.cancelFlag }, event, explainWithdrawRefusal);

/** The message for a refused withdraw event. */
export function explainWithdrawRefusal(_status: WithdrawStatus, _context: WithdrawContext, event: WithdrawEvent): string {
  switch (event.type) {
    case 'wd.pay':
      return withdrawMessages.payWaitedOnly;
    case 'wd.requestCancel':
      return withdrawMessages.cancelNotAllowed;
    case 'wd.agreeCancel':
    case 'wd.rejectCancel':
      return withdrawMessages.agreeCancelOnly;
    case 'wd.changeCard':
      return withdrawMessages.changeCardWaitedOnly;
  }
}

/** A line of the request dialog as typed: the amount is text until checked. */
export interface WithdrawLineInput {
  cardId: number | null | undefined;
  amount: string | number | null | undefined;
}

/** Parses an amount typed in the dialog to cents, or null when it is not a positive number with at most two decimals. */
export function amountToCents(raw: string | number | null | undefined): number | null {
  const cents = moneyTextToCents(String(raw ?? ''));
  return cents > 0 ? cents : null;
}

/**
 * The request dialog's checks (SPEC §5 "Withdraw request"), in the order a member fixes them; the
 * first failure's message, or null. `taskIncomeCents`: the income of the selected applications.
 * The server runs the same checks on the request it receives.
 */
export function withdrawRequestError(taskIncomeCents: number[], lines: WithdrawLineInput[]): string | null {
  if (taskIncomeCents.length === 0) return withdrawMessages.taskRequired;
  if (lines.length === 0) return withdrawMessages.cardRequired;
  for (const line of lines) {
    if (!line.cardId) return withdrawMessages.cardRequired;
    if (amountToCents(line.amount) === null) return withdrawMessages.amountRequired;
  }
  const cards = lines.map((l) => l.cardId);
  if (new Set(cards).size !== cards.length) return withdrawMessages.cardOnce;
  const lineSum = lines.reduce((s, l) => s + amountToCents(l.amount)!, 0);
  const taskSum = taskIncomeCents.reduce((s, c) => s + c, 0);
  if (lineSum !== taskSum) return withdrawMessages.sumMismatch;
  return null;
}
