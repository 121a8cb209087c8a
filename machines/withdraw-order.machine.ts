/**
 * A withdraw order: the lines one request made, one per card (SPEC §3 "Withdraw request"; DECISIONS
 * "Money"; docs/decisions/054-money-through-its-machines.md). Its lines are its context; its state
 * is derived from them (withdrawOrderStateOf), never stored. The one place the order-level rules
 * live: the server (withdraw-service.ts, payment-service.ts confirmPaid) asks `decideWithdrawOrder`
 * and writes what it answers, and the web test fake of the withdraw pages asks the same.
 *
 * Each line's own move is the line machine's (withdraw.machine.ts): an order event is accepted only
 * when every line it names accepts the line event, so a refusal carries that line's message.
 *   waited | paying --order.pay (lines named; member, admin or the Excel confirm)--> paying | paid
 *   waited --order.requestCancel (every line, member, while cancelFlag is set)--> requestedCancel
 *   requestedCancel --order.agreeCancel (admin)--> canceled
 *   requestedCancel --order.rejectCancel (admin)--> waited
 *   any live state --order.confirmApplication (an admin confirmed one of its applications paid)--> the same,
 *     but requestedCancel --> waited: payment has started, so the member's cancel is answered as rejected
 *
 * Rules (decided in DECISIONS "Money"):
 * - payment has started as soon as one line is paid or one of the order's applications is
 *   confirmed paid: cancelFlag is then cleared on every line, and the order cannot be cancelled.
 * - an order whose every live (not canceled) line is paid is paid, and ITS APPLICATIONS ARE PAID:
 *   the order.pay that pays its last line emits pay.paid (applicationEvent; their tasks finished,
 *   their parcels payed).
 * - an order cancelled (agreeCancel) emits pay.release for its applications (back to agreed, the
 *   balance).
 * The server's lifecycle store delivers what it emits (src/server/entities/withdraw-line.ts).
 */
import { and, assign, emit, setup, transition } from 'xstate';
import { emittedBy } from './stored-state';
import type { PaymentEvent } from './payment.machine';
import { decideWithdrawLine, isLiveLine, PAID_WITHDRAW_STATUS, withdrawMessages, type WithdrawEvent, type WithdrawStatus } from './withdraw.machine';

/** What the order machine knows of a line. */
export interface OrderLine {
  id: number;
  status: WithdrawStatus;
  cancelFlag: boolean;
}

export interface WithdrawOrderContext {
  lines: readonly OrderLine[];
}

export type WithdrawOrderEvent =
  | { type: 'order.pay'; lineIds: readonly number[]; by: 'user' | 'admin' }
  | { type: 'order.requestCancel' }
  | { type: 'order.agreeCancel' }
  | { type: 'order.rejectCancel' }
  | { type: 'order.confirmApplication' };

/** The derived states of an order, in the order of its life. */
export const WITHDRAW_ORDER_STATES = ['waited', 'paying', 'paid', 'requestedCancel', 'canceled'] as const;
export type WithdrawOrderState = (typeof WITHDRAW_ORDER_STATES)[number];

/**
 * An order's state from its lines: canceled when no line is live; requestedCancel when a live line
 * asks to cancel; paid when every live line is paid; paying when some are; waited otherwise.
 */
export function withdrawOrderStateOf(lines: readonly OrderLine[]): WithdrawOrderState {
  const live = lines.filter(isLiveLine);
  if (!live.length) return 'canceled';
  // A line that an admin may agree to cancel asks to cancel (agreeing does not read cancelFlag).
  if (live.some((l) => decideWithdrawLine(l, { type: 'wd.agreeCancel' }).ok)) return 'requestedCancel';
  const paid = live.filter((l) => l.status === PAID_WITHDRAW_STATUS).length;
  return paid === live.length ? 'paid' : paid > 0 ? 'paying' : 'waited';
}

/** The line event an order event sends, and to which of its lines (undefined: a line id not of the order). */
function lineEventOf(event: WithdrawOrderEvent, lines: readonly OrderLine[]): { event: WithdrawEvent; targets: (OrderLine | undefined)[] } | null {
  switch (event.type) {
    case 'order.pay':
      return { event: { type: 'wd.pay', by: event.by }, targets: event.lineIds.map((id) => lines.find((l) => l.id === id)) };
    case 'order.requestCancel':
      return { event: { type: 'wd.requestCancel' }, targets: [...lines] };
    case 'order.agreeCancel':
    case 'order.rejectCancel': {
      // An order already cancelled has no line left to answer: its canceled lines refuse.
      const live = lines.filter(isLiveLine);
      return { event: { type: event.type === 'order.agreeCancel' ? 'wd.agreeCancel' : 'wd.rejectCancel' }, targets: live.length ? live : [...lines] };
    }
    case 'order.confirmApplication': {
      // Payment has started, so the order can no longer be cancelled: a cancel its member asked for
      // is answered as rejected (its lines back to waited) instead of waiting for an agree that
      // would release an application already paid.
      const asking = lines.filter((l) => decideWithdrawLine(l, { type: 'wd.rejectCancel' }).ok);
      return asking.length ? { event: { type: 'wd.rejectCancel' }, targets: asking } : null;
    }
  }
}

/** The first line refusing `event`'s line event, with the line machine's message; null when all accept. */
function lineRefusal(context: WithdrawOrderContext, event: WithdrawOrderEvent): string | null {
  const sent = lineEventOf(event, context.lines);
  if (!sent) return null;
  if (!sent.targets.length) return withdrawMessages.notFound;
  for (const line of sent.targets) {
    if (!line) return withdrawMessages.notFound;
    const d = decideWithdrawLine(line, sent.event);
    if (!d.ok) return d.msg;
  }
  return null;
}

/** The lines after `event`: each target moved by the line machine; cancelFlag cleared once payment has started. */
function linesAfter(context: WithdrawOrderContext, event: WithdrawOrderEvent): OrderLine[] {
  const sent = lineEventOf(event, context.lines);
  const moved = new Map<number, WithdrawStatus>();
  // Asked only once linesAccept passed: every target is a line of the order and accepts.
  for (const line of sent?.targets ?? []) moved.set(line!.id, (decideWithdrawLine(line!, sent!.event) as { next: WithdrawStatus }).next);
  const paymentStarted = event.type === 'order.pay' || event.type === 'order.confirmApplication';
  const canceled = event.type === 'order.agreeCancel';
  return context.lines.map((l) => ({
    ...l,
    status: moved.get(l.id) ?? l.status,
    cancelFlag: paymentStarted || (canceled && moved.has(l.id)) ? false : l.cancelFlag,
  }));
}

const derived = [
  { guard: 'noLiveLine', target: '#withdrawOrder.canceled' },
  { guard: 'cancelAsked', target: '#withdrawOrder.requestedCancel' },
  { guard: 'allLivePaid', target: '#withdrawOrder.paid' },
  { guard: 'somePaid', target: '#withdrawOrder.paying' },
  { target: '#withdrawOrder.waited' },
] as const;

const move = (type: WithdrawOrderEvent['type']) => ({ [type]: { guard: 'linesAccept', target: '#withdrawOrder.deriving', actions: 'moveLines' } });
/** order.pay: the lines move; the payment that leaves every live line paid pays the order's applications. */
const pay = {
  'order.pay': [
    { guard: and(['linesAccept', 'paysEveryLine']), target: '#withdrawOrder.deriving', actions: ['moveLines', 'payApplications'] },
    { guard: 'linesAccept', target: '#withdrawOrder.deriving', actions: 'moveLines' },
  ],
} as const;
/** order.agreeCancel: every live line is cancelled and the order's applications are released. */
const agreeCancel = {
  'order.agreeCancel': { guard: 'linesAccept', target: '#withdrawOrder.deriving', actions: ['moveLines', 'releaseApplications'] },
} as const;

export const withdrawOrderMachine = setup({
  // Stryker disable next-line ObjectLiteral: types only, erased at run time
  types: {
    context: {} as WithdrawOrderContext,
    events: {} as WithdrawOrderEvent,
    input: {} as WithdrawOrderContext,
    emitted: {} as PaymentEvent,
  },
  guards: {
    linesAccept: ({ context, event }) => lineRefusal(context, event) === null,
    paysEveryLine: ({ context, event }) => withdrawOrderStateOf(linesAfter(context, event)) === 'paid',
    noLiveLine: ({ context }) => withdrawOrderStateOf(context.lines) === 'canceled',
    cancelAsked: ({ context }) => withdrawOrderStateOf(context.lines) === 'requestedCancel',
    allLivePaid: ({ context }) => withdrawOrderStateOf(context.lines) === 'paid',
    somePaid: ({ context }) => withdrawOrderStateOf(context.lines) === 'paying',
  },
  actions: {
    moveLines: assign({ lines: ({ context, event }) => linesAfter(context, event) }),
    // What follows for the order's live applications (src/server/entities/withdraw-line.ts delivers it).
    payApplications: emit({ type: 'pay.paid' }),
    releaseApplications: emit({ type: 'pay.release' }),
  },
}).createMachine({
  id: 'withdrawOrder',
  context: ({ input }) => input,
  initial: 'deriving',
  states: {
    /** Not a state an order rests in: the order's state is read from its lines. */
    deriving: { always: [...derived] },
    waited: { on: { ...pay, ...move('order.requestCancel'), ...move('order.confirmApplication') } },
    paying: { on: { ...pay, ...move('order.confirmApplication') } },
    requestedCancel: { on: { ...agreeCancel, ...move('order.rejectCancel'), ...move('order.confirmApplication') } },
    paid: { on: { ...move('order.confirmApplication') } },
    canceled: {},
  },
});

/** What an accepted order event does: the lines after it, the order's state after, and the event its live applications get. */
export interface OrderAnswer {
  ok: true;
  state: WithdrawOrderState;
  lines: OrderLine[];
  /** The lines whose status or cancelFlag the event changes (the server writes and audits these). */
  changed: OrderLine[];
  /** The payment event the order's live applications get (what the machine emits): pay.paid when it becomes paid, pay.release when cancelled. */
  applicationEvent: PaymentEvent | null;
}

/**
 * Asks the order machine about `event` for an order with these `lines` (every line of the order).
 * A refusal carries the message of the first line refusing its line event (or of the order's state).
 */
export function decideWithdrawOrder(lines: readonly OrderLine[], event: WithdrawOrderEvent): OrderAnswer | { ok: false; msg: string } {
  const before = withdrawOrderStateOf(lines);
  const snapshot = withdrawOrderMachine.resolveState({ value: before, context: { lines } });
  if (!snapshot.can(event)) {
    // The order's state is read from its lines, so an event it refuses has a line refusing it; only
    // order.confirmApplication, which moves no line, is refused with no line to say why.
    return { ok: false, msg: lineRefusal({ lines }, event) ?? withdrawMessages.notFound };
  }
  const [next, actions] = transition(withdrawOrderMachine, snapshot, event);
  // The lines moved (moveLines), then the state read from them (deriving's eventless transitions).
  const after = next.context.lines as OrderLine[];
  const state = next.value as WithdrawOrderState;
  const changed = after.filter((l, i) => l.status !== lines[i]!.status || l.cancelFlag !== lines[i]!.cancelFlag);
  const applicationEvent = (emittedBy(actions as { type: string; params?: unknown }[])[0] as PaymentEvent | undefined) ?? null;
  return { ok: true, state, lines: after, changed, applicationEvent };
}
