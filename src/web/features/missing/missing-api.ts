// The calls behind the missing parcels (decision 077): the member's own list and report, the admins'
// list. The lists throw a failed read (LoadFailure, lib/list-route.ts), said in place of the table;
// the report is silent and returns its outcome, the dialog wording its toast.
import type { ApiClient } from '../../../api/client';
import { anyResult, outcomeOf, type ApiOutcome } from '../../../api/outcome';
import type { components, operations } from '../../../api/schema';
import { loadedOrThrow } from '../../lib/list-route';

export type MissingParcel = components['schemas']['MissingParcel'];
export type MissingParcelPage = components['schemas']['MissingParcelPage'];
export type MissingReport = components['schemas']['MissingReportRequest'];
export type AdminMissingQuery = NonNullable<operations['listMissingParcels']['parameters']['query']>;

/** The page shown before the first answer (its days are the server's default until it says). */
export const EMPTY_MISSING_PAGE: MissingParcelPage = { content: [], totalPages: 0, totalElements: 0, days: 7 };

/** GET /api/purchased/user/missing: the member's own missing parcels. */
export async function loadMyMissingParcels(api: ApiClient, query: { page: number; size: number }): Promise<MissingParcelPage> {
  return (
    loadedOrThrow(await outcomeOf(api.GET('/api/purchased/user/missing', { params: { query }, silent: true }), { noAnswer: 'fail' })) ?? EMPTY_MISSING_PAGE
  );
}

/** GET /api/admin/purchased/missing: every member's, filtered. */
export async function loadMissingParcels(api: ApiClient, query: AdminMissingQuery): Promise<MissingParcelPage> {
  return (
    loadedOrThrow(await outcomeOf(api.GET('/api/admin/purchased/missing', { params: { query }, silent: true }), { noAnswer: 'fail' })) ?? EMPTY_MISSING_PAGE
  );
}

/** POST /api/purchased/user/missing/report: the note and/or the lost report of one parcel. */
export function reportMissingParcel(api: ApiClient, report: MissingReport): Promise<ApiOutcome<MissingParcel>> {
  return outcomeOf(api.POST('/api/purchased/user/missing/report', { body: report, silent: true }), { succeeded: anyResult, noAnswer: 'fail' });
}
