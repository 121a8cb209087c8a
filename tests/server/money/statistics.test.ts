// Order amounts per member (/admin/task-amount-list; SPEC §7 GET
// /api/statistics/admin/task/amount/list, response data, pageNumber; §9 dates with the timezone
// offset) and their Excel export, through the real API on a real database. What is counted is
// decided in src/server/money/statistics.ts: the income of applications agreed or later, on the
// day they were agreed, in the caller's offset.
import { afterEach, describe, expect, it } from 'vitest';
import { dateMessages } from '../../../src/server/dates.ts';
import { TASK_AMOUNT_HEADER } from '../../../src/server/money/statistics.ts';
import { call, useTestApp } from '../support/harness.ts';
import { signIn } from '../support/board-fixtures.ts';
import { agreedApplication, appliedApplication, markWithdrawing, moneyWorld, setPayment, type MoneyWorld } from '../support/money-fixtures.ts';
import { client, refused } from '../support/task-fixtures.ts';
import { rowsOf, XLSX_MIME } from '../support/sheets.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

type Row = { userId: number; nickName: string; mailAddr: string; amount: number };
type Page = { data: Row[]; pageNumber: number };

/**
 * a (小A): 12.50 agreed on 2024-03-01 10:00Z and 25.00 withdrawing, agreed 2024-03-02 20:00Z;
 * b (小B): 50.00 collected, agreed 2024-03-01 23:30Z, and 12.50 only applied (never counted).
 */
async function amountsWorld() {
  const database = t().database;
  const w = await moneyWorld(t().app, database);
  const a1 = await agreedApplication(database, w, w.a, { count: 1 });
  const a2 = await agreedApplication(database, w, w.a, { count: 2 });
  const b1 = await agreedApplication(database, w, w.b, { count: 4 });
  await appliedApplication(database, w, w.b, { count: 1 });
  await markWithdrawing(database, w.a.actor, [a2.apply.id]);
  await markWithdrawing(database, w.b.actor, [b1.apply.id]);
  expect((await w.admin.post('/api/trade/admin/pay/confirm', { paymentApplyId: b1.apply.id })).body.code).toBe('A00000');
  expect((await w.b.api.post('/api/trade/user/collect/confirm', { paymentApplyId: b1.apply.id })).body.code).toBe('A00000');
  await setPayment(database, a1.apply.id, { agreedAt: new Date('2024-03-01T10:00:00Z') });
  await setPayment(database, a2.apply.id, { agreedAt: new Date('2024-03-02T20:00:00Z') });
  await setPayment(database, b1.apply.id, { agreedAt: new Date('2024-03-01T23:30:00Z') });
  const rowA = (amount: number): Row => ({ userId: w.a.user.id, nickName: '小A', mailAddr: 'a@x.test', amount });
  const rowB = (amount: number): Row => ({ userId: w.b.user.id, nickName: '小B', mailAddr: 'b@x.test', amount });
  return { w, rowA, rowB };
}

const list = (w: MoneyWorld, q = '') => w.admin.get<Page>(`/api/statistics/admin/task/amount/list${q ? `?${q}` : ''}`);

describe('order amounts per member', () => {
  it('sums the income agreed or later per member, sorted by user id or amount, either way', async () => {
    const { w, rowA, rowB } = await amountsWorld();
    // Default: by user id, descending; b's applied application is not counted.
    expect((await list(w)).body).toEqual({ code: 'A00000', msg: '', data: { data: [rowB(50), rowA(37.5)], pageNumber: 1 } });
    expect((await list(w, 'isAsc=true')).body.data!.data).toEqual([rowA(37.5), rowB(50)]);
    expect((await list(w, 'orderItem=2')).body.data!.data).toEqual([rowB(50), rowA(37.5)]);
    expect((await list(w, 'orderItem=2&isAsc=true')).body.data!.data).toEqual([rowA(37.5), rowB(50)]);
    expect((await list(w, `userId=${w.a.user.id}`)).body.data).toEqual({ data: [rowA(37.5)], pageNumber: 1 });
    // Paging: pageNumber is the number of pages.
    expect((await list(w, 'size=1')).body.data).toEqual({ data: [rowB(50)], pageNumber: 2 });
    expect((await list(w, 'size=1&page=1')).body.data).toEqual({ data: [rowA(37.5)], pageNumber: 2 });
    expect((await list(w, 'size=1&page=2')).body.data).toEqual({ data: [], pageNumber: 2 });
  });

  it('counts each application on the day it was agreed, in the caller’s timezone; members with nothing in the range are not listed', async () => {
    const { w, rowA, rowB } = await amountsWorld();
    const range = async (q: string) => (await list(w, q)).body.data!.data;
    expect(await range('startTime=2024-03-02&endTime=2024-03-02')).toEqual([rowA(25)]);
    // 2024-03-02 in UTC+8 is 2024-03-01 16:00Z .. 2024-03-02 16:00Z: only b's 23:30Z.
    expect(await range('startTime=2024-03-02&endTime=2024-03-02&timezone=8')).toEqual([rowB(50)]);
    // 2024-03-01 in UTC-5 is 05:00Z .. 2024-03-02 05:00Z.
    expect(await range('startTime=2024-03-01&endTime=2024-03-01&timezone=-5')).toEqual([rowB(50), rowA(12.5)]);
    // Open ends.
    expect(await range('startTime=2024-03-02')).toEqual([rowA(25)]);
    expect(await range('endTime=2024-03-01')).toEqual([rowB(50), rowA(12.5)]);
    expect(await range('startTime=2024-04-01')).toEqual([]);
    expect((await list(w, 'startTime=2024-04-01')).body.data!.pageNumber).toBe(0);
  });

  it('refuses a reversed range, a date that does not exist and members (lowerAdmin may read it)', async () => {
    const { w } = await amountsWorld();
    expect(await list(w, 'startTime=2024-03-02&endTime=2024-03-01')).toMatchObject(refused(dateMessages.reversed));
    expect(await list(w, 'startTime=2024-02-30')).toMatchObject(refused(dateMessages.invalidDate('startTime', '2024-02-30')));
    expect(await list(w, 'orderItem=3')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await w.a.api.get('/api/statistics/admin/task/amount/list')).toMatchObject({ status: 403, body: { code: 'A00003' } });
    const lower = await signIn(t().app, t().database, 'lower@x.test', { roleType: 'lowerAdmin' });
    expect((await client(t().app, lower.token).get<Page>('/api/statistics/admin/task/amount/list')).body.data!.data).toHaveLength(2);
  });
});

describe('the task-amount export', () => {
  const download = (url: string) => t().app.inject({ method: 'GET', url });
  const token = async (w: MoneyWorld, q = '') => {
    const res = await w.admin.get<{ token: string }>(`/api/download/excel/task-amount/token${q ? `?${q}` : ''}`);
    expect(res.body.code).toBe('A00000');
    return res.body.data!.token;
  };

  it('holds the rows of the filters in the list order, or only the selected members', async () => {
    const { w } = await amountsWorld();
    const tok = await token(w);
    const res = await download(`/ext/excel/task-amount/${tok}?orderItem=2&isAsc=true`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="task-amounts-\d{12}\.xlsx"/);
    const rows = rowsOf(res.rawPayload);
    expect(rows).toEqual([[...TASK_AMOUNT_HEADER], [w.a.user.id, '小A', 'a@x.test', 37.5], [w.b.user.id, '小B', 'b@x.test', 50]]);
    // Selected rows only.
    expect(rowsOf((await download(`/ext/excel/task-amount/${tok}?userIds=${w.b.user.id}`)).rawPayload).slice(1)).toEqual([
      [w.b.user.id, '小B', 'b@x.test', 50],
    ]);
    // The dates of the link.
    expect(rowsOf((await download(`/ext/excel/task-amount/${tok}?startTime=2024-03-02&endTime=2024-03-02&timezone=8`)).rawPayload).slice(1)).toEqual([
      [w.b.user.id, '小B', 'b@x.test', 50],
    ]);
  });

  it('keeps the dates given with the token when the link names none, and refuses members and bad tokens', async () => {
    const { w } = await amountsWorld();
    const tok = await token(w, 'startTime=2024-03-02&endTime=2024-03-02&timezone=0');
    expect(rowsOf((await download(`/ext/excel/task-amount/${tok}`)).rawPayload).slice(1)).toEqual([[w.a.user.id, '小A', 'a@x.test', 25]]);
    expect(await w.a.api.get('/api/download/excel/task-amount/token')).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await w.admin.get('/api/download/excel/task-amount/token?startTime=2024-03-02&endTime=2024-03-01')).toMatchObject(refused(dateMessages.reversed));
    expect(await call(t().app, { method: 'GET', url: '/ext/excel/task-amount/not-a-token' })).toMatchObject({ status: 404, body: { code: 'A00004' } });
    const tracking = await w.admin.get<{ token: string }>('/api/download/excel/tracking/token');
    expect(await call(t().app, { method: 'GET', url: `/ext/excel/task-amount/${tracking.body.data!.token}` })).toMatchObject({
      status: 404,
      body: { code: 'A00004' },
    });
  });
});
