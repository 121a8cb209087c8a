// The money rules (machines/payment.machine.ts, machines/withdraw.machine.ts), asked the way the
// server and the UI ask them. The API tests replay the same paths against the server.
import { describe, expect, it } from 'vitest';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { allowedEvents, decide } from '../../machines/stored-state';
import {
  applicationBonuses,
  AWAITING_RECEIPT_PAYMENT_STATUS,
  explainPaymentRefusal,
  incomeCents,
  PAYMENT_STATUSES,
  paymentMachine,
  paymentMessages,
  type PaymentEvent,
  type PaymentStatus,
} from '../../machines/payment.machine';
import {
  amountToCents,
  CANCEL_REQUESTED_WITHDRAW_STATUS,
  explainWithdrawRefusal,
  PAID_WITHDRAW_STATUS,
  withdrawMachine,
  withdrawMessages,
  withdrawRequestError,
  type WithdrawEvent,
  type WithdrawStatus,
} from '../../machines/withdraw.machine';

const PAY_EVENTS: PaymentEvent[] = ['pay.agree', 'pay.withdraw', 'pay.release', 'pay.paid', 'pay.confirm', 'pay.collect'].map(
  (type) => ({ type }) as PaymentEvent,
);
const pay = (s: PaymentStatus, type: PaymentEvent['type']) => decide(paymentMachine, s, {}, { type } as PaymentEvent, explainPaymentRefusal);
const payOffers = (s: PaymentStatus) => allowedEvents(paymentMachine, s, {}, PAY_EVENTS).map((e) => e.type);

describe('payment application machine', () => {
  it('offers in each status exactly the steps of DECISIONS "Money"', () => {
    expect(payOffers('applied')).toEqual(['pay.agree']);
    expect(payOffers('agreed')).toEqual(['pay.withdraw']);
    expect(payOffers('withdrawing')).toEqual(['pay.release', 'pay.paid', 'pay.confirm']);
    expect(payOffers('paid')).toEqual(['pay.collect']);
    expect(payOffers('collected')).toEqual([]);
  });

  it('refuses with the message the page shows', () => {
    expect(pay('agreed', 'pay.agree')).toEqual({ ok: false, msg: paymentMessages.agreeAppliedOnly });
    expect(pay('agreed', 'pay.confirm')).toEqual({ ok: false, msg: paymentMessages.confirmWithdrawingOnly });
    expect(pay('withdrawing', 'pay.collect')).toEqual({ ok: false, msg: paymentMessages.collectPaidOnly });
    expect(pay('withdrawing', 'pay.release')).toEqual({ ok: true, next: 'agreed' });
  });

  it('refuses every step out of its status with that step’s own words (never an empty or missing message)', () => {
    const words: Record<PaymentEvent['type'], string> = {
      'pay.agree': paymentMessages.agreeAppliedOnly,
      'pay.withdraw': paymentMessages.withdrawAgreedOnly,
      'pay.release': paymentMessages.releaseWithdrawingOnly,
      'pay.paid': paymentMessages.confirmWithdrawingOnly,
      'pay.confirm': paymentMessages.confirmWithdrawingOnly,
      'pay.collect': paymentMessages.collectPaidOnly,
    };
    for (const { type } of PAY_EVENTS) expect(pay('collected', type), type).toEqual({ ok: false, msg: words[type] });
  });

  it('asks the member to confirm receipt (pay.collect) exactly in the status the withdrawal page lists as awaiting it', () => {
    expect(PAYMENT_STATUSES.filter((s) => payOffers(s).includes('pay.collect'))).toEqual([AWAITING_RECEIPT_PAYMENT_STATUS]);
  });

  it('reaches collected only through agreed, withdrawing and paid', () => {
    const paths = getShortestPaths(paymentMachine, { events: PAY_EVENTS });
    const collected = paths.find((p) => p.state.value === 'collected')!;
    expect(collected.steps.map((s) => s.event.type)).toEqual(['xstate.init', 'pay.agree', 'pay.withdraw', 'pay.paid', 'pay.collect']);
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['applied', 'agreed', 'withdrawing', 'paid', 'collected']));
  });

  it('computes income in cents, never below zero', () => {
    expect(incomeCents({ buyIn: 1250, count: 3, bonus: 100, punish: 50 })).toBe(3800);
    expect(incomeCents({ buyIn: 1000, count: 0, bonus: 0, punish: 500 })).toBe(0);
  });
});

const WD_EVENTS: WithdrawEvent[] = [
  { type: 'wd.pay', by: 'user' },
  { type: 'wd.requestCancel' },
  { type: 'wd.agreeCancel' },
  { type: 'wd.rejectCancel' },
  { type: 'wd.changeCard' },
];
const wd = (s: WithdrawStatus, cancelFlag: boolean, e: WithdrawEvent) => decide(withdrawMachine, s, { cancelFlag }, e, explainWithdrawRefusal);
const wdOffers = (s: WithdrawStatus, cancelFlag: boolean) => allowedEvents(withdrawMachine, s, { cancelFlag }, WD_EVENTS).map((e) => e.type);

describe('withdraw line machine', () => {
  it('offers change card and mark paid in waited, and request cancel only while cancelFlag is set', () => {
    expect(wdOffers('waited', true)).toEqual(['wd.pay', 'wd.requestCancel', 'wd.changeCard']);
    expect(wdOffers('waited', false)).toEqual(['wd.pay', 'wd.changeCard']);
    expect(wdOffers('requestedCancel', false)).toEqual(['wd.agreeCancel', 'wd.rejectCancel']);
    expect(wdOffers('paid', true)).toEqual([]);
    expect(wdOffers('canceled', true)).toEqual([]);
  });

  it('refuses with the message the page shows', () => {
    expect(wd('waited', false, { type: 'wd.requestCancel' })).toEqual({ ok: false, msg: withdrawMessages.cancelNotAllowed });
    expect(wd('paid', false, { type: 'wd.pay', by: 'admin' })).toEqual({ ok: false, msg: withdrawMessages.payWaitedOnly });
    expect(wd('paid', false, { type: 'wd.changeCard' })).toEqual({ ok: false, msg: withdrawMessages.changeCardWaitedOnly });
    expect(wd('requestedCancel', false, { type: 'wd.rejectCancel' })).toEqual({ ok: true, next: 'waited' });
    expect(wd('paid', false, { type: 'wd.agreeCancel' })).toEqual({ ok: false, msg: withdrawMessages.agreeCancelOnly });
    expect(wd('waited', true, { type: 'wd.rejectCancel' })).toEqual({ ok: false, msg: withdrawMessages.agreeCancelOnly });
  });

  it('names the statuses the admin home and the receipt question read: a paid line, a cancel asked for', () => {
    expect(wd('waited', false, { type: 'wd.pay', by: 'admin' })).toEqual({ ok: true, next: PAID_WITHDRAW_STATUS });
    expect(wd('waited', true, { type: 'wd.requestCancel' })).toEqual({ ok: true, next: CANCEL_REQUESTED_WITHDRAW_STATUS });
  });

  it('reaches every status from waited', () => {
    const paths = getShortestPaths(withdrawMachine, { input: { cancelFlag: true }, events: WD_EVENTS });
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['waited', 'paid', 'requestedCancel', 'canceled']));
  });

  it('checks the request dialog as SPEC §5 says, summing in cents', () => {
    expect(withdrawRequestError([], [{ cardId: 1, amount: '1' }])).toBe('请填写需要提现的任务');
    expect(withdrawRequestError([100], [{ cardId: null, amount: '1' }])).toBe('请填写银行卡');
    // No line at all is refused even when the tasks' income sums to 0 (the sums would agree).
    expect(withdrawRequestError([0], [])).toBe('请填写银行卡');
    expect(withdrawRequestError([100], [])).toBe('请填写银行卡');
    expect(withdrawRequestError([100], [{ cardId: 1, amount: 'abc' }])).toBe('请填写金额，金额必须为数字');
    expect(withdrawRequestError([100], [{ cardId: 1, amount: '1.005' }])).toBe('请填写金额，金额必须为数字');
    expect(
      withdrawRequestError(
        [100, 200],
        [
          { cardId: 1, amount: '1' },
          { cardId: 1, amount: '2' },
        ],
      ),
    ).toBe(withdrawMessages.cardOnce);
    expect(withdrawRequestError([100, 200], [{ cardId: 1, amount: '2.99' }])).toBe('"提现合计"必须与"任务合计"金额相同');
    // 0.1 + 0.2 in floating point is not 0.3; in cents it is.
    expect(
      withdrawRequestError(
        [30],
        [
          { cardId: 1, amount: '0.1' },
          { cardId: 2, amount: '0.2' },
        ],
      ),
    ).toBeNull();
    expect(amountToCents('12.5')).toBe(1250);
    expect(amountToCents(0)).toBeNull();
    expect(amountToCents(12.5)).toBe(1250);
    expect([amountToCents(null), amountToCents(undefined), amountToCents('')]).toEqual([null, null, null]);
  });
});

describe("an application's bonuses as a member's task row shows them", () => {
  it('is the bonus asked for, and the agreed one from the admin side’s agree on', () => {
    expect(PAYMENT_STATUSES.map((status) => applicationBonuses({ status, askedBonus: 500, bonus: 350 }))).toEqual([
      { askedBonus: 500, agreedBonus: null },
      { askedBonus: 500, agreedBonus: 350 },
      { askedBonus: 500, agreedBonus: 350 },
      { askedBonus: 500, agreedBonus: 350 },
      { askedBonus: 500, agreedBonus: 350 },
    ]);
  });
});

/**
 * Model tests (xstate/graph): every simple path of each money chart, replayed one event at a time
 * through decide as the server applies them, ends in the state the path says, which offers exactly
 * the buttons DECISIONS "Money" gives that status.
 */
describe('the money machines: model', () => {
  const replay = <S extends string, E extends { type: string }>(step: (s: S, e: E) => { ok: boolean; next?: S; msg?: string }, from: S, events: E[]) =>
    events.reduce((status, e) => {
      const d = step(status, e);
      if (!d.ok) throw new Error(`${status} refused ${e.type}: ${d.msg}`);
      return d.next!;
    }, from);

  it('payment: every path from a new application ends where decide leads, offering that status’s steps', () => {
    const OFFERS: Record<PaymentStatus, string[]> = {
      applied: ['pay.agree'],
      agreed: ['pay.withdraw'],
      withdrawing: ['pay.release', 'pay.paid', 'pay.confirm'],
      paid: ['pay.collect'],
      collected: [],
    };
    const paths = getSimplePaths(paymentMachine, { events: PAY_EVENTS });
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(PAYMENT_STATUSES));
    for (const path of paths) {
      const events = path.steps.map((s) => s.event).filter((e) => !e.type.startsWith('xstate.')) as PaymentEvent[];
      const end = replay((s: PaymentStatus, e: PaymentEvent) => pay(s, e.type), 'applied', events);
      expect(end, events.map((e) => e.type).join(' -> ')).toBe(path.state.value);
      expect(payOffers(end)).toEqual(OFFERS[end]);
      // Paid (a member may confirm receipt) only after the application was in a withdrawal.
      if (end === 'paid' || end === 'collected') expect(events.map((e) => e.type)).toContain('pay.withdraw');
    }
  });

  for (const cancelFlag of [true, false]) {
    it(`withdraw line (cancelFlag ${cancelFlag}): every path ends where decide leads, offering that status’s steps`, () => {
      const OFFERS: Record<WithdrawStatus, string[]> = {
        waited: cancelFlag ? ['wd.pay', 'wd.requestCancel', 'wd.changeCard'] : ['wd.pay', 'wd.changeCard'],
        requestedCancel: ['wd.agreeCancel', 'wd.rejectCancel'],
        paid: [],
        canceled: [],
      };
      const paths = getSimplePaths(withdrawMachine, { input: { cancelFlag }, events: WD_EVENTS });
      expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(cancelFlag ? ['waited', 'paid', 'requestedCancel', 'canceled'] : ['waited', 'paid']));
      for (const path of paths) {
        const events = path.steps.map((s) => s.event).filter((e) => !e.type.startsWith('xstate.')) as WithdrawEvent[];
        const end = replay((s: WithdrawStatus, e: WithdrawEvent) => wd(s, cancelFlag, e), 'waited', events);
        expect(end, events.map((e) => e.type).join(' -> ')).toBe(path.state.value);
        expect(wdOffers(end, cancelFlag)).toEqual(OFFERS[end]);
      }
    });
  }
});
