// Scanning parcels into stock (SPEC §2 /admin/scan, /admin/scan2, /admin/tracking-list edit dialog;
// §3 scan tracking record; §4 scan record status; §5 scan messages; DECISIONS "Receiving and
// matching", "Scans"). The one place a scan row is created or edited by hand - the scan handlers call
// it; the tracking upload (files/tracking-upload.ts) applies the same vocabulary set-based. "Seen",
// "frozen", "duplicate", what a confirm does and the words of these rules are the scan record
// machine's (machines/scan-record.machine.ts, docs/decisions/070-scan-record-rules.md), which the
// screens read too: an init row is what an import announced, not stock yet (matching ignores it).
// Everything runs inside the caller's transaction, tracking locks first (db/matching-store.ts
// lockTrackings). Duplicates are business outcomes (opStatus 'failed' in an A00000 answer, with the
// tracking id's rows so the screen can offer the edit); malformed input is A00001; a missing row A00004.
import { and, asc, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { namedRows, withValue, type Db, type Tx } from '../db/client.ts';
import { items } from '../db/schema/catalog.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import {
  announcedRowOf,
  CONTROL_CHARS,
  hasControlChars,
  isDuplicateOfSeen,
  isSeen,
  isUnmatched,
  isValidScanCount,
  MAX_SCAN_TEXT,
  scanRecordMessages,
  unmatchReasonOf,
  type RecordedUpcs,
  type UnmatchReason,
} from '../../../machines/scan-record.machine.ts';
import { CONTESTED_MESSAGE, DELETED_TASK_STATUS } from '../../../machines/task.machine.ts';
import { failsCheckDigit, gtinForms, isCatalogProductCode, productCodeKey, productCodeMessages, sameProductCode } from '../../../machines/product-code.ts';
import { canonicalTrackingId, trackingIdError } from '../../../machines/tracking-id.ts';
import type { ItemBrief } from './scan-rows.ts';
import { lockAndRead, lockTrackings } from '../db/matching-store.ts';
import { matchScannedTrackings, matchTrackings, type ScanRow } from '../matching/match.ts';
import { nearRecords, type NearRecord } from '../matching/near-misses.ts';
import { freshScanRow, type FreshScan, type SeenChange } from '../matching/plan.ts';
import { scanRecordEntity, SCAN_RECORD_NOT_FOUND } from '../entities/scan-record.ts';
import { applyToLocked, planEvent } from '../entities/store.ts';

type ScanTracking = components['schemas']['ScanTracking'];

export const scanMessages = {
  upcDuplicate: scanRecordMessages.upcDuplicate,
  itemRequired: scanRecordMessages.itemsRequired,
  chooseItem: scanRecordMessages.chooseItem,
  trackingSubmitted: scanRecordMessages.trackingSubmitted,
  trackingIdRequired: scanRecordMessages.trackingIdRequired,
  trackingIdTooLong: scanRecordMessages.trackingIdTooLong,
  trackingIdInvalid: scanRecordMessages.trackingIdInvalid,
  upcRequired: scanRecordMessages.upcRequired,
  upcTooLong: scanRecordMessages.upcTooLong,
  upcInvalid: scanRecordMessages.upcInvalid,
  /** A catalog item's product code sent as the tracking id (decision 074). */
  productCodeNotTracking: productCodeMessages.notTrackingId,
  countInvalid: scanRecordMessages.countInvalid,
  itemNotFound: '商品不存在',
  notFound: SCAN_RECORD_NOT_FOUND,
  frozen: scanRecordMessages.frozen,
  moved: '记录已被修改，请刷新后重试',
  unchanged: '没有变化',
  created: '创建成功',
  added: '操作成功',
  saved: '保存成功',
} as const;

/**
 * A scan row as the contract's ScanTracking. `upcs` (the upcs members recorded on the row's tracking
 * id, and those contested) is given by the calls of one tracking id, whose unmatch rows then say why;
 * `near`, the records near a tracking id no member recorded (scanRowsOut), goes on its notRecorded rows.
 */
export function scanOut(r: ScanRow, upcs?: RecordedUpcs, near?: readonly NearRecord[]): ScanTracking {
  return rowOut(r, upcs ? unmatchReasonOf(r, upcs) : undefined, near);
}

/** scanOut with the row's unmatch reason already judged (undefined: not asked, so not answered). */
function rowOut(r: ScanRow, unmatchReason: UnmatchReason | null | undefined, near?: readonly NearRecord[]): ScanTracking {
  const out: ScanTracking = {
    id: r.id,
    trackingId: r.trackingId,
    upc: r.upc,
    count: r.count,
    itemId: r.itemId,
    itemName: r.itemName,
    status: r.status,
    matchedUser: r.matchedUser,
    createdAt: r.createdAt.getTime(),
    updatedAt: r.updatedAt.getTime(),
    opUid: r.opUid,
    userId: r.userId,
    mainId: r.mainId,
    subId: r.subId,
    taskId: r.taskId,
  };
  if (unmatchReason !== undefined) out.unmatchReason = unmatchReason;
  if (unmatchReason === 'notRecorded' && near?.length) out.nearMisses = [...near];
  return out;
}

/**
 * The rows of one tracking id as the calls of one tracking id answer them (lookup, create, add):
 * with why each unmatch row is, and on the rows no member recorded the records near it (decision
 * 098) - one statement, asked only when such a row is there, so a parcel that matched costs nothing
 * more. Each row's reason is judged once.
 */
export async function scanRowsOut(db: Tx, trackingId: string, rows: readonly ScanRow[], upcs: RecordedUpcs): Promise<ScanTracking[]> {
  const reasons = rows.map((r) => unmatchReasonOf(r, upcs));
  const near = reasons.includes('notRecorded') ? (await nearRecords(db, [trackingId])).get(trackingId) : undefined;
  return rows.map((r, i) => rowOut(r, reasons[i], near));
}

// Control characters are never part of a code a scanner reads (the scan record machine's rule).
export { CONTROL_CHARS, hasControlChars };

/** Why a tracking id (judged by its canonical key, decision 097) or a trimmed upc is not acceptable, or null. */
export function scanTextError(kind: 'trackingId' | 'upc', t: string): string | null {
  if (kind === 'trackingId') return trackingIdError(t);
  const m = [scanMessages.upcRequired, scanMessages.upcTooLong, scanMessages.upcInvalid];
  if (!t) return m[0]!;
  if (t.length > MAX_SCAN_TEXT) return m[1]!;
  if (hasControlChars(t)) return m[2]!;
  return null;
}

/** The tracking id's canonical key (decision 097: what every lookup and matching compares), or A00001. */
export function checkTrackingId(raw: string | undefined): string {
  const error = trackingIdError(raw ?? '');
  if (error) throw badRequest(error);
  return canonicalTrackingId(raw ?? '');
}

/** The trimmed upc, or A00001. */
export function checkUpc(raw: string | undefined): string {
  const u = (raw ?? '').trim();
  const error = scanTextError('upc', u);
  if (error) throw badRequest(error);
  return u;
}

function checkCount(n: number | undefined): number {
  const c = n ?? 1;
  if (!isValidScanCount(c)) throw badRequest(scanMessages.countInvalid);
  return c;
}

/** The item of this id, or A00001 '商品不存在' (modify; the scan calls read their items with their rows). */
async function requireItem(tx: Tx, id: number): Promise<ItemBrief> {
  const [item] = await tx.select({ id: items.id, itemName: items.itemName, upc: items.upc }).from(items).where(eq(items.id, id));
  if (!item) throw badRequest(scanMessages.itemNotFound);
  return item;
}

/** The upcs of tasks (a task without a upc records none). */
const upcSet = (tasks: readonly { upc: string | null }[]) => new Set(tasks.flatMap((t) => (t.upc === null ? [] : [t.upc])));

/**
 * What a tracking id's live records say of its upcs: every upc recorded, and those a record waits on
 * as contested (its msg CONTESTED_MESSAGE, which matching writes exactly while the upc is contested:
 * decision 096; the admin home's list reads the same msg).
 */
const recordedUpcsOf = (records: readonly { upc: string | null; contested: boolean | null }[]): RecordedUpcs => ({
  recorded: upcSet(records),
  contested: upcSet(records.filter((r) => r.contested)),
});
const NO_UPCS: RecordedUpcs = { recorded: new Set(), contested: new Set() };

/**
 * The lookup's two statements (every row of a tracking id, oldest first; the upcs members recorded
 * on it, live records only, each with whether a record of it waits as contested), prepared once per
 * database handle: drizzle builds their text once instead of on every call, and PostgreSQL parses
 * and plans each once per connection (named statements). On PostgreSQL node-postgres runs them itself
 * (db/client.ts namedRows: none of drizzle's per-call layers, decision 177), the rows decoded by the
 * columns' own mapFromDriverValue as drizzle decodes them; on PGlite drizzle runs them. The lookup is
 * a clerk's most frequent call (where its time went: docs/performance.md).
 */
function prepareLookup(db: Db) {
  const trackingId = sql.placeholder('trackingId');
  const rows = db
    .select(ROW_COLUMNS)
    .from(scanTrackings)
    .where(eq(scanTrackings.trackingId, trackingId))
    .orderBy(asc(scanTrackings.id))
    .prepare('scan_lookup_rows');
  const upcs = db
    .selectDistinct({ upc: tasks.upc, contested: sql<boolean | null>`${purchasedRecords.msg} = ${CONTESTED_MESSAGE}` })
    .from(purchasedRecords)
    .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
    .where(and(eq(purchasedRecords.trackingId, trackingId), ne(tasks.status, DELETED_TASK_STATUS)))
    .prepare('scan_lookup_upcs');
  // The upcs statement's parameters: the contested message and the deleted status are constants of its text.
  const upcsQuery = upcs.getQuery();
  const upcsValues = (id: string) => withValue(upcsQuery, trackingId, id).params;
  const namedRowsOf = namedRows(db, 'scan_lookup_rows', rows.getQuery().sql, decodeScanRow);
  const namedUpcsOf = namedRows(db, 'scan_lookup_upcs', upcsQuery.sql, (r) => ({ upc: r[0] as string | null, contested: r[1] as boolean | null }));
  return {
    rows: namedRowsOf ? (id: string) => namedRowsOf([id]) : (id: string) => rows.execute({ trackingId: id }),
    upcs: namedUpcsOf ? (id: string) => namedUpcsOf(upcsValues(id)) : (id: string) => upcs.execute({ trackingId: id }),
  };
}
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

/** A scan row's columns, in the order of the lookup's select (a row of it, as an array, is in this order). */
const ROW_COLUMNS = getTableColumns(scanTrackings);
const ROW_KEYS = Object.keys(ROW_COLUMNS) as (keyof typeof ROW_COLUMNS)[];
const ROW_DECODERS = ROW_KEYS.map((k) => ROW_COLUMNS[k]);
/** An array row of the lookup's select as drizzle maps it: null stays null, else the column's mapFromDriverValue. */
function decodeScanRow(row: unknown[]): ScanRow {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < ROW_KEYS.length; i++) {
    const value = row[i];
    out[ROW_KEYS[i]!] = value === null ? null : ROW_DECODERS[i]!.mapFromDriverValue(value);
  }
  return out as ScanRow;
}

/** A tracking id's rows, with what its unmatch rows need to say why (read only when one is unmatch). */
export async function trackingOf(db: Db, trackingId: string): Promise<{ rows: ScanRow[]; upcs: RecordedUpcs }> {
  let lookup = lookups.get(db);
  if (!lookup) lookups.set(db, (lookup = prepareLookup(db)));
  const rows = await lookup.rows(trackingId);
  return { rows, upcs: rows.some(isUnmatched) ? recordedUpcsOf(await lookup.upcs(trackingId)) : NO_UPCS };
}

export interface ScanOutcome {
  opStatus: 'succ' | 'failed';
  /** The job's tracking id (its key). */
  trackingId: string;
  msg: string;
  /** Every row of the tracking id after the call (after matching when it changed anything). */
  rows: ScanRow[];
  /** The upcs members recorded on the tracking id, and those contested (scanOut says why its unmatch rows are). */
  upcs: RecordedUpcs;
}

/**
 * One scan call, checked as far as it can be without the database: the tracking id, upcs and
 * counts are well-formed and every line names an item. `upc: null` (add) is the item's own upc.
 *
 * The tracking id is trimmed, 1..64 characters ('请填写trackingId'); a upc is trimmed, 1..64
 * characters ('请填写upc'); a count is a whole number 1..1000000 (default 1). Every scanned product
 * names an existing item (itemId; create: '请填写所有项目对应的商品', add: '请选择商品', unknown:
 * '商品不存在'); the row copies the item's name. The item's own UPC need not equal the scanned one (the
 * screens filter the product select by upc; the row keeps what was scanned).
 */
export interface ScanJob {
  kind: 'create' | 'add';
  actor: SessionUser;
  trackingId: string;
  lines: { upc: string | null; count: number; itemId: number }[];
}

/**
 * createScanTrackings' input as a job, or A00001 (see ScanJob).
 *
 * create (/admin/scan, one parcel, several products): all or nothing. A upc given twice, or one the
 * tracking id already has SEEN, refuses the call as opStatus 'failed' with
 * 'upc重复，请编辑已添加的商品' (the screen lists the records to edit instead). A upc the tracking id
 * has only imported (init) is seen now: that row becomes scan with the scanned count and item (the
 * scanned units replace the announced ones; the announcement stays in the audit's before). Other
 * products become new rows in status scan.
 */
export function createJob(actor: SessionUser, rawTrackingId: string, input: { upc: string; count?: number; itemId?: number | null }[]): ScanJob {
  const trackingId = checkTrackingId(rawTrackingId);
  if (input.some((l) => l.itemId === undefined || l.itemId === null)) throw badRequest(scanMessages.itemRequired);
  return { kind: 'create', actor, trackingId, lines: input.map((l) => ({ upc: checkUpc(l.upc), count: checkCount(l.count), itemId: l.itemId! })) };
}

/**
 * addScanTracking's input as a job, or A00001 (see ScanJob).
 *
 * add (/admin/scan2, one product per parcel): the same for one product, except that a upc already
 * seen for the tracking id answers 'tracking已提交过': a parcel is scanned once. The screen blocks a
 * repeat within its session; the server blocks it across sessions too (a second scan of the same
 * parcel on another day would otherwise double its units and unmatch its task). A parcel that really
 * holds more units gets its count changed with modify.
 */
export function addJob(actor: SessionUser, rawTrackingId: string, input: { itemId?: number | null; upc?: string; count?: number }): ScanJob {
  const trackingId = checkTrackingId(rawTrackingId);
  if (input.itemId === undefined || input.itemId === null) throw badRequest(scanMessages.chooseItem);
  const upc = input.upc?.trim() ? checkUpc(input.upc) : null;
  return { kind: 'add', actor, trackingId, lines: [{ upc, count: checkCount(input.count), itemId: input.itemId }] };
}

/**
 * Carries out scan jobs of distinct tracking ids in the caller's transaction, set-based: one lock
 * statement, one read (rows, items, records, tasks) and one matching run writing in one statement,
 * for all of them (receiving/scan-batcher.ts gathers the calls that arrive together; a single call is a batch
 * of one). Answers, per job in order, its outcome or the error it alone is refused with (an unknown
 * item, a missing upc): such a job writes nothing and the others go on. A duplicate is an outcome
 * (opStatus failed, see createJob and addJob). What a line writes: an init row of the tracking id with the
 * line's upc is seen (status scan, the scanned count and item); other lines are new rows in status
 * scan. Matching then runs once over every tracking id that changed and writes those rows itself,
 * already matched, each change audited as its own clerk's (matchScannedTrackings).
 *
 * Locks: the jobs take lockTrackings BEFORE reading the rows to decide and writing them, and read
 * everything they and matching need in one statement (lockAndRead); they hand matching that read
 * (matchScannedTrackings) with, as plain data, the rows they add (freshScanRow) and the announced rows
 * they see (SeenChange by row id), and matching writes each once, already matched, with one audit
 * entry (entity 'tracking': scan or add; the announced row as before).
 */
export async function runScanJobs(tx: Tx, jobs: ScanJob[]): Promise<(ScanOutcome | Error)[]> {
  if (new Set(jobs.map((j) => j.trackingId)).size !== jobs.length) throw new Error('runScanJobs: one job per tracking id');
  // The tracking locks, then one read of everything the scans and their matching need: the rows,
  // the items the lines name and an id for each line's possible new row.
  const trackingIds = jobs.map((j) => j.trackingId);
  const state = await lockAndRead(tx, trackingIds, [], {
    genericPlans: true,
    newIds: jobs.reduce((n, j) => n + j.lines.length, 0),
    itemIds: jobs.flatMap((j) => j.lines.map((l) => l.itemId)),
  });
  const out: (ScanOutcome | Error)[] = [];
  const planned = jobLines(jobs, state.items, await catalogProductCodes(tx, trackingIds), out);
  const ids = state.newIds.values();
  // The snapshot holds the tracking ids' live records with their tasks: what their unmatch rows say
  // (a refused scan changes nothing, so their msgs as read say which upcs are contested).
  const recordsOf = (trackingId: string) =>
    (state.records.get(trackingId) ?? []).map(({ record, task }) => ({ upc: task.upc, contested: record.msg === CONTESTED_MESSAGE }));
  const recordedUpcs = (trackingId: string) => recordedUpcsOf(recordsOf(trackingId));

  const actors = new Map<string, SessionUser>();
  const fresh: FreshScan[] = [];
  const seenChanges = new Map<number, SeenChange>();
  const written: { index: number; job: ScanJob; upcs: string[] }[] = [];
  const now = new Date();
  for (const { index, job, lines } of planned) {
    const rows = state.scans.get(job.trackingId) ?? [];
    const upcs = lines.map((l) => l.upc);
    const seenBefore = upcs.some((upc) => isDuplicateOfSeen(rows, { trackingId: job.trackingId, upc }));
    // One product given twice, however its upc is written (decision 075).
    if (job.kind === 'create' && (seenBefore || new Set(upcs.map(productCodeKey)).size !== upcs.length)) {
      out[index] = { opStatus: 'failed', trackingId: job.trackingId, msg: scanMessages.upcDuplicate, rows, upcs: recordedUpcs(job.trackingId) };
      continue;
    }
    if (job.kind === 'add' && seenBefore) {
      out[index] = { opStatus: 'failed', trackingId: job.trackingId, msg: scanMessages.trackingSubmitted, rows, upcs: recordedUpcs(job.trackingId) };
      continue;
    }
    const action = job.kind === 'create' ? 'scan' : 'add';
    const added = seeLines(job, lines, rows, { action, nextId: () => ids.next().value!, now, seenChanges, fresh });
    state.scans.set(job.trackingId, [...rows, ...added]);
    actors.set(job.trackingId, job.actor);
    written.push({ index, job, upcs });
  }
  if (written.length) {
    // Matching writes the new rows (fresh) and the announced ones seen (seenChanges), in their final state.
    const matched = await matchScannedTrackings(
      tx,
      written.map((w) => w.job.trackingId),
      state,
      actors,
      fresh,
      seenChanges,
    );
    for (const { index, job, upcs } of written) {
      const msg = job.kind === 'create' ? scanMessages.created : scanMessages.added;
      out[index] = {
        opStatus: 'succ',
        trackingId: job.trackingId,
        // A upc whose check digit fails is taken and flagged (decision 074).
        msg: upcs.some(failsCheckDigit) ? `${msg}；${productCodeMessages.checkDigit}` : msg,
        rows: matched.rows.get(job.trackingId) ?? [],
        // The records are as read (a scan adds none); which upcs they contest is matching's verdict after the scan.
        upcs: { recorded: recordedUpcs(job.trackingId).recorded, contested: matched.contested.get(job.trackingId) ?? new Set() },
      };
    }
  }
  return out;
}

/** Each job's lines with their items, or (out[index]) why the job is refused: a product code for a tracking id, an unknown item. */
function jobLines(jobs: readonly ScanJob[], items: ReadonlyMap<number, ItemBrief>, productCodes: ReadonlySet<string>, out: (ScanOutcome | Error)[]) {
  const planned: { index: number; job: ScanJob; lines: ScanLineIn[] }[] = [];
  jobs.forEach((job, index) => {
    try {
      if (productCodes.has(job.trackingId)) throw badRequest(scanMessages.productCodeNotTracking);
      const lines = job.lines.map((l) => {
        const item = items.get(l.itemId);
        if (!item) throw badRequest(scanMessages.itemNotFound);
        return { upc: l.upc ?? checkUpc(item.upc ?? ''), count: l.count, item };
      });
      planned.push({ index, job, lines });
    } catch (err) {
      out[index] = err as Error;
    }
  });
  return planned;
}

/**
 * What a job's lines write: a line whose upc an import announced sees that row (seenChanges), the
 * others are new rows (fresh); answers the new rows.
 */
function seeLines(
  job: ScanJob,
  lines: readonly ScanLineIn[],
  rows: readonly ScanRow[],
  to: { action: string; nextId: () => number; now: Date; seenChanges: Map<number, SeenChange>; fresh: FreshScan[] },
): ScanRow[] {
  const added: ScanRow[] = [];
  for (const line of lines) {
    const announced = announcedRowOf(rows, { trackingId: job.trackingId, upc: line.upc });
    if (announced) {
      to.seenChanges.set(announced.id, { count: line.count, action: to.action, opUid: job.actor.id, item: line.item });
    } else {
      const row = freshScanRow(
        to.nextId(),
        { trackingId: job.trackingId, upc: line.upc, count: line.count, itemId: line.item.id, itemName: line.item.itemName, opUid: job.actor.id },
        to.now,
      );
      to.fresh.push({ row, action: to.action });
      added.push(row);
    }
  }
  return added;
}

/**
 * The tracking ids that are a catalog item's product code (a valid GTIN equal to an item's upc,
 * however many leading zeros): a scanner that missed the courier label read the product instead
 * (decision 074). Ids that are no valid GTIN - nearly all of them - cost no statement.
 */
async function catalogProductCodes(tx: Tx, trackingIds: readonly string[]): Promise<Set<string>> {
  const candidates = trackingIds.filter((t) => gtinForms(t).length > 0);
  if (!candidates.length) return new Set();
  const forms = [...new Set(candidates.flatMap(gtinForms))];
  const found = await tx
    .select({ upc: items.upc })
    .from(items)
    .where(sql`${items.upc} = any(${sql.param(forms)}::text[])`);
  const upcs = found.map((r) => r.upc);
  return new Set(candidates.filter((t) => isCatalogProductCode(t, upcs)));
}

interface ScanLineIn {
  upc: string;
  count: number;
  item: ItemBrief;
}

/** One scan job in the caller's transaction: its outcome, or the error it is refused with. */
export async function runScanJob(tx: Tx, job: ScanJob): Promise<ScanOutcome> {
  const [result] = await runScanJobs(tx, [job]);
  if (result instanceof Error) throw result;
  return result!;
}

export interface ModifyOutcome {
  opStatus: 'succ' | 'failed';
  msg: string;
  row: ScanRow;
}

/** An admin's edit of a scan row's count, upc, item or tracking id (the scan-record machine's record.edit). */
const EDIT = { type: 'record.edit' } as const;

/**
 * modifyScanTracking: one row's trackingId, upc, count or item.
 *
 * modify (/admin/scan's edit, tracking-list edit dialog) changes trackingId, upc, count or itemId
 * of one row. Its status is not set here: an init row stays init, a seen row is matched again. A row
 * whose task is being paid (wait2pay, payed) is frozen ('该记录已进入付款流程，不能修改'). Moving a
 * row onto a (tracking id, product) that another row already has (upcs compared by productCodeKey,
 * decision 075) is 'upc重复，请编辑已添加的商品' (rows
 * that matching split for two tasks share their tracking id and upc; changing one's count is fine).
 * A modify that changes nothing is succ '没有变化' and writes nothing. It takes the tracking locks
 * before reading the row; the row changes through the lifecycle store (record.edit, which keeps its
 * status; audited 'modify'), and matching audits what it changes after.
 */
export async function modifyScan(
  tx: Tx,
  actor: SessionUser,
  id: number,
  input: { trackingId?: string; upc?: string; count?: number; itemId?: number },
): Promise<ModifyOutcome> {
  const [first] = await tx.select().from(scanTrackings).where(eq(scanTrackings.id, id));
  if (!first) throw notFound(scanMessages.notFound);
  const trackingId = input.trackingId === undefined ? first.trackingId : checkTrackingId(input.trackingId);
  const upc = input.upc === undefined ? first.upc : checkUpc(input.upc);
  const count = input.count === undefined ? first.count : checkCount(input.count);
  const item = input.itemId === undefined ? undefined : await requireItem(tx, input.itemId);

  // The row's tracking id (read unlocked, to know what to lock) and the new one, before the row.
  await lockTrackings(tx, [first.trackingId, trackingId]);
  const [before] = await tx.select().from(scanTrackings).where(eq(scanTrackings.id, id)).for('update');
  if (!before) throw notFound(scanMessages.notFound);
  // Moved to another tracking id between the read and the lock: the lock held may not be its own.
  if (before.trackingId !== first.trackingId) throw conflict(scanMessages.moved);
  // The machine answers first (a frozen row is refused before anything else is said of the edit).
  planEvent(scanRecordEntity, [before], EDIT);

  const set = { trackingId, upc, count, itemId: item ? item.id : before.itemId, itemName: item ? item.itemName : before.itemName };
  if ((Object.keys(set) as (keyof typeof set)[]).every((k) => before[k] === set[k])) return { opStatus: 'succ', msg: scanMessages.unchanged, row: before };
  // Another row of the tracking id and product (its upc however written, decision 075); rewriting
  // the row's own upc in another form of the same product moves it nowhere.
  if (trackingId !== before.trackingId || !sameProductCode(upc, before.upc)) {
    const others = await tx
      .select({ upc: scanTrackings.upc })
      .from(scanTrackings)
      .where(and(eq(scanTrackings.trackingId, trackingId), ne(scanTrackings.id, id)));
    if (others.some((o) => sameProductCode(o.upc, upc))) return { opStatus: 'failed', msg: scanMessages.upcDuplicate, row: before };
  }
  const [after] = await applyToLocked(tx, scanRecordEntity, actor, [before], EDIT, { set: { ...set, opUid: actor.id }, action: 'modify' });
  // An init row is not part of matching before or after; a seen one is matched where it was and is.
  if (isSeen(before)) await matchTrackings(tx, [before.trackingId, trackingId], actor);
  const [fresh] = await tx.select().from(scanTrackings).where(eq(scanTrackings.id, id));
  // A upc whose check digit fails is saved and flagged (decision 074).
  return {
    opStatus: 'succ',
    msg: failsCheckDigit(upc) ? `${scanMessages.saved}；${productCodeMessages.checkDigit}` : scanMessages.saved,
    row: fresh ?? after!,
  };
}
