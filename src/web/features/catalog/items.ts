// Data of the catalog screens, loaded by the route loaders through the router context's client.
// Failed calls have already been toasted by the client (SPEC §8); the loaders then hand the page
// an empty result rather than failing the route.
import type { ApiClient } from '../../../api/client';
import { anyResult, outcomeOf } from '../../../api/outcome';
import type { components } from '../../../api/schema';
import type { ItemListSearch } from './item-list-search';

export type Item = components['schemas']['Item'];
export type ItemPage = components['schemas']['ItemPage'];
export type ItemStatus = components['schemas']['ItemStatus'];
export type ItemSaveRequest = components['schemas']['ItemSaveRequest'];

const EMPTY_ITEM_PAGE: ItemPage = { content: [], totalPages: 0, totalElements: 0 };

export async function loadItemList(api: ApiClient, search: ItemListSearch): Promise<ItemPage> {
  const keyword = search.productIdLike?.trim();
  const outcome = await outcomeOf(
    api.GET('/api/item/page', {
      params: {
        query: {
          page: search.page,
          size: search.size,
          isDesc: search.sort !== 'oldest',
          productIdLike: keyword || undefined,
          status: search.status === 'all' ? undefined : search.status,
        },
      },
    }),
  );
  return outcome.ok ? (outcome.data ?? EMPTY_ITEM_PAGE) : EMPTY_ITEM_PAGE;
}

export type ItemPageData = { kind: 'new' } | { kind: 'found'; item: Item } | { kind: 'missing' };

/** `/admin/item/{id|new}`: nothing to load for 'new'; the item otherwise. */
export async function loadItemPage(api: ApiClient, idParam: string): Promise<ItemPageData> {
  if (idParam === 'new') return { kind: 'new' };
  const id = parseItemId(idParam);
  if (id === null) return { kind: 'missing' };
  const outcome = await outcomeOf(api.GET('/api/item/info/{id}', { params: { path: { id } } }));
  const item = outcome.ok ? outcome.data : undefined;
  return item ? { kind: 'found', item } : { kind: 'missing' };
}

/** Saves an item (a new one without `id`); true when it was saved (a failure was toasted by the client). */
export async function saveItem(api: ApiClient, body: ItemSaveRequest): Promise<boolean> {
  return (await outcomeOf(api.POST('/api/item/info', { body }), { succeeded: anyResult })).ok;
}

/** A positive integer id from a path segment, else null. */
export function parseItemId(param: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}

/** Only http(s) addresses become links (an item url is free text typed by an admin). */
export function safeHttpUrl(url: string): string | null {
  const trimmed = url.trim();
  return /^https?:\/\//i.test(trimmed) ? trimmed : null;
}

/** Money on the wire is a decimal with at most 2 places; shown with exactly 2. */
export function formatPrice(price: number | null | undefined): string {
  return price === null || price === undefined ? '' : price.toFixed(2);
}
