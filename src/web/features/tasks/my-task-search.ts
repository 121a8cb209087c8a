// /user/my-task keeps its filters, page and size in the URL (TanStack Router search params), so the
// list can be bookmarked and navigated back to. Values that do not parse fall back to their
// defaults; the defaults stay out of the URL.
import * as v from 'valibot';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import { flagParam } from '../../lib/list-search';
import { optionalSearchText } from '../../navigation/search';

/** SPEC §4: the member's status filter offers all, open, locked, unmatch. */
export const MY_TASK_STATUS_FILTERS = ['all', 'open', 'locked', 'unmatch'] as const;
export type MyTaskStatusFilter = (typeof MY_TASK_STATUS_FILTERS)[number];

const intParam = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.number(), v.integer(), v.minValue(min), v.maxValue(max));

export const myTaskSearchSchema = v.object({
  status: v.optional(v.fallback(v.picklist(MY_TASK_STATUS_FILTERS), 'all'), 'all'),
  itemName: v.fallback(optionalSearchText, undefined),
  trackingId: v.fallback(optionalSearchText, undefined),
  /** Matches a task's id or mainId (listUserTasks). */
  taskId: v.fallback(v.optional(intParam(1)), undefined),
  /** Only tasks with a purchased record (listUserTasks' `recorded`): where the home's 已购买（已填单号） tile leads. */
  recorded: flagParam,
  /** Only tasks not deleted (listUserTasks' `claimed`): where the home's 已认领 tile leads. */
  claimed: flagParam,
  page: v.fallback(v.optional(intParam(0), 0), 0),
  size: v.fallback(v.optional(intParam(1, 1000), DEFAULT_PAGE_SIZE), DEFAULT_PAGE_SIZE),
});

export type MyTaskSearch = v.InferOutput<typeof myTaskSearchSchema>;

/** The list's filters (the search less its page): what listUserTasks and the Excel export take. */
export type MyTaskFilters = Pick<MyTaskSearch, 'status' | 'itemName' | 'trackingId' | 'taskId' | 'recorded' | 'claimed'>;

export const MY_TASK_SEARCH_DEFAULTS = { status: 'all', page: 0, size: DEFAULT_PAGE_SIZE } as const;

/**
 * The task id typed in the search box: a task shows as mainId or mainId-subId, so both are accepted
 * and the mainId is searched (the call matches id or mainId: the claim and its split siblings).
 * Undefined for blank, NaN when it is neither.
 */
export function parseTaskIdSearch(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const match = /^([1-9]\d{0,14})(?:-\d{1,9})?$/.exec(trimmed);
  return match ? Number(match[1]) : Number.NaN;
}
