// The admin paying withdraw lines through the real API on a real database (DECISIONS "Money",
// "Roles", "Files"; decision 052): the reveal of one line's card in full, the payment file of the
// waited lines (full details, its token scoped to its selection, each exported line in the admin
// log, the paid file back through the confirm upload) and paying lines in bulk, all or nothing.
// The rules are in src/server/money/payout-details.ts and withdraw-service.ts payBatch.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { withdrawMessages as WM } from '../../../machines/withdraw.machine.ts';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { users } from '../../../src/server/db/schema/accounts.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { withdrawRequests } from '../../../src/server/db/schema/money.ts';
import { cardTypeLabel, paymentTypeLabel } from '../../../machines/bank-card.ts';
import { PAYMENT_FILE_HEADER } from '../../../src/server/files/withdraw-payment-export.ts';
import { CONFIRM_HEADERS } from '../../../src/server/files/withdraw-confirm-upload.ts';
import { payoutMessages as PM } from '../../../src/server/money/payout-details.ts';
import { withdrawServiceMessages as M } from '../../../src/server/money/withdraw-service.ts';
import { signIn } from '../support/board-fixtures.ts';
import { call, useTestApp } from '../support/harness.ts';
import { agreedApplication, moneyWorld, storedPayment } from '../support/money-fixtures.ts';
import { multipart, rowsOf, XLSX_MIME } from '../support/sheets.ts';
import { client, storedTask } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});
const db = () => t().database.db;

type Api = ReturnType<typeof client>;

interface Details {
  requestId: number;
  cardId: number;
  paymentType: string;
  accountName: string;
  cardNo: string;
  routingNumber: string;
  bankInfo: string;
  cardType: string;
  address: string;
}
interface BatchResult {
  status: 'succ' | 'failed';
  msg: string;
  rows: { id: number; ok: boolean; msg: string }[];
}

const WIRE = {
  paymentType: 'Wire',
  accountName: 'Ann Lee Holder',
  cardNo: '000123456789',
  routingNumber: '021000021',
  bankInfo: 'Chase',
  address: '1 Main St',
};
const BILLPAY = { paymentType: 'Billpay', accountName: 'Ann Lee Holder', cardNo: '4111111111111111', bankInfo: 'Citi', cardType: 'visa', address: '2 Side St' };
const ZELLE = { paymentType: 'Zelle', accountName: 'Bo Li', cardNo: '+1 555 0100', address: 'NY' };

async function bindCard(api: Api, body: Record<string, unknown>) {
  const res = await api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', body);
  if (res.body.code !== 'A00000') throw new Error(`bind failed: ${JSON.stringify(res.body)}`);
  return res.body.data!.card.id;
}

async function ordered(api: Api, lines: { cardId: number; withdrawAmount: number }[], taskIds: number[]) {
  const res = await api.post<{ orderId: number }>('/api/withdraw/user/request', { requests: lines, taskIds });
  if (res.body.code !== 'A00000') throw new Error(`request failed: ${JSON.stringify(res.body)}`);
  const orderId = res.body.data!.orderId;
  return db()
    .select()
    .from(withdrawRequests)
    .where(eq(withdrawRequests.orderId, String(orderId)))
    .orderBy(withdrawRequests.id);
}

/**
 * Admin, lowerAdmin, members a and b. Member a's order pays 21.00 + 5.00 over a Wire card (20.00)
 * and a Billpay card (6.00); member b's order pays 7.00 to a Zelle account.
 */
async function world() {
  const { app, database } = t();
  const w = await moneyWorld(app, database);
  const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
  const x = await agreedApplication(database, w, w.a, { buyIn: 10.5, count: 2 });
  const y = await agreedApplication(database, w, w.a, { buyIn: 5, count: 1 });
  const z = await agreedApplication(database, w, w.b, { buyIn: 7, count: 1 });
  const wire = await bindCard(w.a.api, WIRE);
  const billpay = await bindCard(w.a.api, BILLPAY);
  const zelle = await bindCard(w.b.api, ZELLE);
  const [a1, a2] = await ordered(
    w.a.api,
    [
      { cardId: wire, withdrawAmount: 20 },
      { cardId: billpay, withdrawAmount: 6 },
    ],
    [x.task.id, y.task.id],
  );
  const [b1] = await ordered(w.b.api, [{ cardId: zelle, withdrawAmount: 7 }], [z.task.id]);
  const adminToken = await createSession(database.db, w.adminUser.id, false);
  return {
    ...w,
    lower: client(app, lower.token),
    lowerUser: lower.user,
    lowerToken: lower.token,
    adminToken,
    x,
    y,
    z,
    wire,
    billpay,
    zelle,
    a1: a1!,
    a2: a2!,
    b1: b1!,
  };
}
type World = Awaited<ReturnType<typeof world>>;

const reveal = (api: Api, id: number) => api.post<Details>('/api/withdraw/admin/card/reveal', { id });
const fileToken = (api: Api, body: Record<string, unknown>) =>
  api.post<{ token: string; expireAt: number; count: number }>('/api/withdraw/admin/payment-file/token', body);
const download = (token: string) => t().app.inject({ method: 'GET', url: `/ext/excel/withdraw-payment/${token}` });
const payBatch = (api: Api, ids: number[]) => api.post<BatchResult>('/api/withdraw/admin/paid/batch', { ids });
const adminPaid = (api: Api, id: number) => api.post('/api/withdraw/admin/paid', { id });
const lineStatuses = async (...ids: number[]) => {
  const rows = await db().select().from(withdrawRequests).orderBy(withdrawRequests.id);
  return ids.map((id) => rows.find((r) => r.id === id)!.status);
};
const auditsOf = (action: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'withdraw'), eq(auditLog.action, action)))
    .orderBy(auditLog.id);
const statusOf = async (id: number) => (await storedPayment(t().database, id)).status;

/** The row of the payment file a line should be. */
const fileRow = (line: World['a1'], d: Omit<Details, 'requestId' | 'cardId'>, nick: string, mail: string, amount: number) => [
  line.id,
  Number(line.orderId),
  amount,
  nick,
  mail,
  // The types in the screens' words (machines/bank-card.ts).
  paymentTypeLabel(d.paymentType),
  d.accountName,
  d.cardNo,
  d.routingNumber,
  d.bankInfo,
  cardTypeLabel(d.cardType),
  d.address,
];

describe('reveal the card of a withdraw line (admin only, audited, not cached)', () => {
  it("answers the admin every detail in full: the line's holder name, number and address, its card's routing number, bank and type", async () => {
    const w = await world();
    const res = await reveal(w.admin, w.a1.id);
    expect(res).toMatchObject({ status: 200, body: { code: 'A00000' } });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.data).toEqual({
      requestId: w.a1.id,
      cardId: w.wire,
      paymentType: 'Wire',
      accountName: 'Ann Lee Holder',
      cardNo: '000123456789',
      routingNumber: '021000021',
      bankInfo: 'Chase',
      cardType: '',
      address: '1 Main St',
    });
    expect((await reveal(w.admin, w.a2.id)).body.data).toEqual({
      requestId: w.a2.id,
      cardId: w.billpay,
      paymentType: 'Billpay',
      accountName: 'Ann Lee Holder',
      cardNo: '4111111111111111',
      routingNumber: '',
      bankInfo: 'Citi',
      cardType: 'visa',
      address: '2 Side St',
    });
    // The list still shows the number masked.
    const list = await w.admin.get<{ requestPage: { content: { id: number; cardNo: string; accountName: string }[] } }>('/api/withdraw/admin/requests');
    expect(list.body.data!.requestPage.content.find((l) => l.id === w.a1.id)).toMatchObject({ cardNo: '****6789', accountName: '****lder' });
  });

  it('writes who revealed which line, and when, into the admin log, without the clear values', async () => {
    const w = await world();
    const before = Date.now();
    await reveal(w.admin, w.b1.id);
    const entries = await auditsOf('reveal');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ entity: 'withdraw', action: 'reveal', entityId: w.b1.id, opUid: w.adminUser.id, userId: w.b.user.id });
    expect(entries[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(entries)).not.toMatch(/Bo Li|555 0100|v1\./);
    // Each reveal is its own entry.
    await reveal(w.admin, w.b1.id);
    expect(await auditsOf('reveal')).toHaveLength(2);
  });

  it('refuses a lowerAdmin and a member (A00003) and writes nothing; another id is A00004', async () => {
    const w = await world();
    for (const api of [w.lower, w.a.api]) {
      const res = await reveal(api, w.a1.id);
      expect(res).toMatchObject({ status: 403, body: { code: 'A00003' } });
      expect(JSON.stringify(res.body)).not.toContain('000123456789');
    }
    expect(await auditsOf('reveal')).toEqual([]);
    expect(await reveal(w.admin, 999_999)).toMatchObject({ status: 404, body: { code: 'A00004', msg: WM.notFound } });
    expect(await auditsOf('reveal')).toEqual([]);
  });
});

describe('the payment file of waited lines (admin only, full details, audited, token scoped to its selection)', () => {
  it('holds the chosen lines that wait to be paid, in full, the confirm columns first; every exported line is in the admin log', async () => {
    const w = await world();
    expect((await adminPaid(w.admin, w.b1.id)).body.code).toBe('A00000');
    const tok = await fileToken(w.admin, { ids: [w.a2.id, w.b1.id, w.a1.id], timezone: 8 });
    // b's line is paid already: only a's two lines are in the file.
    expect(tok).toMatchObject({ status: 200, body: { code: 'A00000', data: { count: 2 } } });
    const file = await download(tok.body.data!.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe(XLSX_MIME);
    expect(file.headers['cache-control']).toBe('no-store');
    expect(String(file.headers['content-disposition'])).toMatch(/^attachment; filename="withdraw-payments-\d{12}\.xlsx"/);
    const rows = rowsOf(file.rawPayload);
    expect(rows[0]).toEqual([...PAYMENT_FILE_HEADER]);
    expect(rows[0]!.slice(0, 3)).toEqual([CONFIRM_HEADERS.id, CONFIRM_HEADERS.orderId, CONFIRM_HEADERS.amount]);
    expect(rows.slice(1)).toEqual([
      fileRow(w.a1, { ...WIRE, cardType: '' }, '小A', 'a@x.test', 20),
      fileRow(w.a2, { ...BILLPAY, routingNumber: '' }, '小A', 'a@x.test', 6),
    ]);
    expect(rows.slice(1).map((r) => [r[5], r[10]])).toEqual([
      ['电汇', ''],
      ['账单支付', 'Visa'],
    ]);
    const entries = await auditsOf('paymentExport');
    expect(entries.map((e) => [e.entityId, e.opUid, e.userId])).toEqual([
      [w.a1.id, w.adminUser.id, w.a.user.id],
      [w.a2.id, w.adminUser.id, w.a.user.id],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/Ann Lee Holder|000123456789|4111111111111111|021000021/);
    // Asking for the token alone exports nothing.
    await fileToken(w.admin, { ids: [w.a1.id] });
    expect(await auditsOf('paymentExport')).toHaveLength(2);
  });

  it('without ids, takes the waited lines the filters select, read again when the file is downloaded', async () => {
    const w = await world();
    const byUser = await fileToken(w.admin, { userId: w.a.user.id, isDesc: false });
    expect(byUser.body.data!.count).toBe(2);
    const everything = await fileToken(w.admin, {});
    expect(everything.body.data!.count).toBe(3);
    // a's first line is paid between the token and the download: the file no longer holds it.
    expect((await adminPaid(w.admin, w.a1.id)).body.code).toBe('A00000');
    const rows = rowsOf((await download(byUser.body.data!.token)).rawPayload).slice(1);
    expect(rows.map((r) => r[0])).toEqual([w.a2.id]);
    // The newest first by default, and b's line too when no filter is given.
    const all = rowsOf((await download(everything.body.data!.token)).rawPayload).slice(1);
    expect(all.map((r) => r[0])).toEqual([w.b1.id, w.a2.id]);
    expect(all[0]!.slice(3, 9)).toEqual(['小B', 'b@x.test', 'Zelle', 'Bo Li', '+1 555 0100', '']);
    const byOrder = await fileToken(w.admin, { orderId: Number(w.b1.orderId) });
    expect(
      rowsOf((await download(byOrder.body.data!.token)).rawPayload)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([w.b1.id]);
  });

  it('refuses a selection without a waited line (A00001), and a lowerAdmin or member (A00003)', async () => {
    const w = await world();
    expect((await adminPaid(w.admin, w.b1.id)).body.code).toBe('A00000');
    expect(await fileToken(w.admin, { ids: [w.b1.id, 999_999] })).toMatchObject({ status: 400, body: { code: 'A00001', msg: PM.nothingToPay } });
    expect(await fileToken(w.admin, { userId: w.b.user.id })).toMatchObject({ status: 400, body: { code: 'A00001', msg: PM.nothingToPay } });
    expect((await fileToken(w.admin, { ids: [] })).status).toBe(400);
    for (const api of [w.lower, w.a.api]) expect(await fileToken(api, { ids: [w.a1.id] })).toMatchObject({ status: 403, body: { code: 'A00003' } });
  });

  it('opens with its own token only: not with a withdraw export token, not on another link, not once its admin is a lowerAdmin', async () => {
    const w = await world();
    const payment = (await fileToken(w.admin, { ids: [w.a1.id] })).body.data!.token;
    const exportToken = (await w.admin.get<{ token: string }>('/api/download/excel/withdraw/token')).body.data!.token;
    const refused = { statusCode: 404 };
    expect(await download(exportToken)).toMatchObject(refused);
    expect(await t().app.inject({ method: 'GET', url: `/ext/excel/withdraw/${payment}` })).toMatchObject(refused);
    expect(await download('T'.repeat(43))).toMatchObject(refused);
    expect(await auditsOf('paymentExport')).toEqual([]);
    // An admin demoted since the token was issued gets nothing.
    await db().update(users).set({ roleType: 'lowerAdmin' }).where(eq(users.id, w.adminUser.id));
    const demoted = await download(payment);
    expect(demoted.statusCode).toBe(404);
    expect(demoted.json()).toMatchObject({ code: 'A00004' });
    expect(await auditsOf('paymentExport')).toEqual([]);
  });

  it('once paid, the same file uploaded to the confirm marks exactly its lines paid', async () => {
    const w = await world();
    const tok = await fileToken(w.admin, { userId: w.a.user.id });
    const file = await download(tok.body.data!.token);
    const body = multipart(file.rawPayload);
    const res = await call<{ succ: number; error: number }>(t().app, {
      method: 'POST',
      url: '/api/withdraw/admin/confirm',
      headers: { 'x-token': w.adminToken, ...body.headers },
      payload: body.payload,
    });
    expect(res.body).toMatchObject({ code: 'A00000', data: { succ: 2, error: 0 } });
    expect(await lineStatuses(w.a1.id, w.a2.id, w.b1.id)).toEqual(['paid', 'paid', 'waited']);
    expect(await statusOf(w.x.apply.id)).toBe('paid');
    expect(await statusOf(w.y.apply.id)).toBe('paid');
    expect(await statusOf(w.z.apply.id)).toBe('withdrawing');
  });
});

describe('pay lines in bulk (all or nothing)', () => {
  it('pays every chosen waited line, and the applications of orders now wholly paid, as paying them one by one does', async () => {
    const w = await world();
    const res = await payBatch(w.admin, [w.a1.id, w.b1.id, w.a2.id]);
    expect(res).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.batchPaid(3), data: { status: 'succ', msg: M.batchPaid(3) } } });
    expect(res.body.data!.rows).toEqual([
      { id: w.a1.id, ok: true, msg: M.paidOk },
      { id: w.b1.id, ok: true, msg: M.paidOk },
      { id: w.a2.id, ok: true, msg: M.paidOk },
    ]);
    expect(await lineStatuses(w.a1.id, w.a2.id, w.b1.id)).toEqual(['paid', 'paid', 'paid']);
    for (const app of [w.x, w.y, w.z]) {
      expect(await statusOf(app.apply.id)).toBe('paid');
      expect((await storedTask(t().database, app.task.id)).status).toBe('finished');
    }
    // The member can no longer cancel, and sees the lines paid.
    const mine = await w.a.api.get<{ requestPage: { content: { status: string; cancelFlag: boolean }[] } }>('/api/withdraw/user/requests');
    expect(mine.body.data!.requestPage.content.map((l) => [l.status, l.cancelFlag])).toEqual([
      ['paid', false],
      ['paid', false],
    ]);
    expect((await auditsOf('payBatch')).map((e) => e.entityId)).toEqual([w.a1.id, w.b1.id, w.a2.id]);
  });

  it('pays only part of an order: its applications wait for the rest, and the order can no longer be cancelled', async () => {
    const w = await world();
    expect((await payBatch(w.admin, [w.a1.id])).body.data!.status).toBe('succ');
    expect(await lineStatuses(w.a1.id, w.a2.id)).toEqual(['paid', 'waited']);
    expect(await statusOf(w.x.apply.id)).toBe('withdrawing');
    expect(await w.a.api.post('/api/withdraw/user/cancel/order', { orderId: Number(w.a1.orderId) })).toMatchObject({
      status: 400,
      body: { code: 'A00001', msg: WM.cancelNotAllowed },
    });
  });

  it("changes nothing when one line may not be paid, and says which line and the machine's reason", async () => {
    const w = await world();
    expect((await adminPaid(w.admin, w.a2.id)).body.code).toBe('A00000');
    const res = await payBatch(w.admin, [w.a1.id, w.a2.id, w.b1.id, 999_999]);
    expect(res).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.batchRefused(2), data: { status: 'failed', msg: M.batchRefused(2) } } });
    expect(res.body.data!.rows).toEqual([
      { id: w.a1.id, ok: true, msg: M.batchNotApplied },
      { id: w.a2.id, ok: false, msg: WM.payWaitedOnly },
      { id: w.b1.id, ok: true, msg: M.batchNotApplied },
      { id: 999_999, ok: false, msg: WM.notFound },
    ]);
    expect(await lineStatuses(w.a1.id, w.a2.id, w.b1.id)).toEqual(['waited', 'paid', 'waited']);
    expect(await statusOf(w.x.apply.id)).toBe('withdrawing');
    expect(await statusOf(w.z.apply.id)).toBe('withdrawing');
    expect(await auditsOf('payBatch')).toEqual([]);
    // A line whose member asked to cancel is refused too.
    expect((await w.b.api.post('/api/withdraw/user/cancel/order', { orderId: Number(w.b1.orderId) })).body.code).toBe('A00000');
    expect((await payBatch(w.admin, [w.b1.id])).body.data).toMatchObject({ status: 'failed', rows: [{ id: w.b1.id, ok: false, msg: WM.payWaitedOnly }] });
  });

  it('is refused to a lowerAdmin and a member (A00003), and an empty list is bad input', async () => {
    const w = await world();
    for (const api of [w.lower, w.a.api]) expect(await payBatch(api, [w.a1.id])).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await payBatch(w.admin, [])).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await lineStatuses(w.a1.id)).toEqual(['waited']);
  });
});

describe('the payout log: who read whose payout details (admin only, filterable, masked; decision 168)', () => {
  interface PayoutEntry {
    action: 'reveal' | 'paymentExport';
    opUid: number;
    opName?: string;
    userId: number;
    userName?: string;
    lineId: number;
    orderId: string;
    paymentType: string;
    accountName: string;
    cardNo: string;
    withdrawAmount: number;
    createdAt: number;
  }
  const log = (api: Api, query = '') =>
    api.get<{ content: PayoutEntry[]; totalElements: number; totalPages: number }>(`/api/audit/payout/list${query ? `?${query}` : ''}`);
  const lineIds = (res: Awaited<ReturnType<typeof log>>) => res.body.data!.content.map((e) => [e.action, e.lineId]);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  it('lists each reveal and each exported line, newest first, with the admin, the member and the line masked; the filters narrow it', async () => {
    const w = await world();
    await reveal(w.admin, w.b1.id);
    expect((await download((await fileToken(w.admin, { ids: [w.a1.id, w.a2.id] })).body.data!.token)).statusCode).toBe(200);
    const all = await log(w.admin);
    expect(all).toMatchObject({ status: 200, body: { code: 'A00000', data: { totalElements: 3, totalPages: 1 } } });
    expect(lineIds(all)).toEqual([
      ['paymentExport', w.a2.id],
      ['paymentExport', w.a1.id],
      ['reveal', w.b1.id],
    ]);
    const revealed = all.body.data!.content[2]!;
    expect(revealed).toMatchObject({
      opUid: w.adminUser.id,
      opName: w.adminUser.nickName,
      userId: w.b.user.id,
      userName: '小B',
      orderId: String(Number(w.b1.orderId)),
      paymentType: 'Zelle',
      accountName: '****Li',
      withdrawAmount: 7,
    });
    expect(all.body.data!.content[1]).toMatchObject({ userName: '小A', paymentType: 'Wire', cardNo: '****6789', withdrawAmount: 20 });
    expect(JSON.stringify(all.body)).not.toMatch(/Ann Lee Holder|000123456789|4111111111111111|Bo Li"|555 0100/);

    expect(lineIds(await log(w.admin, 'action=reveal'))).toEqual([['reveal', w.b1.id]]);
    expect(lineIds(await log(w.admin, `userId=${w.a.user.id}&isDesc=false`))).toEqual([
      ['paymentExport', w.a1.id],
      ['paymentExport', w.a2.id],
    ]);
    expect(lineIds(await log(w.admin, `opUid=${w.adminUser.id}&action=paymentExport&size=1`))).toEqual([['paymentExport', w.a2.id]]);
    expect((await log(w.admin, `opUid=${w.lowerUser.id}`)).body.data!.content).toEqual([]);
    const today = day(Date.now());
    expect((await log(w.admin, `startTime=${today}&endTime=${today}&timezone=0`)).body.data!.totalElements).toBe(3);
    expect((await log(w.admin, `startTime=${day(Date.now() + 86_400_000)}&timezone=0`)).body.data!.content).toEqual([]);
    expect((await log(w.admin, `endTime=${day(Date.now() - 86_400_000)}&timezone=0`)).body.data!.content).toEqual([]);
    // Other withdraw changes (the request, a payment) are not reads of payout details.
    expect((await adminPaid(w.admin, w.b1.id)).body.code).toBe('A00000');
    expect((await log(w.admin)).body.data!.totalElements).toBe(3);
  });

  it('refuses a lowerAdmin and a member (A00003): they cannot read the payout details either', async () => {
    const w = await world();
    await reveal(w.admin, w.a1.id);
    for (const api of [w.lower, w.a.api]) {
      const res = await log(api);
      expect(res).toMatchObject({ status: 403, body: { code: 'A00003' } });
      expect(JSON.stringify(res.body)).not.toContain('****6789');
    }
    expect(await log(w.admin, 'startTime=2026-02-30')).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });
});
