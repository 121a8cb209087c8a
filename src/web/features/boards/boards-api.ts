// The calls of the admin board screens (SPEC §7 Boards, Board tasks, Tasks) and how their answers
// become what the user sees (SPEC §8):
// - publish (all / users / backup), close and reopen, accept and reject: the page shows its own
//   message, so these calls are silent; success shows the server's msg or '操作成功', failure (an
//   error code, or a result whose status is not succ) the server's msg or '操作失败'.
// - group add/remove: an error code gets the client's usual error toast; a falsy result
//   'operation failed' (SPEC §5).
import type { ApiClient } from '../../../api/client';
import { anyResult, outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components } from '../../../api/schema';
import type { PublishMode } from '../../../../machines/board.machine';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { toastOutcome } from '../../lib/toast-outcome';

type Schemas = components['schemas'];
export type Board = Schemas['Board'];
export type BoardStatus = Schemas['BoardStatus'];
export type BoardTask = Schemas['BoardTask'];
export type BoardTaskStatus = Schemas['BoardTaskStatus'];
export type BoardTaskSaveRequest = Schemas['BoardTaskSaveRequest'];
export type BoardSaveRequest = Schemas['BoardSaveRequest'];
export type UserTask = Schemas['Task'];
export type TaskStatus = Schemas['TaskStatus'];
export type UserGroup = Schemas['UserGroup'];
export type AppUser = Schemas['User'];

const t = zh.boards;

/** What a silent status change came to; `msg` is the server's words ('' when it gave none). */
export type Outcome = ApiOutcome<unknown>;

/** Toasts a status change (SPEC §8 publish rule): the server's words, else '操作成功' / '操作失败'. */
export function showOutcome(outcome: Outcome): void {
  toastOutcome(outcome, { done: t.operationSuccess, failed: t.operationFailed });
}

// ---------------------------------------------------------------- board list

export interface BoardListQuery {
  page: number;
  size: number;
  isDesc: boolean;
  boardId?: number;
  boardTaskId?: number;
  itemId?: number;
}

export interface BoardListPage {
  boards: Board[];
  totalPages: number;
}

export async function loadBoardList(api: ApiClient, query: BoardListQuery): Promise<BoardListPage> {
  const outcome = await outcomeOf(api.GET('/api/board/list/admin', { params: { query } }));
  const page = outcome.ok ? outcome.data : undefined;
  return { boards: page?.data ?? [], totalPages: page?.pageNumber ?? 0 };
}

// ---------------------------------------------------------------- one board

export interface BoardPageData {
  board: Board;
  tasks: BoardTask[];
  boundGroups: UserGroup[];
  allGroups: UserGroup[];
}

export class BoardLoadError extends Error {}

/** Everything /admin/board/{id} shows at once; null when the board does not exist. */
export async function loadBoardPage(api: ApiClient, id: number): Promise<BoardPageData | null> {
  const path = { params: { path: { id } } };
  const [board, tasks, bound, all] = await Promise.all([
    outcomeOf(api.GET('/api/board/info/{id}', path)),
    outcomeOf(api.GET('/api/boardtask/{id}/list', path)),
    outcomeOf(api.GET('/api/board/{id}/userGroups', path)),
    outcomeOf(api.GET('/api/usergroup/list')),
  ]);
  if (!board.ok || !board.data) return null;
  if (!tasks.ok || !bound.ok || !all.ok) throw new BoardLoadError('board page data');
  return {
    board: board.data,
    tasks: tasks.data ?? [],
    boundGroups: bound.data ?? [],
    allGroups: all.data ?? [],
  };
}

/** Create (no id) or update; null when the server refused (its error toast has been shown). */
export async function saveBoard(api: ApiClient, body: BoardSaveRequest): Promise<Board | null> {
  const outcome = await outcomeOf(api.POST('/api/board/info', { body }));
  return outcome.ok ? (outcome.data ?? null) : null;
}

export function publishBoard(api: ApiClient, id: number, mode: PublishMode, userIds: number[] = []): Promise<Outcome> {
  const path = { path: { id } };
  switch (mode) {
    case 'all':
      return outcomeOf(api.POST('/api/boardtask/publish/{id}', { params: path, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
    case 'backup':
      return outcomeOf(api.POST('/api/boardtask/backup/publish/{id}', { params: path, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
    case 'users':
      return outcomeOf(api.POST('/api/boardtask/publish/{id}/users', { params: path, body: { userIds }, silent: true }), {
        succeeded: saysSucc,
        noAnswer: 'fail',
      });
  }
}

/** Close (open -> close) or reopen (close -> open): saveBoard with the stored fields and the new status. */
export async function setBoardStatus(api: ApiClient, board: Board, status: 'open' | 'close'): Promise<Outcome> {
  const body: BoardSaveRequest = {
    id: board.id,
    boardName: board.boardName,
    remark: board.remark,
    publishAt: board.publishAt,
    expireAt: board.expireAt,
    status,
  };
  const outcome = await outcomeOf(api.POST('/api/board/info', { body, silent: true }), { succeeded: anyResult, noAnswer: 'fail' });
  // saveBoard answers the board itself (and '保存成功'): it succeeded when the board came back, and a
  // status change says '操作成功' like the other lifecycle buttons, so its words are not kept.
  return outcome.ok ? { ...outcome, msg: '' } : outcome;
}

export type GroupChange = 'add' | 'remove';

/** Binds or unbinds groups (groupIds comma-joined). False when nothing changed. */
export async function changeBoardGroups(api: ApiClient, id: number, change: GroupChange, groupIds: number[]): Promise<boolean> {
  const params = { path: { id }, query: { groupIds: groupIds.join(',') } };
  const outcome = await outcomeOf(change === 'add' ? api.POST('/api/board/{id}/add', { params }) : api.POST('/api/board/{id}/remove', { params }), {
    noAnswer: 'fail',
  });
  if (!outcome.ok) return false; // the client has shown the error
  if (!outcome.data) toast.error(t.groupOperationFailed);
  return Boolean(outcome.data);
}

// ---------------------------------------------------------------- board tasks and claims

export async function loadBoardTask(api: ApiClient, boardId: number, taskId: number): Promise<BoardTask | null> {
  const outcome = await outcomeOf(api.GET('/api/boardtask/{boardId}/info/{taskId}', { params: { path: { boardId, taskId } } }));
  return outcome.ok ? (outcome.data ?? null) : null;
}

/** Create (no id) or update. True when saved (SPEC §5: status succ); a refusal has been toasted. */
export async function saveBoardTask(api: ApiClient, boardId: number, body: BoardTaskSaveRequest): Promise<boolean> {
  const outcome = await outcomeOf(api.POST('/api/boardtask/{boardId}/info', { params: { path: { boardId } }, body }));
  if (!outcome.ok || !outcome.data) return false; // an error code: the client has shown it
  if (!saysSucc(outcome.data)) {
    toast.error(outcome.msg || t.saveFailed);
    return false;
  }
  return true;
}

/** The user tasks (claims) of one board task. */
export async function loadBoardTaskClaims(api: ApiClient, boardTaskId: number): Promise<UserTask[]> {
  const outcome = await outcomeOf(api.GET('/api/task/info/admin/list/{id}', { params: { path: { id: boardTaskId } } }));
  return outcome.ok ? (outcome.data ?? []) : [];
}

export interface TaskPage {
  tasks: UserTask[];
  totalPages: number;
  totalElements: number;
}

export async function loadPendingClaims(api: ApiClient, boardId: number, page: number, size: number): Promise<TaskPage> {
  const outcome = await outcomeOf(api.GET('/api/task/list/page', { params: { query: { boardId, taskStatus: 'pending', page, size } } }));
  const found = outcome.ok ? outcome.data : undefined;
  return { tasks: found?.content ?? [], totalPages: found?.totalPages ?? 0, totalElements: found?.totalElements ?? 0 };
}

/** A positive integer route param ('12'), or null ('new', garbage). */
export function parseRouteId(param: string): number | null {
  return /^[1-9]\d{0,14}$/.test(param) ? Number(param) : null;
}
