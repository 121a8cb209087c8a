// Withdrawals through the real API on a real database (SPEC §2 /user/withdraw-request,
// /user/withdraw-orders, /admin/withdraw-list; §3 "Withdraw request"; §4 "Withdraw status"; §5
// "Withdraw request"; §7 "Withdraw"; §8 "Withdraw-confirm upload failure"; DECISIONS "Money",
// "Roles", "Files"). The machine's rules per state are proven in the machine tests; here each
// path is replayed against the API: what each call changes (lines, links, applications, tasks,
// parcels, balance), every refusal and its message, ownership (A00004), roles (lowerAdmin A00003),
// the confirm upload (all or nothing) and the export. The rules are in
// src/server/money/withdraw-service.ts.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { withdrawMessages as WM } from '../../../machines/withdraw.machine.ts';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { bankCards, withdrawOrderApplies, withdrawOrders, withdrawRequests } from '../../../src/server/db/schema/money.ts';
import { SHEET_MESSAGES } from '../../../src/server/files/parse-sheet.ts';
import { withdrawConfirmMessages as CM } from '../../../src/server/files/withdraw-confirm-upload.ts';
import { WITHDRAW_EXPORT_HEADER } from '../../../src/server/files/withdraw-export.ts';
import { cardKey, decryptField } from '../../../src/server/money/card-crypto.ts';
import { withdrawServiceMessages as M } from '../../../src/server/money/withdraw-service.ts';
import { call, useTestApp } from '../support/harness.ts';
import { signIn } from '../support/board-fixtures.ts';
import { multipart, rowsOf, xlsxOf, XLSX_MIME } from '../support/sheets.ts';
import { agreedApplication, appliedApplication, moneyWorld, scansOfTask, storedPayment } from '../support/money-fixtures.ts';
import { client, notFound, refused, storedTask } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});
const db = () => t().database;

type Api = ReturnType<typeof client>;
interface Line {
  id: number;
  userId: number;
  nickName?: string;
  orderId: number;
  cardId: number;
  paymentType: string;
  accountNameEncrypt: string;
  cardNoEncrypt: string;
  accountName: string;
  cardNo: string;
  address: string;
  withdrawAmount: number;
  userNote: string;
  status: 'waited' | 'paid' | 'requestedCancel' | 'canceled';
  cancelFlag: boolean;
  adminNote: string;
  adminNote2: string;
  createdAt: number;
  updatedAt: number;
}
interface Page {
  content: Line[];
  totalPages: number;
}
interface UploadRow {
  line: number;
  itemId?: number | null;
  name?: string;
  opStatus: 'succ' | 'skip' | 'error';
  msg?: string;
}
interface UploadResult {
  rows: UploadRow[];
  succ: number;
  skip: number;
  error: number;
}

const CARD = { accountName: 'Ann Lee Holder', address: '1 Main St' };

async function bindCard(api: Api, cardNo: string, paymentType = 'Zelle') {
  const res = await api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', { paymentType, ...CARD, cardNo });
  if (res.body.code !== 'A00000') throw new Error(`bind failed: ${JSON.stringify(res.body)}`);
  return res.body.data!.card.id;
}

/**
 * The world of these tests: admin, lowerAdmin, members a and b; member a has two agreed applications
 * (incomes 21.00 and 5.00) and three cards, member b one agreed application and a card.
 */
async function world() {
  const { app, database } = t();
  const w = await moneyWorld(app, database);
  const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
  const x = await agreedApplication(database, w, w.a, { buyIn: 10.5, count: 2 });
  const y = await agreedApplication(database, w, w.a, { buyIn: 5, count: 1 });
  const z = await agreedApplication(database, w, w.b, { buyIn: 7, count: 1 });
  const cards = [await bindCard(w.a.api, '5550001111'), await bindCard(w.a.api, '5550002222'), await bindCard(w.a.api, '5550003333')];
  const bCard = await bindCard(w.b.api, '5550009999');
  const adminToken = await createSession(database.db, w.adminUser.id, false);
  return { ...w, lower: client(app, lower.token), lowerToken: lower.token, adminToken, x, y, z, cards, bCard };
}
type World = Awaited<ReturnType<typeof world>>;

const request = (api: Api, body: unknown) => api.post<{ status: string; msg: string; orderId: number }>('/api/withdraw/user/request', body);

/** A successful request; returns its orderId. */
async function ordered(api: Api, lines: { cardId: number; withdrawAmount: number; userNote?: string }[], taskIds: number[]) {
  const res = await request(api, { requests: lines, taskIds });
  if (res.body.code !== 'A00000') throw new Error(`request failed: ${JSON.stringify(res.body)}`);
  return res.body.data!.orderId;
}

/** Member a's usual order: both applications (26.00) over two cards. */
const orderOfA = (w: World) =>
  ordered(
    w.a.api,
    [
      { cardId: w.cards[0]!, withdrawAmount: 20, userNote: ' first ' },
      { cardId: w.cards[1]!, withdrawAmount: 6 },
    ],
    [w.x.task.id, w.y.task.id],
  );

const myLines = async (api: Api, query = '') => (await api.get<{ requestPage: Page }>(`/api/withdraw/user/requests${query}`)).body.data!.requestPage;
const adminLines = async (api: Api, query = '') => (await api.get<{ requestPage: Page }>(`/api/withdraw/admin/requests${query}`)).body.data!.requestPage;
const linesOfOrder = async (orderId: number) =>
  db()
    .db.select()
    .from(withdrawRequests)
    .where(eq(withdrawRequests.orderId, String(orderId)))
    .orderBy(withdrawRequests.id);
const balance = async (api: Api) => (await api.get<{ balance: number }>('/api/user/balance')).body.data!.balance;
const statusOf = async (id: number) => (await storedPayment(db(), id)).status;
const links = () => db().db.select().from(withdrawOrderApplies).orderBy(withdrawOrderApplies.paymentApplyId);

const cancelOrder = (api: Api, orderId: number) => api.post('/api/withdraw/user/cancel/order', { orderId });
const agree = (api: Api, orderId: number) => api.post('/api/withdraw/admin/agree/cancel', { orderId });
const reject = (api: Api, orderId: number) => api.post('/api/withdraw/admin/reject/cancel', { orderId });
const memberPaid = (api: Api, id: number) => api.post('/api/withdraw/user/paid/request', { id });
const adminPaid = (api: Api, id: number) => api.post('/api/withdraw/admin/paid', { id });
const changeCard = (api: Api, requestId: number, cardId: number) => api.post('/api/withdraw/user/change/card', { requestId, cardId });

function upload(token: string, rows: unknown[][]) {
  const body = multipart(xlsxOf(rows, '提现记录'));
  return call<UploadResult>(t().app, {
    method: 'POST',
    url: '/api/withdraw/admin/confirm',
    headers: { 'x-token': token, ...body.headers },
    payload: body.payload,
  });
}

describe('request (SPEC §5 "Withdraw request"; DECISIONS "Money")', () => {
  it('makes one order with a line per card, links the applications and moves them to withdrawing, in cents', async () => {
    const w = await world();
    expect(await balance(w.a.api)).toBe(26);
    const res = await request(w.a.api, {
      requests: [
        { cardId: w.cards[0]!, withdrawAmount: 20.1, userNote: ' first ' },
        { cardId: w.cards[1]!, withdrawAmount: 5.9 },
      ],
      taskIds: [w.x.task.id, w.y.task.id],
    });
    expect(res).toMatchObject({ status: 200, body: { code: 'A00000', msg: WM.requested, data: { status: 'succ', msg: WM.requested } } });
    const orderId = res.body.data!.orderId;
    expect(Number.isInteger(orderId)).toBe(true);
    // The public orderId is the order's serial id; order_id holds its text.
    const [order] = await db().db.select().from(withdrawOrders);
    expect(order).toMatchObject({ id: orderId, orderId: String(orderId), userId: w.a.user.id });

    const page = await myLines(w.a.api);
    expect(page.totalPages).toBe(1);
    const byCard = [...page.content].sort((p, q) => p.id - q.id);
    expect(byCard).toEqual([
      expect.objectContaining({
        userId: w.a.user.id,
        orderId,
        cardId: w.cards[0],
        paymentType: 'Zelle',
        accountNameEncrypt: '****lder',
        cardNoEncrypt: '****1111',
        accountName: '****lder',
        cardNo: '****1111',
        address: '1 Main St',
        withdrawAmount: 20.1,
        userNote: 'first',
        status: 'waited',
        cancelFlag: true,
        adminNote: '',
        adminNote2: '',
      }),
      expect.objectContaining({ cardId: w.cards[1], withdrawAmount: 5.9, cardNo: '****2222', userNote: '' }),
    ]);
    expect(page.content[0]).not.toHaveProperty('nickName');
    expect(await statusOf(w.x.apply.id)).toBe('withdrawing');
    expect(await statusOf(w.y.apply.id)).toBe('withdrawing');
    expect((await links()).map((l) => ({ order: l.orderId, apply: l.paymentApplyId, live: l.live }))).toEqual([
      { order: String(orderId), apply: w.x.apply.id, live: true },
      { order: String(orderId), apply: w.y.apply.id, live: true },
    ]);
    expect(await balance(w.a.api)).toBe(0);
    expect((await w.a.api.get<{ paymentApplies: unknown[] }>('/api/apply/user/withdraw')).body.data!.paymentApplies).toEqual([]);
    // Each new line is audited, masked.
    const audits = await db()
      .db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'withdraw'), eq(auditLog.action, 'request')));
    expect(audits).toHaveLength(2);
    expect(JSON.stringify(audits)).not.toMatch(/5550001111|Ann Lee Holder|v1\./);
  });

  it("refuses with the dialog's messages: each card once, sums equal to the cent, agreed applications of the member only", async () => {
    const w = await world();
    const both = [w.x.task.id, w.y.task.id];
    expect(
      await request(w.a.api, {
        requests: [
          { cardId: w.cards[0]!, withdrawAmount: 13 },
          { cardId: w.cards[0]!, withdrawAmount: 13 },
        ],
        taskIds: both,
      }),
    ).toMatchObject(refused(WM.cardOnce));
    expect(await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 25.99 }], taskIds: both })).toMatchObject(refused(WM.sumMismatch));
    expect(await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 26.01 }], taskIds: both })).toMatchObject(refused(WM.sumMismatch));
    // 0.1 + 0.2 is 0.3 in cents.
    const small = await agreedApplication(db(), w, w.a, { buyIn: 0.3, count: 1 });
    expect(
      (
        await request(w.a.api, {
          requests: [
            { cardId: w.cards[0]!, withdrawAmount: 0.1 },
            { cardId: w.cards[1]!, withdrawAmount: 0.2 },
          ],
          taskIds: [small.task.id],
        })
      ).body.code,
    ).toBe('A00000');
    // Another member's task, a task without an application, an applied (not agreed) one, one already withdrawing.
    expect(await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 7 }], taskIds: [w.z.task.id] })).toMatchObject(
      refused(WM.taskNotWithdrawable),
    );
    expect(await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 7 }], taskIds: [999_999] })).toMatchObject(
      refused(WM.taskNotWithdrawable),
    );
    const applied = await appliedApplication(db(), w, w.a, { buyIn: 3, count: 1 });
    expect(await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 3 }], taskIds: [applied.task.id] })).toMatchObject(
      refused(WM.taskNotWithdrawable),
    );
    expect(await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 0.3 }], taskIds: [small.task.id] })).toMatchObject(
      refused(WM.taskNotWithdrawable),
    );
    // Cards: another member's, a missing one, an unbound one (A00004 as if it did not exist).
    expect(await request(w.a.api, { requests: [{ cardId: w.bCard, withdrawAmount: 26 }], taskIds: both })).toMatchObject({
      ...notFound,
      body: { code: 'A00004', msg: WM.cardNotFound },
    });
    expect(await request(w.a.api, { requests: [{ cardId: 999_999, withdrawAmount: 26 }], taskIds: both })).toMatchObject(notFound);
    expect((await w.a.api.post('/api/withdraw/user/unbind/card', { cardId: w.cards[2] })).body.code).toBe('A00000');
    expect(await request(w.a.api, { requests: [{ cardId: w.cards[2]!, withdrawAmount: 26 }], taskIds: both })).toMatchObject(notFound);
    // The contract: at least one task and one line, amounts with two places at most, above 0.
    expect((await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 26 }], taskIds: [] })).status).toBe(400);
    expect((await request(w.a.api, { requests: [], taskIds: both })).status).toBe(400);
    expect(await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 25.999 }], taskIds: both })).toMatchObject({
      status: 400,
      body: { code: 'A00001' },
    });
    expect((await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: 0 }], taskIds: both })).status).toBe(400);
    expect((await request(w.a.api, { requests: [{ cardId: w.cards[0]!, withdrawAmount: '26' }], taskIds: both })).status).toBe(400);
    // Nothing of the refused requests stayed.
    expect(await statusOf(w.x.apply.id)).toBe('agreed');
    expect(await balance(w.a.api)).toBe(26);
    expect(await db().db.select().from(withdrawOrders)).toHaveLength(1);
  });
});

describe('cancel (per order: member asks, admin agrees or rejects)', () => {
  it('request -> requestedCancel; agree -> canceled, links dropped, applications back in the balance and withdrawable again', async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    expect(await cancelOrder(w.a.api, orderId)).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.canceledOk, data: { status: 'succ' } } });
    expect((await linesOfOrder(orderId)).map((l) => l.status)).toEqual(['requestedCancel', 'requestedCancel']);
    // Asked once: the machine refuses a second request, and mark-paid / change card of a requestedCancel line.
    expect(await cancelOrder(w.a.api, orderId)).toMatchObject(refused(WM.cancelNotAllowed));
    const [first] = await linesOfOrder(orderId);
    expect(await memberPaid(w.a.api, first!.id)).toMatchObject(refused(WM.payWaitedOnly));
    expect(await changeCard(w.a.api, first!.id, w.cards[2]!)).toMatchObject(refused(WM.changeCardWaitedOnly));

    expect(await agree(w.admin, orderId)).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.agreedOk } });
    expect((await linesOfOrder(orderId)).map((l) => l.status)).toEqual(['canceled', 'canceled']);
    expect((await links()).map((l) => l.live)).toEqual([false, false]);
    expect(await statusOf(w.x.apply.id)).toBe('agreed');
    expect(await balance(w.a.api)).toBe(26);
    // Answered already: both admin answers are refused now.
    expect(await agree(w.admin, orderId)).toMatchObject(refused(WM.agreeCancelOnly));
    expect(await reject(w.admin, orderId)).toMatchObject(refused(WM.agreeCancelOnly));
    expect(await cancelOrder(w.a.api, orderId)).toMatchObject(refused(WM.cancelNotAllowed));
    // The same applications and cards make a new order (cancelled links are history only).
    const again = await orderOfA(w);
    expect(again).not.toBe(orderId);
    expect(await statusOf(w.x.apply.id)).toBe('withdrawing');
    expect((await links()).filter((l) => l.live).map((l) => l.orderId)).toEqual([String(again), String(again)]);
  });

  it('reject -> waited; the admin answers only requestedCancel orders; paying has started -> no cancel', async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    expect(await agree(w.admin, orderId)).toMatchObject(refused(WM.agreeCancelOnly));
    expect(await reject(w.admin, orderId)).toMatchObject(refused(WM.agreeCancelOnly));
    expect((await cancelOrder(w.a.api, orderId)).body.code).toBe('A00000');
    expect(await reject(w.admin, orderId)).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.rejectedOk } });
    expect((await linesOfOrder(orderId)).map((l) => [l.status, l.cancelFlag])).toEqual([
      ['waited', true],
      ['waited', true],
    ]);
    expect(await statusOf(w.x.apply.id)).toBe('withdrawing');
    // One line paid: cancelFlag is cleared on the whole order, which can no longer be cancelled.
    const [first] = await linesOfOrder(orderId);
    expect((await adminPaid(w.admin, first!.id)).body.code).toBe('A00000');
    expect((await linesOfOrder(orderId)).map((l) => l.cancelFlag)).toEqual([false, false]);
    expect(await cancelOrder(w.a.api, orderId)).toMatchObject(refused(WM.cancelNotAllowed));
    expect((await myLines(w.a.api)).content.map((l) => l.cancelFlag)).toEqual([false, false]);
    // Unknown orders.
    expect(await cancelOrder(w.a.api, 999_999)).toMatchObject({ ...notFound, body: { code: 'A00004', msg: WM.notFound } });
    expect(await agree(w.admin, 999_999)).toMatchObject(notFound);
  });
});

describe('paid (member or admin marks a line; the order wholly paid pays its applications)', () => {
  it('waited -> paid; when every line is paid the applications are paid, their tasks finished and parcels payed', async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    const [first, second] = await linesOfOrder(orderId);
    expect(await memberPaid(w.a.api, first!.id)).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.paidOk, data: { status: 'succ' } } });
    expect(await memberPaid(w.a.api, first!.id)).toMatchObject(refused(WM.payWaitedOnly));
    expect(await statusOf(w.x.apply.id)).toBe('withdrawing');
    expect((await storedTask(db(), w.x.task.id)).status).toBe('processing');
    expect(await adminPaid(w.admin, second!.id)).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.paidOk } });
    const lines = await linesOfOrder(orderId);
    expect(lines.map((l) => [l.status, l.paidAt instanceof Date])).toEqual([
      ['paid', true],
      ['paid', true],
    ]);
    expect(await statusOf(w.x.apply.id)).toBe('paid');
    expect(await statusOf(w.y.apply.id)).toBe('paid');
    expect((await storedTask(db(), w.x.task.id)).status).toBe('finished');
    expect((await scansOfTask(db(), w.y.task.id)).map((s) => s.status)).toEqual(['payed']);
    // The links stay live: the money went out through this order.
    expect((await links()).map((l) => l.live)).toEqual([true, true]);
    expect(await balance(w.a.api)).toBe(0);
    expect(await adminPaid(w.admin, second!.id)).toMatchObject(refused(WM.payWaitedOnly));
    expect(await adminPaid(w.admin, 999_999)).toMatchObject({ ...notFound, body: { code: 'A00004', msg: WM.notFound } });
  });

  it("an application the admin confirmed paid before is left as it is when the order's lines are paid", async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    expect((await w.admin.post('/api/trade/admin/pay/confirm', { paymentApplyId: w.x.apply.id })).body.code).toBe('A00000');
    expect((await linesOfOrder(orderId)).map((l) => l.cancelFlag)).toEqual([false, false]);
    for (const l of await linesOfOrder(orderId)) expect((await adminPaid(w.admin, l.id)).body.code).toBe('A00000');
    expect(await statusOf(w.x.apply.id)).toBe('paid');
    expect(await statusOf(w.y.apply.id)).toBe('paid');
  });
});

describe('an application confirmed paid while its order waits for a cancel answer', () => {
  it('answers the cancel as rejected: the order is waited again and pays as usual; agreeing is refused with its reason', async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    expect((await cancelOrder(w.a.api, orderId)).body.code).toBe('A00000');
    expect((await w.admin.post('/api/trade/admin/pay/confirm', { paymentApplyId: w.x.apply.id })).body.code).toBe('A00000');
    expect((await linesOfOrder(orderId)).map((l) => [l.status, l.cancelFlag])).toEqual([
      ['waited', false],
      ['waited', false],
    ]);
    expect(await agree(w.admin, orderId)).toMatchObject(refused(WM.agreeCancelOnly));
    expect(await statusOf(w.x.apply.id)).toBe('paid');
    for (const l of await linesOfOrder(orderId)) expect((await adminPaid(w.admin, l.id)).body.code).toBe('A00000');
    expect(await statusOf(w.y.apply.id)).toBe('paid');
  });
});

describe("an order's applications (listPaymentApplies?orderId: confirming receipt from the withdraw page)", () => {
  const appliesOf = async (api: Api, query: string) =>
    (await api.get<{ content: { id: number; status: string }[] }>(`/api/apply/list/page?${query}`)).body.data!.content.map((x) => [x.id, x.status]);

  it('lists the applications the order pays, to its member only; a cancelled order pays none; once paid, each is collected', async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    const bOrder = await ordered(w.b.api, [{ cardId: w.bCard, withdrawAmount: 7 }], [w.z.task.id]);
    expect(await appliesOf(w.a.api, `orderId=${orderId}`)).toEqual([
      [w.y.apply.id, 'withdrawing'],
      [w.x.apply.id, 'withdrawing'],
    ]);
    // Another member's order: nothing of it, as if it did not exist; the admin sees it.
    expect(await appliesOf(w.a.api, `orderId=${bOrder}`)).toEqual([]);
    expect(await appliesOf(w.admin, `orderId=${bOrder}`)).toEqual([[w.z.apply.id, 'withdrawing']]);

    for (const l of await linesOfOrder(orderId)) await memberPaid(w.a.api, l.id);
    expect(await appliesOf(w.a.api, `orderId=${orderId}&status=paid`)).toHaveLength(2);
    expect((await w.a.api.post('/api/trade/user/collect/confirm', { paymentApplyId: w.x.apply.id })).body.code).toBe('A00000');
    expect(await appliesOf(w.a.api, `orderId=${orderId}`)).toEqual([
      [w.y.apply.id, 'paid'],
      [w.x.apply.id, 'collected'],
    ]);

    // b cancels: the order's links are no longer live, so it pays nothing.
    await cancelOrder(w.b.api, bOrder);
    await agree(w.admin, bOrder);
    expect(await appliesOf(w.b.api, `orderId=${bOrder}`)).toEqual([]);
  });
});

describe('change card and admin notes', () => {
  it('changes the card of a waited line to another own live card not already in the order, replacing the snapshot', async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    const wire = await w.a.api.post<{ card: { id: number } }>('/api/withdraw/user/bind/card', {
      paymentType: 'Wire',
      accountName: 'Other Holder',
      cardNo: '99887766',
      bankInfo: 'Chase',
      routingNumber: '021000021',
      address: '2 Side St',
    });
    const wireId = wire.body.data!.card.id;
    const [first, second] = await linesOfOrder(orderId);
    expect(await changeCard(w.a.api, first!.id, w.cards[1]!)).toMatchObject(refused(WM.cardOnce));
    expect(await changeCard(w.a.api, first!.id, w.bCard)).toMatchObject({ ...notFound, body: { code: 'A00004', msg: WM.cardNotFound } });
    expect(await changeCard(w.a.api, first!.id, wireId)).toMatchObject({ status: 200, body: { code: 'A00000', msg: M.changedOk } });
    const line = (await myLines(w.a.api, `?cardId=${wireId}`)).content;
    expect(line).toEqual([
      expect.objectContaining({
        id: first!.id,
        cardId: wireId,
        paymentType: 'Wire',
        accountName: '****lder',
        cardNo: '****7766',
        address: '2 Side St',
        withdrawAmount: 20,
      }),
    ]);
    const [stored] = await linesOfOrder(orderId);
    expect(decryptField(cardKey(t().config), 'cardNo', stored!.cardNoEncrypt!)).toBe('99887766');
    // The old card is free again: it may be unbound, the new one may not.
    expect((await w.a.api.post('/api/withdraw/user/unbind/card', { cardId: w.cards[0] })).body.code).toBe('A00000');
    expect(await w.a.api.post('/api/withdraw/user/unbind/card', { cardId: wireId })).toMatchObject(refused('该银行卡有未完成的提现，不能删除'));
    // Paid lines keep their card.
    expect((await adminPaid(w.admin, second!.id)).body.code).toBe('A00000');
    expect(await changeCard(w.a.api, second!.id, w.cards[2]!)).toMatchObject(refused(WM.changeCardWaitedOnly));
    // The contract requires the card.
    expect((await w.a.api.post('/api/withdraw/user/change/card', { requestId: first!.id })).status).toBe(400);
  });

  it('saves the account note and the date note of a line; a field left out keeps its value', async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    const [first] = await linesOfOrder(orderId);
    const save = (body: Record<string, unknown>) => w.admin.post<Line>('/api/withdraw/admin/adminnote/save', body);
    expect(await save({ requestId: first!.id, adminNote: ' 招商 6222 ', adminNote2: '2026-11-30' })).toMatchObject({
      status: 200,
      body: { code: 'A00000', msg: M.savedOk, data: { id: first!.id, adminNote: '招商 6222', adminNote2: '2026-11-30', status: 'waited', cardNo: '****1111' } },
    });
    expect((await save({ requestId: first!.id, adminNote2: '2026-12-01' })).body.data).toMatchObject({ adminNote: '招商 6222', adminNote2: '2026-12-01' });
    expect(await save({ requestId: 999_999, adminNote: 'x' })).toMatchObject(notFound);
    expect((await save({ adminNote: 'x' })).status).toBe(400);
    expect((await myLines(w.a.api)).content.find((l) => l.id === first!.id)).toMatchObject({ adminNote: '招商 6222', adminNote2: '2026-12-01' });
  });
});

describe('ownership and roles (DECISIONS "Roles")', () => {
  it("a member neither sees nor touches another member's withdrawals (A00004)", async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    const [first] = await linesOfOrder(orderId);
    expect(await cancelOrder(w.b.api, orderId)).toMatchObject({ ...notFound, body: { code: 'A00004', msg: WM.notFound } });
    expect(await memberPaid(w.b.api, first!.id)).toMatchObject(notFound);
    expect(await changeCard(w.b.api, first!.id, w.bCard)).toMatchObject(notFound);
    expect((await myLines(w.b.api)).content).toEqual([]);
    expect((await myLines(w.b.api, `?orderId=${orderId}`)).content).toEqual([]);
    expect((await w.b.api.get<{ requestOrders: Page }>(`/api/withdraw/user/request/orders?orderId=${orderId}`)).body.data!.requestOrders.content).toEqual([]);
    expect((await linesOfOrder(orderId)).map((l) => [l.status, l.cardId])).toEqual([
      ['waited', w.cards[0]],
      ['waited', w.cards[1]],
    ]);
  });

  it('every withdraw-admin call is refused to a lowerAdmin (A00003) and to a member; the member calls to the admin side', async () => {
    const w = await world();
    const orderId = await orderOfA(w);
    const [first] = await linesOfOrder(orderId);
    for (const api of [w.lower, w.a.api]) {
      for (const res of [
        await agree(api, orderId),
        await reject(api, orderId),
        await adminPaid(api, first!.id),
        await api.post('/api/withdraw/admin/adminnote/save', { requestId: first!.id, adminNote: 'x' }),
        await api.get('/api/withdraw/admin/requests'),
        ...(api === w.lower ? [await api.get('/api/download/excel/withdraw/token')] : []),
      ]) {
        expect(res).toMatchObject({ status: 403, body: { code: 'A00003' } });
      }
    }
    expect((await upload(w.lowerToken, [['提现ID'], [first!.id]])).body).toMatchObject({ code: 'A00003' });
    for (const res of [await memberPaid(w.admin, first!.id), await cancelOrder(w.admin, orderId), await w.admin.get('/api/withdraw/user/requests')]) {
      expect(res).toMatchObject({ status: 403, body: { code: 'A00003' } });
    }
    expect((await linesOfOrder(orderId)).map((l) => [l.status, l.adminNote])).toEqual([
      ['waited', ''],
      ['waited', ''],
    ]);
  });
});

describe('lists', () => {
  it('filter by orderId, status and cardId, sort by creation time, page; the admin list adds userId and nickName', async () => {
    const w = await world();
    const first = await ordered(w.a.api, [{ cardId: w.cards[0]!, withdrawAmount: 21 }], [w.x.task.id]);
    const second = await ordered(
      w.a.api,
      [
        { cardId: w.cards[1]!, withdrawAmount: 2.5 },
        { cardId: w.cards[0]!, withdrawAmount: 2.5 },
      ],
      [w.y.task.id],
    );
    const third = await ordered(w.b.api, [{ cardId: w.bCard, withdrawAmount: 7 }], [w.z.task.id]);
    expect((await cancelOrder(w.a.api, first)).body.code).toBe('A00000');

    const all = await myLines(w.a.api);
    expect(all.content.map((l) => [l.orderId, l.withdrawAmount])).toEqual([
      [second, 2.5],
      [second, 2.5],
      [first, 21],
    ]);
    expect(all.content[0]!.id).toBeGreaterThan(all.content[1]!.id);
    expect((await myLines(w.a.api, '?isDesc=false')).content.map((l) => l.orderId)).toEqual([first, second, second]);
    expect((await myLines(w.a.api, `?orderId=${second}`)).content).toHaveLength(2);
    expect((await myLines(w.a.api, '?status=requestedCancel')).content.map((l) => l.orderId)).toEqual([first]);
    expect((await myLines(w.a.api, `?cardId=${w.cards[0]}`)).content.map((l) => l.orderId)).toEqual([second, first]);
    expect(await myLines(w.a.api, '?size=2&page=1')).toEqual({ content: [expect.objectContaining({ orderId: first })], totalPages: 2 });
    expect((await w.a.api.get('/api/withdraw/user/requests?status=nope')).status).toBe(400);

    const admin = await adminLines(w.admin);
    expect(admin.content.map((l) => [l.orderId, l.nickName])).toEqual([
      [third, '小B'],
      [second, '小A'],
      [second, '小A'],
      [first, '小A'],
    ]);
    expect((await adminLines(w.admin, `?userId=${w.b.user.id}`)).content.map((l) => l.orderId)).toEqual([third]);
    expect((await adminLines(w.admin, '?status=waited&isDesc=false')).content.map((l) => l.orderId)).toEqual([second, second, third]);
    expect(JSON.stringify(admin)).not.toMatch(/555000\d{4}|Ann Lee Holder|v1\./);

    // The orders list: one row per line, grouped by order (newest order first), lines in their order.
    const orders = (await w.a.api.get<{ requestOrders: Page }>('/api/withdraw/user/request/orders')).body.data!.requestOrders;
    expect(orders.content.map((l) => [l.orderId, l.cardId])).toEqual([
      [second, w.cards[1]],
      [second, w.cards[0]],
      [first, w.cards[0]],
    ]);
    expect((await w.a.api.get<{ requestOrders: Page }>(`/api/withdraw/user/request/orders?orderId=${first}`)).body.data!.requestOrders.content).toHaveLength(1);
  });

  it('stores no card number or holder name in clear in withdraw_requests', async () => {
    const w = await world();
    await orderOfA(w);
    const raw = JSON.stringify(await db().db.select().from(withdrawRequests));
    expect(raw).not.toMatch(/5550001111|5550002222|Ann Lee Holder/);
    const cards = JSON.stringify(await db().db.select().from(bankCards));
    expect(cards).not.toMatch(/555000\d{4}|Ann Lee Holder/);
  });
});

describe('confirm by Excel upload (all or nothing)', () => {
  it('pays every listed waited line; a line already paid is skip, so the same file twice changes nothing more', async () => {
    const w = await world();
    const orderA = await orderOfA(w);
    const orderB = await ordered(w.b.api, [{ cardId: w.bCard, withdrawAmount: 7 }], [w.z.task.id]);
    const [a1, a2] = await linesOfOrder(orderA);
    const [b1] = await linesOfOrder(orderB);
    const rows = [
      ['提现ID', '订单号', '金额', '备注'],
      [a1!.id, orderA, 20, 'ignored'],
      [String(a2!.id), String(orderA), '6.00'],
      [b1!.id, null, null],
    ];
    const res = await upload(w.adminToken, rows);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ succ: 3, skip: 0, error: 0 });
    expect(res.body.data!.rows).toEqual([
      expect.objectContaining({ line: 2, itemId: a1!.id, opStatus: 'succ', msg: CM.confirmed, name: `订单${orderA} Zelle ****1111 20.00` }),
      expect.objectContaining({ line: 3, itemId: a2!.id, opStatus: 'succ' }),
      expect.objectContaining({ line: 4, itemId: b1!.id, opStatus: 'succ' }),
    ]);
    expect([...(await linesOfOrder(orderA)), ...(await linesOfOrder(orderB))].map((l) => l.status)).toEqual(['paid', 'paid', 'paid']);
    for (const id of [w.x.apply.id, w.y.apply.id, w.z.apply.id]) expect(await statusOf(id)).toBe('paid');
    const again = await upload(w.adminToken, rows);
    expect(again.body.data).toMatchObject({ succ: 0, skip: 3, error: 0 });
    expect(again.body.data!.rows.map((r) => r.msg)).toEqual([CM.alreadyPaid, CM.alreadyPaid, CM.alreadyPaid]);
  });

  it('changes nothing when any row is wrong, and reports every row', async () => {
    const w = await world();
    const orderA = await orderOfA(w);
    const [a1, a2] = await linesOfOrder(orderA);
    expect((await cancelOrder(w.a.api, orderA)).body.code).toBe('A00000');
    expect((await reject(w.admin, orderA)).body.code).toBe('A00000');
    const orderB = await ordered(w.b.api, [{ cardId: w.bCard, withdrawAmount: 7 }], [w.z.task.id]);
    const [b1] = await linesOfOrder(orderB);
    expect((await cancelOrder(w.b.api, orderB)).body.code).toBe('A00000');
    const extra = await agreedApplication(db(), w, w.a, { buyIn: 4, count: 1 });
    const orderC = await ordered(w.a.api, [{ cardId: w.cards[2]!, withdrawAmount: 4 }], [extra.task.id]);
    const [c1] = await linesOfOrder(orderC);
    const res = await upload(w.adminToken, [
      ['提现ID', '订单号', '金额'],
      [a1!.id, orderA, 20],
      [a2!.id, orderA + 100, null],
      [a1!.id, null, null],
      [c1!.id, null, 4.01],
      ['abc', null, null],
      [999_999, null, null],
      [b1!.id, null, null],
      [null, orderA, 5],
      [a2!.id, null, '6.001'],
    ]);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe(CM.rejected(8));
    expect(res.body.data).toMatchObject({ succ: 0, skip: 1, error: 8 });
    expect(res.body.data!.rows.map((r) => [r.line, r.opStatus, r.msg])).toEqual([
      [2, 'skip', CM.notApplied],
      [3, 'error', CM.orderMismatch],
      [4, 'error', CM.duplicate(2)],
      [5, 'error', CM.amountMismatch],
      [6, 'error', CM.idInvalid],
      [7, 'error', CM.notFound],
      [8, 'error', WM.payWaitedOnly],
      [9, 'error', CM.idRequired],
      [10, 'error', CM.amountInvalid],
    ]);
    expect((await linesOfOrder(orderA)).map((l) => l.status)).toEqual(['waited', 'waited']);
    expect((await linesOfOrder(orderC)).map((l) => l.status)).toEqual(['waited']);
    expect(await statusOf(w.x.apply.id)).toBe('withdrawing');
    // An unusable file is refused as a whole (the upload's usual answers).
    expect(await upload(w.adminToken, [['订单号'], [orderA]])).toMatchObject({
      status: 400,
      body: { code: 'A00001', msg: SHEET_MESSAGES.missingColumns(['提现ID']) },
    });
  });

  it('the export of the waited lines is the confirm file', async () => {
    const w = await world();
    const orderA = await orderOfA(w);
    await ordered(w.b.api, [{ cardId: w.bCard, withdrawAmount: 7 }], [w.z.task.id]);
    const tokenRes = await w.admin.get<{ token: string; expireAt: number }>('/api/download/excel/withdraw/token?timezone=8');
    expect(tokenRes.body.code).toBe('A00000');
    const token = tokenRes.body.data!.token;
    const file = await t().app.inject({ method: 'GET', url: `/ext/excel/withdraw/${token}?userId=${w.a.user.id}&status=waited&isDesc=false` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe(XLSX_MIME);
    expect(String(file.headers['content-disposition'])).toMatch(/^attachment; filename="withdrawals-\d{12}\.xlsx"/);
    expect(file.headers['cache-control']).toBe('no-store');
    const rows = rowsOf(file.rawPayload);
    expect(rows[0]).toEqual([...WITHDRAW_EXPORT_HEADER]);
    const [a1, a2] = await linesOfOrder(orderA);
    expect(rows.slice(1)).toEqual([
      [
        a1!.id,
        orderA,
        20,
        w.a.user.id,
        '小A',
        'a@x.test',
        w.cards[0],
        'Zelle',
        '****lder',
        '****1111',
        '1 Main St',
        'first',
        '待付款',
        '是',
        '',
        '',
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
        expect.any(String),
      ],
      [
        a2!.id,
        orderA,
        6,
        w.a.user.id,
        '小A',
        'a@x.test',
        w.cards[1],
        'Zelle',
        '****lder',
        '****2222',
        '1 Main St',
        '',
        '待付款',
        '是',
        '',
        '',
        expect.any(String),
        expect.any(String),
      ],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/5550001111|Ann Lee Holder/);
    // Uploading the exported file pays exactly those lines.
    const body = multipart(file.rawPayload);
    const res = await call<UploadResult>(t().app, {
      method: 'POST',
      url: '/api/withdraw/admin/confirm',
      headers: { 'x-token': w.adminToken, ...body.headers },
      payload: body.payload,
    });
    expect(res.body.data).toMatchObject({ succ: 2, error: 0 });
    expect(await statusOf(w.x.apply.id)).toBe('paid');
    expect(await statusOf(w.z.apply.id)).toBe('withdrawing');
    // The token is the admin's and for this export only.
    expect((await t().app.inject({ method: 'GET', url: `/ext/excel/user-task/${token}` })).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'GET', url: '/ext/excel/withdraw/not-a-token' })).statusCode).toBe(404);
  });

  it('gives a member the export of their own orders only (/user/withdraw-orders), whatever the link asks', async () => {
    const w = await world();
    const orderA = await orderOfA(w);
    const orderB = await ordered(w.b.api, [{ cardId: w.bCard, withdrawAmount: 7 }], [w.z.task.id]);
    const exported = async (api: Api, query: string) => {
      const { token } = (await api.get<{ token: string; expireAt: number }>('/api/download/excel/withdraw/token')).body.data!;
      const file = await t().app.inject({ method: 'GET', url: `/ext/excel/withdraw/${token}${query}` });
      expect(file.statusCode).toBe(200);
      return rowsOf(file.rawPayload)
        .slice(1)
        .map((r) => r[1]);
    };
    expect(await exported(w.a.api, '')).toEqual([orderA, orderA]);
    // Asking for another member's lines gives the member's own, never b's.
    expect(await exported(w.a.api, `?userId=${w.b.user.id}`)).toEqual([orderA, orderA]);
    expect(await exported(w.b.api, '')).toEqual([orderB]);
  });
});
