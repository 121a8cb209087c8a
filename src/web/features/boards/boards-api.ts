// The calls of the admin board screens (SPEC §7 Boards, Board tasks, Tasks) and how their answers
// become what the user sees (SPEC §8):
// - publish (all / users / backup), close and reopen, accept and reject: the page shows its own
//   message, so these calls are silent; success shows the server's msg or '操作成功', failure (an
//   error code, or a result whose status is not succ) the server's msg or '操作失败'.
// - group add/remove: an error code gets the client's usual error toast; a falsy result
//   'operation failed' (SPEC §5).
import { extractMessage, UNKNOWN_ERROR, SUCCESS_CODE, type ApiClient } from '../../../api/client';
import type { components } from '../../../api/schema';
import type { PublishMode } from '../../../../machines/board.machine';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';

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

export type Outcome = { ok: boolean; message: string };

/** Toasts an outcome: green with its message on success, red on failure. */
export function showOutcome(outcome: Outcome): void {
  if (outcome.ok) toast.success(outcome.message);
  else toast.error(outcome.message);
}

/** The server's own words in an answer, or null when it gave none. */
function serverMessage(body: unknown): string | null {
  const message = extractMessage(body);
  return message === UNKNOWN_ERROR ? null : message;
}

interface OpAnswer {
  data?: { code?: string; msg?: string; data?: { status?: string; msg?: string } | null };
  error?: unknown;
}

/** SPEC §8 publish rule, shared by every status-changing call of these screens. */
async function operation(call: () => Promise<OpAnswer>): Promise<Outcome> {
  try {
    const { data, error } = await call();
    if (error !== undefined || !data || (data.code !== undefined && data.code !== SUCCESS_CODE)) {
      return { ok: false, message: serverMessage(error ?? data) ?? t.operationFailed };
    }
    const result = data.data;
    if (result?.status !== 'succ') {
      return { ok: false, message: serverMessage(result) ?? serverMessage(data) ?? t.operationFailed };
    }
    return { ok: true, message: serverMessage(result) ?? serverMessage(data) ?? t.operationSuccess };
  } catch {
    return { ok: false, message: t.operationFailed };
  }
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
  const { data } = await api.GET('/api/board/list/admin', { params: { query } });
  return { boards: data?.data?.data ?? [], totalPages: data?.data?.pageNumber ?? 0 };
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
    api.GET('/api/board/info/{id}', path),
    api.GET('/api/boardtask/{id}/list', path),
    api.GET('/api/board/{id}/userGroups', path),
    api.GET('/api/usergroup/list'),
  ]);
  if (!board.data?.data) return null;
  if (!tasks.data || !bound.data || !all.data) throw new BoardLoadError('board page data');
  return {
    board: board.data.data,
    tasks: tasks.data.data ?? [],
    boundGroups: bound.data.data ?? [],
    allGroups: all.data.data ?? [],
  };
}

/** Create (no id) or update; null when the server refused (its error toast has been shown). */
export async function saveBoard(api: ApiClient, body: BoardSaveRequest): Promise<Board | null> {
  const { data } = await api.POST('/api/board/info', { body });
  return data?.data ?? null;
}

export function publishBoard(api: ApiClient, id: number, mode: PublishMode, userIds: number[] = []): Promise<Outcome> {
  const path = { path: { id } };
  switch (mode) {
    case 'all':
      return operation(() => api.POST('/api/boardtask/publish/{id}', { params: path, silent: true }));
    case 'backup':
      return operation(() => api.POST('/api/boardtask/backup/publish/{id}', { params: path, silent: true }));
    case 'users':
      return operation(() => api.POST('/api/boardtask/publish/{id}/users', { params: path, body: { userIds }, silent: true }));
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
  return operation(async () => {
    const { data, error } = await api.POST('/api/board/info', { body, silent: true });
    // saveBoard answers the board itself (and '保存成功'): it succeeded when the board came back,
    // and a status change says '操作成功' like the other lifecycle buttons.
    return { error, data: data && { code: data.code, data: data.data ? { status: 'succ' } : undefined } };
  });
}

export type GroupChange = 'add' | 'remove';

/** Binds or unbinds groups (groupIds comma-joined). False when nothing changed. */
export async function changeBoardGroups(api: ApiClient, id: number, change: GroupChange, groupIds: number[]): Promise<boolean> {
  const params = { path: { id }, query: { groupIds: groupIds.join(',') } };
  try {
    const { data, error } = change === 'add' ? await api.POST('/api/board/{id}/add', { params }) : await api.POST('/api/board/{id}/remove', { params });
    if (error !== undefined) return false; // the client has shown the error
    if (!data?.data) toast.error(t.groupOperationFailed);
    return Boolean(data?.data);
  } catch {
    return false;
  }
}

export async function loadUsers(api: ApiClient): Promise<AppUser[]> {
  const { data } = await api.GET('/api/user/list');
  return data?.data ?? [];
}

// ---------------------------------------------------------------- board tasks and claims

export async function loadBoardTask(api: ApiClient, boardId: number, taskId: number): Promise<BoardTask | null> {
  const { data } = await api.GET('/api/boardtask/{boardId}/info/{taskId}', { params: { path: { boardId, taskId } } });
  return data?.data ?? null;
}

/** Create (no id) or update. True when saved (SPEC §5: status succ); a refusal has been toasted. */
export async function saveBoardTask(api: ApiClient, boardId: number, body: BoardTaskSaveRequest): Promise<boolean> {
  const { data } = await api.POST('/api/boardtask/{boardId}/info', { params: { path: { boardId } }, body });
  if (!data?.data) return false; // an error code: the client has shown it
  if (data.data.status !== 'succ') {
    toast.error(serverMessage(data.data) ?? serverMessage(data) ?? t.saveFailed);
    return false;
  }
  return true;
}

/** The user tasks (claims) of one board task. */
export async function loadBoardTaskClaims(api: ApiClient, boardTaskId: number): Promise<UserTask[]> {
  const { data } = await api.GET('/api/task/info/admin/list/{id}', { params: { path: { id: boardTaskId } } });
  return data?.data ?? [];
}

export interface TaskPage {
  tasks: UserTask[];
  totalPages: number;
  totalElements: number;
}

export async function loadPendingClaims(api: ApiClient, boardId: number, page: number, size: number): Promise<TaskPage> {
  const { data } = await api.GET('/api/task/list/page', { params: { query: { boardId, taskStatus: 'pending', page, size } } });
  return { tasks: data?.data?.content ?? [], totalPages: data?.data?.totalPages ?? 0, totalElements: data?.data?.totalElements ?? 0 };
}

export type ClaimDecision = 'accept' | 'reject';

export function decideClaim(api: ApiClient, decision: ClaimDecision, taskId: number): Promise<Outcome> {
  const params = { path: { id: taskId } };
  return operation(() =>
    decision === 'accept'
      ? api.POST('/api/task/accept/{id}', { params, silent: true })
      : api.POST('/api/task/reject/{id}', { params, silent: true }),
  );
}

/** A positive integer route param ('12'), or null ('new', garbage). */
export function parseRouteId(param: string): number | null {
  return /^[1-9]\d{0,14}$/.test(param) ? Number(param) : null;
}
