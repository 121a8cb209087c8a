// A fake of the HTTP boundary for the member's board screens: routes (support/fake-api.ts) for
// app-harness's renderApp that answer the member calls the way openapi.yaml describes them
// (envelopes, field names, A00004 for a board the member cannot see), on a small in-memory state
// that claims change, so a reload after a claim shows the new claimCount and the new task. Only the web app is under test here; the
// real server's rules are proven by tests/server.
import type { components } from '../../../src/api/schema';
import { createFakeServer, notFound, ok, pageOf, type Call, type Routes } from '../support/fake-api';

export type Board = components['schemas']['Board'];
export type BoardTask = components['schemas']['BoardTask'];
export type Task = components['schemas']['Task'];

const NOW = Date.UTC(2026, 10, 20, 8, 0);
const DAY = 86_400_000;

/**
 * A board open to the member. Its deadline is read against the real clock (the pages count down to
 * it), so it lies a week after the test runs, or a day before when the test says `expire: true`.
 */
export function aBoard(over: Partial<Board> = {}): Board {
  const expired = over.expire ?? (over.expireAt !== undefined && over.expireAt < Date.now());
  return {
    id: 1,
    uuid: 'b-1',
    boardName: '十一月采购',
    remark: '本周截止',
    publishAt: NOW - DAY,
    expireAt: expired ? Date.now() - DAY : Date.now() + 7 * DAY,
    status: 'open',
    createdAt: NOW - 2 * DAY,
    expire: expired,
    ...over,
  };
}

export function aBoardTask(over: Partial<BoardTask> = {}): BoardTask {
  const bt: Omit<BoardTask, 'remaining'> = {
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
  // remaining follows show and claimCount as the server's does, unless the test sets it.
  return { ...bt, remaining: over.remaining ?? Math.max(0, bt.show - bt.claimCount) };
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

export interface MemberBoardsFake {
  handlers: Routes;
  calls: Call[];
  boards: Board[];
  boardTasks: BoardTask[];
  myTasks: Task[];
  claims: ClaimCall[];
  /** Set to answer the next claims differently (a refusal, say); undefined accepts them. */
  claimAnswer?: (call: ClaimCall) => Response;
}

export function createMemberBoardsFake(seed: { boards?: Board[]; boardTasks?: BoardTask[]; myTasks?: Task[] } = {}): MemberBoardsFake {
  const http = createFakeServer();
  const server: MemberBoardsFake = {
    handlers: http.handlers,
    calls: http.calls,
    boards: seed.boards ?? [aBoard()],
    boardTasks: seed.boardTasks ?? [aBoardTask()],
    myTasks: seed.myTasks ?? [],
    claims: [],
  };
  const noBoard = () => notFound('看板不存在');
  /** A board the member sees: open (publishing to the member's groups is the server's part). */
  const visibleBoard = (uuid: string | undefined) => server.boards.find((b) => b.uuid === uuid && b.status === 'open');

  http.on('GET', '/api/board/list/user', ({ query }) => {
    const matching = server.boards.filter((b) => b.status === 'open' && (query.boardId === undefined || b.id === Number(query.boardId)));
    const { content, totalPages } = pageOf(matching, query, 10);
    return ok({ data: content, pageNumber: totalPages });
  });

  http.on('GET', '/api/board/infouuid/{uuid}', ({ params }) => {
    const board = visibleBoard(params.uuid);
    return board ? ok(board) : noBoard();
  });
  http.on('GET', '/api/boardtask/uuid/{uuid}/list', ({ params }) => {
    const board = visibleBoard(params.uuid);
    return board ? ok(server.boardTasks.filter((bt) => bt.boardId === board.id)) : noBoard();
  });
  // The deal cards' one call: each board asked that the member sees, in the order asked; the others left out.
  http.on('GET', '/api/boardtask/list/boards', (_call, request) => {
    const ids = [...new Set(new URL(request.url).searchParams.getAll('boardId').map(Number))];
    const seen = ids.map((id) => server.boards.find((b) => b.id === id && b.status === 'open')).filter((b) => b !== undefined);
    return ok(seen.map((board) => ({ boardId: board.id, boardTasks: server.boardTasks.filter((bt) => bt.boardId === board.id) })));
  });
  http.on('GET', '/api/task/info/user/board/list', ({ query }) => {
    const board = server.boards.find((b) => b.uuid === query.boardUuid);
    return board ? ok(server.myTasks.filter((t) => t.boardId === board.id)) : noBoard();
  });

  http.on('GET', '/api/boardtask/{boardId}/info/{taskId}', ({ params }) => {
    const boardTask = server.boardTasks.find((x) => x.id === Number(params.taskId) && x.boardId === Number(params.boardId));
    return boardTask ? ok(boardTask) : notFound('任务不存在');
  });

  const claim = ({ path, params, body }: Call): Response => {
    const boardTask = server.boardTasks.find((x) => x.id === Number(params.boardTaskId));
    if (!boardTask) return notFound('任务不存在');
    const call: ClaimCall = {
      path,
      boardTaskId: boardTask.id,
      count: Number(params.count),
      labelCount: params.label === undefined ? null : Number(params.label),
      body,
    };
    server.claims.push(call);
    if (server.claimAnswer) return server.claimAnswer(call);
    const board = server.boards.find((b) => b.id === boardTask.boardId)!;
    boardTask.claimCount += call.count;
    boardTask.remaining = Math.max(0, boardTask.show - boardTask.claimCount);
    const id = 200 + server.claims.length;
    const details = (body ?? {}) as { isHome?: boolean; state?: string; zipCode?: string };
    const task = aTask({
      id,
      mainId: id,
      boardTaskId: boardTask.id,
      boardId: board.id,
      itemName: boardTask.itemName,
      count: call.count,
      status: boardTask.status === 'closed' || board.expire ? 'pending' : 'open',
      isHome: details.isHome ?? false,
      state: details.state ?? '',
      zipCode: details.zipCode ?? '',
      labelCount: call.labelCount ?? 0,
    });
    server.myTasks = [...server.myTasks, task];
    return ok({ status: 'succ', task });
  };
  http.on('POST', '/api/task/{boardTaskId}/user/create/{count}', claim);
  http.on('POST', '/api/task/{boardTaskId}/user/create/{count}/label/{label}', claim);

  return server;
}
