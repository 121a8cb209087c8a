// The search params of /user/unknown-parcels (page, size) and /admin/parcel-claims (member, tracking
// id, page, size). A value that does not parse falls back to its default or is dropped; defaults stay
// out of the URL (lib/list-search.ts).
import * as v from 'valibot';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import { definedOnly, idParam, pageParam, sizeParam, textParam } from '../../lib/list-search';
import type { ParcelClaimQuery } from './unknown-api';

export const unknownSearchSchema = v.object({ page: pageParam, size: sizeParam });
export type UnknownSearch = v.InferOutput<typeof unknownSearchSchema>;
export const UNKNOWN_SEARCH_DEFAULTS = { page: 0, size: DEFAULT_PAGE_SIZE } as const;

export const claimSearchSchema = v.object({ userId: idParam, trackingId: textParam, page: pageParam, size: sizeParam });
export type ClaimSearch = v.InferOutput<typeof claimSearchSchema>;

/** What listParcelClaims is asked for: the URL's values, blanks left out. */
export const claimQuery = (search: ClaimSearch): ParcelClaimQuery => definedOnly({ ...search });
