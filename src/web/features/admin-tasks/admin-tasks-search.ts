// The search params of /admin/tasks and /admin/task-audit: filters, sort (isDesc), page (0-based)
// and size live in the URL, so a filtered page can be linked, reloaded and walked back to (and the
// task edit page can return to it through ?back=). A value that does not parse falls back to its
// default instead of failing the route; defaults stay out of the URL.
import * as v from 'valibot';
import { TASK_STATUSES } from '../../../../machines/task.machine';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import type { AuditStatus, TaskAuditQuery, TaskListQuery } from './admin-tasks-api';

/** No size list is given for these screens in SPEC §9; the default 20 and a few larger ones. */
export const ADMIN_TASK_SIZE_OPTIONS = [20, 50, 100, 200] as const;

/** SPEC §4: the admin audit filter offers these (no pending). */
export const AUDIT_STATUSES = ['open', 'closed', 'locked', 'processing', 'finished', 'deleted', 'unmatch'] as const satisfies readonly AuditStatus[];

/** An id in the URL: a positive whole number (TanStack may hand it over as a string); anything else is dropped. */
function toId(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}
const idParam = v.optional(v.pipe(v.unknown(), v.transform(toId)));

/** Free text in the URL (an all-digit value arrives as a number); blank is dropped. */
function toText(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}
const textParam = v.optional(v.pipe(v.unknown(), v.transform(toText)));

/** One of `values`, or dropped. */
function oneOf<const V extends string>(values: readonly V[]) {
  return v.optional(v.pipe(v.unknown(), v.transform((value) => (values as readonly unknown[]).includes(value) ? (value as V) : undefined)));
}

const pageParam = v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0), 0);
const sizeParam = v.optional(
  v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), DEFAULT_PAGE_SIZE),
  DEFAULT_PAGE_SIZE,
);
const isDescParam = v.optional(v.fallback(v.boolean(), true), true);

export const taskListSearchSchema = v.object({
  userId: idParam,
  taskStatus: oneOf(TASK_STATUSES),
  itemId: idParam,
  itemName: textParam,
  boardId: idParam,
  boardTaskId: idParam,
  taskId: idParam,
  trackingId: textParam,
  isDesc: isDescParam,
  page: pageParam,
  size: sizeParam,
});
export type TaskListSearch = v.InferOutput<typeof taskListSearchSchema>;

export const taskAuditSearchSchema = v.object({
  status: oneOf(AUDIT_STATUSES),
  userId: idParam,
  mainId: idParam,
  taskId: idParam,
  itemName: textParam,
  isDesc: isDescParam,
  page: pageParam,
  size: sizeParam,
});
export type TaskAuditSearch = v.InferOutput<typeof taskAuditSearchSchema>;

/** Left out of the URL when equal (the routes strip them with stripSearchParams). */
export const ADMIN_TASK_SEARCH_DEFAULTS = { isDesc: true, page: 0, size: DEFAULT_PAGE_SIZE } as const;

function defined<T extends object>(query: T): T {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as T;
}

/** What listTasks is asked for: the URL's values, blanks left out. */
export function taskListQuery(search: TaskListSearch): TaskListQuery {
  return defined({ ...search });
}

/** What listTaskAudits is asked for. */
export function taskAuditQuery(search: TaskAuditSearch): TaskAuditQuery {
  return defined({ ...search });
}
