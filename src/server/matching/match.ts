// Matching (DECISIONS "Receiving and matching"; SPEC §4 task status, scan record status): compares,
// per tracking id, what the warehouse scanned (scan_trackings: upc + count) with what members
// recorded (purchased_records of that tracking id, and the upc of each record's task), and moves
// tasks, records and scan rows accordingly. The arithmetic is allocate.ts; this module loads,
// locks, writes and audits.
//
// Entry points (all run inside the caller's transaction):
// - `matchTracking(tx, trackingId, actor)`: after anything about one tracking id changed: a scan
//   (the scan issue calls it after each scan, modify, add or upload row), a purchased record
//   change (purchased-service.ts), or the match calls. Idempotent: running it twice changes
//   nothing the second time.
// - `matchTrackings(tx, trackingIds, actor)`: the same for many tracking ids at once, each matched
//   once and each task concerned evaluated once - for uploads, which save every row first and then
//   match (matching after each row re-evaluates a task once per row: quadratic in rows per task).
// - `matchTasks(tx, taskIds, actor)`: re-runs every tracking id of the tasks and then evaluates the
//   tasks themselves (also those without any record), for the task match calls and after task
//   changes (count edit, split, delete) that change what matching concludes.
// - `lockForMatching(tx, trackingIds, taskIds)`: the locks a change followed by matching needs.
//   LOCK ORDER, followed by every caller here: first the tracking ids (transaction-scoped advisory
//   locks, sorted), then every live task with a record on them plus the tasks the caller changes,
//   all at once in id order, and only then anything else (lockTask re-locks a row already held).
//   Matching itself locks the same way, so two transactions never wait on each other in a cycle:
//   one that holds a task row without the tracking lock could deadlock with a concurrent scan of
//   the same parcel, and one that locked its own task first and the others later could deadlock
//   with a member of another task sharing two parcels. A caller that already holds the tracking
//   locks and task rows may call matching freely (the locks are re-entrant).
//   Scanning: take `lockTrackings(tx, [trackingId])` BEFORE inserting or changing scan rows of the
//   tracking id, then call matchTracking (a row changed first and locked second could deadlock with
//   a matching of the same tracking id that is updating that row). A many-row upload may take
//   lockForMatching for all its tracking ids and tasks up front, so its locks are in one order too.
//
// What it writes, for one tracking id T:
// - scan rows of T in status scan/match/unmatch: each share of a row that serves a record becomes
//   status match, tied to that record's task (userId, mainId, subId, taskId, matchedUser = the
//   member's nickName) - unmatch instead when that task's parcel disagrees; units nobody recorded
//   become status unmatch, untied. A row whose units serve two tasks is split into one row per
//   task (schema/receiving.ts: "matching records as separate rows each tied to one task"), so
//   paying one task can later mark exactly its own units wait2pay. init rows (not yet seen) and
//   wait2pay/payed rows are left alone.
// - purchased records of T whose task still accepts matching: status match (all its units
//   arrived), unmatch with a msg (fewer arrived, more arrived than recorded, a foreign item), or
//   init (nothing of T scanned yet).
// - tasks with a record on T, through applyTaskEvent with task.match (so the task machine decides
//   and the change is audited): the outcome is computed over ALL the task's tracking ids:
//     * the parcel disagrees on any of them, or more units arrived than the task's count -> unmatch
//     * every unit arrived (arrived = count) -> locked, productCount = count, canSplit false
//     * otherwise -> open with productCount = arrived units and canSplit = 0 < arrived < count.
//   An unmatch task keeps productCount and canSplit the same way (the machine lets an unmatch
//   task split off what did arrive). Tasks whose state refuses task.match (pending, locked,
//   processing, finished, closed, deleted) are left exactly as they are; their records still hold
//   their units (allocate.ts: settled records are served first).
//   A task whose status, productCount and canSplit would not change gets no event (no audit noise).
// Every change is audited in the same transaction: entity 'tracking' for scan rows, 'purchased'
// for records, 'task' (applyTaskEvent) for tasks.
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { decide } from '../../../machines/stored-state.ts';
import { explainTaskRefusal, taskMachine, type MatchOutcome } from '../../../machines/task.machine.ts';
import { writeAudit, type AuditEntry } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import type { SessionUser } from '../handlers/types.ts';
import { applyTaskEvent, taskContext, type TaskRow } from '../tasks/apply-event.ts';
import { allocate, POOL_STATUSES, problemMessage, type Allocation, type Piece, type ScanStatus } from './allocate.ts';

export type ScanRow = typeof scanTrackings.$inferSelect;
type RecordRow = typeof purchasedRecords.$inferSelect;

export interface MatchReport {
  /** The tracking ids that were matched. */
  trackingIds: string[];
  /** Every task concerned (a record on those tracking ids, or asked for), in id order. */
  taskIds: number[];
  /** The tasks whose status, productCount or canSplit this run changed. */
  changedTaskIds: number[];
}

/** Does the machine let a task in this state be matched? (open, unmatch) */
export const acceptsMatch = (row: TaskRow) => decide(taskMachine, row.status, taskContext(row), { type: 'task.match', outcome: 'open' }, explainTaskRefusal).ok;

/**
 * Takes the matching lock of each tracking id (a transaction-scoped advisory lock), in a fixed
 * order so two transactions never wait on each other. Re-entrant within a transaction. Call it
 * inside a transaction, before locking task rows.
 */
export async function lockTrackings(tx: Tx, trackingIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(trackingIds)].sort();
  // One statement per chunk, taking the locks in the array's (sorted) order.
  for (let i = 0; i < ids.length; i += LOCK_CHUNK) {
    const chunk = ids.slice(i, i + LOCK_CHUNK).map((id) => `tracking:${id}`);
    await tx.execute(
      sql`select count(pg_advisory_xact_lock(hashtextextended(u.k, 0))) from (select k from unnest(${sql.param(chunk)}::text[]) with ordinality as t(k, n) order by n) u`,
    );
  }
}

/** Tracking ids per lock statement (and per IN list): keeps statements of a large upload small. */
const LOCK_CHUNK = 1000;

interface Loaded {
  scans: ScanRow[];
  records: { record: RecordRow; task: TaskRow }[];
  allocation: Allocation;
}

/** Scan rows and live records (not of deleted tasks) of each tracking id, and their allocations: two queries per chunk. */
async function loadMany(tx: Tx, trackingIds: string[]): Promise<Map<string, Loaded>> {
  const scansOf = new Map<string, ScanRow[]>(trackingIds.map((t) => [t, []]));
  const recordsOf = new Map<string, Loaded['records']>(trackingIds.map((t) => [t, []]));
  for (let i = 0; i < trackingIds.length; i += LOCK_CHUNK) {
    const chunk = trackingIds.slice(i, i + LOCK_CHUNK);
    const scans = await tx.select().from(scanTrackings).where(inArray(scanTrackings.trackingId, chunk)).orderBy(asc(scanTrackings.id));
    for (const row of scans) scansOf.get(row.trackingId)?.push(row);
    const records = await tx
      .select({ record: purchasedRecords, task: tasks })
      .from(purchasedRecords)
      .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
      .where(and(inArray(purchasedRecords.trackingId, chunk), ne(tasks.status, 'deleted')))
      .orderBy(asc(purchasedRecords.id));
    for (const r of records) recordsOf.get(r.record.trackingId)?.push(r);
  }
  const out = new Map<string, Loaded>();
  for (const t of trackingIds) {
    const scans = scansOf.get(t)!;
    const records = recordsOf.get(t)!;
    const allocation = allocate(
      scans.map((s) => ({ id: s.id, upc: s.upc, count: s.count, status: s.status as ScanStatus, taskId: s.taskId })),
      records.map(({ record, task }) => ({ id: record.id, taskId: task.id, upc: task.upc || null, productCount: record.productCount, settled: !acceptsMatch(task) })),
    );
    out.set(t, { scans, records, allocation });
  }
  return out;
}

/** Locks the given tasks (id order, so concurrent matchings never wait on each other in a cycle). */
async function lockTaskRows(tx: Tx, ids: number[]): Promise<Map<number, TaskRow>> {
  if (!ids.length) return new Map();
  const rows = await tx.select().from(tasks).where(inArray(tasks.id, ids)).orderBy(asc(tasks.id)).for('update');
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Takes the tracking locks of `trackingIds`, then locks (FOR UPDATE, id order) every live task with a
 * record on them together with `taskIds`: the lock set of a change that is followed by matching,
 * taken before any other task lock (see the header). Call inside a transaction.
 */
export async function lockForMatching(tx: Tx, trackingIds: Iterable<string>, taskIds: number[] = []): Promise<void> {
  const ts = [...new Set(trackingIds)];
  await lockTrackings(tx, ts);
  const ids = new Set(taskIds);
  for (const list of (await tasksOnTrackings(tx, ts)).values()) for (const id of list) ids.add(id);
  await lockTaskRows(tx, [...ids].sort((a, b) => a - b));
}

async function nickNames(tx: Tx, userIds: number[]): Promise<Map<number, string>> {
  if (!userIds.length) return new Map();
  const rows = await tx.select({ id: users.id, nickName: users.nickName }).from(users).where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map((r) => [r.id, r.nickName]));
}

const scanAudit = (actor: SessionUser | null, action: string, before: ScanRow | null, after: ScanRow): AuditEntry => ({
  entity: 'tracking',
  entityId: after.id,
  action,
  opUid: actor?.id ?? null,
  userId: after.userId,
  mainId: after.mainId,
  subId: after.subId,
  taskId: after.taskId,
  upc: after.upc,
  count: after.count,
  itemName: after.itemName,
  status: after.status,
  trackingId: after.trackingId,
  before,
  after,
});

type ScanTie = Pick<ScanRow, 'status' | 'userId' | 'mainId' | 'subId' | 'taskId' | 'matchedUser'>;

/** The writes of one matching run, collected over its tracking ids and applied by flushWrites in a few statements. */
interface Writes {
  scanUpdates: { before: ScanRow; set: ScanTie & { count: number } }[];
  scanInserts: { splitFrom: number; values: typeof scanTrackings.$inferInsert }[];
  recordUpdates: { before: RecordRow; task: TaskRow; status: RecordRow['status']; msg: string; trackingId: string }[];
}

const newWrites = (): Writes => ({ scanUpdates: [], scanInserts: [], recordUpdates: [] });

/** Plans the writes of the scan rows and records of one tracking id from its allocation. */
function planTracking(loaded: Loaded, taskRows: Map<number, TaskRow>, names: Map<number, string>, w: Writes) {
  const { scans, records, allocation } = loaded;
  const recordById = new Map(records.map((r) => [r.record.id, r]));

  const desired = (p: Piece): ScanTie => {
    if (p.recordId === null) return { status: 'unmatch', userId: null, mainId: null, subId: null, taskId: null, matchedUser: null };
    const r = recordById.get(p.recordId)!;
    const task = taskRows.get(r.task.id) ?? r.task;
    const disagrees = allocation.records.get(p.recordId)!.disagrees;
    return {
      status: disagrees ? 'unmatch' : 'match',
      userId: task.userId,
      mainId: task.mainId,
      subId: task.subId,
      taskId: task.id,
      matchedUser: names.get(task.userId) ?? null,
    };
  };

  for (const row of scans) {
    if (!POOL_STATUSES.includes(row.status as ScanStatus)) continue;
    const pieces = allocation.pieces.get(row.id);
    if (!pieces?.length) continue;
    const [first, ...rest] = pieces;
    const want = { count: first!.count, ...desired(first!) };
    const same = (Object.keys(want) as (keyof typeof want)[]).every((k) => row[k] === want[k]);
    if (!same) w.scanUpdates.push({ before: row, set: want });
    for (const piece of rest) {
      w.scanInserts.push({
        splitFrom: row.id,
        values: {
          trackingId: row.trackingId,
          upc: row.upc,
          itemId: row.itemId,
          itemName: row.itemName,
          opUid: row.opUid,
          createdAt: row.createdAt,
          count: piece.count,
          ...desired(piece),
        },
      });
    }
  }

  for (const { record, task } of records) {
    const locked = taskRows.get(task.id) ?? task;
    if (!acceptsMatch(locked)) continue; // settled tasks keep their results
    const result = allocation.records.get(record.id)!;
    const msg = problemMessage(result.problem);
    if (record.status === result.status && record.msg === msg) continue;
    w.recordUpdates.push({ before: record, task: locked, status: result.status, msg, trackingId: record.trackingId });
  }
}

/** Rows per bulk statement (the array parameters of one UPDATE ... FROM unnest, or one INSERT). */
const WRITE_CHUNK = 1000;

/** Applies the planned writes (bulk statements) and audits each changed row. */
async function flushWrites(tx: Tx, w: Writes, actor: SessionUser | null) {
  const audits: AuditEntry[] = [];
  const now = new Date();
  for (let i = 0; i < w.scanUpdates.length; i += WRITE_CHUNK) {
    const chunk = w.scanUpdates.slice(i, i + WRITE_CHUNK);
    const col = <T>(f: (u: (typeof chunk)[number]) => T) => sql.param(chunk.map(f));
    await tx.execute(sql`
      update scan_trackings s set count = v.count, status = v.status::scan_status, user_id = v.user_id, main_id = v.main_id, sub_id = v.sub_id,
        task_id = v.task_id, matched_user = v.matched_user, updated_at = ${now}
      from unnest(${col((u) => u.before.id)}::int[], ${col((u) => u.set.count)}::int[], ${col((u) => u.set.status)}::text[], ${col((u) => u.set.userId)}::int[],
        ${col((u) => u.set.mainId)}::int[], ${col((u) => u.set.subId)}::int[], ${col((u) => u.set.taskId)}::int[], ${col((u) => u.set.matchedUser)}::text[])
        as v(id, count, status, user_id, main_id, sub_id, task_id, matched_user)
      where s.id = v.id`);
    for (const u of chunk) audits.push(scanAudit(actor, 'match', u.before, { ...u.before, ...u.set, updatedAt: now }));
  }
  for (let i = 0; i < w.scanInserts.length; i += WRITE_CHUNK) {
    const chunk = w.scanInserts.slice(i, i + WRITE_CHUNK);
    // A multi-row INSERT ... RETURNING answers in the order of its VALUES.
    const inserted = await tx
      .insert(scanTrackings)
      .values(chunk.map((c) => c.values))
      .returning();
    inserted.forEach((row, k) => audits.push({ ...scanAudit(actor, 'match.split', null, row), before: { splitFrom: chunk[k]!.splitFrom } }));
  }
  for (let i = 0; i < w.recordUpdates.length; i += WRITE_CHUNK) {
    const chunk = w.recordUpdates.slice(i, i + WRITE_CHUNK);
    await tx.execute(sql`
      update purchased_records p set status = v.status::purchased_status, msg = v.msg, updated_at = ${now}
      from unnest(${sql.param(chunk.map((u) => u.before.id))}::int[], ${sql.param(chunk.map((u) => u.status))}::text[], ${sql.param(chunk.map((u) => u.msg))}::text[])
        as v(id, status, msg)
      where p.id = v.id`);
    for (const { before, task, status, msg, trackingId } of chunk) {
      audits.push({
        entity: 'purchased',
        entityId: before.id,
        action: 'match',
        opUid: actor?.id ?? null,
        userId: task.userId,
        mainId: task.mainId,
        subId: task.subId,
        taskId: task.id,
        upc: task.upc,
        count: before.productCount,
        itemName: task.itemName,
        // Purchased entries carry the task's status: they are listed in the task audit, whose
        // status column and filter are task statuses (the record's own status is in before/after).
        status: task.status,
        trackingId,
        before,
        after: { ...before, status, msg, updatedAt: now },
      });
    }
  }
  await writeAudit(tx, audits);
}

export interface TaskVerdict {
  outcome: MatchOutcome;
  productCount: number;
  canSplit: boolean;
}

/** What matching concludes for one task, given the allocation of each of its tracking ids. */
export function verdictOf(task: Pick<TaskRow, 'count'>, perRecord: { arrived: number; disagrees: boolean }[]): TaskVerdict {
  const arrived = perRecord.reduce((n, r) => n + r.arrived, 0);
  const disagrees = perRecord.some((r) => r.disagrees) || arrived > task.count;
  if (!disagrees && arrived === task.count && task.count > 0) return { outcome: 'locked', productCount: task.count, canSplit: false };
  return { outcome: disagrees ? 'unmatch' : 'open', productCount: arrived, canSplit: arrived > 0 && arrived < task.count };
}

/** The allocation of each tracking id, loaded once per matching run. */
class Allocations {
  private cache = new Map<string, Loaded>();
  constructor(private tx: Tx) {}
  /** Loads the allocations of `trackingIds` in bulk: all of them (fresh) or those not loaded yet. */
  async load(trackingIds: Iterable<string>, fresh = false): Promise<void> {
    const missing = [...new Set(trackingIds)].filter((t) => fresh || !this.cache.has(t));
    if (!missing.length) return;
    for (const [t, loaded] of await loadMany(this.tx, missing)) this.cache.set(t, loaded);
  }
  async get(trackingId: string): Promise<Loaded> {
    await this.load([trackingId]);
    return this.cache.get(trackingId)!;
  }
}

/**
 * Computes and applies the verdict of each locked task that accepts matching. Returns the changed
 * ids. The allocations of every tracking id of these tasks are loaded up front (one snapshot), so
 * each verdict reads the same state whatever order the tasks are evaluated in.
 */
async function evaluate(tx: Tx, taskRows: Map<number, TaskRow>, allocations: Allocations, actor: SessionUser | null): Promise<number[]> {
  const changed: number[] = [];
  const candidates = [...taskRows.values()].filter(acceptsMatch).sort((a, b) => a.id - b.id);
  const recordsOf = new Map<number, { id: number; trackingId: string }[]>(candidates.map((t) => [t.id, []]));
  const ids = candidates.map((t) => t.id);
  for (let i = 0; i < ids.length; i += LOCK_CHUNK) {
    const rows = await tx
      .select({ id: purchasedRecords.id, taskId: purchasedRecords.taskId, trackingId: purchasedRecords.trackingId })
      .from(purchasedRecords)
      .where(inArray(purchasedRecords.taskId, ids.slice(i, i + LOCK_CHUNK)));
    for (const r of rows) recordsOf.get(r.taskId)!.push(r);
  }
  await allocations.load([...recordsOf.values()].flat().map((r) => r.trackingId));
  for (const task of candidates) {
    const perRecord: { arrived: number; disagrees: boolean }[] = [];
    for (const rec of recordsOf.get(task.id)!) {
      const result = (await allocations.get(rec.trackingId)).allocation.records.get(rec.id);
      if (result) perRecord.push(result);
    }
    const v = verdictOf(task, perRecord);
    if (task.status === v.outcome && task.productCount === v.productCount && task.canSplit === v.canSplit) continue;
    const after = await applyTaskEvent(tx, actor, task, { type: 'task.match', outcome: v.outcome }, { set: { productCount: v.productCount, canSplit: v.canSplit } });
    taskRows.set(after.id, after);
    changed.push(after.id);
  }
  return changed;
}

/** The distinct tracking ids of the given tasks' records (to lock them before locking the tasks). */
export async function trackingIdsOfTasks(tx: Tx, taskIds: number[]): Promise<string[]> {
  if (!taskIds.length) return [];
  const rows = await tx.selectDistinct({ t: purchasedRecords.trackingId }).from(purchasedRecords).where(inArray(purchasedRecords.taskId, taskIds));
  return rows.map((r) => r.t).sort();
}

/** Per tracking id, the ids of the tasks (not deleted) with a record on it. */
async function tasksOnTrackings(tx: Tx, trackingIds: string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(trackingIds.map((t) => [t, []]));
  for (let i = 0; i < trackingIds.length; i += LOCK_CHUNK) {
    const rows = await tx
      .selectDistinct({ t: purchasedRecords.trackingId, id: tasks.id })
      .from(purchasedRecords)
      .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
      .where(and(inArray(purchasedRecords.trackingId, trackingIds.slice(i, i + LOCK_CHUNK)), ne(tasks.status, 'deleted')));
    for (const r of rows) out.get(r.t)?.push(r.id);
  }
  return out;
}

async function run(tx: Tx, trackingIds: string[], extraTaskIds: number[], actor: SessionUser | null): Promise<MatchReport> {
  await lockTrackings(tx, trackingIds);
  const onTracking = await tasksOnTrackings(tx, trackingIds);
  const ids = [...new Set([...extraTaskIds, ...[...onTracking.values()].flat()])].sort((a, b) => a - b);
  const taskRows = await lockTaskRows(tx, ids);
  const allocations = new Allocations(tx);
  await allocations.load(trackingIds, true);
  const names = await nickNames(
    tx,
    [...taskRows.values()].map((t) => t.userId),
  );
  const writes = newWrites();
  for (const t of trackingIds) planTracking(await allocations.get(t), taskRows, names, writes);
  await flushWrites(tx, writes, actor);
  const changedTaskIds = await evaluate(tx, taskRows, allocations, actor);
  return { trackingIds, taskIds: ids.filter((id) => taskRows.has(id)), changedTaskIds };
}

/**
 * Matches one tracking id: divides its scanned units among the purchased records of that tracking
 * id, updates scan rows and records, and moves the tasks concerned (see the header). Call inside a
 * transaction, after the change it follows (a scan: take lockTrackings(tx, [trackingId]) before
 * writing the scan rows); `actor` is who triggered it (null: the system), recorded as opUid of the
 * audit entries. Safe to call repeatedly; the tracking id is locked for the rest of the transaction.
 * Returns the tasks concerned and those whose state it changed.
 */
export async function matchTracking(tx: Tx, trackingId: string, actor: SessionUser | null): Promise<MatchReport> {
  return run(tx, [trackingId], [], actor);
}

/**
 * Matches several tracking ids in one run (each tracking id once, each task concerned evaluated
 * once): for a many-row change such as an upload, which saves all its rows first and matches
 * afterwards instead of after every row. Same contract as matchTracking.
 */
export async function matchTrackings(tx: Tx, trackingIds: Iterable<string>, actor: SessionUser | null): Promise<MatchReport> {
  return run(tx, [...new Set(trackingIds)].sort(), [], actor);
}

/**
 * Re-matches every tracking id of the given tasks and evaluates the tasks themselves (a task with no
 * record goes back to open with nothing arrived, if its state accepts matching). Call inside a
 * transaction, either holding no task lock yet or after lockForMatching of the tasks' tracking ids.
 */
export async function matchTasks(tx: Tx, taskIds: number[], actor: SessionUser | null): Promise<MatchReport> {
  return run(tx, await trackingIdsOfTasks(tx, taskIds), taskIds, actor);
}

/**
 * Read-only: per record of the given task, what has arrived right now (for /api/task/part/match).
 */
export async function arrivalsOfTask(tx: Tx, taskId: number) {
  const own = await tx.select().from(purchasedRecords).where(eq(purchasedRecords.taskId, taskId)).orderBy(asc(purchasedRecords.id));
  const allocations = new Allocations(tx);
  const out: { record: RecordRow; arrived: number; disagrees: boolean; status: 'init' | 'match' | 'unmatch'; msg: string }[] = [];
  for (const record of own) {
    const r = (await allocations.get(record.trackingId)).allocation.records.get(record.id);
    out.push({
      record,
      arrived: r?.arrived ?? 0,
      disagrees: r?.disagrees ?? false,
      status: r?.status ?? 'init',
      msg: r ? problemMessage(r.problem) : '',
    });
  }
  return out;
}
