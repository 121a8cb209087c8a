// The calls of the admin receiving pages other than the scan screens (SPEC §2 /admin/tracking-list,
// /admin/upload, /admin/tracking-audit; §7 "Scan, tracking, audit, matching", "Uploads and
// downloads"):
// - lists (listScanTrackings, listTrackingAudits, listPayoutAudits, listUsers): the client's usual error toast on
//   failure; the page then shows an empty result rather than failing the route.
// - the edit (modifyScanTracking) is silent: the dialog shows the refusal itself (an error code, or
//   opStatus failed with the server's words such as 'upc重复，请编辑已添加的商品').
// - the export: a download token for kind tracking issued for the list's filters (the token fixes
//   them), then the plain link /ext/excel/tracking/{token} (DECISIONS "Files").
// - the uploads go through lib/excel-upload.ts (multipart with byte progress, silent).
import { excelExportUrl } from '../../lib/excel-export';
import type { ApiClient } from '../../../api/client';
import { outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components, operations } from '../../../api/schema';
import type { ExcelUploadPath } from '../../lib/excel-upload';

type Schemas = components['schemas'];
export type ScanTracking = Schemas['ScanTracking'];
export type ScanTrackingPage = Schemas['ScanTrackingPage'];
export type ScanModifyRequest = Schemas['ScanModifyRequest'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];
export type PayoutAuditEntry = Schemas['PayoutAuditEntry'];
export type PayoutAuditPage = Schemas['PayoutAuditPage'];
export type AppUser = Schemas['User'];
type ScanModifyResult = Schemas['ScanModifyResult'];

type Paged = { page: number; size: number; isDesc: boolean };
export type TrackingListQuery = NonNullable<operations['listScanTrackings']['parameters']['query']> & Paged;
export type TrackingAuditQuery = NonNullable<operations['listTrackingAudits']['parameters']['query']> & Paged;
export type PayoutAuditQuery = NonNullable<operations['listPayoutAudits']['parameters']['query']> & Paged;
type ExportQuery = NonNullable<operations['getExcelDownloadToken']['parameters']['query']>;

// ---------------------------------------------------------------- lists

const EMPTY_TRACKING_PAGE: ScanTrackingPage = { content: [], totalPages: 0, size: 0 };
const EMPTY_AUDIT_PAGE: AuditPage = { content: [], totalPages: 0, totalElements: 0 };

export async function loadScanTrackings(api: ApiClient, query: TrackingListQuery): Promise<ScanTrackingPage> {
  const outcome = await outcomeOf(api.GET('/api/scan/admin/tracking/list', { params: { query } }));
  return outcome.ok ? (outcome.data ?? EMPTY_TRACKING_PAGE) : EMPTY_TRACKING_PAGE;
}

export async function loadTrackingAudits(api: ApiClient, query: TrackingAuditQuery): Promise<AuditPage> {
  const outcome = await outcomeOf(api.GET('/api/audit/tracking/list', { params: { query } }));
  return outcome.ok ? (outcome.data ?? EMPTY_AUDIT_PAGE) : EMPTY_AUDIT_PAGE;
}

/** The payout view of the admin log (listPayoutAudits, admin only: decision 168). */
export async function loadPayoutAudits(api: ApiClient, query: PayoutAuditQuery): Promise<PayoutAuditPage> {
  const outcome = await outcomeOf(api.GET('/api/audit/payout/list', { params: { query } }));
  const empty: PayoutAuditPage = { content: [], totalPages: 0, totalElements: 0 };
  return outcome.ok ? (outcome.data ?? empty) : empty;
}

// ---------------------------------------------------------------- edit

/** What the edit came to; on success `data.scanTracking` is the changed record. */
export type ModifyOutcome = ApiOutcome<ScanModifyResult>;

/** POST /api/scan/admin/tracking/{id}/modify with the changed fields only. */
export function modifyScanTracking(api: ApiClient, id: number, changes: ScanModifyRequest): Promise<ModifyOutcome> {
  return outcomeOf(api.POST('/api/scan/admin/tracking/{id}/modify', { params: { path: { id } }, body: changes, silent: true }), {
    succeeded: saysSucc,
    noAnswer: 'fail',
  });
}

// ---------------------------------------------------------------- files

/** The list's filters as the export token takes them (those of listScanTrackings, and the timezone). */
export type TrackingExportFilters = Pick<ExportQuery, 'isDesc' | 'trackingId' | 'status' | 'startTime' | 'endTime' | 'itemId' | 'timezone'>;

/**
 * The Excel export of the scan records the filters select: a short-lived download token for kind
 * tracking, issued for these filters (GET /api/download/excel/tracking/token), then the plain link
 * /ext/excel/tracking/{token}. Null when no token came (the client has shown why).
 */
export async function trackingExcelUrl(api: ApiClient, filters: TrackingExportFilters): Promise<string | null> {
  return excelExportUrl(api, 'tracking', filters);
}

/**
 * The tracking upload (SPEC §2 /admin/upload "insert, update, confirm"): 'import' announces parcels
 * before they arrive (records in status init), 'update' changes the counts of existing records,
 * 'confirm' marks imported parcels as arrived (init -> scan) and matches them.
 */
export type TrackingUploadMode = 'import' | 'update' | 'confirm';
export const TRACKING_UPLOAD_PATHS = {
  import: '/api/scan/admin/excel/upload/import',
  update: '/api/scan/admin/excel/upload/update',
  confirm: '/api/scan/admin/excel/upload/confirm',
} as const satisfies Record<TrackingUploadMode, ExcelUploadPath>;

/** The template of the tracking upload (downloadTrackingTemplate): no data, so a plain link without a token. */
export const TRACKING_TEMPLATE_URL = '/ext/excel/template/tracking';
