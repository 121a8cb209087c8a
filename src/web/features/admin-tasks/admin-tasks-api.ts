// The calls of the admin task screens (SPEC §7 Tasks, audit, matching) and how their answers become
// what the admin sees (SPEC §8):
// - lists and the one task: the client's usual error toast on failure; the page then shows an
//   empty result rather than failing the route.
// - accept, reject, match, close and delete: the page shows its own message, so these calls are
//   silent; success shows the server's msg or '操作成功', failure (an error code, or a result whose
//   status / opStatus is not succ) the server's msg or '操作失败' (the approach of the board
//   page's claim decisions).
// - save (admin edit): '保存成功', or the server's msg / '保存失败'.
import type { ApiClient } from '../../../api/client';
import { outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components, operations } from '../../../api/schema';
import { zh } from '../../i18n/zh';
import { toastOutcome, type OutcomeWords } from '../../lib/toast-outcome';

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

/** What a silent status change came to; `msg` is the server's words ('' when it gave none). */
export type Outcome = ApiOutcome<unknown>;

const OPERATION_WORDS: OutcomeWords = { done: t.operationSuccess, failed: t.operationFailed };

/** Toasts a status change: the server's words, else '操作成功' / '操作失败'. */
export function showOutcome(outcome: Outcome): void {
  toastOutcome(outcome, OPERATION_WORDS);
}

// ---------------------------------------------------------------- lists

const EMPTY_TASK_PAGE: TaskPage = { content: [], totalPages: 0, totalElements: 0 };
const EMPTY_AUDIT_PAGE: AuditPage = { content: [], totalPages: 0, totalElements: 0 };

export async function loadTaskList(api: ApiClient, query: TaskListQuery): Promise<TaskPage> {
  const outcome = await outcomeOf(api.GET('/api/task/list/page', { params: { query } }));
  return outcome.ok ? (outcome.data ?? EMPTY_TASK_PAGE) : EMPTY_TASK_PAGE;
}

export async function loadTaskAudits(api: ApiClient, query: TaskAuditQuery): Promise<AuditPage> {
  const outcome = await outcomeOf(api.GET('/api/audit/task/list', { params: { query } }));
  return outcome.ok ? (outcome.data ?? EMPTY_AUDIT_PAGE) : EMPTY_AUDIT_PAGE;
}

// ---------------------------------------------------------------- one task

/** The task, or null when it does not exist (a silent call: the page says so itself). */
export async function loadTask(api: ApiClient, id: number): Promise<Task | null> {
  const outcome = await outcomeOf(api.GET('/api/task/info/{id}', { params: { path: { id } }, silent: true }));
  return outcome.ok ? (outcome.data ?? null) : null;
}

/** The admin edit (updateTask); '保存成功' or the server's msg / '保存失败' is toasted. */
export async function saveTask(api: ApiClient, body: TaskUpdateRequest): Promise<boolean> {
  const outcome = await outcomeOf(api.POST('/api/task/info', { body, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
  // The page's own word for a save, whatever the server calls it.
  return toastOutcome(outcome.ok ? { ok: true, msg: t.saved } : outcome, { done: t.saved, failed: t.saveFailed });
}

// ---------------------------------------------------------------- row actions

/** SPEC §6: the admin view uses the admin match call. */
export function matchTask(api: ApiClient, taskId: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/match/admin/task/match', { body: { taskId }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/**
 * Close or delete: the contract's updateTask with `status` (applied on the server as the task
 * machine's close / delete event). `count` is required by the body; the stored count is sent so
 * nothing else changes.
 */
export function setTaskStatus(api: ApiClient, task: Pick<Task, 'id' | 'count'>, status: 'closed' | 'deleted'): Promise<Outcome> {
  return outcomeOf(api.POST('/api/task/info', { body: { id: task.id, count: task.count, status }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** A task id from a path segment: a positive whole number, else null. */
export function parseTaskId(param: string): number | null {
  if (!/^[1-9]\d{0,14}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}
