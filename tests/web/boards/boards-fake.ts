// A fake of the HTTP boundary of the admin board screens: an in-memory state answered the way
// openapi.yaml says (envelopes, status codes, shapes), for the app harness's injected fetch. It
// keeps the board status rules of machines/board.machine.ts like the server does, so a publish on a
// board without tasks is refused with the machine's words. Tests override single calls by key.
import { boardMachine, explainBoardRefusal, type BoardEvent, type BoardStatus } from '../../../machines/board.machine';
import { decide } from '../../../machines/stored-state';
import type { components } from '../../../src/api/schema';
import { json, ok, type Handler } from '../app-harness';

type Schemas = components['schemas'];
export type Board = Schemas['Board'];
export type BoardTask = Schemas['BoardTask'];
export type Task = Schemas['Task'];
export type UserGroup = Schemas['UserGroup'];
export type User = Schemas['User'];
export type Item = Schemas['Item'];

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2025, 0, 10, 8, 0);

export function aBoard(overrides: Partial<Board> = {}): Board {
  return {
    id: 1,
    uuid: 'b-uuid-1',
    boardName: '一月采购',
    remark: '年货',
    publishAt: NOW,
    expireAt: NOW + 30 * DAY,
    status: 'unpublish',
    createdAt: NOW - DAY,
    updatedAt: NOW - DAY,
    expire: false,
    ...overrides,
  };
}

export function aBoardTask(overrides: Partial<BoardTask> = {}): BoardTask {
  return {
    id: 11,
    boardId: 1,
    userId: 3,
    itemId: 7,
    itemName: '蓝牙耳机',
    upc: '0123456789',
    url: 'https://shop.example.com/earbuds',
    price: 99.5,
    buyIn: 80,
    show: 100,
    need: 120,
    averageCost: 75,
    allCount: 0,
    claimCount: 0,
    address: 'DEFAULT',
    status: 'normal',
    note: '限新品',
    itemSource: 'Amazon',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function aTask(overrides: Partial<Task> = {}): Task {
  return {
    id: 501,
    mainId: 501,
    subId: 0,
    boardId: 1,
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

export const GROUPS: UserGroup[] = [
  { id: 1, groupName: '华东采购一组', remark: '' },
  { id: 2, groupName: '华南采购组', remark: '' },
  { id: 3, groupName: '海外组', remark: '' },
];

export const USERS: User[] = [
  { id: 21, nickName: 'alice', mailAddr: 'alice@demo.local', phoneNo: '', qq: '', roleType: 'user' },
  { id: 22, nickName: 'bob', mailAddr: 'bob@demo.local', phoneNo: '', qq: '', roleType: 'user' },
  { id: 23, nickName: 'carol', mailAddr: 'carol@demo.local', phoneNo: '', qq: '', roleType: 'user' },
];

export const ITEMS: Item[] = [
  { id: 7, itemName: '蓝牙耳机', upc: '0123456789', url: 'https://shop.example.com/earbuds', status: 'open', productId: 'P7', price: 99.5, createdAt: NOW },
  { id: 8, itemName: '保温杯', upc: '', url: 'shop.example.com/cup', status: 'open', productId: 'P8', price: null, createdAt: NOW },
];

export interface BoardsSeed {
  boards?: Board[];
  boardTasks?: BoardTask[];
  groups?: UserGroup[];
  /** boardId -> bound group ids */
  bound?: Record<number, number[]>;
  tasks?: Task[];
}

const MAX_ID = 30;
/** User task ids (/api/task/...) run higher than board and board task ids. */
const MAX_TASK_ID = 600;

function notFound(msg = '不存在'): Response {
  return json({ code: 'A00004', msg }, 404);
}

function badRequest(msg: string): Response {
  return json({ code: 'A00001', msg }, 400);
}

/** The fake: `handlers` for renderApp, and its state to look at afterwards. */
export function createBoardsFake(given: BoardsSeed = {}) {
  // Tests share seeds; the fake changes its own copy.
  const seed = structuredClone(given);
  const state = {
    boards: [...(seed.boards ?? [aBoard()])],
    boardTasks: [...(seed.boardTasks ?? [])],
    groups: [...(seed.groups ?? GROUPS)],
    bound: new Map<number, number[]>(Object.entries(seed.bound ?? {}).map(([k, v]) => [Number(k), [...v]])),
    tasks: [...(seed.tasks ?? [])],
    published: [] as Array<{ boardId: number; mode: string; userIds?: number[] }>,
  };
  const handlers: Record<string, Handler> = {};

  /** Registers `METHOD /path/{a}/{b}` for every id up to the limits (the harness matches exact paths). */
  function on(method: string, pattern: string, handle: (request: Request, ids: number[]) => Response | Promise<Response>) {
    const names = [...pattern.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const expand = (path: string, ids: number[], rest: string[]): void => {
      if (rest.length === 0) {
        handlers[`${method} ${path}`] = (request) => handle(request, ids);
        return;
      }
      const [name, ...others] = rest;
      const limit = pattern.startsWith('/api/task/') ? MAX_TASK_ID : MAX_ID;
      for (let id = 1; id <= limit; id++) expand(path.replace(`{${name}}`, String(id)), [...ids, id], others);
    };
    expand(pattern, [], names);
  }

  const boardOf = (id: number) => state.boards.find((b) => b.id === id);
  const contextOf = (id: number) => ({
    taskCount: state.boardTasks.filter((t) => t.boardId === id && t.status !== 'deleted').length,
    groupCount: (state.bound.get(id) ?? []).length,
  });
  const claimCountOf = (boardTaskId: number) =>
    state.tasks.filter((t) => t.boardTaskId === boardTaskId && t.status !== 'deleted').reduce((sum, t) => sum + t.count, 0);
  const withClaims = (bt: BoardTask): BoardTask => ({ ...bt, claimCount: claimCountOf(bt.id) });

  function transition(board: Board, event: BoardEvent): Response | BoardStatus {
    const decision = decide(boardMachine, board.status, contextOf(board.id), event, explainBoardRefusal);
    return decision.ok ? decision.next : badRequest(decision.msg);
  }

  on('GET', '/api/board/list/admin', (request) => {
    const q = new URL(request.url).searchParams;
    const page = Number(q.get('page') ?? 0);
    const size = Number(q.get('size') ?? 10);
    let rows = [...state.boards];
    if (q.get('boardId')) rows = rows.filter((b) => b.id === Number(q.get('boardId')));
    if (q.get('boardTaskId')) rows = rows.filter((b) => state.boardTasks.some((t) => t.boardId === b.id && t.id === Number(q.get('boardTaskId'))));
    if (q.get('itemId')) rows = rows.filter((b) => state.boardTasks.some((t) => t.boardId === b.id && t.itemId === Number(q.get('itemId'))));
    rows.sort((a, b) => (q.get('isDesc') === 'false' ? a.createdAt - b.createdAt : b.createdAt - a.createdAt));
    return ok({ data: rows.slice(page * size, page * size + size), pageNumber: Math.ceil(rows.length / size) });
  });

  on('GET', '/api/board/info/{id}', (_request, [id]) => {
    const board = boardOf(id!);
    return board ? ok(board) : notFound('看板不存在');
  });

  on('POST', '/api/board/info', async (request) => {
    const body = (await request.json()) as Schemas['BoardSaveRequest'];
    if (body.id === undefined) {
      const board = aBoard({ ...body, id: Math.max(0, ...state.boards.map((b) => b.id)) + 1, uuid: `uuid-${state.boards.length + 1}`, status: 'unpublish' });
      state.boards.push(board);
      return ok(board);
    }
    const board = boardOf(body.id);
    if (!board) return notFound('看板不存在');
    let status = board.status;
    if (body.status && body.status !== board.status) {
      const next = transition(board, body.status === 'close' ? { type: 'board.close' } : { type: 'board.reopen' });
      if (next instanceof Response) return next;
      status = next;
    }
    Object.assign(board, { boardName: body.boardName, remark: body.remark, publishAt: body.publishAt, expireAt: body.expireAt, status });
    return json({ code: 'A00000', msg: '保存成功', data: board });
  });

  on('GET', '/api/boardtask/{id}/list', (_request, [id]) => ok(state.boardTasks.filter((t) => t.boardId === id).map(withClaims)));
  on('GET', '/api/board/{id}/userGroups', (_request, [id]) => ok(state.groups.filter((g) => (state.bound.get(id!) ?? []).includes(g.id))));
  on('GET', '/api/usergroup/list', () => ok(state.groups));
  on('GET', '/api/user/list', () => ok(USERS));
  on('GET', '/api/item/info/{id}', (_request, [id]) => {
    const item = ITEMS.find((i) => i.id === id);
    return item ? ok(item) : notFound('商品不存在');
  });
  // searchItems (the product picker): every prefix of each item's productId and upc.
  for (const item of ITEMS) {
    for (const key of [item.productId, item.upc]) {
      for (let n = 1; n <= key.length; n++) {
        const q = key.slice(0, n);
        handlers[`GET /api/item/info/like/${encodeURIComponent(q)}`] = () =>
          ok(ITEMS.filter((i) => i.productId.toLowerCase().includes(q.toLowerCase()) || i.upc.includes(q)));
      }
    }
  }

  for (const change of ['add', 'remove'] as const) {
    on('POST', `/api/board/{id}/${change}`, (request, [id]) => {
      const ids = (new URL(request.url).searchParams.get('groupIds') ?? '').split(',').map(Number);
      const now = state.bound.get(id!) ?? [];
      state.bound.set(id!, change === 'add' ? [...new Set([...now, ...ids])] : now.filter((g) => !ids.includes(g)));
      return json({ code: 'A00000', msg: '操作成功', data: true });
    });
  }

  const publish = (mode: 'all' | 'users' | 'backup') => async (request: Request, [id]: number[]) => {
    const board = boardOf(id!);
    if (!board) return notFound('看板不存在');
    const userIds = mode === 'users' ? ((await request.json()) as { userIds: number[] }).userIds : undefined;
    const next = transition(board, { type: 'board.publish', mode, userIds });
    if (next instanceof Response) return next;
    board.status = next;
    state.published.push({ boardId: board.id, mode, userIds });
    return json({ code: 'A00000', msg: '操作成功', data: { status: 'succ', msg: '操作成功', mailQueued: 2 } });
  };
  on('POST', '/api/boardtask/publish/{id}', publish('all'));
  on('POST', '/api/boardtask/publish/{id}/users', publish('users'));
  on('POST', '/api/boardtask/backup/publish/{id}', publish('backup'));

  on('GET', '/api/boardtask/{boardId}/info/{taskId}', (_request, [boardId, taskId]) => {
    const bt = state.boardTasks.find((t) => t.id === taskId && t.boardId === boardId);
    return bt ? ok(withClaims(bt)) : notFound('任务不存在');
  });

  on('POST', '/api/boardtask/{boardId}/info', async (request, [boardId]) => {
    const body = (await request.json()) as Schemas['BoardTaskSaveRequest'];
    const item = ITEMS.find((i) => i.id === body.itemId);
    if (!item) return notFound('商品不存在');
    const existing = body.id === undefined ? undefined : state.boardTasks.find((t) => t.id === body.id);
    const saved = aBoardTask({
      ...existing,
      ...body,
      id: existing?.id ?? Math.max(10, ...state.boardTasks.map((t) => t.id)) + 1,
      boardId: boardId!,
      itemName: item.itemName,
      url: body.url || existing?.url || item.url,
      price: body.price ?? existing?.price ?? item.price,
    });
    state.boardTasks = [...state.boardTasks.filter((t) => t.id !== saved.id), saved];
    const msg = existing ? '保存成功' : '创建成功';
    return json({ code: 'A00000', msg, data: { status: 'succ', msg, boardTask: saved } });
  });

  on('GET', '/api/task/info/admin/list/{id}', (_request, [id]) => ok(state.tasks.filter((t) => t.boardTaskId === id)));

  on('GET', '/api/task/list/page', (request) => {
    const q = new URL(request.url).searchParams;
    let rows = [...state.tasks];
    if (q.get('boardId')) rows = rows.filter((t) => t.boardId === Number(q.get('boardId')));
    if (q.get('taskStatus')) rows = rows.filter((t) => t.status === q.get('taskStatus'));
    const page = Number(q.get('page') ?? 0);
    const size = Number(q.get('size') ?? 20);
    return ok({ content: rows.slice(page * size, page * size + size), totalPages: Math.ceil(rows.length / size), totalElements: rows.length });
  });

  for (const decision of ['accept', 'reject'] as const) {
    on('POST', `/api/task/${decision}/{id}`, (_request, [id]) => {
      const task = state.tasks.find((t) => t.id === id);
      if (!task) return notFound('任务不存在');
      if (task.status !== 'pending') return badRequest('只有待审核的认领可以操作');
      task.status = decision === 'accept' ? 'open' : 'deleted';
      return json({ code: 'A00000', msg: '操作成功', data: { status: 'succ', msg: '操作成功', task } });
    });
  }

  return { state, handlers };
}
