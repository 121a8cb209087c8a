// The calls behind the member's board screens (SPEC §2 /user/board-list, /user/board/{uuid},
// /user/boardtask/{boardId}/{taskId}; §7 Boards, Board tasks, Tasks). Loaders return what the page
// shows. The board list's read is silent and a failure is thrown (lib/list-route.ts): the page says
// it in place of its rows. The board's reads have already raised their error toast in the client
// and answer "nothing" (a null board) when they fail, and the page says so.
import type { ApiClient } from '../../../api/client';
import { outcomeOf, saysSucc } from '../../../api/outcome';
import type { components } from '../../../api/schema';
import type { ClaimRequest } from '../../../../machines/claim.machine';
import { zh } from '../../i18n/zh';
import { loadedOrThrow } from '../../lib/list-route';

export type Board = components['schemas']['Board'];
export type BoardTask = components['schemas']['BoardTask'];
export type MemberTask = components['schemas']['Task'];

export interface BoardListQuery {
  page: number;
  size: number;
  boardId?: number;
  boardTaskId?: number;
  itemId?: number;
}

export interface BoardListPage {
  boards: Board[];
  totalPages: number;
  /** The deal cards' board tasks by board id (cards view only); null: that board's tasks did not load. */
  boardTasks?: Record<number, BoardTask[] | null>;
}

export const EMPTY_BOARD_LIST: BoardListPage = { boards: [], totalPages: 0 };

/** GET /api/board/list/user: the open boards published to this member, newest first; a failure is thrown (LoadFailure). */
export async function loadUserBoards(api: ApiClient, query: BoardListQuery): Promise<BoardListPage> {
  const outcome = await outcomeOf(
    api.GET('/api/board/list/user', {
      params: {
        query: {
          page: query.page,
          size: query.size,
          isDesc: true,
          ...(query.boardId !== undefined && { boardId: query.boardId }),
          ...(query.boardTaskId !== undefined && { boardTaskId: query.boardTaskId }),
          ...(query.itemId !== undefined && { itemId: query.itemId }),
        },
      },
      silent: true,
    }),
    { noAnswer: 'fail' },
  );
  const page = loadedOrThrow(outcome);
  return { boards: page?.data ?? [], totalPages: page?.pageNumber ?? 0 };
}

/** The most boards one listBoardTasksOfBoards call takes (its boardId's maxItems in openapi.yaml). */
export const BOARDS_PER_DEALS_CALL = 100;

/**
 * The board tasks of each listed board, for the deal cards (decision 111): one silent call for the
 * page's boards (listBoardTasksOfBoards; a page of more than BOARDS_PER_DEALS_CALL boards takes one
 * call per hundred, in parallel). A board the answer leaves out (no longer open to the member since
 * the list was read) or whose call failed says so on its own card group; the others still show.
 */
export async function loadBoardDeals(api: ApiClient, boards: readonly Board[]): Promise<Record<number, BoardTask[] | null>> {
  const chunks: Board[][] = [];
  for (let i = 0; i < boards.length; i += BOARDS_PER_DEALS_CALL) chunks.push(boards.slice(i, i + BOARDS_PER_DEALS_CALL));
  const answers = await Promise.all(
    chunks.map((chunk) =>
      outcomeOf(api.GET('/api/boardtask/list/boards', { params: { query: { boardId: chunk.map((b) => b.id) } }, silent: true }), { noAnswer: 'fail' }),
    ),
  );
  const found = new Map(answers.flatMap((answer) => (answer.ok ? (answer.data ?? []) : [])).map((group) => [group.boardId, group.boardTasks]));
  return Object.fromEntries(boards.map((b) => [b.id, found.get(b.id) ?? null]));
}

/** The board list's page, and in the cards view each board's tasks. */
export async function loadUserBoardsView(api: ApiClient, query: BoardListQuery & { view: 'cards' | 'table' }): Promise<BoardListPage> {
  const page = await loadUserBoards(api, query);
  return query.view === 'cards' ? { ...page, boardTasks: await loadBoardDeals(api, page.boards) } : page;
}

export interface MemberBoardData {
  /** Null when the board does not exist or is not open to this member (A00004). */
  board: Board | null;
  boardTasks: BoardTask[];
  myTasks: MemberTask[];
}

/** The board, its board tasks (with claimCount) and the member's own tasks on it, in parallel. */
export async function loadMemberBoard(api: ApiClient, uuid: string): Promise<MemberBoardData> {
  const [board, boardTasks, myTasks] = await Promise.all([
    outcomeOf(api.GET('/api/board/infouuid/{uuid}', { params: { path: { uuid } } })),
    outcomeOf(api.GET('/api/boardtask/uuid/{uuid}/list', { params: { path: { uuid } } })),
    outcomeOf(api.GET('/api/task/info/user/board/list', { params: { query: { boardUuid: uuid } } })),
  ]);
  return {
    board: board.ok ? (board.data ?? null) : null,
    boardTasks: boardTasks.ok ? (boardTasks.data ?? []) : [],
    myTasks: myTasks.ok ? (myTasks.data ?? []) : [],
  };
}

export interface MemberBoardTaskData {
  boardTask: BoardTask | null;
  /**
   * The board as the member's board list gives it (status, expire, uuid), needed for the claim
   * rules; null when it is not open to this member. The contract has no member call for one board
   * by id, so this is GET /api/board/list/user?boardId=.
   */
  board: Board | null;
}

export async function loadMemberBoardTask(api: ApiClient, boardId: number, taskId: number): Promise<MemberBoardTaskData> {
  if (!Number.isInteger(boardId) || !Number.isInteger(taskId)) return { boardTask: null, board: null };
  const [boardTask, boards] = await Promise.all([
    outcomeOf(api.GET('/api/boardtask/{boardId}/info/{taskId}', { params: { path: { boardId, taskId } } })),
    outcomeOf(api.GET('/api/board/list/user', { params: { query: { boardId, page: 0, size: 1 } } })),
  ]);
  const board = (boards.ok && boards.data?.data.find((b) => b.id === boardId)) || null;
  const task = boardTask.ok ? (boardTask.data ?? null) : null;
  return { boardTask: task && task.boardId === boardId ? task : null, board };
}

export interface ClaimResult {
  taskId: number | null;
  /** The text of the success toast: the server's msg, else '认领成功'. */
  message: string;
}

/**
 * POST /api/task/{boardTaskId}/user/create/{count}, or with isHome
 * POST .../create/{count}/label/{labelCount} with {isHome, state, zipCode}. Silent: the claim
 * dialog shows the failure itself (SPEC §8 "Claim failure: msg or '操作失败'"), so the client raises
 * no toast. Rejects with an Error carrying the server's msg (empty when there is none: the claim
 * machine then shows '操作失败'). A refusal may come as an error code or as A00000 with
 * data.status 'failed'; both count.
 */
export async function submitClaim(api: ApiClient, request: ClaimRequest): Promise<ClaimResult> {
  const outcome = await outcomeOf(
    request.isHome
      ? api.POST('/api/task/{id}/user/create/{count}/label/{labelCount}', {
          params: { path: { id: request.boardTaskId, count: request.count, labelCount: request.labelCount ?? 0 } },
          body: { isHome: true, state: request.state, zipCode: request.zipCode },
          silent: true,
        })
      : api.POST('/api/task/{id}/user/create/{count}', {
          params: { path: { id: request.boardTaskId, count: request.count } },
          silent: true,
        }),
    { noAnswer: 'fail' },
  );
  // A result that does not say succ is a refusal; an answer without one is not.
  if (!outcome.ok || (outcome.data && !saysSucc(outcome.data))) throw new Error(outcome.msg);
  return { taskId: outcome.data?.task?.id ?? null, message: outcome.msg || zh.memberBoards.claimSuccess };
}

/** A numeric id from a route path segment; NaN when it is not a positive whole number. */
export function parseRouteId(segment: string): number {
  return /^[1-9]\d{0,14}$/.test(segment) ? Number(segment) : Number.NaN;
}
