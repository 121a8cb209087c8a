// A fake of the HTTP boundary of the withdraw screens (/user/withdraw-request, /user/withdraw-orders,
// /admin/withdraw-list) for app-harness's renderApp: routes (support/fake-api.ts) answering the contract's
// calls (envelopes, field names, status codes) on a small in-memory state, and a log of every call
// with its query and body. Status changes go through the machines as the server's do: a line's own
// change through machines/withdraw.machine.ts, an order's cancel and pay (cancelFlag cleared once
// payment starts) through machines/withdraw-order.machine.ts, so a refused event answers the
// machine's words; bulk pay is all or nothing. The member's
// cards come from the bank card fake, their full details (the admin's reveal) from FULL_CARDS. Tests
// replace single answers through `answer`. Only the web app is under test; the real server is proven
// by tests/server.
import type { components } from '../../../src/api/schema';
import { amountToCents, AWAITING_PAY_WITHDRAW_STATUS, decideWithdrawLine, withdrawRequestError, type WithdrawEvent } from '../../../machines/withdraw.machine';
import { decideWithdrawOrder, type OrderLine, type WithdrawOrderEvent } from '../../../machines/withdraw-order.machine';
import { aCard, createBankCardsFake, NOW, type BankCard } from '../bank-cards/bank-cards-fake';
import { createFakeServer, notFound, ok, pageOf, refuse, type Call, type FakeServer, type Routes } from '../support/fake-api';

export { aCard, refuse, NOW, type BankCard, type Call };

type Schemas = components['schemas'];
export type WithdrawRequest = Schemas['WithdrawRequest'];
export type PaymentApply = Schemas['PaymentApply'];
export type User = Schemas['User'];
export type UploadResult = Schemas['UploadResult'];

export const CARDS: BankCard[] = [
  aCard({ id: 31, paymentType: 'Wire', cardNo: '****1111', accountName: '****blic' }),
  aCard({ id: 32, paymentType: 'Paypal', cardNo: '****.com', accountName: '****Ann', routingNumber: '', bankInfo: '' }),
  aCard({ id: 33, paymentType: 'Zelle', cardNo: '****5555', accountName: '****Bob', routingNumber: '', bankInfo: '' }),
];

export type WithdrawCardDetails = Schemas['WithdrawCardDetails'];

/** The cards of CARDS unmasked, as the admin's reveal answers them (by card id). */
export const FULL_CARDS: Record<number, Omit<WithdrawCardDetails, 'requestId'>> = {
  31: {
    cardId: 31,
    paymentType: 'Wire',
    accountName: 'Acme Public',
    cardNo: '000123451111',
    routingNumber: '021000021',
    bankInfo: 'Chase',
    cardType: '',
    address: '1 Main St',
  },
  32: { cardId: 32, paymentType: 'Paypal', accountName: 'Ann Lee', cardNo: 'ann@pay.com', routingNumber: '', bankInfo: '', cardType: '', address: '2 Elm St' },
  33: { cardId: 33, paymentType: 'Zelle', accountName: 'Bob Ray', cardNo: '4155555555', routingNumber: '', bankInfo: '', cardType: '', address: '3 Oak St' },
};

export const USERS: User[] = [
  { id: 3, nickName: 'admin-name', mailAddr: 'admin@example.com', phoneNo: '', qq: '', roleType: 'admin' },
  { id: 21, nickName: 'alice', mailAddr: 'alice@demo.local', phoneNo: '', qq: '', roleType: 'user' },
  { id: 22, nickName: 'bob', mailAddr: 'bob@demo.local', phoneNo: '', qq: '', roleType: 'user' },
];

export function aLine(over: Partial<WithdrawRequest> = {}): WithdrawRequest {
  return {
    id: 501,
    userId: 21,
    orderId: 9001,
    cardId: 31,
    paymentType: 'Wire',
    accountNameEncrypt: '****blic',
    cardNoEncrypt: '****1111',
    accountName: '****blic',
    cardNo: '****1111',
    address: '1 Main St',
    withdrawAmount: 12.5,
    userNote: '月结',
    status: 'waited',
    cancelFlag: true,
    adminNote: '',
    adminNote2: '',
    createdAt: NOW,
    ...over,
  };
}

export function anApply(over: Partial<PaymentApply> = {}): PaymentApply {
  return {
    id: 701,
    taskId: 801,
    mainId: 801,
    subId: 0,
    userId: 21,
    itemName: '蓝牙耳机',
    price: 19.99,
    buyIn: 21.5,
    count: 1,
    bonus: 0,
    punish: 0,
    income: 21.5,
    note: '',
    status: 'agreed',
    existBonus: 0,
    createdAt: NOW,
    ...over,
  };
}

type AnswerKey =
  | 'request'
  | 'cancel'
  | 'userPaid'
  | 'changeCard'
  | 'agree'
  | 'reject'
  | 'adminPaid'
  | 'batchPay'
  | 'reveal'
  | 'paymentFile'
  | 'note'
  | 'token'
  | 'confirm'
  | 'balance'
  | 'applies';

export interface WithdrawFake {
  handlers: Routes;
  lines: WithdrawRequest[];
  applies: PaymentApply[];
  cards: BankCard[];
  balance: number;
  calls: Call[];
  answer: FakeServer<AnswerKey>['answer'];
  server: FakeServer<AnswerKey>;
  /** What the confirm upload answers (unless `answer.confirm` says otherwise). */
  confirmResult: UploadResult;
}

const OK_MSG = { request: '提交成功', cancel: '已申请取消', agree: '已同意取消', reject: '已拒绝取消', paid: '已标记为已付款', change: '更换成功' };

export function createWithdrawFake(seed: { lines?: WithdrawRequest[]; applies?: PaymentApply[]; cards?: BankCard[]; balance?: number } = {}): WithdrawFake {
  const server = createFakeServer<AnswerKey>();
  const cards = createBankCardsFake({ cards: seed.cards ?? CARDS.map((c) => ({ ...c })), server: server as FakeServer<string> });
  const fake: WithdrawFake = {
    handlers: server.handlers,
    // Copies: the fake changes its rows, a test's seed stays as written.
    lines: (seed.lines ?? [aLine()]).map((line) => ({ ...line })),
    applies: (seed.applies ?? [anApply()]).map((apply) => ({ ...apply })),
    cards: cards.cards,
    balance: seed.balance ?? 21.5,
    calls: server.calls,
    answer: server.answer,
    server,
    confirmResult: { rows: [], succ: 0, skip: 0, error: 0 },
  };
  let nextLine = 600;
  let nextOrder = 9100;

  function list(q: Record<string, string>, userId?: number) {
    let rows = [...fake.lines];
    if (userId !== undefined) rows = rows.filter((r) => r.userId === userId);
    if (q.userId) rows = rows.filter((r) => r.userId === Number(q.userId));
    if (q.orderId) rows = rows.filter((r) => r.orderId === Number(q.orderId));
    if (q.status) rows = rows.filter((r) => r.status === q.status);
    if (q.cardId) rows = rows.filter((r) => r.cardId === Number(q.cardId));
    rows.sort((a, b) => (q.isDesc === 'false' ? a.createdAt - b.createdAt || a.id - b.id : b.createdAt - a.createdAt || b.id - a.id));
    const { content, totalPages } = pageOf(rows, q);
    return { content, totalPages };
  }

  /** Applies a line's own `event` (change card) through the line machine. */
  function move(line: WithdrawRequest, event: WithdrawEvent): Response {
    const d = decideWithdrawLine(line, event);
    if (!d.ok) return refuse(d.msg);
    line.status = d.next;
    return ok({ status: 'succ', msg: OK_MSG.change });
  }

  /** Writes what the order machine answered for its lines. */
  const write = (lines: readonly OrderLine[]) => {
    for (const after of lines)
      Object.assign(
        fake.lines.find((l) => l.id === after.id)!,
        { status: after.status, cancelFlag: after.cancelFlag },
      );
  };

  /** Applies `event` to order `orderId` through the order machine, all its lines or none. */
  function moveOrder(orderId: number | undefined, event: WithdrawOrderEvent, msg: string): Response {
    const lines = fake.lines.filter((l) => l.orderId === orderId);
    if (lines.length === 0) return notFound('提现记录不存在');
    const answer = decideWithdrawOrder(lines, event);
    if (!answer.ok) return refuse(answer.msg);
    write(answer.lines);
    return ok({ status: 'succ', msg });
  }

  const payOne = (id: number, by: 'user' | 'admin') =>
    moveOrder(fake.lines.find((l) => l.id === id)?.orderId, { type: 'order.pay', lineIds: [id], by }, OK_MSG.paid);

  server.on('GET', '/api/withdraw/user/requests', ({ query }) => ok({ requestPage: list(query, 21) }));
  server.on('GET', '/api/withdraw/user/request/orders', ({ query }) => ok({ requestOrders: list(query, 21) }));
  server.on('GET', '/api/withdraw/admin/requests', ({ query }) => {
    const page = list(query);
    return ok({ requestPage: { ...page, content: page.content.map((l) => ({ ...l, nickName: USERS.find((u) => u.id === l.userId)?.nickName ?? '' })) } });
  });
  server.on('GET', '/api/user/balance', () => ok({ balance: fake.balance }), 'balance');
  server.on('GET', '/api/apply/user/withdraw', () => ok({ paymentApplies: fake.applies }), 'applies');
  server.on('GET', '/api/user/list', () => ok(USERS));

  server.on(
    'POST',
    '/api/withdraw/user/request',
    ({ body }) => {
      const { requests, taskIds } = body as { requests: { cardId: number; withdrawAmount: number; userNote?: string }[]; taskIds: number[] };
      const chosen = fake.applies.filter((a) => taskIds.includes(a.taskId));
      if (chosen.length !== taskIds.length) return refuse('所选任务中有不可提现的任务');
      const msg = withdrawRequestError(
        chosen.map((a) => Math.round(a.income * 100)),
        requests.map((r) => ({ cardId: r.cardId, amount: r.withdrawAmount })),
      );
      if (msg) return refuse(msg);
      const orderId = nextOrder++;
      for (const r of requests) {
        const card = fake.cards.find((c) => c.id === r.cardId);
        if (!card) return notFound('银行卡不存在');
        fake.lines.push(
          aLine({
            id: nextLine++,
            orderId,
            cardId: card.id,
            paymentType: card.paymentType,
            accountNameEncrypt: card.accountName,
            cardNoEncrypt: card.cardNo,
            accountName: card.accountName,
            cardNo: card.cardNo,
            withdrawAmount: (amountToCents(r.withdrawAmount) ?? 0) / 100,
            userNote: r.userNote ?? '',
            createdAt: NOW + nextLine,
          }),
        );
      }
      fake.applies = fake.applies.filter((a) => !taskIds.includes(a.taskId));
      fake.balance = fake.applies.reduce((s, a) => s + Math.round(a.income * 100), 0) / 100;
      return ok({ status: 'succ', msg: OK_MSG.request, orderId }, OK_MSG.request);
    },
    'request',
  );

  server.on(
    'POST',
    '/api/withdraw/user/cancel/order',
    ({ body }) => moveOrder((body as { orderId: number }).orderId, { type: 'order.requestCancel' }, OK_MSG.cancel),
    'cancel',
  );
  server.on('POST', '/api/withdraw/user/paid/request', ({ body }) => payOne((body as { id: number }).id, 'user'), 'userPaid');
  server.on(
    'POST',
    '/api/withdraw/user/change/card',
    ({ body }) => {
      const { requestId, cardId } = body as { requestId: number; cardId: number };
      const line = fake.lines.find((l) => l.id === requestId);
      const card = fake.cards.find((c) => c.id === cardId);
      if (!line || !card) return notFound('提现记录不存在');
      const answer = move(line, { type: 'wd.changeCard' });
      if (answer.ok)
        Object.assign(line, {
          cardId,
          paymentType: card.paymentType,
          cardNoEncrypt: card.cardNo,
          accountNameEncrypt: card.accountName,
          cardNo: card.cardNo,
          accountName: card.accountName,
        });
      return answer;
    },
    'changeCard',
  );

  server.on(
    'POST',
    '/api/withdraw/admin/agree/cancel',
    ({ body }) => moveOrder((body as { orderId: number }).orderId, { type: 'order.agreeCancel' }, OK_MSG.agree),
    'agree',
  );
  server.on(
    'POST',
    '/api/withdraw/admin/reject/cancel',
    ({ body }) => moveOrder((body as { orderId: number }).orderId, { type: 'order.rejectCancel' }, OK_MSG.reject),
    'reject',
  );
  server.on('POST', '/api/withdraw/admin/paid', ({ body }) => payOne((body as { id: number }).id, 'admin'), 'adminPaid');
  server.on(
    'POST',
    '/api/withdraw/admin/paid/batch',
    ({ body }) => {
      const ids = (body as { ids: number[] }).ids;
      const verdicts = ids.map((id) => {
        const line = fake.lines.find((l) => l.id === id);
        if (!line) return { id, line, ok: false, msg: '提现记录不存在', next: undefined };
        const d = decideWithdrawLine(line, { type: 'wd.pay', by: 'admin' });
        return d.ok ? { id, line, ok: true, msg: '', next: d.next } : { id, line, ok: false, msg: d.msg, next: undefined };
      });
      const rows = verdicts.map(({ id, ok: paid, msg }) => ({ id, ok: paid, msg }));
      if (verdicts.some((v) => !v.ok)) return ok({ status: 'failed', msg: '有不能付款的提现，未做任何修改', rows });
      // Each order's lines through the order machine (the lines it pays, every cancelFlag cleared).
      for (const orderId of new Set(verdicts.map((v) => v.line!.orderId))) {
        const lines = fake.lines.filter((l) => l.orderId === orderId);
        const answer = decideWithdrawOrder(lines, { type: 'order.pay', lineIds: ids.filter((id) => lines.some((l) => l.id === id)), by: 'admin' });
        if (answer.ok) write(answer.lines);
      }
      return ok({ status: 'succ', msg: `已将${ids.length}笔提现标记为已付款`, rows });
    },
    'batchPay',
  );
  server.on(
    'POST',
    '/api/withdraw/admin/card/reveal',
    ({ body }) => {
      const line = fake.lines.find((l) => l.id === (body as { id: number }).id);
      const card = line && FULL_CARDS[line.cardId];
      return line && card ? ok({ requestId: line.id, ...card }) : notFound('提现记录不存在');
    },
    'reveal',
  );
  server.on(
    'POST',
    '/api/withdraw/admin/payment-file/token',
    ({ body }) => {
      const q = body as { ids?: number[]; orderId?: number; userId?: number; cardId?: number };
      const waited = fake.lines.filter(
        (l) =>
          l.status === AWAITING_PAY_WITHDRAW_STATUS &&
          (q.ids
            ? q.ids.includes(l.id)
            : (!q.orderId || l.orderId === q.orderId) && (!q.userId || l.userId === q.userId) && (!q.cardId || l.cardId === q.cardId)),
      );
      if (waited.length === 0) return refuse('没有待付款的提现');
      return ok({ token: 'pay-token', expireAt: NOW + 300_000, count: waited.length });
    },
    'paymentFile',
  );
  server.on(
    'POST',
    '/api/withdraw/admin/adminnote/save',
    ({ body }) => {
      const { requestId, adminNote, adminNote2 } = body as { requestId: number; adminNote?: string; adminNote2?: string };
      const line = fake.lines.find((l) => l.id === requestId);
      if (!line) return notFound('提现记录不存在');
      if (adminNote !== undefined) line.adminNote = adminNote;
      if (adminNote2 !== undefined) line.adminNote2 = adminNote2;
      return ok(line, '保存成功');
    },
    'note',
  );

  server.on('GET', '/api/download/excel/{kind}/token', () => ok({ token: 'wd-token', expireAt: NOW + 300_000 }), 'token');
  server.on(
    'POST',
    '/api/withdraw/admin/confirm',
    () => {
      const r = fake.confirmResult;
      return ok(r, r.error ? `上传失败：${r.error}行有错误，未做任何修改` : `上传完成：成功${r.succ}条，跳过${r.skip}条，失败${r.error}条`);
    },
    'confirm',
  );

  return fake;
}
