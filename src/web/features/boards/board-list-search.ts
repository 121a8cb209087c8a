// The search params of /admin/board-list (SPEC §2, §9): filters boardId, boardTaskId and item, the
// sort (newest or oldest first: isDesc), page (0-based) and size (10 by default) live in the URL, so
// a filtered page can be linked, reloaded and walked back to. A value that does not parse falls back
// to its default instead of failing the route.
import * as v from 'valibot';
import { PAGE_SIZE_OPTIONS, SMALL_PAGE_SIZE } from '../../components/ui/pager';
import type { BoardListQuery } from './boards-api';

export const BOARD_LIST_PAGE_SIZE = SMALL_PAGE_SIZE;
export const BOARD_LIST_SIZE_OPTIONS = PAGE_SIZE_OPTIONS.boardAndItem;

/** An id in the URL: a positive whole number (TanStack may hand it over as a string); anything else is dropped. */
function toId(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}
const idParam = v.optional(v.pipe(v.unknown(), v.transform(toId)));

export const boardListSearchSchema = v.object({
  boardId: idParam,
  boardTaskId: idParam,
  itemId: idParam,
  isDesc: v.optional(v.fallback(v.boolean(), true), true),
  page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0), 0),
  size: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), BOARD_LIST_PAGE_SIZE), BOARD_LIST_PAGE_SIZE),
});

export type BoardListSearch = v.InferOutput<typeof boardListSearchSchema>;
export type BoardListSearchInput = v.InferInput<typeof boardListSearchSchema>;

/** Left out of the URL when equal (the route strips them with stripSearchParams). */
export const BOARD_LIST_SEARCH_DEFAULTS = { isDesc: true, page: 0, size: BOARD_LIST_PAGE_SIZE } as const;

/** What listAdminBoards is asked for. */
export function boardListQuery(search: BoardListSearch): BoardListQuery {
  const query: BoardListQuery = { page: search.page, size: search.size, isDesc: search.isDesc };
  if (search.boardId !== undefined) query.boardId = search.boardId;
  if (search.boardTaskId !== undefined) query.boardTaskId = search.boardTaskId;
  if (search.itemId !== undefined) query.itemId = search.itemId;
  return query;
}
