// What every Excel upload does the same way (DECISIONS "Files"; SPEC §3 "Upload result row: line,
// tracking, name, itemId, express, qty, oldQty, opStatus, msg; totals succ, skip, error"): reading a
// cell as text or as a whole number, the totals of the answer, and applying the valid rows in ONE
// transaction whose lock conflicts become a 409 "try again" and change nothing. The purchased upload
// (purchased-upload.ts) and the tracking upload (tracking-upload.ts) both use these.
import type { components } from '../../api/schema';
import { pipelinedTransaction, postgresError, type Db, type Tx } from '../db/client.ts';
import { conflict } from '../errors.ts';
import type { Cell } from './parse-sheet.ts';

type UploadResult = components['schemas']['UploadResult'];
type UploadResultRow = components['schemas']['UploadResultRow'];

export const uploadRowMessages = {
  busy: '有其他操作正在修改相同的记录，请稍后重试',
  tooSlow: '文件处理时间过长，未做任何修改，请拆分后分批上传',
  trackingRounded: 'tracking已被Excel转换为数字而失去精度，请将该列设为文本格式后重新填写',
} as const;

/** A cell as trimmed text ('' for an empty cell). */
export const cellText = (v: Cell): string => (v === null ? '' : typeof v === 'string' ? v.trim() : String(v));

/** A whole number cell (a number, or text of digits), or null when it is not one. */
export function wholeNumber(v: Cell): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  const t = cellText(v);
  return /^\d{1,15}$/.test(t) ? Number(t) : null;
}

/** A number cell that Excel rounded (an id typed into a General cell past 15 digits). */
export const isRoundedNumber = (v: Cell) => typeof v === 'number' && !Number.isSafeInteger(v);

/** A PostgreSQL deadlock or serialization failure, possibly wrapped by the driver or Drizzle. */
export function isLockConflict(err: unknown): boolean {
  const code = postgresError(err)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs `apply` in one transaction; a lock conflict (deadlock, serialization) is 409 and nothing
 * changed. Pipelined on PostgreSQL (db/client.ts pipelinedTransaction): a large upload's writes are
 * built while the ones before them run.
 */
export async function applyInOneTransaction(db: Db, apply: (tx: Tx) => Promise<void>): Promise<void> {
  try {
    await pipelinedTransaction(db, apply);
  } catch (err) {
    if (isLockConflict(err)) throw conflict(uploadRowMessages.busy);
    throw err;
  }
}

/** The answer: every row in sheet order and the totals. */
export function uploadResult(rows: UploadResultRow[]): UploadResult {
  const total = (s: UploadResultRow['opStatus']) => rows.filter((r) => r.opStatus === s).length;
  return { rows, succ: total('succ'), skip: total('skip'), error: total('error') };
}
