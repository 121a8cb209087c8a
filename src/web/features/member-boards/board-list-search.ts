// /user/board-list keeps its filters, page and size in the URL (TanStack Router search params), so a
// list can be bookmarked, shared and navigated back to. Values that do not parse fall back to their
// defaults instead of failing the route; the defaults themselves are left out of the URL. The view
// (deal cards or the table) is kept there too, so a member's choice survives a reload and a link.
import * as v from 'valibot';
import { PAGE_SIZE_OPTIONS, SMALL_PAGE_SIZE } from '../../components/ui/pager';

/** SPEC §9: the board list shows 10 per page and offers these sizes. */
export const BOARD_LIST_PAGE_SIZE = SMALL_PAGE_SIZE;
export const BOARD_LIST_SIZE_OPTIONS = PAGE_SIZE_OPTIONS.boardAndItem;

const intParam = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.number(), v.integer(), v.minValue(min), v.maxValue(max));

const optionalId = v.fallback(v.optional(intParam(1)), undefined);

/** How the boards show (decision 111): each board with its tasks as deal cards, or the SPEC §2 table. */
export const BOARD_LIST_VIEWS = ['cards', 'table'] as const;
export type BoardListView = (typeof BOARD_LIST_VIEWS)[number];

export const boardListSearchSchema = v.object({
  page: v.fallback(v.optional(intParam(0), 0), 0),
  size: v.fallback(v.optional(intParam(1, 1000), BOARD_LIST_PAGE_SIZE), BOARD_LIST_PAGE_SIZE),
  boardId: optionalId,
  boardTaskId: optionalId,
  itemId: optionalId,
  view: v.fallback(v.optional(v.picklist(BOARD_LIST_VIEWS), 'cards'), 'cards'),
});

export type BoardListSearch = v.InferOutput<typeof boardListSearchSchema>;

export const BOARD_LIST_SEARCH_DEFAULTS = { page: 0, size: BOARD_LIST_PAGE_SIZE, view: 'cards' } as const;
