// The search params of /admin/tasks and /admin/task-audit: filters, sort (isDesc), page (0-based)
// and size live in the URL, so a filtered page can be linked, reloaded and walked back to (and the
// task edit page can return to it through ?back=). A value that does not parse falls back to its
// default instead of failing the route; defaults stay out of the URL (lib/list-search.ts).
import * as v from 'valibot';
import { TASK_STATUSES } from '../../../../machines/task.statuses';
import {
  definedOnly,
  flagParam,
  idParam,
  isDescParam,
  LIST_SEARCH_DEFAULTS,
  LIST_SIZE_OPTIONS,
  oneOf,
  pageParam,
  sizeParam,
  textParam,
} from '../../lib/list-search';
import type { AuditStatus, TaskAuditQuery, TaskListQuery } from './admin-tasks-api';

export const ADMIN_TASK_SIZE_OPTIONS = LIST_SIZE_OPTIONS;

/** SPEC §4: the admin audit filter offers these (no pending). */
export const AUDIT_STATUSES = ['open', 'closed', 'locked', 'processing', 'finished', 'deleted', 'unmatch'] as const satisfies readonly AuditStatus[];

export const taskListSearchSchema = v.object({
  userId: idParam,
  taskStatus: oneOf(TASK_STATUSES),
  itemId: idParam,
  itemName: textParam,
  boardId: idParam,
  boardTaskId: idParam,
  taskId: idParam,
  trackingId: textParam,
  /** Tasks whose tracking id no scan has seen the MISSING_PARCEL_DAYS setting's days after it was recorded (the admin home's link). */
  notArrived: flagParam,
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
export const ADMIN_TASK_SEARCH_DEFAULTS = LIST_SEARCH_DEFAULTS;

/** What listTasks is asked for: the URL's values, blanks left out. */
export function taskListQuery(search: TaskListSearch): TaskListQuery {
  return definedOnly({ ...search });
}

/** What listTaskAudits is asked for. */
export function taskAuditQuery(search: TaskAuditSearch): TaskAuditQuery {
  return definedOnly({ ...search });
}
