// A fake of the HTTP boundary of the payment screens (/user/apply-list, /admin/apply-list, the apply
// dialog of /user/my-task) and of /admin/task-amount-list, for app-harness's renderApp: routes
// (support/fake-api.ts) answering the contract's calls (envelopes, field names, status codes) on a small
// in-memory state, with a log of every call. Status changes go through the payment and task
// machines as the server's do, so a refused event is A00001 with the machine's words, and a second
// application is A00000 with status failed '该任务已申请付款' (payment-service.ts). Tests replace
// single answers through `answer`. Only the web app is under test; the real server is proven by
// tests/server.
import { explainPaymentRefusal, incomeCents, paymentMachine, paymentMessages, type PaymentEvent, type PaymentStatus } from '../../../machines/payment.machine';
import { decide } from '../../../machines/stored-state';
import { decideApplyForArrived, explainTaskRefusal, taskMachine } from '../../../machines/task.machine';
import type { components } from '../../../src/api/schema';
import { createFakeServer, notFound, ok, pageOf, refuse, type Call, type FakeServer, type Routes } from '../support/fake-api';

export { refuse, type Call };

type Schemas = components['schemas'];
export type PaymentApply = Schemas['PaymentApply'];
export type TaskAmount = Schemas['TaskAmount'];
export type Task = Schemas['Task'];
export type User = Schemas['User'];

export const NOW = Date.UTC(2026, 10, 20, 8, 0);

/** The member the harness logs in as (userOf: id 3). */
export const MEMBER_ID = 3;

export const USERS: User[] = [
  { id: 3, nickName: 'alice', mailAddr: 'alice@demo.local', phoneNo: '', qq: '', roleType: 'user' },
  { id: 7, nickName: 'bob', mailAddr: 'bob@demo.local', phoneNo: '', qq: '', roleType: 'user' },
  { id: 9, nickName: 'admin-name', mailAddr: 'admin@example.com', phoneNo: '', qq: '', roleType: 'admin' },
];

export function anApply(over: Partial<PaymentApply> = {}): PaymentApply {
  return {
    id: 1,
    taskId: 100,
    mainId: 100,
    subId: 0,
    userId: MEMBER_ID,
    itemName: '蓝牙耳机',
    price: 19.99,
    buyIn: 21.5,
    count: 2,
    bonus: 1,
    punish: 0.5,
    income: 43.5,
    note: '',
    status: 'applied',
    existBonus: 1,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

export function aTask(over: Partial<Task> = {}): Task {
  return {
    id: 100,
    mainId: 100,
    subId: 0,
    boardId: 1,
    boardUuid: 'b-1',
    boardName: '十一月采购',
    boardTaskId: 12,
    userId: MEMBER_ID,
    itemId: 5,
    itemName: '蓝牙耳机',
    url: 'https://shop.example.com/p/5',
    price: 19.99,
    buyIn: 21.5,
    bonus: 0,
    punish: 0.5,
    count: 2,
    productCount: 2,
    status: 'locked',
    isHome: false,
    state: '',
    zipCode: '',
    labelCount: 0,
    upc: '0123456789012',
    canSplit: false,
    trackingId: '1Z1',
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

export function anAmount(over: Partial<TaskAmount> = {}): TaskAmount {
  return { userId: 3, nickName: 'alice', mailAddr: 'alice@demo.local', amount: 43.5, ...over };
}

type AnswerKey = 'list' | 'apply' | 'applyArrived' | 'agree' | 'confirm' | 'collect' | 'exist' | 'amounts' | 'token';

export interface PaymentsFake {
  handlers: Routes;
  applies: PaymentApply[];
  tasks: Task[];
  amounts: TaskAmount[];
  calls: Call[];
  /** Whose view the list answers: the member's own rows, or everyone's with the applicant. */
  viewer: 'user' | 'admin';
  answer: FakeServer<AnswerKey>['answer'];
  callsTo: FakeServer<AnswerKey>['callsTo'];
}

const cents = (amount: number) => Math.round(amount * 100);

export function createPaymentsFake(seed: { applies?: PaymentApply[]; tasks?: Task[]; amounts?: TaskAmount[]; viewer?: 'user' | 'admin' } = {}): PaymentsFake {
  const http = createFakeServer<AnswerKey>();
  const fake: PaymentsFake = {
    handlers: http.handlers,
    // Copies: the fake changes its rows, a test's seed stays as written.
    applies: (seed.applies ?? [anApply()]).map((row) => ({ ...row })),
    tasks: (seed.tasks ?? [aTask()]).map((row) => ({ ...row })),
    amounts: (seed.amounts ?? [anAmount()]).map((row) => ({ ...row })),
    calls: http.calls,
    viewer: seed.viewer ?? 'user',
    answer: http.answer,
    callsTo: http.callsTo,
  };
  let nextId = 500;

  const nickOf = (id: number) => USERS.find((u) => u.id === id)?.nickName ?? '';

  http.on(
    'GET',
    '/api/apply/list/page',
    ({ query: q }) => {
      let rows = fake.viewer === 'user' ? fake.applies.filter((a) => a.userId === MEMBER_ID) : [...fake.applies];
      if (fake.viewer === 'admin') {
        if (q.userId) rows = rows.filter((a) => a.userId === Number(q.userId));
        rows = rows.map((a) => ({ ...a, nickName: nickOf(a.userId) }));
      }
      if (q.status) rows = rows.filter((a) => a.status === q.status);
      if (q.mainId) rows = rows.filter((a) => a.mainId === Number(q.mainId));
      rows.sort((a, b) => (q.isDesc === 'false' ? a.createdAt - b.createdAt || a.id - b.id : b.createdAt - a.createdAt || b.id - a.id));
      const { content, totalPages } = pageOf(rows, q);
      return ok({ content, totalPages });
    },
    'list',
  );

  http.on('GET', '/api/user/list', () => ok(USERS));

  http.on(
    'GET',
    '/api/task/apply/exist',
    ({ query }) => {
      const ids = (query.taskIds ?? '').split(',').map(Number);
      return ok({ applyRecords: Object.fromEntries(ids.map((id) => [String(id), fake.applies.some((a) => a.taskId === id)])) });
    },
    'exist',
  );

  http.on(
    'POST',
    '/api/trade/user/pay/apply',
    ({ body }) => {
      const { taskId, bonus = 0, note = '' } = body as { taskId: number; bonus?: number; note?: string };
      const task = fake.tasks.find((t) => t.id === taskId && t.userId === MEMBER_ID);
      if (!task) return notFound('任务不存在');
      if (fake.applies.some((a) => a.taskId === taskId)) return ok({ status: 'failed', msg: paymentMessages.alreadyApplied }, paymentMessages.alreadyApplied);
      const ctx = { productCount: task.productCount, canSplit: task.canSplit };
      const decision = decide(taskMachine, task.status, ctx, { type: 'task.apply' }, explainTaskRefusal);
      if (!decision.ok) return refuse(decision.msg);
      task.status = decision.next;
      const income = incomeCents({ buyIn: cents(task.buyIn), count: task.productCount, bonus: cents(bonus), punish: cents(task.punish) }) / 100;
      const row = anApply({
        id: nextId++,
        taskId: task.id,
        mainId: task.mainId,
        subId: task.subId,
        itemName: task.itemName,
        price: task.price ?? 0,
        buyIn: task.buyIn,
        count: task.productCount,
        bonus,
        punish: task.punish,
        income,
        note: note.trim(),
        existBonus: bonus,
        createdAt: NOW + nextId,
      });
      fake.applies.push(row);
      return ok({ status: 'succ', msg: paymentMessages.applied, paymentApply: row }, paymentMessages.applied);
    },
    'apply',
  );

  // Paying for what arrived (decision 053): the task machine decides, the arrived units become a
  // sub-task (processing, with the application), the original keeps the rest.
  let nextTaskId = 9100;
  http.on(
    'POST',
    '/api/trade/user/pay/apply-arrived',
    ({ body }) => {
      const { taskId, bonus = 0, note = '' } = body as { taskId: number; bonus?: number; note?: string };
      const task = fake.tasks.find((t) => t.id === taskId && t.userId === MEMBER_ID);
      if (!task) return notFound('任务不存在');
      if (fake.applies.some((a) => a.taskId === taskId)) return ok({ status: 'failed', msg: paymentMessages.alreadyApplied }, paymentMessages.alreadyApplied);
      const decision = decideApplyForArrived(task);
      if (!decision.ok) return refuse(decision.msg);
      const arrived = task.productCount;
      const siblings = fake.tasks.filter((t) => t.mainId === task.mainId);
      const sub: Task = { ...task, id: nextTaskId++, subId: Math.max(...siblings.map((t) => t.subId)) + 1, count: arrived, punish: 0, status: 'processing' };
      Object.assign(task, { count: task.count - arrived, productCount: 0, canSplit: false, status: 'open' });
      fake.tasks.push(sub);
      const row = anApply({
        id: nextId++,
        taskId: sub.id,
        mainId: sub.mainId,
        subId: sub.subId,
        itemName: sub.itemName,
        buyIn: sub.buyIn,
        count: arrived,
        bonus,
        punish: 0,
        income: incomeCents({ buyIn: cents(sub.buyIn), count: arrived, bonus: cents(bonus), punish: 0 }) / 100,
        note: note.trim(),
        existBonus: bonus,
      });
      fake.applies.push(row);
      return ok({ status: 'succ', msg: paymentMessages.applied, paymentApply: row, tasks: [task, sub] }, paymentMessages.applied);
    },
    'applyArrived',
  );

  /** A payment event as the server's lifecycle store applies it: the machine decides, a refusal is A00001. */
  function move(id: number, event: PaymentEvent, change?: (row: PaymentApply) => void) {
    const row = fake.applies.find((a) => a.id === id);
    if (!row) return notFound(paymentMessages.notFound);
    const decision = decide(paymentMachine, row.status, {}, event, explainPaymentRefusal);
    if (!decision.ok) return refuse(decision.msg);
    row.status = decision.next as PaymentStatus;
    change?.(row);
    return ok({ status: 'succ', msg: '操作成功', paymentApply: row }, '操作成功');
  }

  http.on(
    'POST',
    '/api/trade/admin/pay/agree',
    ({ body }) => {
      const { paymentApplyId, bonus } = body as { paymentApplyId: number; bonus?: number };
      return move(paymentApplyId, { type: 'pay.agree' }, (row) => {
        if (bonus !== undefined) row.bonus = bonus;
        row.income = incomeCents({ buyIn: cents(row.buyIn), count: row.count, bonus: cents(row.bonus), punish: cents(row.punish) }) / 100;
      });
    },
    'agree',
  );
  http.on('POST', '/api/trade/admin/pay/confirm', ({ body }) => move((body as { paymentApplyId: number }).paymentApplyId, { type: 'pay.confirm' }), 'confirm');
  http.on(
    'POST',
    '/api/trade/user/collect/confirm',
    ({ body }) => move((body as { paymentApplyId: number }).paymentApplyId, { type: 'pay.collect' }),
    'collect',
  );

  http.on(
    'GET',
    '/api/statistics/admin/task/amount/list',
    ({ query: q }) => {
      let rows = [...fake.amounts];
      if (q.userId) rows = rows.filter((r) => r.userId === Number(q.userId));
      const dir = q.isAsc === 'true' ? 1 : -1;
      rows.sort((a, b) => (q.orderItem === '2' ? dir * (cents(a.amount) - cents(b.amount)) || dir * (a.userId - b.userId) : dir * (a.userId - b.userId)));
      const { content, totalPages } = pageOf(rows, q);
      return ok({ data: content, pageNumber: totalPages });
    },
    'amounts',
  );

  http.on('GET', '/api/download/excel/{kind}/token', ({ params }) => ok({ token: `${params.kind}-token`, expireAt: NOW + 300_000 }), 'token');

  return fake;
}
