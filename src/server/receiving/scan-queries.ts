// The scan record list of /admin/tracking-list and its Excel export (SPEC §7 "GET
// /api/scan/admin/tracking/list (page, size, isDesc, trackingId, status, startTime, endTime, timezone,
// itemId; response totalPages, size, content)"): one filter, used by both, so the file holds exactly
// what the list shows. The table is planned for ~1M rows (schema/receiving.ts): every filter is
// served by an index that ends in (created_at, id), so a page is an index range read in the list's
// order (scanWhere), and the total is counted only up to a bound (COUNT_AHEAD).
import { and, asc, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { dayRange } from '../dates.ts';
import { countBoundOf, countUpTo } from '../paging.ts';
import type { Tx } from '../db/client.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import type { DownloadParams } from '../files/download-tokens.ts';
import type { ScanRow } from '../matching/match.ts';
import { SCAN_STATUSES, type ScanStatus } from '../../../machines/scan-record.machine.ts';
import { canonicalTrackingId } from '../../../machines/tracking-id.ts';

export interface ScanFilters {
  isDesc: boolean;
  trackingId?: string;
  status?: ScanStatus;
  itemId?: number;
  /** YYYY-MM-DD, first day included, in the offset `timezone`. */
  startTime?: string;
  /** YYYY-MM-DD, last day included, in the offset `timezone`. */
  endTime?: string;
  /** Offset from UTC in hours. */
  timezone: number;
}

/** The list's query as filters (absent and blank values are no filter). */
export function scanFilters(q: Partial<ScanFilters>): ScanFilters {
  return {
    isDesc: q.isDesc ?? true,
    trackingId: canonicalTrackingId(q.trackingId ?? '') || undefined,
    status: q.status,
    itemId: q.itemId,
    startTime: q.startTime || undefined,
    endTime: q.endTime || undefined,
    timezone: q.timezone ?? 0,
  };
}

/**
 * The WHERE of the filters; A00001 for a date that does not exist or a reversed range.
 *
 * Every filter is served by an index that ends in (created_at, id): trackingId ->
 * scan_trackings_tracking_idx (a parcel has a handful of rows), status -> (status, created_at, id),
 * itemId -> (item_id, created_at, id), the date range alone -> (created_at, id).
 */
export function scanWhere(f: ScanFilters): SQL | undefined {
  const { from, to } = dayRange(f);
  const conds = [
    f.trackingId ? eq(scanTrackings.trackingId, f.trackingId) : undefined,
    f.status ? eq(scanTrackings.status, f.status) : undefined,
    f.itemId !== undefined ? eq(scanTrackings.itemId, f.itemId) : undefined,
    from ? gte(scanTrackings.createdAt, from) : undefined,
    to ? lt(scanTrackings.createdAt, to) : undefined,
  ].filter((c): c is SQL => c !== undefined);
  return conds.length ? and(...conds) : undefined;
}

const orderOf = (isDesc: boolean) => (isDesc ? [desc(scanTrackings.createdAt), desc(scanTrackings.id)] : [asc(scanTrackings.createdAt), asc(scanTrackings.id)]);

/** One page of the list with its bounded total (COUNT_AHEAD). */
export async function pageScans(tx: Tx, f: ScanFilters, p: { size: number; offset: number }) {
  const where = scanWhere(f);
  const [rows, { counted, totalCapped }] = await Promise.all([
    tx
      .select()
      .from(scanTrackings)
      .where(where)
      .orderBy(...orderOf(f.isDesc))
      .limit(p.size)
      .offset(p.offset),
    countUpTo(tx, scanTrackings, where, orderOf(f.isDesc), countBoundOf(p)),
  ]);
  return { rows, totalPages: Math.ceil(counted / p.size), totalCapped };
}

/** The rows of an export: the list's filter and order, at most `max`. */
export function scansForExport(tx: Tx, f: ScanFilters, max: number): Promise<ScanRow[]> {
  return tx
    .select()
    .from(scanTrackings)
    .where(scanWhere(f))
    .orderBy(...orderOf(f.isDesc))
    .limit(max);
}

/** Whether more than `max` rows match (the export's limit, checked when its token is issued). */
export async function moreThan(tx: Tx, f: ScanFilters, max: number): Promise<boolean> {
  return (await countUpTo(tx, scanTrackings, scanWhere(f), orderOf(f.isDesc), max)).totalCapped;
}

/** The filters as stored in a download token (only those given). */
export function scanFilterParams(f: ScanFilters): DownloadParams {
  const p: DownloadParams = { isDesc: f.isDesc, timezone: f.timezone };
  if (f.trackingId) p.trackingId = f.trackingId;
  if (f.status) p.status = f.status;
  if (f.itemId !== undefined) p.itemId = f.itemId;
  if (f.startTime) p.startTime = f.startTime;
  if (f.endTime) p.endTime = f.endTime;
  return p;
}

/** The stored filters read back; anything not of the expected type is ignored. */
export function scanFiltersOf(p: DownloadParams): ScanFilters {
  const int = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined);
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
  const tz = p.timezone;
  return {
    isDesc: p.isDesc !== false,
    trackingId: str(p.trackingId),
    status: SCAN_STATUSES.find((s) => s === p.status),
    itemId: int(p.itemId),
    startTime: day(p.startTime),
    endTime: day(p.endTime),
    timezone: typeof tz === 'number' && tz >= -12 && tz <= 14 ? tz : 0,
  };
}
