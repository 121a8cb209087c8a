// A fake of the HTTP boundary for the member's board screens: handlers for app-harness's renderApp
// that answer the member calls the way openapi.yaml describes them (envelopes, field names, A00004
// for a board the member cannot see), on a small in-memory state that claims change, so a reload
// after a claim shows the new claimCount and the new task. Only the web app is under test here; the
// real server's rules are proven by tests/server.
import type { components } from '../../../src/api/schema';
import { json, ok, type Handler } from '../app-harness';

export type Board = components['schemas']['Board'];
export type BoardTask = components['schemas']['BoardTask'];
export type Task = components['schemas']['Task'];

const NOW = Date.UTC(2026, 10, 20, 8, 0);
const DAY = 86_400_000;

export function aBoard(over: Partial<Board> = {}): Board {
  return {
    id: 1,
    uuid: 'b-1',
    boardName: '十一月采购',
    remark: '本周截止',
    publishAt: NOW - DAY,
    expireAt: NOW + 7 * DAY,
    status: 'open',
    createdAt: NOW - 2 * DAY,
    expire: false,
    ...over,
  };
}

export function aBoardTask(over: Partial<BoardTask> = {}): BoardTask {
  return {
    id: 12,
    boardId: 1,
    itemId: 5,
    itemName: '蓝牙耳机',
    upc: '0123456789012',
    url: 'https://shop.example.com/p/5',
    price: 19.99,
    buyIn: 21.5,
    show: 10,
    claimCount: 4,
    address: 'NJ-01',
    status: 'normal',
    note: '限购2件',
    itemSource: 'amazon',
    createdAt: NOW - DAY,
    ...over,
  };
}

export function aTask(over: Partial<Task> = {}): Task {
  return {
    id: 100,
    mainId: 100,
    subId: 0,
    boardId: 1,
    boardTaskId: 12,
    userId: 3,
    itemId: 5,
    itemName: '蓝牙耳机',
    url: 'https://shop.example.com/p/5',
    price: 19.99,
    buyIn: 21.5,
    bonus: 0,
    punish: 0,
    count: 2,
    productCount: 0,
    status: 'open',
    isHome: false,
    state: '',
    zipCode: '',
    labelCount: 0,
    upc: '0123456789012',
    canSplit: false,
    trackingId: '',
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

export interface ClaimCall {
  path: string;
  boardTaskId: number;
  count: number;
  labelCount: number | null;
  body: unknown;
}

export interface FakeMemberServer {
  handlers: Record<string, Handler>;
  boards: Board[];
  boardTasks: BoardTask[];
  myTasks: Task[];
  claims: ClaimCall[];
  /** Set to answer the next claims differently (a refusal, say); undefined accepts them. */
  claimAnswer?: (call: ClaimCall) => Response;
}

/** Largest count and labelCount the fake routes (renderApp matches exact paths). */
const MAX_PATH_NUMBER = 30;

export function fakeMemberServer(seed: { boards?: Board[]; boardTasks?: BoardTask[]; myTasks?: Task[] } = {}): FakeMemberServer {
  const server: FakeMemberServer = {
    handlers: {},
    boards: seed.boards ?? [aBoard()],
    boardTasks: seed.boardTasks ?? [aBoardTask()],
    myTasks: seed.myTasks ?? [],
    claims: [],
  };
  const notFound = () => json({ code: 'A00004', msg: '看板不存在' }, 404);
  const h = server.handlers;

  h['GET /api/board/list/user'] = (request) => {
    const q = new URL(request.url).searchParams;
    const page = Number(q.get('page') ?? 0);
    const size = Number(q.get('size') ?? 10);
    const boardId = q.get('boardId');
    const matching = server.boards.filter((b) => b.status === 'open' && (boardId === null || b.id === Number(boardId)));
    return ok({ data: matching.slice(page * size, page * size + size), pageNumber: Math.ceil(matching.length / size) });
  };

  for (const board of server.boards) {
    const visible = () => board.status === 'open';
    h[`GET /api/board/infouuid/${board.uuid}`] = () => (visible() ? ok(board) : notFound());
    h[`GET /api/boardtask/uuid/${board.uuid}/list`] = () =>
      visible() ? ok(server.boardTasks.filter((bt) => bt.boardId === board.id)) : notFound();
  }
  h['GET /api/task/info/user/board/list'] = (request) => {
    const uuid = new URL(request.url).searchParams.get('boardUuid');
    const board = server.boards.find((b) => b.uuid === uuid);
    return board ? ok(server.myTasks.filter((t) => t.boardId === board.id)) : notFound();
  };

  for (const bt of server.boardTasks) {
    h[`GET /api/boardtask/${bt.boardId}/info/${bt.id}`] = () => ok(server.boardTasks.find((x) => x.id === bt.id));
    for (let count = 1; count <= MAX_PATH_NUMBER; count++) {
      h[`POST /api/task/${bt.id}/user/create/${count}`] = (request) => claim(request, bt.id, count, null);
      for (let label = 0; label <= MAX_PATH_NUMBER; label++) {
        h[`POST /api/task/${bt.id}/user/create/${count}/label/${label}`] = (request) => claim(request, bt.id, count, label);
      }
    }
  }

  async function claim(request: Request, boardTaskId: number, count: number, labelCount: number | null): Promise<Response> {
    const text = await request.text();
    const call: ClaimCall = { path: new URL(request.url).pathname, boardTaskId, count, labelCount, body: text ? JSON.parse(text) : undefined };
    server.claims.push(call);
    if (server.claimAnswer) return server.claimAnswer(call);
    const boardTask = server.boardTasks.find((x) => x.id === boardTaskId)!;
    const board = server.boards.find((b) => b.id === boardTask.boardId)!;
    boardTask.claimCount += count;
    const id = 200 + server.claims.length;
    const body = (call.body ?? {}) as { isHome?: boolean; state?: string; zipCode?: string };
    const task = aTask({
      id,
      mainId: id,
      boardTaskId,
      boardId: board.id,
      itemName: boardTask.itemName,
      count,
      status: boardTask.status === 'closed' || board.expire ? 'pending' : 'open',
      isHome: body.isHome ?? false,
      state: body.state ?? '',
      zipCode: body.zipCode ?? '',
      labelCount: labelCount ?? 0,
    });
    server.myTasks = [...server.myTasks, task];
    return ok({ status: 'succ', task });
  }

  return server;
}
