// The calls behind /admin/scan and /admin/scan2 (SPEC §7 Scan; openapi.yaml getScanTracking,
// createScanTrackings, modifyScanTracking, addScanTracking, searchItems), shaped as the machines'
// actors want them: resolve with the data, or reject with the words to show. All are silent: the
// screens show every outcome themselves (banner, row status, sound) and a toast on top would repeat
// it at every scan. Session signals (token expired, no access) still reach the session.
import { errorText, SUCCESS_CODE, UNKNOWN_ERROR, type ApiClient } from '../../../api/client';
import { outcomeOf, saysSucc, type ApiError } from '../../../api/outcome';
import type { components } from '../../../api/schema';
import type { Scan2Record, Scan2SendError } from '../../../../machines/scan2.machine';
import type { LookupOutput, ScanItem, ScanLine, ScanModifyChanges, ScanRecord } from '../../../../machines/scan.machine';
import { sameGtin } from '../../../../machines/product-code';
import { zh } from '../../i18n/zh';

export type ScanTracking = components['schemas']['ScanTracking'];

/** SPEC §8 wording of a failed answer: "code message" (a refused change: its message alone). */
function failureText(error: ApiError): string {
  return errorText(error.code === SUCCESS_CODE ? null : error.code, error.msg);
}

/** No answer at all (status 0): the call never reached the server or its answer was lost. */
const noAnswer = (error: ApiError) => error.status === 0;

/**
 * Whether a failed scan2 call may work when tried again: no answer, a server error (5xx, A00005), an
 * expired session (after logging in again), a conflict with another upload or scan (409) may pass
 * later; a refusal of the row itself (bad parameter, no permission, not found, opStatus failed) will not.
 */
export function isRetryable(error: ApiError): boolean {
  if (noAnswer(error)) return true;
  if (error.status >= 500 || error.status === 401 || error.status === 409 || error.status === 429) return true;
  if (error.code === 'A00002' || error.code === 'A00005') return true;
  // A failure without the API's envelope (a proxy's error page) never came from the API.
  return error.code === null;
}

function sendError(error: ApiError): Scan2SendError {
  return { retryable: isRetryable(error), message: noAnswer(error) ? zh.scan.scan2.noAnswer : failureText(error) };
}

/** The words of a failed /admin/scan call, as the scan machine shows them. */
function scanError(error: ApiError): Error {
  return new Error(noAnswer(error) ? zh.common.networkError : failureText(error));
}

// ---------------------------------------------------------------- /admin/scan2

/** GET .../{id}/list for the check before a send; rejects with a Scan2SendError. */
export async function lookupForScan2(api: ApiClient, trackingId: string): Promise<Scan2Record[]> {
  const outcome = await outcomeOf(api.GET('/api/scan/admin/tracking/{id}/list', { params: { path: { id: trackingId } }, silent: true }), { noAnswer: 'fail' });
  if (!outcome.ok) throw sendError(outcome);
  return outcome.data?.scanTrackingList ?? [];
}

/** POST .../{id}/add; the tracking's records after it. A refusal (opStatus failed) is not retried. */
export async function addScan(api: ApiClient, input: { trackingId: string; itemId: number; upc: string; count: number }): Promise<Scan2Record[]> {
  const outcome = await outcomeOf(
    api.POST('/api/scan/admin/tracking/{id}/add', {
      params: { path: { id: input.trackingId } },
      body: { itemId: input.itemId, ...(input.upc ? { upc: input.upc } : {}), count: input.count },
      silent: true,
    }),
    { succeeded: saysSucc, noAnswer: 'fail' },
  );
  if (!outcome.ok) throw sendError(outcome);
  return outcome.data.scanTrackingList ?? [];
}

// ---------------------------------------------------------------- /admin/scan

/** GET .../{id}/list: isExist and the records; rejects with an Error of the words to show. */
export async function lookupForScan(api: ApiClient, trackingId: string): Promise<LookupOutput> {
  const outcome = await outcomeOf(api.GET('/api/scan/admin/tracking/{id}/list', { params: { path: { id: trackingId } }, silent: true }), { noAnswer: 'fail' });
  if (!outcome.ok) throw scanError(outcome);
  return { isExist: outcome.data?.isExist === true, scanTrackingList: outcome.data?.scanTrackingList ?? [] };
}

/** The products whose upc is exactly the code (the like search also matches names and parts). */
export async function findItemsByUpc(api: ApiClient, upc: string): Promise<(ScanItem & { status: string })[]> {
  const outcome = await outcomeOf(api.GET('/api/item/info/like/{q}', { params: { path: { q: upc } }, silent: true }), { noAnswer: 'fail' });
  if (!outcome.ok) throw scanError(outcome);
  const items = outcome.data ?? [];
  // The same product code with more or fewer leading zeros (UPC-A sent as EAN-13) is the same product.
  return items
    .filter((item) => item.upc === upc || sameGtin(item.upc, upc))
    .map((item) => ({ id: item.id, itemName: item.itemName, upc: item.upc, status: item.status }));
}

/** POST .../{id}/create: every record of the tracking after it. */
export async function createScans(api: ApiClient, trackingId: string, items: ScanLine[]): Promise<ScanRecord[]> {
  const outcome = await outcomeOf(api.POST('/api/scan/admin/tracking/{id}/create', { params: { path: { id: trackingId } }, body: { items }, silent: true }), {
    succeeded: saysSucc,
    noAnswer: 'fail',
  });
  if (!outcome.ok) throw scanError(outcome);
  return outcome.data.scanTrackingList ?? [];
}

/** POST .../{id}/modify (id: the record's): the changed record. */
export async function modifyScan(api: ApiClient, id: number, changes: ScanModifyChanges): Promise<ScanRecord> {
  const outcome = await outcomeOf(api.POST('/api/scan/admin/tracking/{id}/modify', { params: { path: { id } }, body: changes, silent: true }), {
    succeeded: saysSucc,
    noAnswer: 'fail',
  });
  if (!outcome.ok) throw scanError(outcome);
  if (!outcome.data.scanTracking) throw new Error(UNKNOWN_ERROR);
  return outcome.data.scanTracking;
}
