// A fake of the HTTP boundary of the admin board screens: an in-memory state answered the way
// openapi.yaml says (envelopes, status codes, shapes), on the routes, envelopes and call log of
// support/fake-api.ts, for the app harness's injected fetch. It keeps the board status rules of
// machines/board.machine.ts like the server does, so a publish on a board without tasks is refused
// with the machine's words. Tests override single calls by key.
import { boardMachine, explainBoardRefusal, type BoardEvent, type BoardStatus } from '../../../machines/board.machine';
import { decide } from '../../../machines/stored-state';
import type { components } from '../../../src/api/schema';
import { createFakeServer, notFound, ok, pageOf, refuse, type Call } from '../support/fake-api';

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
  const bt: Omit<BoardTask, 'remaining'> = {
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
  // remaining follows show and claimCount as the server's does, unless the test sets it.
  return { ...bt, remaining: overrides.remaining ?? Math.max(0, bt.show - bt.claimCount) };
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

/** The fake: `handlers` for renderApp, its call log, and its state to look at afterwards. */
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
  const server = createFakeServer();
  const id = (call: Call, name = 'id') => Number(call.params[name]);

  const boardOf = (boardId: number) => state.boards.find((b) => b.id === boardId);
  const contextOf = (boardId: number) => ({
    taskCount: state.boardTasks.filter((t) => t.boardId === boardId && t.status !== 'deleted').length,
    groupCount: (state.bound.get(boardId) ?? []).length,
  });
  const claimCountOf = (boardTaskId: number) =>
    state.tasks.filter((t) => t.boardTaskId === boardTaskId && t.status !== 'deleted').reduce((sum, t) => sum + t.count, 0);
  const withClaims = (bt: BoardTask): BoardTask => ({ ...bt, claimCount: claimCountOf(bt.id) });

  function transition(board: Board, event: BoardEvent): Response | BoardStatus {
    const decision = decide(boardMachine, board.status, contextOf(board.id), event, explainBoardRefusal);
    return decision.ok ? decision.next : refuse(decision.msg);
  }

  server.on('GET', '/api/board/list/admin', ({ query: q }) => {
    let rows = [...state.boards];
    if (q.boardId) rows = rows.filter((b) => b.id === Number(q.boardId));
    if (q.boardTaskId) rows = rows.filter((b) => state.boardTasks.some((t) => t.boardId === b.id && t.id === Number(q.boardTaskId)));
    if (q.itemId) rows = rows.filter((b) => state.boardTasks.some((t) => t.boardId === b.id && t.itemId === Number(q.itemId)));
    rows.sort((a, b) => (q.isDesc === 'false' ? a.createdAt - b.createdAt : b.createdAt - a.createdAt));
    const { content, totalPages } = pageOf(rows, q, 10);
    return ok({ data: content, pageNumber: totalPages });
  });

  server.on('GET', '/api/board/info/{id}', (call) => {
    const board = boardOf(id(call));
    return board ? ok(board) : notFound('看板不存在');
  });

  server.on('POST', '/api/board/info', ({ body }) => {
    const request = body as Schemas['BoardSaveRequest'];
    if (request.id === undefined) {
      const board = aBoard({ ...request, id: Math.max(0, ...state.boards.map((b) => b.id)) + 1, uuid: `uuid-${state.boards.length + 1}`, status: 'unpublish' });
      state.boards.push(board);
      return ok(board);
    }
    const board = boardOf(request.id);
    if (!board) return notFound('看板不存在');
    let status = board.status;
    if (request.status && request.status !== board.status) {
      const next = transition(board, request.status === 'close' ? { type: 'board.close' } : { type: 'board.reopen' });
      if (next instanceof Response) return next;
      status = next;
    }
    Object.assign(board, { boardName: request.boardName, remark: request.remark, publishAt: request.publishAt, expireAt: request.expireAt, status });
    return ok(board, '保存成功');
  });

  server.on('GET', '/api/boardtask/{id}/list', (call) => ok(state.boardTasks.filter((t) => t.boardId === id(call)).map(withClaims)));
  server.on('GET', '/api/board/{id}/userGroups', (call) => ok(state.groups.filter((g) => (state.bound.get(id(call)) ?? []).includes(g.id))));
  server.on('GET', '/api/usergroup/list', () => ok(state.groups));
  server.on('GET', '/api/user/list', () => ok(USERS));
  server.on('GET', '/api/item/info/{id}', (call) => {
    const item = ITEMS.find((i) => i.id === id(call));
    return item ? ok(item) : notFound('商品不存在');
  });
  // searchItems (the product picker): by productId or upc.
  server.on('GET', '/api/item/info/like/{q}', ({ params }) => {
    const q = params.q!;
    return ok(ITEMS.filter((i) => i.productId.toLowerCase().includes(q.toLowerCase()) || i.upc.includes(q)));
  });

  for (const change of ['add', 'remove'] as const) {
    server.on('POST', `/api/board/{id}/${change}`, (call) => {
      const boardId = id(call);
      const ids = (call.query.groupIds ?? '').split(',').map(Number);
      const now = state.bound.get(boardId) ?? [];
      state.bound.set(boardId, change === 'add' ? [...new Set([...now, ...ids])] : now.filter((g) => !ids.includes(g)));
      return ok(true, '操作成功');
    });
  }

  const publish = (mode: 'all' | 'users' | 'backup') => (call: Call) => {
    const board = boardOf(id(call));
    if (!board) return notFound('看板不存在');
    const userIds = mode === 'users' ? (call.body as { userIds: number[] }).userIds : undefined;
    const next = transition(board, { type: 'board.publish', mode, userIds });
    if (next instanceof Response) return next;
    board.status = next;
    state.published.push({ boardId: board.id, mode, userIds });
    return ok({ status: 'succ', msg: '操作成功', mailQueued: 2 }, '操作成功');
  };
  server.on('POST', '/api/boardtask/publish/{id}', publish('all'));
  server.on('POST', '/api/boardtask/publish/{id}/users', publish('users'));
  server.on('POST', '/api/boardtask/backup/publish/{id}', publish('backup'));

  server.on('GET', '/api/boardtask/{boardId}/info/{taskId}', (call) => {
    const bt = state.boardTasks.find((t) => t.id === id(call, 'taskId') && t.boardId === id(call, 'boardId'));
    return bt ? ok(withClaims(bt)) : notFound('任务不存在');
  });

  server.on('POST', '/api/boardtask/{boardId}/info', (call) => {
    const request = call.body as Schemas['BoardTaskSaveRequest'];
    const item = ITEMS.find((i) => i.id === request.itemId);
    if (!item) return notFound('商品不存在');
    const existing = request.id === undefined ? undefined : state.boardTasks.find((t) => t.id === request.id);
    const saved = aBoardTask({
      ...existing,
      ...request,
      id: existing?.id ?? Math.max(10, ...state.boardTasks.map((t) => t.id)) + 1,
      boardId: id(call, 'boardId'),
      itemName: item.itemName,
      url: request.url || existing?.url || item.url,
      price: request.price ?? existing?.price ?? item.price,
    });
    state.boardTasks = [...state.boardTasks.filter((t) => t.id !== saved.id), saved];
    const msg = existing ? '保存成功' : '创建成功';
    return ok({ status: 'succ', msg, boardTask: saved }, msg);
  });

  server.on('GET', '/api/task/info/admin/list/{id}', (call) => ok(state.tasks.filter((t) => t.boardTaskId === id(call))));

  server.on('GET', '/api/task/list/page', ({ query: q }) => {
    let rows = [...state.tasks];
    if (q.boardId) rows = rows.filter((t) => t.boardId === Number(q.boardId));
    if (q.taskStatus) rows = rows.filter((t) => t.status === q.taskStatus);
    return ok(pageOf(rows, q));
  });

  for (const decision of ['accept', 'reject'] as const) {
    server.on('POST', `/api/task/${decision}/{id}`, (call) => {
      const task = state.tasks.find((t) => t.id === id(call));
      if (!task) return notFound('任务不存在');
      if (task.status !== 'pending') return refuse('只有待审核的认领可以操作');
      task.status = decision === 'accept' ? 'open' : 'deleted';
      return ok({ status: 'succ', msg: '操作成功', task }, '操作成功');
    });
  }

  const { handlers, calls, callsTo } = server;
  return { state, handlers, calls, callsTo };
}
