// A fake of the HTTP boundary of the admin task screens: an in-memory state answered the way
// openapi.yaml says (envelopes, status codes, shapes), on the routes, envelopes and call log of
// support/fake-api.ts, for the app harness's injected fetch. Task changes go through the task machine
// like the server's applyTaskEvent, so a refused event is A00001 with the machine's words. Tests
// replace single answers through `answer`.
import { decide } from '../../../machines/stored-state';
import { explainTaskRefusal, taskMachine, type TaskEvent } from '../../../machines/task.machine';
import type { components } from '../../../src/api/schema';
import { createFakeServer, notFound, ok, pageOf, refuse } from '../support/fake-api';

type Schemas = components['schemas'];
export type Task = Schemas['Task'];
export type AuditEntry = Schemas['AuditEntry'];
export type User = Schemas['User'];
export type Item = Schemas['Item'];

export const NOW = Date.UTC(2025, 0, 10, 8, 0);

export function aTask(overrides: Partial<Task> = {}): Task {
  return {
    id: 501,
    mainId: 501,
    subId: 0,
    boardId: 1,
    boardName: '一月采购',
    boardUuid: 'b-uuid-1',
    boardTaskId: 11,
    userId: 21,
    nickName: 'alice',
    itemId: 7,
    itemName: '蓝牙耳机',
    url: 'https://shop.example.com/earbuds',
    price: 99.5,
    buyIn: 80,
    bonus: 0,
    punish: 0,
    count: 2,
    productCount: 0,
    status: 'open',
    isHome: false,
    state: '',
    zipCode: '',
    labelCount: 0,
    upc: '0123456789',
    canSplit: false,
    trackingId: '',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function anAudit(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 9001,
    entity: 'task',
    action: 'edit',
    mainId: 501,
    subId: 0,
    opUid: 3,
    opName: 'admin-name',
    userId: 21,
    upc: '0123456789',
    count: 3,
    itemName: '蓝牙耳机',
    status: 'open',
    trackingId: null,
    taskId: 501,
    before: JSON.stringify({ id: 501, count: 2, bonus: 0, status: 'open' }),
    after: JSON.stringify({ id: 501, count: 3, bonus: 5, status: 'open' }),
    createdAt: NOW,
    ...overrides,
  };
}

export const USERS: User[] = [
  { id: 21, nickName: 'alice', mailAddr: 'alice@demo.local', phoneNo: '', qq: '', roleType: 'user' },
  { id: 22, nickName: 'bob', mailAddr: 'bob@demo.local', phoneNo: '', qq: '', roleType: 'user' },
];

export const ITEMS: Item[] = [
  { id: 7, itemName: '蓝牙耳机', upc: '0123456789', url: 'https://shop.example.com/earbuds', status: 'open', productId: 'P7', price: 99.5, createdAt: NOW },
  { id: 8, itemName: '保温杯', upc: '', url: 'http://shop.example.com/cup', status: 'open', productId: 'P8', price: null, createdAt: NOW },
];

export interface AdminTasksSeed {
  tasks?: Task[];
  audits?: AuditEntry[];
  /** The tasks whose tracking id no scan has seen in time (what ?notArrived=true selects on the server). */
  notArrivedIds?: number[];
  /** The server's MISSING_PARCEL_DAYS, which the list's answer carries (7 unless given). */
  notArrivedDays?: number;
}

type AnswerKey = 'save' | 'match';

export function createAdminTasksFake(given: AdminTasksSeed = {}) {
  const seed = structuredClone(given);
  const state = {
    tasks: [...(seed.tasks ?? [aTask()])],
    audits: [...(seed.audits ?? [])],
    notArrivedIds: [...(seed.notArrivedIds ?? [])],
    notArrivedDays: seed.notArrivedDays ?? 7,
  };
  const server = createFakeServer<AnswerKey>();

  const taskOf = (id: string | number | undefined) => state.tasks.find((t) => t.id === Number(id));
  const noTask = () => notFound('任务不存在');

  /** The server's applyTaskEvent: the machine decides; a refusal is A00001 with its words. */
  function apply(task: Task, event: TaskEvent, changes: Partial<Task> = {}, msg = '操作成功'): Response {
    const decision = decide(taskMachine, task.status, { productCount: task.productCount, canSplit: task.canSplit }, event, explainTaskRefusal);
    if (!decision.ok) return refuse(decision.msg);
    Object.assign(task, changes, { status: decision.next, updatedAt: task.updatedAt + 1 });
    return ok({ status: 'succ', msg, task }, msg);
  }

  server.on('GET', '/api/task/list/page', ({ query: q }) => {
    const num = (name: string) => (q[name] === undefined ? undefined : Number(q[name]));
    let rows = [...state.tasks];
    const userId = num('userId');
    const itemId = num('itemId');
    const boardId = num('boardId');
    const boardTaskId = num('boardTaskId');
    const taskId = num('taskId');
    if (userId !== undefined) rows = rows.filter((t) => t.userId === userId);
    if (q.taskStatus) rows = rows.filter((t) => t.status === q.taskStatus);
    if (itemId !== undefined) rows = rows.filter((t) => t.itemId === itemId);
    if (q.itemName) rows = rows.filter((t) => t.itemName.includes(q.itemName!));
    if (boardId !== undefined) rows = rows.filter((t) => t.boardId === boardId);
    if (boardTaskId !== undefined) rows = rows.filter((t) => t.boardTaskId === boardTaskId);
    if (taskId !== undefined) rows = rows.filter((t) => t.id === taskId || t.mainId === taskId);
    if (q.trackingId) rows = rows.filter((t) => t.trackingId.split(',').includes(q.trackingId!));
    if (q.notArrived === 'true') rows = rows.filter((t) => state.notArrivedIds.includes(t.id));
    rows.sort((a, b) => (q.isDesc === 'false' ? a.createdAt - b.createdAt || a.id - b.id : b.createdAt - a.createdAt || b.id - a.id));
    return ok({ ...pageOf(rows, q), notArrivedDays: state.notArrivedDays });
  });

  server.on('GET', '/api/user/list', () => ok(USERS));

  server.on('GET', '/api/item/info/{id}', ({ params }) => {
    const item = ITEMS.find((i) => i.id === Number(params.id));
    return item ? ok(item) : notFound('商品不存在');
  });
  // searchItems (the product picker): by productId or upc.
  server.on('GET', '/api/item/info/like/{q}', ({ params }) => {
    const q = params.q!;
    return ok(ITEMS.filter((i) => i.productId.toLowerCase().includes(q.toLowerCase()) || i.upc.includes(q)));
  });

  server.on('GET', '/api/task/info/{id}', ({ params }) => {
    const task = taskOf(params.id);
    return task ? ok(task) : noTask();
  });

  server.on('POST', '/api/task/accept/{id}', ({ params }) => {
    const task = taskOf(params.id);
    return task ? apply(task, { type: 'task.accept' }) : noTask();
  });
  server.on('POST', '/api/task/reject/{id}', ({ params }) => {
    const task = taskOf(params.id);
    return task ? apply(task, { type: 'task.reject' }) : noTask();
  });

  server.on(
    'POST',
    '/api/task/info',
    ({ body }) => {
      const request = body as Schemas['TaskUpdateRequest'];
      if (request.count === undefined) return refuse('count必填');
      const task = taskOf(request.id);
      if (!task) return noTask();
      if (request.status === 'closed') return apply(task, { type: 'task.close' });
      if (request.status === 'deleted') return apply(task, { type: 'task.delete', by: 'admin' });
      const { id: _id, status: _status, ...changes } = request;
      return apply(task, { type: 'task.edit', by: 'admin' }, changes, '保存成功');
    },
    'save',
  );

  server.on(
    'POST',
    '/api/match/admin/task/match',
    ({ body }) => {
      const { taskId } = body as Schemas['MatchTaskRequest'];
      const task = taskOf(taskId);
      if (!task) return noTask();
      const outcome = task.productCount >= task.count ? 'locked' : 'open';
      const answer = apply(task, { type: 'task.match', outcome });
      if (answer.status !== 200) return answer;
      return ok({ opStatus: 'succ', msg: '匹配完成', tasks: [task] }, '匹配完成');
    },
    'match',
  );

  server.on('GET', '/api/purchased/{id}/taskTracking', () => ok({ purchasedItems: [] }));

  server.on('GET', '/api/audit/task/list', ({ query: q }) => {
    let rows = [...state.audits];
    if (q.mainId) rows = rows.filter((a) => a.mainId === Number(q.mainId));
    if (q.taskId) rows = rows.filter((a) => a.taskId === Number(q.taskId));
    if (q.userId) rows = rows.filter((a) => a.userId === Number(q.userId));
    if (q.itemName) rows = rows.filter((a) => a.itemName?.includes(q.itemName!));
    if (q.status) rows = rows.filter((a) => a.status === q.status);
    rows.sort((a, b) => (q.isDesc === 'false' ? a.id - b.id : b.id - a.id));
    return ok(pageOf(rows, q));
  });

  const { handlers, calls, callsTo, answer } = server;
  return { state, handlers, calls, callsTo, answer };
}
