// The Excel uploads whose answer is SPEC §3's upload result (rows with line, tracking, name, itemId,
// express, qty, oldQty, opStatus, msg; totals succ, skip, error; a file of more than 1,000 rows
// answers the rows that need attention and pages its fine ones, uploadResultPage): the purchased-records upload
// (/user/upload, and the admin's user-files tab on /admin/upload) and the tracking upload
// (/admin/upload). Each goes multipart (field `file`) through api.upload, which reports how much of
// the file has been sent. Silent: the upload pages show the refusal of an unreadable file (A00001
// with the server's words) next to the file input rather than as a toast; session signals
// (token.expired, no.access) still go out as for any call.
import { multipartBody, type ApiClient } from '../../api/client';
import { anyResult, outcomeOf, type ApiOutcome } from '../../api/outcome';
import type { components } from '../../api/schema';
import type { UploadPath, UploadProgress } from '../../api/upload';

export type UploadResult = components['schemas']['UploadResult'];
export type UploadResultRow = components['schemas']['UploadResultRow'];
export type UploadResultPage = components['schemas']['UploadResultPage'];

/** A page of the fine rows a large upload's answer left out (decision 172), or null when the server has them no more. */
export type LoadFineRows = (resultId: string, page: number, size: number) => Promise<UploadResultPage | null>;

/** The multipart calls that answer an UploadResult (the withdraw confirm upload answers otherwise). */
export type ExcelUploadPath = Extract<UploadPath, `${string}/excel/upload/${string}`>;

/** What an upload came to; `msg` is the server's words ('' when it gave none). */
export type UploadOutcome = ApiOutcome<UploadResult>;

/** The purchased-records upload: 'import' adds the file's records, 'update' changes their counts. */
export type PurchasedUploadMode = 'import' | 'update';
export const PURCHASED_UPLOAD_PATHS = {
  import: '/api/purchased/user/excel/upload/import',
  update: '/api/purchased/user/excel/upload/update',
} as const satisfies Record<PurchasedUploadMode, ExcelUploadPath>;

/**
 * The Excel template of the purchased-records upload (downloadPurchasedTemplate: the columns the
 * import reads). It holds no data, so it is a plain link without a token.
 */
export const PURCHASED_TEMPLATE_URL = '/ext/excel/template/purchased';

export interface UploadExcelOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting rejects with an AbortError (the page went away). */
  signal?: AbortSignal;
}

/** POSTs `file` to `path`; the result, or the server's refusal. Rejects only on no answer or abort. */
export function uploadExcel(api: ApiClient, path: ExcelUploadPath, file: File, options: UploadExcelOptions = {}): Promise<UploadOutcome> {
  return outcomeOf(api.upload(path, multipartBody({ file }), { silent: true, ...options }), { succeeded: anyResult });
}

/** The largest page a list call answers (docs/CONVENTIONS.md: size 1..1000). */
const LARGEST_PAGE = 1000;

/**
 * A page of the fine rows of a large upload (its answer's `fine` and `resultId`): the server keeps
 * them an hour; past it the call's toast says so and this answers null. A page larger than a list
 * call answers (SPEC §9's 全部) is read as pages of LARGEST_PAGE, one after another.
 */
export async function uploadResultPage(api: ApiClient, resultId: string, page: number, size: number): Promise<UploadResultPage | null> {
  const one = async (p: number, s: number) => {
    const outcome = await outcomeOf(api.GET('/api/upload/result/{resultId}', { params: { path: { resultId }, query: { page: p, size: s } } }));
    return outcome.ok ? (outcome.data ?? null) : null;
  };
  if (size <= LARGEST_PAGE) return one(page, size);
  const content: UploadResultRow[] = [];
  let total = 0;
  for (let p = Math.floor((page * size) / LARGEST_PAGE); content.length < size; p++) {
    const part = await one(p, LARGEST_PAGE);
    if (!part) return null;
    total = part.totalElements;
    content.push(...part.content);
    if (part.content.length < LARGEST_PAGE) break;
  }
  return { content: content.slice(0, size), totalElements: total, totalPages: Math.ceil(total / size) };
}
