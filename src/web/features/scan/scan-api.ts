// The calls behind /admin/scan and /admin/scan2 (SPEC §7 Scan; openapi.yaml getScanTracking,
// createScanTrackings, modifyScanTracking, addScanTracking, searchItems), shaped as the machines'
// actors want them: resolve with the data, or reject with the words to show. All are silent: the
// screens show every outcome themselves (banner, row status, sound) and a toast on top would repeat
// it at every scan. Session signals (token expired, no access) still reach the session.
import type { ApiClient } from '../../../api/client';
import { SUCCESS_CODE, UNKNOWN_ERROR } from '../../../api/client';
import type { components } from '../../../api/schema';
import type { Scan2Record, Scan2SendError } from '../../../../machines/scan2.machine';
import type { LookupOutput, ScanItem, ScanLine, ScanModifyChanges, ScanRecord } from '../../../../machines/scan.machine';
import { zh } from '../../i18n/zh';

export type ScanTracking = components['schemas']['ScanTracking'];
type Item = components['schemas']['Item'];

interface Envelope {
  code?: string;
  msg?: string;
  data?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function msgOf(value: unknown): string {
  return isRecord(value) && typeof value.msg === 'string' ? value.msg : '';
}

/** An answer that came back, in one shape: its HTTP status, code, msg and data. */
interface Answer {
  status: number;
  code: string | null;
  msg: string;
  data: unknown;
}

/** Sends one call; a network failure (no answer at all) is null. */
async function answerOf(call: () => Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Answer | null> {
  let result: { data?: unknown; error?: unknown; response: Response };
  try {
    result = await call();
  } catch {
    return null;
  }
  const body = (result.data ?? result.error) as Envelope | undefined;
  return {
    status: result.response.status,
    code: isRecord(body) && typeof body.code === 'string' ? body.code : null,
    msg: msgOf(body),
    data: isRecord(body) ? body.data : undefined,
  };
}

const ok = (answer: Answer) => answer.status < 400 && (answer.code === null || answer.code === SUCCESS_CODE);

/** SPEC §8 wording of a failed answer: "code message". */
function failureText(answer: Answer): string {
  const msg = answer.msg || UNKNOWN_ERROR;
  return answer.code && answer.code !== SUCCESS_CODE ? `${answer.code} ${msg}` : msg;
}

/**
 * Whether a failed scan2 call may work when tried again: no answer, a server error (5xx, A00005), an
 * expired session (after logging in again), a conflict with another upload or scan (409) may pass
 * later; a refusal of the row itself (bad parameter, no permission, not found) will not.
 */
export function isRetryable(answer: Answer | null): boolean {
  if (answer === null) return true;
  if (answer.status >= 500 || answer.status === 401 || answer.status === 409 || answer.status === 429) return true;
  if (answer.code === 'A00002' || answer.code === 'A00005') return true;
  // A failure without the API's envelope (a proxy's error page) never came from the API.
  return answer.code === null;
}

function sendError(answer: Answer | null): Scan2SendError {
  return { retryable: isRetryable(answer), message: answer === null ? zh.scan.scan2.noAnswer : failureText(answer) };
}

const opFailed = (data: unknown) => isRecord(data) && data.opStatus !== undefined && data.opStatus !== 'succ';

function recordsOf(data: unknown): ScanTracking[] {
  return isRecord(data) && Array.isArray(data.scanTrackingList) ? (data.scanTrackingList as ScanTracking[]) : [];
}

// ---------------------------------------------------------------- /admin/scan2

/** GET .../{id}/list for the check before a send; rejects with a Scan2SendError. */
export async function lookupForScan2(api: ApiClient, trackingId: string): Promise<Scan2Record[]> {
  const answer = await answerOf(() => api.GET('/api/scan/admin/tracking/{id}/list', { params: { path: { id: trackingId } }, silent: true }));
  if (!answer || !ok(answer)) throw sendError(answer);
  return recordsOf(answer.data);
}

/** POST .../{id}/add; the tracking's records after it. A refusal (opStatus failed) is not retried. */
export async function addScan(api: ApiClient, input: { trackingId: string; itemId: number; upc: string; count: number }): Promise<Scan2Record[]> {
  const answer = await answerOf(() =>
    api.POST('/api/scan/admin/tracking/{id}/add', {
      params: { path: { id: input.trackingId } },
      body: { itemId: input.itemId, ...(input.upc ? { upc: input.upc } : {}), count: input.count },
      silent: true,
    }),
  );
  if (!answer || !ok(answer)) throw sendError(answer);
  if (opFailed(answer.data)) throw { retryable: false, message: msgOf(answer.data) || answer.msg || UNKNOWN_ERROR } satisfies Scan2SendError;
  return recordsOf(answer.data);
}

// ---------------------------------------------------------------- /admin/scan

/** GET .../{id}/list: isExist and the records; rejects with an Error of the words to show. */
export async function lookupForScan(api: ApiClient, trackingId: string): Promise<LookupOutput> {
  const answer = await answerOf(() => api.GET('/api/scan/admin/tracking/{id}/list', { params: { path: { id: trackingId } }, silent: true }));
  if (!answer) throw new Error(zh.common.networkError);
  if (!ok(answer)) throw new Error(failureText(answer));
  const data = answer.data as Partial<LookupOutput> | undefined;
  return { isExist: data?.isExist === true, scanTrackingList: (data?.scanTrackingList ?? []) as ScanRecord[] };
}

/** The products whose upc is exactly the code (the like search also matches names and parts). */
export async function findItemsByUpc(api: ApiClient, upc: string): Promise<(ScanItem & { status: string })[]> {
  const answer = await answerOf(() => api.GET('/api/item/info/like/{q}', { params: { path: { q: upc } }, silent: true }));
  if (!answer) throw new Error(zh.common.networkError);
  if (!ok(answer)) throw new Error(failureText(answer));
  const items = Array.isArray(answer.data) ? (answer.data as Item[]) : [];
  return items.filter((item) => item.upc === upc).map((item) => ({ id: item.id, itemName: item.itemName, upc: item.upc, status: item.status }));
}

async function changed<T>(call: () => Promise<{ data?: unknown; error?: unknown; response: Response }>, pick: (data: unknown) => T): Promise<T> {
  const answer = await answerOf(call);
  if (!answer) throw new Error(zh.common.networkError);
  if (!ok(answer)) throw new Error(failureText(answer));
  if (opFailed(answer.data)) throw new Error(msgOf(answer.data) || answer.msg || UNKNOWN_ERROR);
  return pick(answer.data);
}

/** POST .../{id}/create: every record of the tracking after it. */
export function createScans(api: ApiClient, trackingId: string, items: ScanLine[]): Promise<ScanRecord[]> {
  return changed(
    () => api.POST('/api/scan/admin/tracking/{id}/create', { params: { path: { id: trackingId } }, body: { items }, silent: true }),
    (data) => recordsOf(data) as ScanRecord[],
  );
}

/** POST .../{id}/modify (id: the record's): the changed record. */
export function modifyScan(api: ApiClient, id: number, changes: ScanModifyChanges): Promise<ScanRecord> {
  return changed(
    () => api.POST('/api/scan/admin/tracking/{id}/modify', { params: { path: { id } }, body: changes, silent: true }),
    (data) => {
      if (!isRecord(data) || !isRecord(data.scanTracking)) throw new Error(UNKNOWN_ERROR);
      return data.scanTracking as unknown as ScanRecord;
    },
  );
}
