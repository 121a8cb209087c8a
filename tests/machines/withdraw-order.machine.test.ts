// The withdraw order's rules as the server and the web fake ask them (machines/withdraw-order.machine.ts):
// its state read from its lines, cancel per order, payment started clears every cancelFlag, and an
// order wholly paid pays its applications while a cancelled one releases them.
import { describe, expect, it } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import {
  decideWithdrawOrder,
  WITHDRAW_ORDER_STATES,
  withdrawOrderMachine,
  withdrawOrderStateOf,
  type OrderLine,
  type WithdrawOrderEvent,
} from '../../machines/withdraw-order.machine';
import { LIVE_WITHDRAW_STATUSES, OPEN_WITHDRAW_STATUSES, withdrawMessages } from '../../machines/withdraw.machine';

const line = (id: number, status: OrderLine['status'], cancelFlag = true): OrderLine => ({ id, status, cancelFlag });
const pay = (...lineIds: number[]) => ({ type: 'order.pay' as const, lineIds, by: 'admin' as const });

describe('withdraw order machine', () => {
  it('reads the order state from its lines', () => {
    expect(withdrawOrderStateOf([line(1, 'waited'), line(2, 'waited')])).toBe('waited');
    expect(withdrawOrderStateOf([line(1, 'paid'), line(2, 'waited')])).toBe('paying');
    expect(withdrawOrderStateOf([line(1, 'paid'), line(2, 'paid')])).toBe('paid');
    expect(withdrawOrderStateOf([line(1, 'requestedCancel'), line(2, 'requestedCancel')])).toBe('requestedCancel');
    expect(withdrawOrderStateOf([line(1, 'canceled'), line(2, 'canceled')])).toBe('canceled');
    // One live line asking to cancel is enough; canceled lines are not counted.
    expect(withdrawOrderStateOf([line(1, 'requestedCancel'), line(2, 'waited')])).toBe('requestedCancel');
    expect(withdrawOrderStateOf([line(1, 'canceled'), line(2, 'paid')])).toBe('paid');
  });

  it('names as changed only the lines whose status or cancelFlag moved (the lines the server writes and audits)', () => {
    const quiet = decideWithdrawOrder([line(1, 'waited', false), line(2, 'waited', false)], pay(1));
    expect(quiet.ok && quiet.changed).toEqual([line(1, 'paid', false)]);
    const flagged = decideWithdrawOrder([line(1, 'waited'), line(2, 'waited')], pay(1));
    expect(flagged.ok && flagged.changed).toEqual([line(1, 'paid', false), line(2, 'waited', false)]);
  });

  it('refuses an event of an order with no live line, and a payment naming no line, as not found', () => {
    expect(decideWithdrawOrder([line(1, 'canceled', false)], { type: 'order.confirmApplication' })).toEqual({ ok: false, msg: withdrawMessages.notFound });
    expect(decideWithdrawOrder([line(1, 'waited')], pay())).toEqual({ ok: false, msg: withdrawMessages.notFound });
  });

  it('pays the applications only when the last live line is paid', () => {
    const lines = [line(1, 'waited'), line(2, 'waited')];
    const first = decideWithdrawOrder(lines, pay(1));
    expect(first).toMatchObject({ ok: true, state: 'paying', applicationEvent: null });
    // Payment has started: the other line can no longer be cancelled either.
    expect(first.ok && first.lines).toEqual([line(1, 'paid', false), line(2, 'waited', false)]);
    const rest = decideWithdrawOrder(first.ok ? first.lines : [], pay(2));
    expect(rest).toMatchObject({ ok: true, state: 'paid', applicationEvent: { type: 'pay.paid' } });
    expect(decideWithdrawOrder(lines, pay(1, 2))).toMatchObject({ ok: true, state: 'paid', applicationEvent: { type: 'pay.paid' } });
  });

  it('refuses to pay a line that is not waited, or not of the order, with the line machine words', () => {
    expect(decideWithdrawOrder([line(1, 'paid', false), line(2, 'waited', false)], pay(1))).toEqual({ ok: false, msg: withdrawMessages.payWaitedOnly });
    expect(decideWithdrawOrder([line(1, 'requestedCancel')], pay(1))).toEqual({ ok: false, msg: withdrawMessages.payWaitedOnly });
    expect(decideWithdrawOrder([line(1, 'waited')], pay(9))).toEqual({ ok: false, msg: withdrawMessages.notFound });
  });

  it('cancels per order: every line must accept, and agreeing releases the applications', () => {
    const asked = decideWithdrawOrder([line(1, 'waited'), line(2, 'waited')], { type: 'order.requestCancel' });
    expect(asked).toMatchObject({ ok: true, state: 'requestedCancel', applicationEvent: null });
    const lines = asked.ok ? asked.lines : [];
    expect(decideWithdrawOrder(lines, { type: 'order.agreeCancel' })).toMatchObject({
      ok: true,
      state: 'canceled',
      lines: [line(1, 'canceled', false), line(2, 'canceled', false)],
      applicationEvent: { type: 'pay.release' },
    });
    expect(decideWithdrawOrder(lines, { type: 'order.rejectCancel' })).toMatchObject({ ok: true, state: 'waited', applicationEvent: null });
    // Once a line is paid (cancelFlag cleared) the order cannot be cancelled.
    expect(decideWithdrawOrder([line(1, 'paid', false), line(2, 'waited', false)], { type: 'order.requestCancel' })).toEqual({
      ok: false,
      msg: withdrawMessages.cancelNotAllowed,
    });
    expect(decideWithdrawOrder([line(1, 'canceled', false)], { type: 'order.agreeCancel' })).toEqual({ ok: false, msg: withdrawMessages.agreeCancelOnly });
  });

  it('a rejected cancel leaves the order as it was: waited, its cancelFlags set, so the member may ask again', () => {
    const asked = decideWithdrawOrder([line(1, 'waited'), line(2, 'waited')], { type: 'order.requestCancel' });
    expect(asked.ok && asked.lines).toEqual([line(1, 'requestedCancel'), line(2, 'requestedCancel')]);
    const rejected = decideWithdrawOrder(asked.ok ? asked.lines : [], { type: 'order.rejectCancel' });
    expect(rejected.ok && rejected.lines).toEqual([line(1, 'waited'), line(2, 'waited')]);
    expect(decideWithdrawOrder(rejected.ok ? rejected.lines : [], { type: 'order.requestCancel' })).toMatchObject({ ok: true, state: 'requestedCancel' });
  });

  it('answers a cancel with its live lines only: a line canceled before is not asked', () => {
    expect(decideWithdrawOrder([line(1, 'canceled', false), line(2, 'requestedCancel')], { type: 'order.agreeCancel' })).toMatchObject({
      ok: true,
      state: 'canceled',
      lines: [line(1, 'canceled', false), line(2, 'canceled', false)],
    });
  });

  it('takes an application confirmed paid in every live state, a paid order included, and changes nothing of a paid one', () => {
    const paid = [line(1, 'paid', false), line(2, 'paid', false)];
    expect(decideWithdrawOrder(paid, { type: 'order.confirmApplication' })).toMatchObject({ ok: true, state: 'paid', changed: [], applicationEvent: null });
    const paying = [line(1, 'paid', false), line(2, 'waited', false)];
    expect(decideWithdrawOrder(paying, { type: 'order.confirmApplication' })).toMatchObject({ ok: true, state: 'paying', changed: [] });
    // A pending cancel is answered as rejected (the next test).
    const asked = [line(1, 'requestedCancel'), line(2, 'requestedCancel')];
    expect(decideWithdrawOrder(asked, { type: 'order.confirmApplication' })).toMatchObject({ ok: true, state: 'waited' });
  });

  it("clears every line's cancelFlag when one of its applications is confirmed paid", () => {
    const answer = decideWithdrawOrder([line(1, 'waited'), line(2, 'waited')], { type: 'order.confirmApplication' });
    expect(answer).toMatchObject({ ok: true, state: 'waited', lines: [line(1, 'waited', false), line(2, 'waited', false)], applicationEvent: null });
    expect(answer.ok && answer.changed.map((l) => l.id)).toEqual([1, 2]);
    // Payment has started: the member can no longer ask to cancel the order.
    expect(decideWithdrawOrder(answer.ok ? answer.lines : [], { type: 'order.requestCancel' })).toEqual({ ok: false, msg: withdrawMessages.cancelNotAllowed });
  });

  it('answers a pending cancel as rejected when an application is confirmed paid: the order can no longer be cancelled', () => {
    const asked = decideWithdrawOrder([line(1, 'requestedCancel'), line(2, 'requestedCancel')], { type: 'order.confirmApplication' });
    expect(asked).toMatchObject({ ok: true, state: 'waited', lines: [line(1, 'waited', false), line(2, 'waited', false)], applicationEvent: null });
    const lines = asked.ok ? asked.lines : [];
    expect(decideWithdrawOrder(lines, { type: 'order.agreeCancel' })).toEqual({ ok: false, msg: withdrawMessages.agreeCancelOnly });
    expect(decideWithdrawOrder(lines, { type: 'order.requestCancel' })).toEqual({ ok: false, msg: withdrawMessages.cancelNotAllowed });
  });

  it("names the line statuses an open card holds and an order's money counts", () => {
    expect(OPEN_WITHDRAW_STATUSES).toEqual(['waited', 'requestedCancel']);
    expect(LIVE_WITHDRAW_STATUSES).toEqual(['waited', 'paid', 'requestedCancel']);
  });
});

// Model: every shortest path of the order machine from a new two-line order (xstate/graph), replayed
// step by step through decideWithdrawOrder as the server asks it, ends in the state the path reached,
// and the order's applications are paid exactly on the step that leaves it paid and released exactly
// on the step that cancels it.
describe('withdraw order machine: model', () => {
  const start = [line(1, 'waited'), line(2, 'waited')];
  const events = [
    pay(1),
    pay(2),
    pay(1, 2),
    { type: 'order.requestCancel' as const },
    { type: 'order.agreeCancel' as const },
    { type: 'order.rejectCancel' as const },
  ];
  // Walked inside each test: a chart that cannot be walked fails a test, not the file's collection.
  const walk = () =>
    getShortestPaths(withdrawOrderMachine, {
      input: { lines: start },
      events,
      serializeState: (s) => JSON.stringify([s.value, s.context.lines]),
    });

  it('the paths reach every state an order rests in', () => {
    const paths = walk();
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(WITHDRAW_ORDER_STATES));
  });

  it('every path replays through decideWithdrawOrder to its state, paying or releasing the applications on the step that says so', () => {
    for (const path of walk()) {
      let lines: readonly OrderLine[] = start;
      for (const step of path.steps.slice(1)) {
        const before = withdrawOrderStateOf(lines);
        const d = decideWithdrawOrder(lines, step.event as WithdrawOrderEvent);
        expect(d.ok, `${before} ${step.event.type}`).toBe(true);
        if (!d.ok) break;
        const expected =
          d.state === 'paid' && before !== 'paid' ? { type: 'pay.paid' } : d.state === 'canceled' && before !== 'canceled' ? { type: 'pay.release' } : null;
        expect(d.applicationEvent, `${before} ${step.event.type} -> ${d.state}`).toEqual(expected);
        lines = d.lines;
      }
      expect(withdrawOrderStateOf(lines)).toBe(path.state.value);
    }
  });
});
