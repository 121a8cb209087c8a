// The calls of the admin task screens (SPEC §7 Tasks, audit, matching) and how their answers become
// what the admin sees (SPEC §8):
// - lists and the one task: the client's usual error toast on failure; the page then shows an
//   empty result rather than failing the route.
// - accept, reject, match, close and delete: the page shows its own message, so these calls are
//   silent; success shows the server's msg or '操作成功', failure (an error code, or a result whose
//   status / opStatus is not succ) the server's msg or '操作失败' (the approach of the board
//   page's claim decisions).
// - save (admin edit): '保存成功', or the server's msg / '保存失败'.
import { extractMessage, SUCCESS_CODE, UNKNOWN_ERROR, type ApiClient } from '../../../api/client';
import type { components, operations } from '../../../api/schema';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';

type Schemas = components['schemas'];
export type Task = Schemas['Task'];
export type TaskStatus = Schemas['TaskStatus'];
export type TaskPage = Schemas['TaskPage'];
export type TaskUpdateRequest = Schemas['TaskUpdateRequest'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];
export type AppUser = Schemas['User'];

type ListTasksQuery = NonNullable<operations['listTasks']['parameters']['query']>;
type ListTaskAuditsQuery = NonNullable<operations['listTaskAudits']['parameters']['query']>;
export type TaskListQuery = ListTasksQuery & { page: number; size: number; isDesc: boolean };
export type TaskAuditQuery = ListTaskAuditsQuery & { page: number; size: number; isDesc: boolean };
export type AuditStatus = NonNullable<ListTaskAuditsQuery['status']>;

const t = zh.adminTasks;

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
  data?: { code?: string; msg?: string; data?: { status?: string; opStatus?: string; msg?: string } | null };
  error?: unknown;
}

/** SPEC §8 for a status-changing call: its outcome with the server's words or the fallback. */
interface Fallback {
  ok: string;
  failed: string;
}
const OPERATION_WORDS: Fallback = { ok: t.operationSuccess, failed: t.operationFailed };

async function operation(call: () => Promise<OpAnswer>, fallback: Fallback = OPERATION_WORDS): Promise<Outcome> {
  try {
    const { data, error } = await call();
    if (error !== undefined || !data || (data.code !== undefined && data.code !== SUCCESS_CODE)) {
      return { ok: false, message: serverMessage(error ?? data) ?? fallback.failed };
    }
    const result = data.data;
    const status = result?.status ?? result?.opStatus;
    if (status !== 'succ') {
      return { ok: false, message: serverMessage(result) ?? serverMessage(data) ?? fallback.failed };
    }
    return { ok: true, message: serverMessage(result) ?? serverMessage(data) ?? fallback.ok };
  } catch {
    return { ok: false, message: fallback.failed };
  }
}

// ---------------------------------------------------------------- lists

const EMPTY_TASK_PAGE: TaskPage = { content: [], totalPages: 0, totalElements: 0 };
const EMPTY_AUDIT_PAGE: AuditPage = { content: [], totalPages: 0, totalElements: 0 };

export async function loadTaskList(api: ApiClient, query: TaskListQuery): Promise<TaskPage> {
  const { data } = await api.GET('/api/task/list/page', { params: { query } });
  return data?.data ?? EMPTY_TASK_PAGE;
}

export async function loadTaskAudits(api: ApiClient, query: TaskAuditQuery): Promise<AuditPage> {
  const { data } = await api.GET('/api/audit/task/list', { params: { query } });
  return data?.data ?? EMPTY_AUDIT_PAGE;
}

/** Every user, for the user filters and to name a task's owner in the log. */
export async function loadUsers(api: ApiClient): Promise<AppUser[]> {
  const { data } = await api.GET('/api/user/list');
  return data?.data ?? [];
}

// ---------------------------------------------------------------- one task

/** The task, or null when it does not exist (a silent call: the page says so itself). */
export async function loadTask(api: ApiClient, id: number): Promise<Task | null> {
  const { data } = await api.GET('/api/task/info/{id}', { params: { path: { id } }, silent: true });
  return data?.data ?? null;
}

/** The admin edit (updateTask); '保存成功' or the server's msg / '保存失败' is toasted. */
export async function saveTask(api: ApiClient, body: TaskUpdateRequest): Promise<boolean> {
  const outcome = await operation(() => api.POST('/api/task/info', { body, silent: true }), { ok: t.saved, failed: t.saveFailed });
  // The page's own word for a save, whatever the server calls it.
  showOutcome(outcome.ok ? { ok: true, message: t.saved } : outcome);
  return outcome.ok;
}

// ---------------------------------------------------------------- row actions

export function acceptTask(api: ApiClient, id: number): Promise<Outcome> {
  return operation(() => api.POST('/api/task/accept/{id}', { params: { path: { id } }, silent: true }));
}

export function rejectTask(api: ApiClient, id: number): Promise<Outcome> {
  return operation(() => api.POST('/api/task/reject/{id}', { params: { path: { id } }, silent: true }));
}

/** SPEC §6: the admin view uses the admin match call. */
export function matchTask(api: ApiClient, taskId: number): Promise<Outcome> {
  return operation(() => api.POST('/api/match/admin/task/match', { body: { taskId }, silent: true }));
}

/**
 * Close or delete: the contract's updateTask with `status` (applied on the server as the task
 * machine's close / delete event). `count` is required by the body; the stored count is sent so
 * nothing else changes.
 */
export function setTaskStatus(api: ApiClient, task: Pick<Task, 'id' | 'count'>, status: 'closed' | 'deleted'): Promise<Outcome> {
  return operation(() => api.POST('/api/task/info', { body: { id: task.id, count: task.count, status }, silent: true }));
}

/** A task id from a path segment: a positive whole number, else null. */
export function parseTaskId(param: string): number | null {
  if (!/^[1-9]\d{0,14}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}
