// The calls behind the unknown parcels (decision 169): the members' masked list and claim, the
// admins' claim list and undo. The lists throw a failed read (LoadFailure, lib/list-route.ts), said
// in place of the table; the claim and the undo are silent and return their outcome, the caller
// wording its toast.
import type { ApiClient } from '../../../api/client';
import { anyResult, outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components, operations } from '../../../api/schema';
import { loadedOrThrow } from '../../lib/list-route';

export type UnknownParcel = components['schemas']['UnknownParcel'];
export type UnknownParcelPage = components['schemas']['UnknownParcelPage'];
export type ParcelClaim = components['schemas']['ParcelClaim'];
export type ParcelClaimPage = components['schemas']['ParcelClaimPage'];
export type ClaimRequest = components['schemas']['UnknownParcelClaimRequest'];
export type ParcelClaimQuery = NonNullable<operations['listParcelClaims']['parameters']['query']>;
type ChangeResult = components['schemas']['PurchasedChangeResult'];

export const EMPTY_UNKNOWN_PAGE: UnknownParcelPage = { content: [], totalPages: 0, totalElements: 0 };
export const EMPTY_CLAIM_PAGE: ParcelClaimPage = { content: [], totalPages: 0, totalElements: 0 };

/** GET /api/purchased/user/unknown: the unknown parcels, masked, with the caller's tasks that could take each. */
export async function loadUnknownParcels(api: ApiClient, query: { page: number; size: number }): Promise<UnknownParcelPage> {
  return (
    loadedOrThrow(await outcomeOf(api.GET('/api/purchased/user/unknown', { params: { query }, silent: true }), { noAnswer: 'fail' })) ?? EMPTY_UNKNOWN_PAGE
  );
}

/** POST /api/purchased/user/unknown/claim: records the full id on the task and matches it. */
export function claimUnknownParcel(api: ApiClient, body: ClaimRequest): Promise<ApiOutcome<ChangeResult>> {
  return outcomeOf(api.POST('/api/purchased/user/unknown/claim', { body, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** GET /api/admin/purchased/claims: the claims, newest first, filtered. */
export async function loadParcelClaims(api: ApiClient, query: ParcelClaimQuery): Promise<ParcelClaimPage> {
  return loadedOrThrow(await outcomeOf(api.GET('/api/admin/purchased/claims', { params: { query }, silent: true }), { noAnswer: 'fail' })) ?? EMPTY_CLAIM_PAGE;
}

/** POST /api/admin/purchased/claims/undo: the claim's record goes, the parcel is unknown again. */
export function undoParcelClaim(api: ApiClient, id: number): Promise<ApiOutcome<ParcelClaim>> {
  return outcomeOf(api.POST('/api/admin/purchased/claims/undo', { body: { id }, silent: true }), { succeeded: anyResult, noAnswer: 'fail' });
}
