// A fake of the HTTP boundary of the admin task screens: an in-memory state answered the way
// openapi.yaml says (envelopes, status codes, shapes), for the app harness's injected fetch. Task
// changes go through the task machine like the server's applyTaskEvent, so a refused event is
// A00001 with the machine's words. Tests override single calls by key.
import { decide } from '../../../machines/stored-state';
import { explainTaskRefusal, taskMachine, type TaskEvent } from '../../../machines/task.machine';
import type { components } from '../../../src/api/schema';
import { json, ok, type Handler } from '../app-harness';

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
}

/** Task and audit ids the fake answers for (the harness matches exact paths). */
const MAX_ID = 700;

function notFound(msg = '任务不存在'): Response {
  return json({ code: 'A00004', msg }, 404);
}

function badRequest(msg: string): Response {
  return json({ code: 'A00001', msg }, 400);
}

function page<T>(rows: T[], q: URLSearchParams) {
  const p = Number(q.get('page') ?? 0);
  const size = Number(q.get('size') ?? 20);
  return { content: rows.slice(p * size, p * size + size), totalPages: Math.ceil(rows.length / size), totalElements: rows.length };
}

export function createAdminTasksFake(given: AdminTasksSeed = {}) {
  const seed = structuredClone(given);
  const state = {
    tasks: [...(seed.tasks ?? [aTask()])],
    audits: [...(seed.audits ?? [])],
  };
  const handlers: Record<string, Handler> = {};

  function on(method: string, pattern: string, handle: (request: Request, id: number) => Response | Promise<Response>) {
    for (let id = 1; id <= MAX_ID; id++) handlers[`${method} ${pattern.replace('{id}', String(id))}`] = (request) => handle(request, id);
  }

  const taskOf = (id: number) => state.tasks.find((t) => t.id === id);

  /** The server's applyTaskEvent: the machine decides; a refusal is A00001 with its words. */
  function apply(task: Task, event: TaskEvent, changes: Partial<Task> = {}, msg = '操作成功'): Response {
    const decision = decide(taskMachine, task.status, { productCount: task.productCount, canSplit: task.canSplit }, event, explainTaskRefusal);
    if (!decision.ok) return badRequest(decision.msg);
    Object.assign(task, changes, { status: decision.next, updatedAt: task.updatedAt + 1 });
    return json({ code: 'A00000', msg, data: { status: 'succ', msg, task } });
  }

  handlers['GET /api/task/list/page'] = (request) => {
    const q = new URL(request.url).searchParams;
    const num = (name: string) => (q.has(name) ? Number(q.get(name)) : undefined);
    let rows = [...state.tasks];
    const userId = num('userId');
    const itemId = num('itemId');
    const boardId = num('boardId');
    const boardTaskId = num('boardTaskId');
    const taskId = num('taskId');
    if (userId !== undefined) rows = rows.filter((t) => t.userId === userId);
    if (q.get('taskStatus')) rows = rows.filter((t) => t.status === q.get('taskStatus'));
    if (itemId !== undefined) rows = rows.filter((t) => t.itemId === itemId);
    if (q.get('itemName')) rows = rows.filter((t) => t.itemName.includes(q.get('itemName')!));
    if (boardId !== undefined) rows = rows.filter((t) => t.boardId === boardId);
    if (boardTaskId !== undefined) rows = rows.filter((t) => t.boardTaskId === boardTaskId);
    if (taskId !== undefined) rows = rows.filter((t) => t.id === taskId || t.mainId === taskId);
    if (q.get('trackingId')) rows = rows.filter((t) => t.trackingId.split(',').includes(q.get('trackingId')!));
    rows.sort((a, b) => (q.get('isDesc') === 'false' ? a.createdAt - b.createdAt || a.id - b.id : b.createdAt - a.createdAt || b.id - a.id));
    return ok(page(rows, q));
  };

  handlers['GET /api/user/list'] = () => ok(USERS);

  on('GET', '/api/item/info/{id}', (_request, id) => {
    const item = ITEMS.find((i) => i.id === id);
    return item ? ok(item) : notFound('商品不存在');
  });
  for (const item of ITEMS) {
    for (const key of [item.productId, item.upc]) {
      for (let n = 1; n <= key.length; n++) {
        const q = key.slice(0, n);
        handlers[`GET /api/item/info/like/${encodeURIComponent(q)}`] = () =>
          ok(ITEMS.filter((i) => i.productId.toLowerCase().includes(q.toLowerCase()) || i.upc.includes(q)));
      }
    }
  }

  on('GET', '/api/task/info/{id}', (_request, id) => {
    const task = taskOf(id);
    return task ? ok(task) : notFound();
  });

  on('POST', '/api/task/accept/{id}', (_request, id) => {
    const task = taskOf(id);
    return task ? apply(task, { type: 'task.accept' }) : notFound();
  });
  on('POST', '/api/task/reject/{id}', (_request, id) => {
    const task = taskOf(id);
    return task ? apply(task, { type: 'task.reject' }) : notFound();
  });

  handlers['POST /api/task/info'] = async (request) => {
    const body = (await request.json()) as Schemas['TaskUpdateRequest'];
    if (body.count === undefined) return badRequest('count必填');
    const task = taskOf(body.id);
    if (!task) return notFound();
    if (body.status === 'closed') return apply(task, { type: 'task.close' });
    if (body.status === 'deleted') return apply(task, { type: 'task.delete', by: 'admin' });
    const { id: _id, status: _status, ...changes } = body;
    return apply(task, { type: 'task.edit', by: 'admin' }, changes, '保存成功');
  };

  handlers['POST /api/match/admin/task/match'] = async (request) => {
    const { taskId } = (await request.json()) as Schemas['MatchTaskRequest'];
    const task = taskOf(taskId);
    if (!task) return notFound();
    const outcome = task.productCount >= task.count ? 'locked' : 'open';
    const answer = apply(task, { type: 'task.match', outcome });
    if (answer.status !== 200) return answer;
    return json({ code: 'A00000', msg: '匹配完成', data: { opStatus: 'succ', msg: '匹配完成', tasks: [task] } });
  };

  on('GET', '/api/purchased/{id}/taskTracking', () => ok({ purchasedItems: [] }));

  handlers['GET /api/audit/task/list'] = (request) => {
    const q = new URL(request.url).searchParams;
    let rows = [...state.audits];
    if (q.get('mainId')) rows = rows.filter((a) => a.mainId === Number(q.get('mainId')));
    if (q.get('taskId')) rows = rows.filter((a) => a.taskId === Number(q.get('taskId')));
    if (q.get('userId')) rows = rows.filter((a) => a.userId === Number(q.get('userId')));
    if (q.get('itemName')) rows = rows.filter((a) => a.itemName?.includes(q.get('itemName')!));
    if (q.get('status')) rows = rows.filter((a) => a.status === q.get('status'));
    rows.sort((a, b) => (q.get('isDesc') === 'false' ? a.id - b.id : b.id - a.id));
    return ok(page(rows, q));
  };

  return { state, handlers };
}
