// The search params of /admin/item-list: keyword, status, sort, page and size live in the URL
// (TanStack Router validateSearch). A value that does not parse falls back to its default;
// defaults stay out of the URL.
import * as v from 'valibot';
import { SMALL_PAGE_SIZE } from '../../components/ui/pager';
import { optionalSearchText } from '../../navigation/search';

export const ITEM_STATUS_FILTERS = ['all', 'open', 'close'] as const;
export type ItemStatusFilter = (typeof ITEM_STATUS_FILTERS)[number];

/** newest: isDesc true (SPEC §9 default: descending by created time); oldest: isDesc false. */
export const ITEM_SORTS = ['newest', 'oldest'] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];

/** SPEC §9: the item list shows 10 rows by default. */
export const ITEM_PAGE_SIZE = SMALL_PAGE_SIZE;

export const itemListSearchSchema = v.object({
  productIdLike: optionalSearchText,
  status: v.optional(v.fallback(v.picklist(ITEM_STATUS_FILTERS), 'all'), 'all'),
  sort: v.optional(v.fallback(v.picklist(ITEM_SORTS), 'newest'), 'newest'),
  page: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0), 0),
  size: v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), ITEM_PAGE_SIZE), ITEM_PAGE_SIZE),
});

export type ItemListSearch = v.InferOutput<typeof itemListSearchSchema>;
export type ItemListSearchInput = v.InferInput<typeof itemListSearchSchema>;

/** Defaults, left out of the URL by the route's stripSearchParams middleware. */
export const ITEM_LIST_SEARCH_DEFAULTS = { status: 'all', sort: 'newest', page: 0, size: ITEM_PAGE_SIZE } as const;

/** The URL form of a search: the keyword trimmed, left out when blank. */
export function toItemListUrlSearch(search: ItemListSearch): ItemListSearchInput {
  const keyword = search.productIdLike?.trim();
  return { ...search, productIdLike: keyword ? keyword : undefined };
}
