// The calls behind the member's task screens (SPEC §2 /user/my-task, the board page's
// 'my tasks'; §7 Tasks, Scan/tracking/audit/matching, Uploads and downloads). Lists answer "nothing"
// on failure (the client has already raised its error toast). The state-changing calls are silent:
// each screen words its own outcome (SPEC §8 '删除失败', '拆分失败', the server's msg in a dialog), so
// they return an Outcome instead of letting the client toast. A refusal may come as an error code
// (the server refuses what the task machine refuses, A00001 with the machine's message) or as
// A00000 whose data.status (or opStatus) is not 'succ'; both count as failure (SPEC §5 "must return
// status succ or the response is raised as an error").
import { excelExportUrl } from '../../lib/excel-export';
import type { ApiClient } from '../../../api/client';
import { anyResult, outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components } from '../../../api/schema';
import type { ClaimTarget } from '../../../../machines/claim.machine';
import { MEMBER_RECORDABLE_STATUSES } from '../../../../machines/task.machine';
import { timezoneOffsetHours } from '../../lib/timezone';
import type { MyTaskFilters, MyTaskSearch } from './my-task-search';

export type Task = components['schemas']['Task'];
export type TaskStatus = components['schemas']['TaskStatus'];
export type TaskPage = components['schemas']['TaskPage'];
export type TaskPartMatch = components['schemas']['TaskPartMatch'];
export type PurchasedItem = components['schemas']['PurchasedItem'];
export type PurchasedStatus = components['schemas']['PurchasedStatus'];
type TaskChangeResult = components['schemas']['TaskChangeResult'];
type TaskSplitResult = components['schemas']['TaskSplitResult'];
type MatchResult = components['schemas']['MatchResult'];
type PurchasedChangeResult = components['schemas']['PurchasedChangeResult'];
export type PurchasedBulkResult = components['schemas']['PurchasedBulkResult'];
export type TaskTracking = components['schemas']['TaskTracking'];
type OpResult = components['schemas']['OpResult'];

/** What a state-changing call came to; `msg` is the server's words ('' when it gave none). */
export type Outcome<T> = ApiOutcome<T>;

// ---------------------------------------------------------------- reads

/** The filters of /user/my-task as listUserTasks (and the Excel export) take them. */
export function myTaskQuery(search: MyTaskFilters) {
  return {
    isDesc: true,
    ...(search.status !== 'all' && { taskStatus: search.status }),
    ...(search.itemName && { itemName: search.itemName }),
    ...(search.trackingId && { trackingId: search.trackingId }),
    ...(search.taskId !== undefined && { taskId: search.taskId }),
    ...(search.recorded && { recorded: true }),
    ...(search.claimed && { claimed: true }),
  };
}

const EMPTY_PAGE: TaskPage = { content: [], totalPages: 0, totalElements: 0 };

/** GET /api/task/info/user/list: one page of the member's own tasks, newest first. */
export async function loadMyTasks(api: ApiClient, search: MyTaskSearch): Promise<TaskPage> {
  const { taskStatus, ...filters } = myTaskQuery(search);
  const query = { page: search.page, size: search.size, ...filters, ...(taskStatus && { taskStatus: [taskStatus] }) };
  const outcome = await outcomeOf(api.GET('/api/task/info/user/list', { params: { query } }));
  return outcome.ok ? (outcome.data ?? EMPTY_PAGE) : EMPTY_PAGE;
}

/** How many tasks of each recordable status the paste box reads: the list call's largest page. */
export const RECORDABLE_LIST_SIZE = 1000;

/**
 * The member's tasks the paste box may record on (decision 108), whatever page or filter the task
 * list shows: one GET /api/task/info/user/list of every status in which the task machine lets the
 * member change records (MEMBER_RECORDABLE_STATUSES), its first RECORDABLE_LIST_SIZE, newest first.
 */
export async function loadRecordableTasks(api: ApiClient): Promise<Task[]> {
  const query = { page: 0, size: RECORDABLE_LIST_SIZE, isDesc: true, taskStatus: [...MEMBER_RECORDABLE_STATUSES] };
  const outcome = await outcomeOf(api.GET('/api/task/info/user/list', { params: { query } }));
  return outcome.ok ? (outcome.data?.content ?? []) : [];
}

/** GET /api/task/info/{id}; null when it does not exist or is not the caller's (A00004). */
export async function loadTask(api: ApiClient, id: number): Promise<Task | null> {
  const outcome = await outcomeOf(api.GET('/api/task/info/{id}', { params: { path: { id } } }));
  return outcome.ok ? (outcome.data ?? null) : null;
}

/** GET /api/purchased/{id}/taskTracking: the task's purchased records. */
export async function loadPurchasedItems(api: ApiClient, taskId: number): Promise<PurchasedItem[]> {
  const outcome = await outcomeOf(api.GET('/api/purchased/{id}/taskTracking', { params: { path: { id: taskId } } }));
  return outcome.ok ? (outcome.data?.purchasedItems ?? []) : [];
}

/** GET /api/task/part/match: how much of a task has arrived (and whether it can be split). */
export async function loadTaskPart(api: ApiClient, taskId: number): Promise<TaskPartMatch | null> {
  const outcome = await outcomeOf(api.GET('/api/task/part/match', { params: { query: { taskIds: String(taskId) } }, silent: true }), { noAnswer: 'fail' });
  return (outcome.ok && outcome.data?.find((part) => part.taskId === taskId)) || null;
}

/**
 * The claim limits behind a count edit (machines/claim.machine.ts `claimFieldErrors` in 'edit'
 * mode): the board task's shown quantity and the units its tasks hold (GET
 * /api/boardtask/{boardId}/info/{taskId}). The count limit reads only those two, so the board's own
 * status is not fetched; the target says 'open' for it. Null when the member can no longer see the
 * board task: the dialog then leaves the limit to the server. Silent: a missing limit is not an error.
 */
export async function loadEditTarget(api: ApiClient, task: Pick<Task, 'boardId' | 'boardTaskId'>): Promise<ClaimTarget | null> {
  const outcome = await outcomeOf(
    api.GET('/api/boardtask/{boardId}/info/{taskId}', { params: { path: { boardId: task.boardId, taskId: task.boardTaskId } }, silent: true }),
    { noAnswer: 'fail' },
  );
  const boardTask = outcome.ok ? outcome.data : undefined;
  if (!boardTask) return null;
  return {
    boardStatus: 'open',
    boardExpired: false,
    boardTaskStatus: boardTask.status,
    show: boardTask.show,
    claimed: boardTask.claimCount,
  };
}

// ---------------------------------------------------------------- task changes

export interface CountChange {
  count: number;
  /** Only for a task with isHome (SPEC §2: labelCount is editable then); null otherwise. */
  labelCount: number | null;
}

/** POST /api/task/info/user/{id}/qty/{n}, or .../qty/{n}/label/{m} for a task with isHome. */
export function updateTaskCount(api: ApiClient, task: Pick<Task, 'id' | 'isHome'>, change: CountChange): Promise<Outcome<TaskChangeResult>> {
  return outcomeOf(
    task.isHome && change.labelCount !== null
      ? api.POST('/api/task/info/user/{id}/qty/{n}/label/{m}', {
          params: { path: { id: task.id, n: change.count, m: change.labelCount } },
          silent: true,
        })
      : api.POST('/api/task/info/user/{id}/qty/{n}', { params: { path: { id: task.id, n: change.count } }, silent: true }),
    { succeeded: saysSucc, noAnswer: 'fail' },
  );
}

/** DELETE /api/task/info/user/{id}. */
export function deleteTask(api: ApiClient, id: number): Promise<Outcome<OpResult>> {
  return outcomeOf(api.DELETE('/api/task/info/user/{id}', { params: { path: { id } }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/task/user/split?taskId=: the arrived units become a locked sibling. */
export function splitTask(api: ApiClient, id: number): Promise<Outcome<TaskSplitResult>> {
  return outcomeOf(api.POST('/api/task/user/split', { params: { query: { taskId: id } }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/match/user/task/match {taskId}: the member's match call (SPEC §6). */
export function matchTask(api: ApiClient, id: number): Promise<Outcome<MatchResult>> {
  return outcomeOf(api.POST('/api/match/user/task/match', { body: { taskId: id }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

// ---------------------------------------------------------------- purchased records

export interface PurchasedValues {
  trackingId: string;
  productCount: number;
}

/** POST /api/purchased/user/{taskId}/create. */
export function createPurchased(api: ApiClient, taskId: number, values: PurchasedValues): Promise<Outcome<PurchasedChangeResult>> {
  return outcomeOf(api.POST('/api/purchased/user/{taskId}/create', { params: { path: { taskId } }, body: values, silent: true }), {
    succeeded: saysSucc,
    noAnswer: 'fail',
  });
}

/**
 * POST /api/purchased/user/{taskId}/bulk {text}: the paste box (decision 105). Any answer of the
 * call counts as done: its status says whether the lines were recorded (succ) or none was (failed),
 * and its rows say why per line; a fault of the whole call (another member's task, a task whose
 * records may not change, an empty paste) is a failure with the server's words.
 */
export function createPurchasedBulk(api: ApiClient, taskId: number, text: string): Promise<Outcome<PurchasedBulkResult>> {
  return outcomeOf(api.POST('/api/purchased/user/{taskId}/bulk', { params: { path: { taskId } }, body: { text }, silent: true }), {
    succeeded: anyResult,
    noAnswer: 'fail',
  });
}

/** POST /api/purchased/user/update. */
export function updatePurchased(api: ApiClient, id: number, values: PurchasedValues): Promise<Outcome<PurchasedChangeResult>> {
  return outcomeOf(api.POST('/api/purchased/user/update', { body: { id, ...values }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/purchased/user/remove {id}. */
export function removePurchased(api: ApiClient, id: number): Promise<Outcome<PurchasedChangeResult>> {
  return outcomeOf(api.POST('/api/purchased/user/remove', { body: { id }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

// ---------------------------------------------------------------- files

/**
 * The Excel export of the member's tasks with the page's filters (DECISIONS "Files"): a short-lived
 * download token for kind user-task, issued for these filters (GET /api/download/excel/user-task/token
 * with the filters of listUserTasks and the timezone; the token fixes them), then the plain link
 * /ext/excel/user-task/{token}. Null when no token came (the client has shown why).
 */
export async function userTaskExcelUrl(api: ApiClient, search: MyTaskFilters): Promise<string | null> {
  return excelExportUrl(api, 'user-task', { ...myTaskQuery(search), timezone: timezoneOffsetHours() });
}

/** The shipping-label PDF of a task: GET /api/download/pdf/{id}/token, then /ext/pdf/{id}/{token}. */
export async function labelPdfUrl(api: ApiClient, taskId: number): Promise<string | null> {
  const outcome = await outcomeOf(api.GET('/api/download/pdf/{id}/token', { params: { path: { id: taskId } } }));
  const token = outcome.ok ? outcome.data?.token : undefined;
  return token ? `/ext/pdf/${taskId}/${encodeURIComponent(token)}` : null;
}
