// The search params of /admin/tracking-list, /admin/tracking-audit and /admin/upload. The lists keep
// filters, sort (isDesc), page (0-based) and size in the URL (lib/list-search.ts: unparsable values
// fall back, defaults stay out of the URL); /admin/upload keeps which of its two uploads is shown.
// The timezone is not a filter of the URL: it is this browser's offset, added when a call is made
// (SPEC §9 "The timezone offset in hours is sent with the tracking list ... and exports"), so a
// link opened elsewhere reads its dates in the opener's own time.
import * as v from 'valibot';
import { SCAN_STATUSES } from '../../../../machines/scan-record.statuses';
import { dayParam, definedOnly, idParam, isDescParam, oneOf, pageParam, sizeParam, textParam } from '../../lib/list-search';
import { timezoneOffsetHours } from '../../lib/timezone';
import type { PayoutAuditQuery, TrackingAuditQuery, TrackingExportFilters, TrackingListQuery } from './tracking-api';

export { LIST_SEARCH_DEFAULTS as TRACKING_SEARCH_DEFAULTS, LIST_SIZE_OPTIONS as TRACKING_SIZE_OPTIONS } from '../../lib/list-search';

export const trackingListSearchSchema = v.object({
  trackingId: textParam,
  status: oneOf(SCAN_STATUSES),
  /** YYYY-MM-DD, first day included. */
  startTime: dayParam,
  /** YYYY-MM-DD, last day included. */
  endTime: dayParam,
  itemId: idParam,
  isDesc: isDescParam,
  page: pageParam,
  size: sizeParam,
});
export type TrackingListSearch = v.InferOutput<typeof trackingListSearchSchema>;

/** The list's filters without paging: what the export takes too. */
export type TrackingFilters = Omit<TrackingListSearch, 'page' | 'size'>;

/** What listScanTrackings is asked for: the URL's values (blanks left out) and this browser's offset. */
export function trackingListQuery(search: TrackingListSearch, timezone: number = timezoneOffsetHours()): TrackingListQuery {
  return definedOnly({ ...search, timezone });
}

/** What the export token is issued for: the same filters and offset, no paging. */
export function trackingExportFilters(search: TrackingFilters, timezone: number = timezoneOffsetHours()): TrackingExportFilters {
  const { trackingId, status, startTime, endTime, itemId, isDesc } = search;
  return definedOnly({ trackingId, status, startTime, endTime, itemId, isDesc, timezone });
}

/**
 * The admin log's two views (decision 168): the scan log (no `log`) and `log=payout`, who read
 * whose payout details. opUid, the sort and paging are both views'; the others are one view's.
 */
export const AUDIT_LOGS = ['payout'] as const;
export const PAYOUT_ACTIONS = ['reveal', 'paymentExport'] as const;
export type PayoutAction = (typeof PAYOUT_ACTIONS)[number];

export const trackingAuditSearchSchema = v.object({
  log: oneOf(AUDIT_LOGS),
  trackingId: textParam,
  upc: textParam,
  opUid: idParam,
  status: oneOf(SCAN_STATUSES),
  action: oneOf(PAYOUT_ACTIONS),
  userId: idParam,
  /** YYYY-MM-DD, first day included (payout view). */
  startTime: dayParam,
  /** YYYY-MM-DD, last day included (payout view). */
  endTime: dayParam,
  isDesc: isDescParam,
  page: pageParam,
  size: sizeParam,
});
export type TrackingAuditSearch = v.InferOutput<typeof trackingAuditSearchSchema>;

/** What listTrackingAudits is asked for (the scan view's filters only). */
export function trackingAuditQuery(search: TrackingAuditSearch): TrackingAuditQuery {
  const { trackingId, upc, opUid, status, isDesc, page, size } = search;
  return definedOnly({ trackingId, upc, opUid, status, isDesc, page, size });
}

/** What listPayoutAudits is asked for (the payout view's filters) with this browser's offset. */
export function payoutAuditQuery(search: TrackingAuditSearch, timezone: number = timezoneOffsetHours()): PayoutAuditQuery {
  const { action, opUid, userId, startTime, endTime, isDesc, page, size } = search;
  return definedOnly({ action, opUid, userId, startTime, endTime, isDesc, page, size, timezone });
}

/** /admin/upload: the tracking upload (default) or the user-files upload. */
export const UPLOAD_TABS = ['tracking', 'user'] as const;
export type UploadTab = (typeof UPLOAD_TABS)[number];
export const uploadSearchSchema = v.object({
  tab: v.optional(v.fallback(v.picklist(UPLOAD_TABS), 'tracking'), 'tracking'),
});
export type UploadSearch = v.InferOutput<typeof uploadSearchSchema>;
export const UPLOAD_SEARCH_DEFAULTS = { tab: 'tracking' } as const;
