// Money calls racing each other on PostgreSQL (PGlite runs one statement at a time, so races need a
// real server): many withdraw requests over the same applications, cancels racing with mark-paid,
// admin answers racing with payment confirmations and the Excel confirm. No timing is asserted: the
// calls are fired together and, whatever order the database gives them, every answer must be a
// clean one (never a 500) and the books must balance afterwards (see `books`). The lock order these
// calls follow is in src/server/money/payment-transitions.ts and withdraw-service.ts.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { withdrawMessages as WM } from '../../../machines/withdraw.machine.ts';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { paymentApplies, withdrawOrderApplies, withdrawRequests } from '../../../src/server/db/schema/money.ts';
import { call, dbDriver, useTestApp } from '../support/harness.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';
import { agreedApplication, moneyWorld, type Member, type MoneyWorld } from '../support/money-fixtures.ts';

const t = useTestApp();
const onPg = dbDriver() === 'pg';
const db = () => t().database.db;

type Answer = { status: number; body: { code: string; msg?: string; data?: unknown } };

/** Every answer is a result or a clean refusal; never a server error. */
function expectClean(answers: Answer[]) {
  for (const a of answers) {
    expect([200, 400, 404, 409], JSON.stringify(a.body)).toContain(a.status);
    expect(a.body.code).not.toBe('A00005');
  }
}
const wins = (answers: Answer[]) => answers.filter((a) => a.body.code === 'A00000');

async function cardsOf(member: Member, n: number) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await member.api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', {
      paymentType: 'Zelle',
      accountName: 'Holder Name',
      cardNo: `55501${member.user.id}${i}000`,
      address: 'x',
    });
    ids.push(res.body.data!.card.id);
  }
  return ids;
}

/** `n` agreed applications of `member`, income 10.00 + i each. */
async function applications(w: MoneyWorld, member: Member, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await agreedApplication(t().database, w, member, { buyIn: 10 + i, count: 1 }));
  return out;
}

const request = (member: Member, lines: { cardId: number; withdrawAmount: number }[], taskIds: number[]) =>
  member.api.post<{ orderId: number }>('/api/withdraw/user/request', { requests: lines, taskIds }) as Promise<
    Answer & { body: { data?: { orderId: number } } }
  >;

/**
 * The books (DECISIONS "Money"): no application in two live orders; an application is withdrawing
 * or paid exactly while a live order holds it, agreed exactly while none does; each order is
 * cancelled as a whole, and its links are live exactly when it is not; an order whose lines are all
 * paid has paid applications only; each member's balance (the API's) is the income of their agreed
 * applications; and every cent of income is the balance, or in a live order's open lines, or paid.
 */
async function books(w: MoneyWorld) {
  const apps = await db().select().from(paymentApplies);
  const links = await db().select().from(withdrawOrderApplies);
  const lines = await db().select().from(withdrawRequests);
  const live = links.filter((l) => l.live);
  expect(new Set(live.map((l) => l.paymentApplyId)).size).toBe(live.length);
  const liveOf = new Map(live.map((l) => [l.paymentApplyId, l.orderId]));
  for (const a of apps) {
    if (a.status === 'agreed') expect(liveOf.has(a.id), `application ${a.id} agreed in a live order`).toBe(false);
    if (a.status === 'withdrawing' || a.status === 'paid') expect(liveOf.has(a.id), `application ${a.id} ${a.status} outside a live order`).toBe(true);
  }
  const orders = new Map<string, typeof lines>();
  for (const l of lines) orders.set(l.orderId, [...(orders.get(l.orderId) ?? []), l]);
  for (const [orderId, ofOrder] of orders) {
    const canceled = ofOrder.filter((l) => l.status === 'canceled').length;
    expect([0, ofOrder.length], `order ${orderId} partly cancelled`).toContain(canceled);
    const orderLinks = links.filter((k) => k.orderId === orderId);
    expect(
      orderLinks.every((k) => k.live === (canceled === 0)),
      `order ${orderId} links`,
    ).toBe(true);
    if (ofOrder.some((l) => l.status === 'paid'))
      expect(
        ofOrder.some((l) => l.status === 'requestedCancel' || l.cancelFlag),
        `order ${orderId} paid yet cancellable`,
      ).toBe(false);
    if (ofOrder.every((l) => l.status === 'paid')) {
      const held = new Set(orderLinks.map((k) => k.paymentApplyId));
      expect(apps.filter((a) => held.has(a.id)).every((a) => a.status === 'paid')).toBe(true);
    }
  }
  for (const m of [w.a, w.b]) {
    const mine = apps.filter((a) => a.userId === m.user.id);
    const balanceCents = Math.round((await m.api.get<{ balance: number }>('/api/user/balance')).body.data!.balance * 100);
    expect(balanceCents).toBe(mine.filter((a) => a.status === 'agreed').reduce((s, a) => s + a.income, 0));
    const income = mine.filter((a) => a.status !== 'applied').reduce((s, a) => s + a.income, 0);
    const myLines = lines.filter((l) => l.userId === m.user.id);
    const open = myLines.filter((l) => l.status === 'waited' || l.status === 'requestedCancel').reduce((s, l) => s + l.withdrawAmount, 0);
    const paid = myLines.filter((l) => l.status === 'paid').reduce((s, l) => s + l.withdrawAmount, 0);
    expect(income).toBe(balanceCents + open + paid);
  }
}

async function linesOf(orderId: number) {
  return db()
    .select()
    .from(withdrawRequests)
    .where(eq(withdrawRequests.orderId, String(orderId)))
    .orderBy(withdrawRequests.id);
}

describe.runIf(onPg)('money calls racing each other (PostgreSQL)', () => {
  it('many simultaneous withdraw requests over the same applications: exactly one wins, the others are refused cleanly', async () => {
    const w = await moneyWorld(t().app, t().database);
    const apps = await applications(w, w.a, 4);
    const cards = await cardsOf(w.a, 2);
    const tasks = apps.map((x) => x.task.id);
    const incomes = apps.map((x) => Math.round(x.apply.income * 100));
    const two = (i: number, j: number) => [
      { cardId: cards[0]!, withdrawAmount: incomes[i]! / 100 },
      { cardId: cards[1]!, withdrawAmount: incomes[j]! / 100 },
    ];
    // Eight identical requests for the first two applications.
    const same = await Promise.all(Array.from({ length: 8 }, () => request(w.a, two(0, 1), [tasks[0]!, tasks[1]!])));
    expectClean(same);
    expect(wins(same)).toHaveLength(1);
    for (const a of same.filter((x) => x.body.code !== 'A00000'))
      expect([WM.taskNotWithdrawable, '所选任务已在其他提现中，请刷新后重试']).toContain(a.body.msg);
    await books(w);

    // Overlapping requests over the other two: {2,3} twice, {2} and {3} alone; whichever win hold disjoint sets.
    const overlapping = await Promise.all([
      request(w.a, two(2, 3), [tasks[2]!, tasks[3]!]),
      request(w.a, [{ cardId: cards[0]!, withdrawAmount: incomes[2]! / 100 }], [tasks[2]!]),
      request(w.a, [{ cardId: cards[1]!, withdrawAmount: incomes[3]! / 100 }], [tasks[3]!]),
      request(w.a, two(2, 3), [tasks[2]!, tasks[3]!]),
    ]);
    expectClean(overlapping);
    expect(wins(overlapping).length).toBeGreaterThanOrEqual(1);
    expect(wins(overlapping).length).toBeLessThanOrEqual(2);
    await books(w);
    expect((await db().select().from(paymentApplies)).every((a) => a.status === 'withdrawing')).toBe(true);
  });

  it('cancel requests racing with mark-paid (member and admin), then admin answers racing with confirmations', async () => {
    const w = await moneyWorld(t().app, t().database);
    const apps = await applications(w, w.a, 6);
    const bApps = await applications(w, w.b, 2);
    const cards = await cardsOf(w.a, 2);
    const bCards = await cardsOf(w.b, 1);
    const adminToken = await createSession(db(), w.adminUser.id, false);
    // Six orders of a (one application each, two lines) and two of b (one line).
    const orders: { orderId: number; applyId: number; member: Member }[] = [];
    for (const x of apps) {
      const cents = Math.round(x.apply.income * 100);
      const res = await request(
        w.a,
        [
          { cardId: cards[0]!, withdrawAmount: Math.floor(cents / 2) / 100 },
          { cardId: cards[1]!, withdrawAmount: (cents - Math.floor(cents / 2)) / 100 },
        ],
        [x.task.id],
      );
      orders.push({ orderId: res.body.data!.orderId, applyId: x.apply.id, member: w.a });
    }
    for (const x of bApps) {
      const res = await request(w.b, [{ cardId: bCards[0]!, withdrawAmount: x.apply.income }], [x.task.id]);
      orders.push({ orderId: res.body.data!.orderId, applyId: x.apply.id, member: w.b });
    }
    await books(w);

    // Round 1: per order, the member's cancel, the member marking line 1 paid and the admin line 2.
    const round1 = await Promise.all(
      orders.map(async (o) => {
        const [l1, l2] = await linesOf(o.orderId);
        const calls: Promise<Answer>[] = [
          o.member.api.post('/api/withdraw/user/cancel/order', { orderId: o.orderId }),
          o.member.api.post('/api/withdraw/user/paid/request', { id: l1!.id }),
        ];
        if (l2) calls.push(w.admin.post('/api/withdraw/admin/paid', { id: l2.id }));
        return Promise.all(calls);
      }),
    );
    for (const answers of round1) {
      expectClean(answers);
      const [cancel, ...pays] = answers;
      // Either the cancel came first (every pay refused) or a pay did (the cancel refused).
      if (cancel!.body.code === 'A00000') expect(wins(pays)).toHaveLength(0);
      else expect(cancel!.body.msg).toBe(WM.cancelNotAllowed);
    }
    await books(w);

    // Round 2, on every order at once. An order whose cancel was asked: the admin agrees, rejects,
    // confirms its application paid (payment confirm) and uploads its lines as paid. Any other: its
    // open lines are confirmed by Excel while the member and the admin mark them paid.
    const excel = (ids: number[]) => {
      const file = multipart(xlsxOf([['提现ID'], ...ids.map((id) => [id])], '提现记录'));
      return call(t().app, { method: 'POST', url: '/api/withdraw/admin/confirm', headers: { 'x-token': adminToken, ...file.headers }, payload: file.payload });
    };
    const round2 = await Promise.all(
      orders.map(async (o) => {
        const lines = await linesOf(o.orderId);
        const waited = lines.filter((l) => l.status === 'waited');
        if (lines.some((l) => l.status === 'requestedCancel')) {
          return Promise.all([
            w.admin.post('/api/withdraw/admin/agree/cancel', { orderId: o.orderId }),
            w.admin.post('/api/withdraw/admin/reject/cancel', { orderId: o.orderId }),
            w.admin.post('/api/trade/admin/pay/confirm', { paymentApplyId: o.applyId }),
            excel(lines.map((l) => l.id)),
          ]);
        }
        if (!waited.length) return [];
        return Promise.all([
          excel(waited.map((l) => l.id)),
          ...waited.flatMap((l) => [
            o.member.api.post('/api/withdraw/user/paid/request', { id: l.id }),
            w.admin.post('/api/withdraw/admin/paid', { id: l.id }),
          ]),
        ]);
      }),
    );
    for (const answers of round2) expectClean(answers);
    await books(w);

    // Round 3: whatever is still open, pay it (member and admin together), and cancel the rest.
    const open = (await db().select().from(withdrawRequests)).filter((l) => l.status === 'waited' || l.status === 'requestedCancel');
    const round3 = await Promise.all(
      open.flatMap((l) => {
        const member = l.userId === w.a.user.id ? w.a : w.b;
        return [
          member.api.post('/api/withdraw/user/paid/request', { id: l.id }),
          w.admin.post('/api/withdraw/admin/paid', { id: l.id }),
          w.admin.post('/api/withdraw/admin/agree/cancel', { orderId: Number(l.orderId) }),
          member.api.post('/api/withdraw/user/cancel/order', { orderId: Number(l.orderId) }),
        ];
      }),
    );
    expectClean(round3);
    await books(w);
  });

  it('requests and cancels of one member racing over applications being released and taken again', async () => {
    const w = await moneyWorld(t().app, t().database);
    const apps = await applications(w, w.a, 3);
    const cards = await cardsOf(w.a, 1);
    const tasks = apps.map((x) => x.task.id);
    const total = apps.reduce((s, x) => s + Math.round(x.apply.income * 100), 0) / 100;
    const first = await request(w.a, [{ cardId: cards[0]!, withdrawAmount: total }], tasks);
    const orderId = first.body.data!.orderId;
    expect((await w.a.api.post('/api/withdraw/user/cancel/order', { orderId })).body.code).toBe('A00000');
    // The admin agrees (releasing the applications) while the member already asks for them again.
    const answers = await Promise.all([
      w.admin.post('/api/withdraw/admin/agree/cancel', { orderId }),
      ...Array.from({ length: 5 }, () => request(w.a, [{ cardId: cards[0]!, withdrawAmount: total }], tasks)),
    ]);
    expectClean(answers);
    expect(answers[0]!.body.code).toBe('A00000');
    expect(wins(answers.slice(1)).length).toBeLessThanOrEqual(1);
    await books(w);
  });
});
