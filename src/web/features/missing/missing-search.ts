// The search params of /user/missing-parcels (page, size) and /admin/missing-parcels (member, state,
// tracking id, page, size). A value that does not parse falls back to its default or is dropped;
// defaults stay out of the URL (lib/list-search.ts).
import * as v from 'valibot';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import { definedOnly, idParam, oneOf, pageParam, sizeParam, textParam } from '../../lib/list-search';
import type { AdminMissingQuery } from './missing-api';

export const MISSING_STATES = ['missing', 'lost'] as const;
export type MissingState = (typeof MISSING_STATES)[number];

export const memberMissingSearchSchema = v.object({ page: pageParam, size: sizeParam });
export type MemberMissingSearch = v.InferOutput<typeof memberMissingSearchSchema>;
export const MISSING_SEARCH_DEFAULTS = { page: 0, size: DEFAULT_PAGE_SIZE } as const;

export const adminMissingSearchSchema = v.object({
  userId: idParam,
  state: oneOf(MISSING_STATES),
  trackingId: textParam,
  page: pageParam,
  size: sizeParam,
});
export type AdminMissingSearch = v.InferOutput<typeof adminMissingSearchSchema>;

/** What listMissingParcels is asked for: the URL's values, blanks left out. */
export function adminMissingQuery(search: AdminMissingSearch): AdminMissingQuery {
  return definedOnly({ ...search });
}
