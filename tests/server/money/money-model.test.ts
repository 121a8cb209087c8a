// Model-based tests of the money machines against the API on a real database (DECISIONS "Money";
// decision 051): every shortest path of machines/payment.machine.ts and machines/withdraw.machine.ts
// is replayed through the real calls that cause its events, and after each step the stored status
// must be the machine's state.
import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import {
  explainPaymentRefusal,
  PAYMENT_STATUSES,
  paymentMachine,
  paymentMessages,
  type PaymentEvent,
  type PaymentStatus,
} from '../../../machines/payment.machine.ts';
import { allowedEvents, decide } from '../../../machines/stored-state.ts';
import {
  explainWithdrawRefusal,
  WITHDRAW_STATUSES,
  withdrawMachine,
  withdrawMessages as WM,
  type WithdrawContext,
  type WithdrawEvent,
  type WithdrawStatus,
} from '../../../machines/withdraw.machine.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { paymentApplies, withdrawOrderApplies, withdrawOrders, withdrawRequests } from '../../../src/server/db/schema/money.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { tasks } from '../../../src/server/db/schema/tasks.ts';
import { useTestApp, type Envelope } from '../support/harness.ts';
import { agreePayment, applyPayment, lockedTask, moneyWorld, scansOfTask, storedPayment, type Member, type PaymentResult } from '../support/money-fixtures.ts';
import { storedTask, type Client } from '../support/task-fixtures.ts';

/*
 * createTestModel's own serialisation tells a state apart by the transition that reached it
 * ("agreed via pay.release from withdrawing"), so its shortest paths take every transition of these
 * machines once (release and reject-cancel included), not only every state. Self-loops (a withdraw
 * line's change card) and refusals never lie on a shortest path: in every state the test reaches, it
 * also makes each call whose event the machine refuses there and checks that the API refuses it too
 * (A00001 with the machine's message) and changed nothing; an allowed self-loop is made and must
 * leave the status where it is.
 *
 * 1. Payment application: from a member's application of a locked task (applied), pay.agree is the
 *    admin's agree, pay.withdraw the member's withdraw request (two cards), pay.release the member's
 *    cancel of that order then the admin's agreement, pay.paid both lines marked paid (member, then
 *    admin), pay.confirm the admin's confirm payment, pay.collect the member's confirm receipt. The
 *    task (processing -> finished), its parcel (wait2pay -> payed), the balance, the order's lines
 *    and links follow as DECISIONS "Money" says.
 * 2. Withdraw line: an order of two lines (two cards) over one agreed application; each event applies
 *    to every line of the order (cancel is per order; wd.pay marks each line paid, by the member or
 *    by the admin). With cancelFlag false the order starts after the admin confirmed its application
 *    paid (payment has started), so the order can no longer be cancelled.
 */

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});
const db = () => t().database;

type Res = { status: number; body: Envelope<unknown> };

// ---- the calls

const confirmPaid = (admin: Client, id: number) => admin.post<PaymentResult>('/api/trade/admin/pay/confirm', { paymentApplyId: id });
const collect = (api: Client, id: number) => api.post<PaymentResult>('/api/trade/user/collect/confirm', { paymentApplyId: id });
const cancelOrder = (api: Client, orderId: number) => api.post('/api/withdraw/user/cancel/order', { orderId });
const agreeCancel = (admin: Client, orderId: number) => admin.post('/api/withdraw/admin/agree/cancel', { orderId });
const rejectCancel = (admin: Client, orderId: number) => admin.post('/api/withdraw/admin/reject/cancel', { orderId });
const memberPaid = (api: Client, id: number) => api.post('/api/withdraw/user/paid/request', { id });
const adminPaid = (admin: Client, id: number) => admin.post('/api/withdraw/admin/paid', { id });
const changeCard = (api: Client, requestId: number, cardId: number) => api.post('/api/withdraw/user/change/card', { requestId, cardId });
const balance = async (api: Client) => (await api.get<{ balance: number }>('/api/user/balance')).body.data!.balance;

/** A withdraw request of the given tasks over the first two cards, the income (cents) split between them. */
const requestWithdraw = (api: Client, cards: number[], cents: number, taskId: number) =>
  api.post<{ status: string; orderId: number }>('/api/withdraw/user/request', {
    requests: [
      { cardId: cards[0]!, withdrawAmount: Math.floor(cents / 2) / 100 },
      { cardId: cards[1]!, withdrawAmount: (cents - Math.floor(cents / 2)) / 100 },
    ],
    taskIds: [taskId],
  });

async function bindCards(member: Member, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await member.api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', {
      paymentType: 'Zelle',
      accountName: 'Model Holder',
      cardNo: `5551${member.user.id}0${i}77`,
      address: '1 Main St',
    });
    if (res.body.code !== 'A00000') throw new Error(`bind failed: ${JSON.stringify(res.body)}`);
    ids.push(res.body.data!.card.id);
  }
  return ids;
}

/** The world of one path: member a's application (applied) of a locked task (2 units at 10.50: 21.00), and three cards of a. */
async function applicationWorld() {
  const w = await moneyWorld(t().app, db());
  const { task } = await lockedTask(db(), w, w.a, { count: 2, buyIn: 10.5 });
  const res = await applyPayment(w.a.api, { taskId: task.id });
  if (res.body.data?.status !== 'succ') throw new Error(`apply failed: ${JSON.stringify(res.body)}`);
  const apply = res.body.data.paymentApply!;
  const cards = await bindCards(w.a, 3);
  return { w, task, apply, cents: Math.round(apply.income * 100), cards };
}

const linesOf = (orderId: number) =>
  db()
    .db.select()
    .from(withdrawRequests)
    .where(eq(withdrawRequests.orderId, String(orderId)))
    .orderBy(asc(withdrawRequests.id));
const liveLinks = async () => (await db().db.select().from(withdrawOrderApplies)).filter((l) => l.live).map((l) => l.paymentApplyId);

/** Everything a money call could change: a refused call must leave all of it as it was. */
async function books() {
  const d = db().db;
  return {
    applications: await d.select().from(paymentApplies).orderBy(asc(paymentApplies.id)),
    tasks: await d.select().from(tasks).orderBy(asc(tasks.id)),
    scans: await d.select().from(scanTrackings).orderBy(asc(scanTrackings.id)),
    orders: await d.select().from(withdrawOrders).orderBy(asc(withdrawOrders.id)),
    lines: await d.select().from(withdrawRequests).orderBy(asc(withdrawRequests.id)),
    links: await d.select().from(withdrawOrderApplies).orderBy(asc(withdrawOrderApplies.orderId), asc(withdrawOrderApplies.paymentApplyId)),
    audits: (await d.select({ id: auditLog.id }).from(auditLog)).length,
  };
}

/** A call whose event the machine refuses in the current state: the API refuses it with `msg` (A00001). */
const expectRefused = (label: string, res: Res, msg: string) =>
  expect({ label, status: res.status, code: res.body.code, msg: res.body.msg }).toEqual({ label, status: 400, code: 'A00001', msg });
/** A call whose event the machine allows. */
const expectAccepted = (label: string, res: Res) => expect({ label, code: res.body.code }, JSON.stringify(res.body)).toEqual({ label, code: 'A00000' });

// ---------------------------------------------------------------------------------------------
// 1. Payment application

const PAY_EVENTS: PaymentEvent[] = (['pay.agree', 'pay.withdraw', 'pay.release', 'pay.paid', 'pay.confirm', 'pay.collect'] as const).map((type) => ({ type }));
const payOffered = (status: PaymentStatus, event: PaymentEvent) => allowedEvents(paymentMachine, status, {}, [event]).length === 1;

describe('payment application machine, replayed against the API', () => {
  const paths = createTestModel(paymentMachine, { events: PAY_EVENTS }).getShortestPaths();

  it('its shortest paths reach every status and take every event', () => {
    expect(new Set(paths.flatMap((p) => p.steps.map((s) => s.state.value)))).toEqual(new Set(PAYMENT_STATUSES));
    expect(new Set(paths.flatMap((p) => p.steps.map((s) => s.event.type)))).toEqual(new Set(['xstate.init', ...PAY_EVENTS.map((e) => e.type)]));
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { w, task, apply, cents, cards } = await applicationWorld();
      let current: PaymentStatus = 'applied';
      let orderId: number | undefined;
      /** The order's lines as DECISIONS "Money" says each event leaves them: [status, cancelFlag] per line. */
      let expectedLines: [WithdrawStatus, boolean][] = [];
      let refusals = 0;

      /** The machine allows `event` here (the path holds nothing else) and the API accepts its call. */
      const step = (event: PaymentEvent, res: Res) => {
        expect(payOffered(current, event)).toBe(true);
        expectAccepted(`${current} / ${event.type}`, res);
      };
      const payStep = (event: PaymentEvent, res: Res & { body: Envelope<PaymentResult> }) => {
        step(event, res);
        const next = decide(paymentMachine, current, {}, event, explainPaymentRefusal);
        expect(res.body.data).toMatchObject({ status: 'succ', paymentApply: { id: apply.id, status: next.ok ? next.next : '?' } });
      };

      /** Each call of a payment event the machine refuses in `status`: refused with the machine's message, nothing changed. */
      const tryRefused = async (status: PaymentStatus) => {
        const before = await books();
        const calls: { event: PaymentEvent; call: () => Promise<Res>; msg: string }[] = [
          { event: { type: 'pay.agree' }, call: () => agreePayment(w.admin, { paymentApplyId: apply.id, bonus: 1 }), msg: paymentMessages.agreeAppliedOnly },
          { event: { type: 'pay.confirm' }, call: () => confirmPaid(w.admin, apply.id), msg: paymentMessages.confirmWithdrawingOnly },
          { event: { type: 'pay.collect' }, call: () => collect(w.a.api, apply.id), msg: paymentMessages.collectPaidOnly },
          // The request names tasks, and refuses one without an agreed application with its own message (withdraw-service.ts).
          { event: { type: 'pay.withdraw' }, call: () => requestWithdraw(w.a.api, cards, cents, task.id), msg: WM.taskNotWithdrawable },
          // Releasing is cancelling the order: once payment started (or the order is over) the withdraw machine refuses it.
          ...(orderId === undefined
            ? []
            : [{ event: { type: 'pay.release' } as PaymentEvent, call: () => cancelOrder(w.a.api, orderId!), msg: WM.cancelNotAllowed }]),
        ];
        for (const c of calls) {
          if (payOffered(status, c.event)) continue;
          if (c.msg !== WM.taskNotWithdrawable && c.msg !== WM.cancelNotAllowed) expect(c.msg).toBe(explainPaymentRefusal(status, {}, c.event));
          expectRefused(`${status} / ${c.event.type}`, await c.call(), c.msg);
          refusals++;
        }
        // A second application for the task, in any status: failed, and nothing else.
        const again = await applyPayment(w.a.api, { taskId: task.id, bonus: 3 });
        expect(again.body).toMatchObject({ code: 'A00000', msg: paymentMessages.alreadyApplied, data: { status: 'failed' } });
        expect(await books()).toEqual(before);
      };

      const states = Object.fromEntries(
        PAYMENT_STATUSES.map((s) => [
          s,
          async () => {
            expect({ step: s, stored: (await storedPayment(db(), apply.id)).status }).toEqual({ step: s, stored: s });
            current = s;
            // DECISIONS "Money": applying moves the task to processing and its parcels to wait2pay; paid to finished and payed.
            const paidOut = s === 'paid' || s === 'collected';
            expect((await storedTask(db(), task.id)).status).toBe(paidOut ? 'finished' : 'processing');
            expect((await scansOfTask(db(), task.id)).map((x) => x.status)).toEqual([paidOut ? 'payed' : 'wait2pay']);
            // The balance is the income of the member's agreed applications.
            expect(await balance(w.a.api)).toBe(s === 'agreed' ? apply.income : 0);
            // A live order holds the application exactly while it is withdrawing or later.
            expect(await liveLinks()).toEqual(['withdrawing', 'paid', 'collected'].includes(s) ? [apply.id] : []);
            expect(orderId === undefined ? [] : (await linesOf(orderId)).map((l) => [l.status, l.cancelFlag])).toEqual(expectedLines);
            await tryRefused(s);
          },
        ]),
      );

      await path.test({
        states,
        events: {
          'pay.agree': async ({ event }) => payStep(event as PaymentEvent, await agreePayment(w.admin, { paymentApplyId: apply.id })),
          'pay.withdraw': async ({ event }) => {
            const res = await requestWithdraw(w.a.api, cards, cents, task.id);
            step(event as PaymentEvent, res);
            orderId = res.body.data!.orderId;
            expectedLines = [
              ['waited', true],
              ['waited', true],
            ];
          },
          'pay.release': async ({ event }) => {
            // The member asks to cancel the order and the admin agrees: its lines are cancelled, the application released.
            expectAccepted('cancel/order', await cancelOrder(w.a.api, orderId!));
            expect((await storedPayment(db(), apply.id)).status).toBe('withdrawing');
            step(event as PaymentEvent, await agreeCancel(w.admin, orderId!));
            expectedLines = [
              ['canceled', false],
              ['canceled', false],
            ];
          },
          'pay.paid': async ({ event }) => {
            const [first, second] = await linesOf(orderId!);
            expectAccepted('member marks line 1 paid', await memberPaid(w.a.api, first!.id));
            // One line of two paid: the order is not wholly paid, so the application still waits.
            expect((await storedPayment(db(), apply.id)).status).toBe('withdrawing');
            step(event as PaymentEvent, await adminPaid(w.admin, second!.id));
            expectedLines = [
              ['paid', false],
              ['paid', false],
            ];
          },
          'pay.confirm': async ({ event }) => {
            payStep(event as PaymentEvent, await confirmPaid(w.admin, apply.id));
            // Payment has started: the order's lines wait, but can no longer be cancelled.
            expectedLines = expectedLines.map(([s]) => [s, false]);
          },
          'pay.collect': async ({ event }) => payStep(event as PaymentEvent, await collect(w.a.api, apply.id)),
        },
      });
      // Every state of the path had some refused call to make.
      expect(refusals).toBeGreaterThanOrEqual(2 * path.steps.length);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// 2. Withdraw line

const WD_EVENTS: WithdrawEvent[] = [
  { type: 'wd.pay', by: 'user' },
  { type: 'wd.pay', by: 'admin' },
  { type: 'wd.requestCancel' },
  { type: 'wd.agreeCancel' },
  { type: 'wd.rejectCancel' },
  { type: 'wd.changeCard' },
];
const CONTEXTS: WithdrawContext[] = [{ cancelFlag: true }, { cancelFlag: false }];

describe('withdraw line machine, replayed against the API', () => {
  const model = createTestModel(withdrawMachine, { events: WD_EVENTS });
  const pathsOf = (ctx: WithdrawContext) => model.getShortestPaths({ input: ctx });

  it('its shortest paths reach every status and take every event but the change-card self-loop (tried in each state)', () => {
    const all = CONTEXTS.flatMap(pathsOf);
    expect(new Set(all.flatMap((p) => p.steps.map((s) => s.state.value)))).toEqual(new Set(WITHDRAW_STATUSES));
    expect(new Set(all.flatMap((p) => p.steps.map((s) => JSON.stringify(s.event))))).toEqual(
      new Set([{ type: 'xstate.init' }, ...WD_EVENTS.filter((e) => e.type !== 'wd.changeCard')].map((e) => JSON.stringify(e))),
    );
    // Without cancelFlag the order cannot be cancelled: paid is all that is left.
    expect(new Set(pathsOf({ cancelFlag: false }).map((p) => p.state.value))).toEqual(new Set(['paid']));
  });

  for (const ctx of CONTEXTS) {
    for (const path of pathsOf(ctx)) {
      it(`cancelFlag ${ctx.cancelFlag}: ${path.description}`, async () => {
        const { w, task, apply, cents, cards } = await applicationWorld();
        const agreed = await agreePayment(w.admin, { paymentApplyId: apply.id });
        expect(agreed.body.data?.status).toBe('succ');
        const ordered = await requestWithdraw(w.a.api, cards, cents, task.id);
        expectAccepted('request', ordered);
        const orderId = ordered.body.data!.orderId;
        const lineIds = (await linesOf(orderId)).map((l) => l.id);
        expect(lineIds).toHaveLength(2);
        if (!ctx.cancelFlag) expectAccepted('confirm payment', await confirmPaid(w.admin, apply.id));
        let spare = cards[2]!;
        let current: WithdrawStatus = 'waited';
        let selfLoops = 0;

        const offered = (status: WithdrawStatus, event: WithdrawEvent) => allowedEvents(withdrawMachine, status, ctx, [event]).length === 1;
        const step = (event: WithdrawEvent, label: string, res: Res) => {
          expect(offered(current, event)).toBe(true);
          expectAccepted(`${current} / ${label}`, res);
        };

        /** The calls of the events the machine refuses in `status` (refused with its message, nothing changed), then its allowed self-loops. */
        const tryOthers = async (status: WithdrawStatus) => {
          const calls: { event: WithdrawEvent; label: string; call: () => Promise<Res> }[] = [
            ...lineIds.flatMap((id, i) => [
              { event: { type: 'wd.pay', by: 'user' } as WithdrawEvent, label: `member marks line ${i + 1} paid`, call: () => memberPaid(w.a.api, id) },
              { event: { type: 'wd.pay', by: 'admin' } as WithdrawEvent, label: `admin marks line ${i + 1} paid`, call: () => adminPaid(w.admin, id) },
              { event: { type: 'wd.changeCard' } as WithdrawEvent, label: `change card of line ${i + 1}`, call: () => changeCard(w.a.api, id, spare) },
            ]),
            { event: { type: 'wd.requestCancel' }, label: 'cancel/order', call: () => cancelOrder(w.a.api, orderId) },
            { event: { type: 'wd.agreeCancel' }, label: 'agree/cancel', call: () => agreeCancel(w.admin, orderId) },
            { event: { type: 'wd.rejectCancel' }, label: 'reject/cancel', call: () => rejectCancel(w.admin, orderId) },
          ];
          const before = await books();
          for (const c of calls) {
            const d = decide(withdrawMachine, status, ctx, c.event, explainWithdrawRefusal);
            if (!d.ok) expectRefused(`${status} / ${c.label}`, await c.call(), d.msg);
          }
          expect(await books()).toEqual(before);
          // Allowed self-loops (change card of a waited line): accepted, the status stays.
          for (const [i, id] of lineIds.entries()) {
            const d = decide(withdrawMachine, status, ctx, { type: 'wd.changeCard' }, explainWithdrawRefusal);
            if (!d.ok || d.next !== status) continue;
            const old = (await linesOf(orderId))[i]!.cardId;
            expectAccepted(`${status} / change card of line ${i + 1}`, await changeCard(w.a.api, id, spare));
            expect((await linesOf(orderId))[i]).toMatchObject({ status, cardId: spare });
            spare = old;
            selfLoops++;
          }
        };

        const states = Object.fromEntries(
          WITHDRAW_STATUSES.map((s) => [
            s,
            async () => {
              const lines = await linesOf(orderId);
              // Every line of the order is in the machine's state; cancelFlag holds while the order may still be cancelled.
              const open = s === 'waited' || s === 'requestedCancel';
              expect({ step: s, lines: lines.map((l) => [l.status, l.cancelFlag]) }).toEqual({
                step: s,
                lines: lineIds.map(() => [s, open && ctx.cancelFlag]),
              });
              current = s;
              // The application follows its order: withdrawing while it is open, paid when all its lines are
              // (or already, confirmed by the admin), agreed again (in the balance) when it is cancelled.
              const app = ctx.cancelFlag ? ({ waited: 'withdrawing', requestedCancel: 'withdrawing', paid: 'paid', canceled: 'agreed' } as const)[s] : 'paid';
              expect((await storedPayment(db(), apply.id)).status).toBe(app);
              expect((await storedTask(db(), task.id)).status).toBe(app === 'paid' ? 'finished' : 'processing');
              expect(await balance(w.a.api)).toBe(app === 'agreed' ? apply.income : 0);
              expect(await liveLinks()).toEqual(s === 'canceled' ? [] : [apply.id]);
              await tryOthers(s);
            },
          ]),
        );

        await path.test({
          states,
          events: {
            'wd.pay': async ({ event }) => {
              const e = event as Extract<WithdrawEvent, { type: 'wd.pay' }>;
              for (const [i, id] of lineIds.entries()) {
                if (i > 0) {
                  // Part of the order paid: the rest waits, no longer cancellable, and the application is not paid by it yet.
                  expect((await linesOf(orderId)).slice(i).map((l) => [l.status, l.cancelFlag])).toEqual(lineIds.slice(i).map(() => ['waited', false]));
                  expect((await storedPayment(db(), apply.id)).status).toBe(ctx.cancelFlag ? 'withdrawing' : 'paid');
                }
                step(e, `${e.by} marks line ${i + 1} paid`, await (e.by === 'user' ? memberPaid(w.a.api, id) : adminPaid(w.admin, id)));
              }
            },
            'wd.requestCancel': async ({ event }) => step(event as WithdrawEvent, 'cancel/order', await cancelOrder(w.a.api, orderId)),
            'wd.agreeCancel': async ({ event }) => step(event as WithdrawEvent, 'agree/cancel', await agreeCancel(w.admin, orderId)),
            'wd.rejectCancel': async ({ event }) => step(event as WithdrawEvent, 'reject/cancel', await rejectCancel(w.admin, orderId)),
            // A self-loop: never on a shortest path (tryOthers makes it in every waited state), here for completeness.
            'wd.changeCard': async ({ event }) => {
              const old = (await linesOf(orderId))[0]!.cardId;
              step(event as WithdrawEvent, 'change card of line 1', await changeCard(w.a.api, lineIds[0]!, spare));
              spare = old;
            },
          },
        });
        // Each visit of waited changed both lines' cards.
        const waitedVisits = path.steps.filter((s) => s.state.value === 'waited').length;
        expect(selfLoops).toBe(2 * waitedVisits);
      });
    }
  }
});
