/**
 * A purchased record: a tracking id and how many units a member bought for a task under it (SPEC §3
 * "Purchased record", §5 task record dialog). The one place its input rules live - the record
 * dialog, the server's record calls and uploads (src/server/tasks/purchased-service.ts) and the bulk
 * paste read them here - and the one parser of a pasted block of `tracking [quantity]` lines
 * (decision 105), so the paste box's live preview says what the server will decide, line by line.
 * Which tasks' records may change, and what a record's status means, is machines/task.machine.ts.
 */
import { MAX_SCAN_COUNT, MAX_SCAN_TEXT, scanRecordMessages } from './scan-record.machine';
import { carrierOf } from './carrier';
import { canonicalTrackingId, trackingIdError } from './tracking-id';

/** A tracking id is the code a scanner reads: its canonical key (machines/tracking-id.ts) is 1..64 characters. */
export const MAX_TRACKING_ID = MAX_SCAN_TEXT;
/** A record holds 1..1000000 units (the most a scan counts). */
export const MAX_PRODUCT_COUNT = MAX_SCAN_COUNT;

/** The words of the record rules (SPEC §5 where it gives them), shown by the screens and answered by the server. */
export const purchasedRecordMessages = {
  trackingIdRequired: scanRecordMessages.trackingIdRequired, // SPEC §5
  trackingIdTooLong: scanRecordMessages.trackingIdTooLong,
  trackingIdInvalid: scanRecordMessages.trackingIdInvalid,
  countRequired: '请填写数目', // SPEC §5
  /** A task's records never hold more units than its count (decision 090). */
  overCount: (count: number) => `所有记录的数目合计不能超过任务数量${count}件`,
  /** One record per (task, tracking id). */
  alreadyRecorded: '该快递单号已记录',
} as const;

/** Why one record input is not acceptable (the dialog's checks), or null. The tracking id is judged by its canonical key. */
export function purchasedInputError(input: { trackingId?: unknown; productCount?: unknown }): string | null {
  const trackingError = trackingIdError(typeof input.trackingId === 'string' ? input.trackingId : '');
  if (trackingError) return trackingError;
  const n = input.productCount;
  // Number.isInteger is false for anything but a number: text, null and undefined are no count.
  if (!Number.isInteger(n) || Number(n) < 1 || Number(n) > MAX_PRODUCT_COUNT) return purchasedRecordMessages.countRequired;
  return null;
}

// ------------------------------------------------------------------ the bulk paste (decision 105)

/** The most lines (blank ones not counted) one paste may hold. */
export const BULK_MAX_LINES = 200;
/** The most characters of one paste (the contract's maxLength of its text). */
export const BULK_MAX_TEXT = 20_000;
/** A line without a quantity is one unit (decision 105). */
export const BULK_DEFAULT_QUANTITY = 1;

/**
 * What separates a line's tracking id from its quantity: any run of tabs (a spreadsheet's columns),
 * spaces, commas or semicolons, in ASCII or full width (an order e-mail written in Chinese).
 */
const SEPARATORS = /[\s,;，；]/u; // a run splits into empty fields, which the parser drops
/** A quantity as written: digits only (no sign, point or unit). */
const QUANTITY = /^\d{1,7}$/;

export const bulkMessages = {
  empty: '请粘贴至少一行：单号，或单号和数目',
  tooManyLines: (max: number) => `一次最多粘贴${max}行`,
  tooManyFields: '每行只能有单号和数目两项',
  quantityInvalid: `数目须为1到${MAX_PRODUCT_COUNT}的整数`,
  duplicate: (firstLine: number) => `与第${firstLine}行的单号重复`,
} as const;

/** One non-blank line of a paste: its number in the paste (1-based), what it says, and whether it may be recorded. */
export interface PastedLine {
  line: number;
  tracking: string;
  /** The quantity; null when the line's quantity is not one. */
  qty: number | null;
  ok: boolean;
  /** Why not ('' when ok). */
  msg: string;
}

export interface PastedLines {
  lines: PastedLine[];
  /** A fault of the whole paste (nothing to record, too many lines), or null. */
  error: string | null;
}

/** What the caller knows of the task, to check lines against it too (the web's preview; the server checks these under its locks). */
export interface PasteTarget {
  /** Tracking ids the task already has a record of. */
  recorded?: Iterable<string>;
  /** The task's count, and the units its records already hold: a line past the count is refused. */
  count?: number;
  recordedUnits?: number;
}

/** The whole id when these fields are a known carrier's id (its check digit passing), else null. */
const carrierId = (parts: readonly string[]) => {
  const id = parts.join(' ');
  return carrierOf(id)?.checkDigitOk ? id : null;
};

/**
 * A line of more than two fields read as one carrier's id written in groups, as couriers print them
 * (`1Z 999 AA1 01 2345 6784`, USPS's groups of 4, FedEx's 4-4-4), with or without a quantity after it:
 * [tracking] or [tracking, quantity] when exactly one reading - all the fields, or all but a last
 * all-digit field - joins to an id carrierOf recognises with its check digit passing; null when none
 * does or both do (the member then sees the old refusal and removes the doubt). Only a passing check
 * digit may join fields: a run of numbers that merely looks like a carrier's stays refused.
 */
export function spacedTrackingId(fields: readonly string[]): [string] | [string, string] | null {
  const whole = carrierId(fields);
  const last = fields[fields.length - 1]!;
  const withQty = /^\d+$/.test(last) ? carrierId(fields.slice(0, -1)) : null;
  if (whole && !withQty) return [whole];
  if (withQty && !whole) return [withQty, last];
  return null;
}

/**
 * Parses a pasted block into lines of `tracking [quantity]` (decision 105):
 * - lines end at LF, CRLF or CR; blank lines are skipped but keep the numbering of the paste;
 * - a line's fields are separated by tabs, spaces, commas or semicolons (ASCII or full width);
 *   one field is a tracking id of quantity 1, two are a tracking id and a quantity; more are one
 *   carrier's id written in groups when exactly one reading of them is (spacedTrackingId), else refused;
 * - each line is checked with the record dialog's rules (purchasedInputError); a quantity must be
 *   digits for a whole number from 1 to 1000000;
 * - a tracking id repeated in the paste is refused on its later lines (naming the first), one the
 *   task already has (`target.recorded`) on every line; a line past the task's count
 *   (`target.count`) is refused as the record dialog refuses it;
 * - more than BULK_MAX_LINES lines, or none, is a fault of the whole paste (`error`).
 */
export function parsePurchasedLines(text: string, target: PasteTarget = {}): PastedLines {
  const lines: PastedLine[] = [];
  const firstLineOf = new Map<string, number>();
  const recorded = new Set([...(target.recorded ?? [])].map(canonicalTrackingId));
  let units = target.recordedUnits ?? 0;
  const limit = target.count ?? Infinity; // no count: the server checks it under its locks
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const fields = raw.split(SEPARATORS).filter(Boolean);
    if (fields.length === 0) return;
    const line = index + 1;
    const spaced = fields.length > 2 ? spacedTrackingId(fields) : null;
    if (spaced) fields.splice(0, fields.length, ...spaced);
    const tracking = fields[0]!;
    const qtyText = fields[1];
    const qty = qtyText === undefined ? BULK_DEFAULT_QUANTITY : QUANTITY.test(qtyText) ? Number(qtyText) : null;
    const refuse = (msg: string) => lines.push({ line, tracking, qty, ok: false, msg });
    if (fields.length > 2) return refuse(bulkMessages.tooManyFields);
    const trackingError = purchasedInputError({ trackingId: tracking, productCount: BULK_DEFAULT_QUANTITY });
    if (trackingError) return refuse(trackingError);
    // Repeats compare canonical keys: "1z999…" and "1Z 999 …" are one parcel.
    const key = canonicalTrackingId(tracking);
    const first = firstLineOf.get(key);
    if (first !== undefined) return refuse(bulkMessages.duplicate(first));
    firstLineOf.set(key, line);
    // purchasedInputError refuses a quantity that is not one, null included.
    if (purchasedInputError({ trackingId: tracking, productCount: qty })) return refuse(bulkMessages.quantityInvalid);
    const n = qty!;
    if (recorded.has(key)) return refuse(purchasedRecordMessages.alreadyRecorded);
    if (units + n > limit) return refuse(purchasedRecordMessages.overCount(limit));
    units += n;
    lines.push({ line, tracking, qty: n, ok: true, msg: '' });
  });
  const error = lines.length === 0 ? bulkMessages.empty : lines.length > BULK_MAX_LINES ? bulkMessages.tooManyLines(BULK_MAX_LINES) : null;
  return { lines, error };
}

/** How many more units a task's records may hold: its count less the units recorded (0 when full). */
export const unitsLeftToRecord = (task: { count: number; recordedUnits: number }) => Math.max(0, task.count - task.recordedUnits);

/** Whether a parsed paste may be sent as it is: no fault of the whole, no refused line. */
export const pasteIsClean = (parsed: PastedLines) => parsed.error === null && parsed.lines.every((l) => l.ok);
