// The money limits through the real API, on PGlite and PostgreSQL (DECISIONS "Money"; the rule is in
// src/server/money/cents.ts). One amount of the contract reaches 99,999,999.99 (past int4 cents), an income
// is buyIn x count + bonus, and every sum is read back exact: the largest amounts travel from board
// task to statistics and the files, an income past 2^31 cents is exact, and an income or a member's
// agreed total past MAX_TOTAL_CENTS is refused with A00001, changing nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { paymentApplies } from '../../../src/server/db/schema/money.ts';
import { centsOf, MAX_TOTAL_CENTS, moneyLimitMessages } from '../../../src/server/money/cents.ts';
import { call, useTestApp } from '../support/harness.ts';
import { createBoardTask } from '../support/board-fixtures.ts';
import { multipart, rowsOf } from '../support/sheets.ts';
import { agreePayment, applyPayment, moneyWorld, storedPayment, type Member, type MoneyWorld, type PaymentApplyOut } from '../support/money-fixtures.ts';
import { claim, record, refused, scan, storedTask, UPC, type Client } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

/** The contract's largest amount (openapi.yaml: maximum 99999999.99). */
const MAX_AMOUNT = 99_999_999.99;

let parcel = 0;

/** A board task of the world's item (UPC) with the given buyIn and show, made through the admin's API. */
const boardTaskOf = (w: MoneyWorld, body: Record<string, unknown>) => createBoardTask(w.admin, w.board.id, { itemId: w.item.id, ...body });

/** Claims `count` units through the API, scans and records them, so matching locks the task; returns the task as the claim answered it. */
async function lockedClaim(w: MoneyWorld, member: Member, boardTaskId: number, count: number) {
  const task = await claim(member.api, boardTaskId, count);
  const trackingId = `LIM${++parcel}X${task.id}`;
  await scan(t().database, trackingId, UPC, count);
  await record(member.api, task.id, trackingId, count);
  expect((await storedTask(t().database, task.id)).status).toBe('locked');
  return task;
}

async function applied(api: Client, taskId: number, bonus?: number): Promise<PaymentApplyOut> {
  const res = await applyPayment(api, { taskId, ...(bonus === undefined ? {} : { bonus }) });
  expect(res.body).toMatchObject({ code: 'A00000', data: { status: 'succ' } });
  return res.body.data!.paymentApply!;
}

const balance = async (api: Client) => (await api.get<{ balance: number }>('/api/user/balance')).body.data!.balance;
const amounts = async (w: MoneyWorld) =>
  (await w.admin.get<{ data: { userId: number; amount: number }[] }>('/api/statistics/admin/task/amount/list')).body.data!.data.map((r) => [
    r.userId,
    r.amount,
  ]);

describe('money limits (DECISIONS "Money")', () => {
  it('carries the largest amounts from the board task through claim, apply, agree, withdraw and statistics exactly', async () => {
    const { app, database } = t();
    const w = await moneyWorld(app, database);
    const bt = await boardTaskOf(w, { buyIn: MAX_AMOUNT, price: MAX_AMOUNT, averageCost: MAX_AMOUNT, show: 10 });
    expect(bt).toMatchObject({ buyIn: MAX_AMOUNT, price: MAX_AMOUNT, averageCost: MAX_AMOUNT });

    const task = await lockedClaim(w, w.a, bt.id, 1);
    expect(task).toMatchObject({ buyIn: MAX_AMOUNT, price: MAX_AMOUNT });
    const apply = await applied(w.a.api, task.id, MAX_AMOUNT);
    expect(apply).toMatchObject({ buyIn: MAX_AMOUNT, price: MAX_AMOUNT, count: 1, bonus: MAX_AMOUNT, existBonus: MAX_AMOUNT, income: 199_999_999.98 });

    const agreed = await agreePayment(w.admin, { paymentApplyId: apply.id });
    expect(agreed.body).toMatchObject({
      code: 'A00000',
      data: { status: 'succ', paymentApply: { status: 'agreed', bonus: MAX_AMOUNT, income: 199_999_999.98 } },
    });
    expect(await balance(w.a.api)).toBe(199_999_999.98);
    expect(await amounts(w)).toEqual([[w.a.user.id, 199_999_999.98]]);

    // Withdrawn over two cards, each line the largest amount a line may carry.
    const cards: number[] = [];
    for (const cardNo of ['5550001111', '5550002222']) {
      const res = await w.a.api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', {
        paymentType: 'Zelle',
        accountName: 'Ann Lee',
        address: '1 Main St',
        cardNo,
      });
      cards.push(res.body.data!.card.id);
    }
    const req = await w.a.api.post<{ status: string; orderId: number }>('/api/withdraw/user/request', {
      requests: cards.map((cardId) => ({ cardId, withdrawAmount: MAX_AMOUNT })),
      taskIds: [task.id],
    });
    expect(req.body).toMatchObject({ code: 'A00000', data: { status: 'succ' } });
    expect(await balance(w.a.api)).toBe(0);
    const lines = (await w.admin.get<{ requestPage: { content: { id: number; withdrawAmount: number }[] } }>('/api/withdraw/admin/requests')).body.data!
      .requestPage.content;
    expect(lines.map((l) => l.withdrawAmount)).toEqual([MAX_AMOUNT, MAX_AMOUNT]);

    // The admin exports the waited lines and uploads that file back as paid.
    const { token } = (await w.admin.get<{ token: string }>('/api/download/excel/withdraw/token')).body.data!;
    const file = await app.inject({ method: 'GET', url: `/ext/excel/withdraw/${token}?status=waited` });
    expect(file.statusCode).toBe(200);
    expect(
      rowsOf(file.rawPayload)
        .slice(1)
        .map((r) => r[2]),
    ).toEqual([MAX_AMOUNT, MAX_AMOUNT]);
    const body = multipart(file.rawPayload);
    const adminToken = await createSession(database.db, w.adminUser.id, false);
    const upload = await call<{ succ: number; error: number }>(app, {
      method: 'POST',
      url: '/api/withdraw/admin/confirm',
      headers: { 'x-token': adminToken, ...body.headers },
      payload: body.payload,
    });
    expect(upload.body.data).toMatchObject({ succ: 2, error: 0 });
    expect((await storedPayment(database, apply.id)).status).toBe('paid');

    // Paid still counts in the statistics, in the list and in its export.
    expect(await amounts(w)).toEqual([[w.a.user.id, 199_999_999.98]]);
    const stat = (await w.admin.get<{ token: string }>('/api/download/excel/task-amount/token')).body.data!;
    const sheet = await app.inject({ method: 'GET', url: `/ext/excel/task-amount/${stat.token}` });
    expect(
      rowsOf(sheet.rawPayload)
        .slice(1)
        .map((r) => r[3]),
    ).toEqual([199_999_999.98]);
  });

  it('computes an income past 2^31 cents exactly: buyIn x a large count', async () => {
    const { app, database } = t();
    const w = await moneyWorld(app, database);
    const bt = await boardTaskOf(w, { buyIn: 123_456.78, show: 20_000 });
    const task = await lockedClaim(w, w.a, bt.id, 20_000);
    // 12,345,678 cents x 20,000 = 246,913,560,000 cents (2^31 is 2,147,483,648), plus a bonus of 0.01.
    const apply = await applied(w.a.api, task.id, 0.01);
    expect(apply).toMatchObject({ count: 20_000, income: 2_469_135_600.01 });
    expect((await storedPayment(database, apply.id)).income).toBe(246_913_560_001);
    expect((await agreePayment(w.admin, { paymentApplyId: apply.id })).body.code).toBe('A00000');
    expect(await balance(w.a.api)).toBe(2_469_135_600.01);
    expect(await amounts(w)).toEqual([[w.a.user.id, 2_469_135_600.01]]);
  });

  it('refuses an income past the limit at apply and at agree, changing nothing', async () => {
    const { app, database } = t();
    const w = await moneyWorld(app, database);
    // The contract allows 1,000,000 units of 99,999,999.99: 9,999,999,999,000,000 cents, past the limit.
    const bt = await boardTaskOf(w, { buyIn: MAX_AMOUNT, show: 1_000_000 });
    const task = await lockedClaim(w, w.a, bt.id, 1_000_000);
    expect(await applyPayment(w.a.api, { taskId: task.id })).toMatchObject(refused(moneyLimitMessages.income));
    expect((await storedTask(database, task.id)).status).toBe('locked');
    expect(await database.db.select().from(paymentApplies)).toEqual([]);

    // 900,000 units: 8,999,999,999,100,000 cents fits at apply; the largest bonus agreed takes it past.
    const near = await boardTaskOf(w, { buyIn: MAX_AMOUNT, show: 900_000 });
    const apply = await applied(w.a.api, (await lockedClaim(w, w.a, near.id, 900_000)).id);
    expect(apply.income).toBe(89_999_999_991_000);
    expect(await agreePayment(w.admin, { paymentApplyId: apply.id, bonus: MAX_AMOUNT })).toMatchObject(refused(moneyLimitMessages.income));
    expect(await storedPayment(database, apply.id)).toMatchObject({ status: 'applied', bonus: 0, income: MAX_TOTAL_CENTS - 900_000, agreedAt: null });
    expect(await balance(w.a.api)).toBe(0);
  });

  it("refuses an agreement that takes a member's agreed total past the limit, also when two arrive at once", async () => {
    const { app, database } = t();
    const w = await moneyWorld(app, database);
    // Each 99,999,999.99 x 500,000 = 4,999,999,999,500,000 cents: one fits, two do not.
    const bt = await boardTaskOf(w, { buyIn: MAX_AMOUNT, show: 1_000_000 });
    const first = await applied(w.a.api, (await lockedClaim(w, w.a, bt.id, 500_000)).id);
    const second = await applied(w.a.api, (await lockedClaim(w, w.a, bt.id, 500_000)).id);
    expect([first.income, second.income]).toEqual([49_999_999_995_000, 49_999_999_995_000]);

    const answers = await Promise.all([agreePayment(w.admin, { paymentApplyId: first.id }), agreePayment(w.admin, { paymentApplyId: second.id })]);
    expect(answers.map((a) => a.body.code).sort()).toEqual(['A00000', 'A00001']);
    expect(answers.find((a) => a.body.code === 'A00001')).toMatchObject(refused(moneyLimitMessages.total));
    const statuses = [(await storedPayment(database, first.id)).status, (await storedPayment(database, second.id)).status];
    expect(statuses.sort()).toEqual(['agreed', 'applied']);
    expect(await balance(w.a.api)).toBe(49_999_999_995_000);
    expect(await amounts(w)).toEqual([[w.a.user.id, 49_999_999_995_000]]);

    // Another member's total is their own.
    const other = await applied(w.b.api, (await lockedClaim(w, w.b, w.boardTask.id, 1)).id);
    expect((await agreePayment(w.admin, { paymentApplyId: other.id })).body.code).toBe('A00000');
  });
});

describe('centsOf: a money value as either driver answers it', () => {
  it('reads numbers, bigints and integer text exactly, and refuses anything else', () => {
    // node-postgres: int8 and numeric as text; PGlite: int8 as a number (a bigint past 2^53), numeric as text.
    expect([centsOf(9_999_999_999), centsOf(9_999_999_999n), centsOf('9999999999'), centsOf('-5'), centsOf('0')]).toEqual([
      9_999_999_999, 9_999_999_999, 9_999_999_999, -5, 0,
    ]);
    expect(centsOf(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    for (const bad of ['9007199254740993', 9_007_199_254_740_993n, 2 ** 53, '12.5', 12.5, '', ' 1', '1e3', null, undefined, Number.NaN, Infinity]) {
      expect(() => centsOf(bad)).toThrow(/money value out of range/);
    }
  });
});
