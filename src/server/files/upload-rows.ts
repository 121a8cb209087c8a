// What every Excel upload does the same way (DECISIONS "Files"; SPEC §3 "Upload result row: line,
// tracking, name, itemId, express, qty, oldQty, opStatus, msg; totals succ, skip, error"): reading a
// cell as text or as a whole number, the totals of the answer and the answer itself (serialized
// between turns of the event loop), applying the valid rows in slices, each its own transaction of
// a bounded duration (applyInSlices; docs/decisions/060-uploads-in-slices.md), or in one transaction
// for an all-or-nothing upload (applyInOneTransaction); a lock conflict becomes a 409 "try again".
// The purchased upload (purchased-upload.ts) and the tracking upload (tracking-upload.ts) slice; the
// withdraw confirm upload is all or nothing.
import { readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { components } from '../../api/schema';
import { pipelinedRunner, pipelinedTransaction, postgresError, type Db, type Tx } from '../db/client.ts';
import { Code, conflict } from '../errors.ts';
import { cellPlace, rowPlace, type Cell, type SheetPlace } from './parse-sheet.ts';
import { needsAttention, WARNING_JOIN } from '../../../machines/upload-result.ts';
import { budgetedTargetMs, cutSlice, jsonArrayPaced, nextSliceSize, SliceTurns, SLICING, type Slicing } from './slices.ts';
import { keepUploadResult } from './upload-results.ts';
import type { NearPacing } from '../matching/near-misses.ts';

type UploadResult = components['schemas']['UploadResult'];
type UploadResultRow = components['schemas']['UploadResultRow'];

export const uploadRowMessages = {
  busy: '有其他操作正在修改相同的记录，请稍后重试',
  trackingRounded: '快递单号已被Excel转换为数字而失去精度，请将该列设为文本格式后重新填写',
  trackingRequired: '请填写快递单号',
  /** A tracking id that arrived as a number cell: imported, but its row says so (leading zeros). */
  trackingAsNumber: '快递单号在Excel中为数字格式，开头的0可能已丢失，请核对',
  notProcessed: '文件处理时间过长，此行未处理，请重新上传该文件（已保存的行会跳过）',
  uploaded: (r: { succ: number; skip: number; error: number }) => `上传完成：成功${r.succ}条，跳过${r.skip}条，失败${r.error}条`,
} as const;

/** A cell as trimmed text ('' for an empty cell). */
export const cellText = (v: Cell): string => (v === null ? '' : typeof v === 'string' ? v.trim() : String(v));

/** A cell as trimmed text with full-width digits, letters and dashes folded (NFKC: １２－１ is 12-1), for numbers and task ids. */
export const foldedText = (v: Cell): string => cellText(v).normalize('NFKC').trim();

/** A whole number cell (a number, or text of digits, full-width ones too), or null when it is not one. */
export function wholeNumber(v: Cell): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  const t = foldedText(v);
  return /^\d{1,15}$/.test(t) ? Number(t) : null;
}

/**
 * A number cell that Excel rounded (an id typed into a General cell past 15 digits), or the text
 * Excel writes for one into a CSV file (9.40011E+21).
 */
export const isRoundedNumber = (v: Cell) =>
  (typeof v === 'number' && !Number.isSafeInteger(v)) || (typeof v === 'string' && /^\d(\.\d+)?e\+\d+$/i.test(foldedText(v)));

/** An id that arrived as a whole number cell: whatever leading zeros it had are gone, though it is not rounded. */
export const isNumberCell = (v: Cell) => typeof v === 'number' && Number.isSafeInteger(v);

/** A row's message about one cell, naming it as the spreadsheet shows it: 工作表“采购记录” 第5行 D列 快递单号：请填写快递单号. */
export const cellMessage = <K extends string>(place: SheetPlace<K>, line: number, key: K, msg: string) => `${cellPlace(place, line, key)}：${msg}`;

/**
 * Names a cell in every error row that names none yet: the errors found after the format checks
 * (a duplicate, no such record, a record being paid, the record dialog's refusals) are about the
 * record the row names by its `key` cell (its tracking id). A row not processed (time budget, lock
 * conflict) is about the file, not a cell.
 */
export function nameErrorCells<K extends string>(outs: UploadResultRow[], place: SheetPlace<K>, key: K) {
  for (const out of outs) {
    if (out.opStatus !== 'error' || !out.msg || out.msg === uploadRowMessages.notProcessed || out.msg === uploadRowMessages.busy) continue;
    if (!out.msg.startsWith(rowPlace(place, out.line))) out.msg = cellMessage(place, out.line, key, out.msg);
  }
}

/** A row's answer with a warning about one of its cells added (the row itself is applied). */
export const withCellWarning = <K extends string>(msg: string, place: SheetPlace<K>, line: number, key: K, warning: string) =>
  `${msg}${WARNING_JOIN}${cellMessage(place, line, key, warning)}`;

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

/** The result: every row in sheet order and the totals (uploadAnswer bounds what of it is answered). */
export function uploadResult(rows: UploadResultRow[]): UploadResult {
  const total = (s: UploadResultRow['opStatus']) => rows.filter((r) => r.opStatus === s).length;
  return { rows, succ: total('succ'), skip: total('skip'), error: total('error'), fine: 0 };
}

const pgliteSlices = new SliceTurns();
/** A PostgreSQL handle carries its pipelined transactions (db/client.ts); PGlite's does not. */
const onPostgres = (db: Db) => pipelinedRunner in db;

/** Keys of one near-records statement of an upload on PGlite (nearPacingOf). */
const NEAR_KEYS_PER_PGLITE_TURN = 250;
/**
 * How an upload reads the near records of its parcels after its slices (noteNearMisses): on
 * PostgreSQL as any read (NEAR_KEYS_PER_STATEMENT a statement, beside the other requests); on PGlite
 * each statement takes its turn among the slices, of NEAR_KEYS_PER_PGLITE_TURN keys: 1,000 took
 * 48-58 ms of the only connection on a quiet host, past a slice's 40 ms, and nothing else ran meanwhile.
 */
export const nearPacingOf = (db: Db): NearPacing | undefined =>
  onPostgres(db) ? undefined : { keysPerStatement: NEAR_KEYS_PER_PGLITE_TURN, turn: (statement) => pgliteSlices.run(statement) };

/**
 * UPLOAD_SLICE_LOG=1: each slice is written to stderr as `SLICE <rows> <ms> cpu <ms> runq <ms>`, the
 * thread's CPU during the slice and its time waiting for a core (measuring, not for production).
 */
const SLICE_LOG = Boolean(process.env.UPLOAD_SLICE_LOG);
const threadSchedstat = (): number[] => {
  try {
    return readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').slice(0, 2).map(Number);
  } catch {
    return [NaN, NaN];
  }
};

/** Rows of a slice that (rarely) meets a lock conflict: tried again this many times, then 409. */
const SLICE_ATTEMPTS = 3;

/**
 * Applies `groups` (a group: rows that go in one transaction, such as every row of one tracking id)
 * in slices of whole groups, each its own transaction (pipelined on PostgreSQL), with a turn of the
 * event loop between two: other requests, and on PGlite their statements, are served between
 * slices. Each slice's size follows the time the slice before took (SLICING.targetMs).
 * `apply` writes a slice and fills in its rows' answers (`outsOf`); a slice that fails is rolled
 * back and its rows' answers restored, then tried again after a lock conflict (409 after
 * SLICE_ATTEMPTS), any other failure is thrown once the slices in flight have ended (the slices
 * before it stay applied; uploading the same file again finishes the job, see the decision). Past
 * `budgetMs`, the groups not yet applied are answered `notProcessed`.
 *
 * `overlap`: two slices may be in flight at once (on PostgreSQL, two connections), so the server's
 * thread plans one while PostgreSQL writes the other; one after the other, each waited for the other
 * (decision 153). For slices that read nothing another writes (a tracking import), or that lock what
 * they share in the lock order and read once they hold it (a confirm cut along its tasks, decision 161).
 * Only while the upload is the only one applying slices in this process: two uploads at once keep
 * the thread and PostgreSQL busy already, and a second slice each only made other requests wait.
 */
export async function applyInSlices<G>(
  db: Db,
  groups: readonly G[],
  opts: {
    rowsOf: (group: G) => number;
    outsOf: (group: G) => UploadResultRow[];
    apply: (tx: Tx, slice: G[]) => Promise<void>;
    budgetMs: number;
    slicing?: Partial<Slicing>;
    overlap?: boolean;
  },
): Promise<void> {
  const pg = onPostgres(db);
  const { targetMs, sharedTargetMs = targetMs, firstRows, maxRows } = { ...SLICING[pg ? 'pg' : 'pglite'], ...opts.slicing };
  const width = () => (pg && opts.overlap && applying === 1 ? 2 : 1);
  const begun = Date.now();
  const deadline = begun + opts.budgetMs;
  let size = firstRows;
  // Rows applied so far and left, for the pace budgetedTargetMs reads.
  let rowsDone = 0;
  let rowsLeft = groups.reduce((n, group) => n + opts.rowsOf(group), 0);
  const inFlight = new Set<Promise<void>>();
  const failures: unknown[] = [];

  const runSlice = async (slice: G[], rows: number) => {
    const outs = slice.flatMap(opts.outsOf);
    const saved = outs.map((o) => ({ ...o }));
    // On PGlite the clock starts when the slice's turn comes (SLICING).
    let started = performance.now();
    let sched0 = SLICE_LOG ? threadSchedstat() : null;
    const start = () => {
      started = performance.now();
      sched0 = SLICE_LOG ? threadSchedstat() : null;
    };
    for (let attempt = 1; ; attempt++) {
      try {
        if (pg) await pipelinedTransaction(db, (tx) => opts.apply(tx, slice));
        else await pgliteSlices.run(() => (start(), db.transaction((tx) => opts.apply(tx, slice))));
        break;
      } catch (err) {
        outs.forEach((o, k) => Object.assign(o, saved[k]));
        if (!isLockConflict(err)) throw err;
        if (attempt >= SLICE_ATTEMPTS) throw conflict(uploadRowMessages.busy);
      }
    }
    const ms = Math.max(1, performance.now() - started);
    const s0 = sched0;
    if (s0) {
      // Rows, wall ms, and of it this thread's CPU and its wait for a core (Linux schedstat).
      const [cpu, wait] = threadSchedstat().map((v, k) => (v - s0[k]!) / 1e6);
      process.stderr.write(`SLICE ${rows} ${ms.toFixed(0)} cpu ${cpu!.toFixed(0)} runq ${wait!.toFixed(0)}\n`);
    }
    [rowsDone, rowsLeft] = [rowsDone + rows, rowsLeft - rows];
    const target = budgetedTargetMs(applying > 1 ? sharedTargetMs : targetMs, {
      rowsDone,
      rowsLeft,
      elapsedMs: Date.now() - begun,
      remainingMs: deadline - Date.now(),
    });
    size = nextSliceSize(size, rows, ms, { targetMs: target, maxRows });
  };

  applying++;
  try {
    for (let i = 0; i < groups.length && !failures.length;) {
      if (Date.now() > deadline) {
        for (const group of groups.slice(i)) {
          for (const out of opts.outsOf(group)) Object.assign(out, { opStatus: 'error', msg: uploadRowMessages.notProcessed });
        }
        break;
      }
      const { slice, rows, next } = cutSlice(groups, i, size, opts.rowsOf);
      i = next;
      const run = runSlice(slice, rows).catch((err: unknown) => void failures.push(err));
      inFlight.add(run);
      void run.then(() => inFlight.delete(run));
      while (inFlight.size >= width()) await Promise.race(inFlight);
      await nextTurn();
    }
    await Promise.all(inFlight);
  } finally {
    applying--;
  }
  if (failures.length) throw failures[0];
}

/** Uploads applying slices in this process (applyInSlices). */
let applying = 0;

/**
 * Rows a file may have for its answer to hold every one of them (~200 KB); a larger file's answer
 * holds the rows that need attention and leaves its fine rows to be paged (decision 172).
 */
export const ANSWER_ALL_ROWS = 1000;

/**
 * An upload's answer as the bytes of its body, `{code: A00000, msg, data: {rows, succ, skip, error,
 * fine, resultId?}}` as the contract declares it. A file of at most `allRows` rows: every row, in
 * sheet order, fine 0. A larger one: the rows that need attention (needsAttention) in sheet order,
 * and `fine`, the count of the others, kept for `owner` (upload-results.ts) under `resultId` for
 * GET /api/upload/result/{resultId} to page: a 10,000-row file's answer was 1.46 MB, every row
 * echoed. Serialized between turns of the event loop (slices.ts jsonArrayPaced) rather than by
 * Fastify's serializer in one piece (~1 s for 50,000 rows on this machine). Built where the upload
 * ran (files/upload-jobs.ts): the thread that answers only sends the bytes.
 */
export async function uploadAnswer(db: Db, result: UploadResult, owner: number, opts: { allRows?: number } = {}): Promise<Buffer> {
  const { rows: all, ...totals } = result;
  let rows = all;
  let tail = '';
  if (all.length > (opts.allRows ?? ANSWER_ALL_ROWS)) {
    rows = all.filter(needsAttention);
    const fine = all.filter((r) => !needsAttention(r));
    if (fine.length) tail = `,"fine":${fine.length},"resultId":${JSON.stringify(await keepUploadResult(db, owner, fine))}`;
  }
  const head = Buffer.from(`{"code":${JSON.stringify(Code.ok)},"msg":${JSON.stringify(uploadRowMessages.uploaded(totals))},"data":{"rows":`);
  const end = Buffer.from(`,"succ":${totals.succ},"skip":${totals.skip},"error":${totals.error}${tail || ',"fine":0'}}}`);
  return Buffer.concat([head, ...(await jsonArrayPaced(rows)), end]);
}
