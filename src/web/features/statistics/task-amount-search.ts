// The search params of /admin/task-amount-list: the filters of SPEC §2 (ascending switch isAsc,
// sort field orderItem 1 user id / 2 amount, user, start and end date), page (0-based) and size.
// A value that does not parse falls back to its default or is dropped; defaults stay out of the URL
// (lib/list-search.ts). The timezone is not in the URL: it is this browser's offset, added when a
// call is made (SPEC §9), as the tracking list does.
import * as v from 'valibot';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import { dayParam, definedOnly, idParam, pageParam, sizeParam } from '../../lib/list-search';
import { timezoneOffsetHours } from '../../lib/timezone';
import type { TaskAmountFilters, TaskAmountQuery } from './task-amount-api';

export { LIST_SIZE_OPTIONS as TASK_AMOUNT_SIZE_OPTIONS } from '../../lib/list-search';

export const ORDER_ITEMS = [1, 2] as const;
export type OrderItem = (typeof ORDER_ITEMS)[number];

export const taskAmountSearchSchema = v.object({
  isAsc: v.optional(v.fallback(v.boolean(), false), false),
  orderItem: v.optional(v.fallback(v.picklist(ORDER_ITEMS), 1), 1),
  userId: idParam,
  /** YYYY-MM-DD, first day included. */
  startTime: dayParam,
  /** YYYY-MM-DD, last day included. */
  endTime: dayParam,
  page: pageParam,
  size: sizeParam,
});
export type TaskAmountSearch = v.InferOutput<typeof taskAmountSearchSchema>;

export const TASK_AMOUNT_SEARCH_DEFAULTS = { isAsc: false, orderItem: 1, page: 0, size: DEFAULT_PAGE_SIZE } as const;

/** What listTaskAmounts is asked for: the URL's values (blanks left out) and this browser's offset. */
export function taskAmountQuery(search: TaskAmountSearch, timezone: number = timezoneOffsetHours()): TaskAmountQuery {
  return definedOnly({ ...search, timezone });
}

/** The filters the export reads: the same, without paging. */
export function taskAmountFilters(search: TaskAmountSearch, timezone: number = timezoneOffsetHours()): TaskAmountFilters {
  const { isAsc, orderItem, userId, startTime, endTime } = search;
  return definedOnly({ isAsc, orderItem, userId, startTime, endTime, timezone });
}
