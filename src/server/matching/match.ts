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
  for (const id of [...new Set(trackingIds)].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tracking:${id}`}, 0))`);
  }
}

interface Loaded {
  scans: ScanRow[];
  records: { record: RecordRow; task: TaskRow }[];
  allocation: Allocation;
}

/** Scan rows and live records (not of deleted tasks) of one tracking id, and their allocation. */
async function load(tx: Tx, trackingId: string): Promise<Loaded> {
  const scans = await tx.select().from(scanTrackings).where(eq(scanTrackings.trackingId, trackingId)).orderBy(asc(scanTrackings.id));
  const records = await tx
    .select({ record: purchasedRecords, task: tasks })
    .from(purchasedRecords)
    .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
    .where(and(eq(purchasedRecords.trackingId, trackingId), ne(tasks.status, 'deleted')))
    .orderBy(asc(purchasedRecords.id));
  const allocation = allocate(
    scans.map((s) => ({ id: s.id, upc: s.upc, count: s.count, status: s.status as ScanStatus, taskId: s.taskId })),
    records.map(({ record, task }) => ({ id: record.id, taskId: task.id, upc: task.upc || null, productCount: record.productCount, settled: !acceptsMatch(task) })),
  );
  return { scans, records, allocation };
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
  for (const t of ts) for (const id of await tasksOnTracking(tx, t)) ids.add(id);
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

/** Writes the scan rows and records of one tracking id from its allocation. */
async function writeTracking(tx: Tx, trackingId: string, loaded: Loaded, taskRows: Map<number, TaskRow>, actor: SessionUser | null) {
  const { scans, records, allocation } = loaded;
  const recordById = new Map(records.map((r) => [r.record.id, r]));
  const names = await nickNames(
    tx,
    [...taskRows.values()].map((t) => t.userId),
  );
  const audits: AuditEntry[] = [];

  const desired = (p: Piece) => {
    if (p.recordId === null) return { status: 'unmatch' as const, userId: null, mainId: null, subId: null, taskId: null, matchedUser: null };
    const r = recordById.get(p.recordId)!;
    const task = taskRows.get(r.task.id) ?? r.task;
    const disagrees = allocation.records.get(p.recordId)!.disagrees;
    return {
      status: disagrees ? ('unmatch' as const) : ('match' as const),
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
    if (!same) {
      const [after] = await tx.update(scanTrackings).set(want).where(eq(scanTrackings.id, row.id)).returning();
      audits.push(scanAudit(actor, 'match', row, after!));
    }
    for (const piece of rest) {
      const [inserted] = await tx
        .insert(scanTrackings)
        .values({
          trackingId: row.trackingId,
          upc: row.upc,
          itemId: row.itemId,
          itemName: row.itemName,
          opUid: row.opUid,
          createdAt: row.createdAt,
          count: piece.count,
          ...desired(piece),
        })
        .returning();
      audits.push({ ...scanAudit(actor, 'match.split', null, inserted!), before: { splitFrom: row.id } });
    }
  }

  for (const { record, task } of records) {
    const locked = taskRows.get(task.id) ?? task;
    if (!acceptsMatch(locked)) continue; // settled tasks keep their records' results
    const result = allocation.records.get(record.id)!;
    const msg = problemMessage(result.problem);
    if (record.status === result.status && record.msg === msg) continue;
    const [after] = await tx.update(purchasedRecords).set({ status: result.status, msg }).where(eq(purchasedRecords.id, record.id)).returning();
    audits.push({
      entity: 'purchased',
      entityId: record.id,
      action: 'match',
      opUid: actor?.id ?? null,
      userId: locked.userId,
      mainId: locked.mainId,
      subId: locked.subId,
      taskId: locked.id,
      upc: locked.upc,
      count: record.productCount,
      itemName: locked.itemName,
      // Purchased entries carry the task's status: they are listed in the task audit, whose
      // status column and filter are task statuses (the record's own status is in before/after).
      status: locked.status,
      trackingId,
      before: record,
      after,
    });
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
  private cache = new Map<string, Promise<Loaded>>();
  constructor(private tx: Tx) {}
  get(trackingId: string, fresh = false): Promise<Loaded> {
    if (fresh) this.cache.delete(trackingId);
    let p = this.cache.get(trackingId);
    if (!p) {
      p = load(this.tx, trackingId);
      this.cache.set(trackingId, p);
    }
    return p;
  }
}

/** Computes and applies the verdict of each locked task that accepts matching. Returns the changed ids. */
async function evaluate(tx: Tx, taskRows: Map<number, TaskRow>, allocations: Allocations, actor: SessionUser | null): Promise<number[]> {
  const changed: number[] = [];
  for (const task of [...taskRows.values()].sort((a, b) => a.id - b.id)) {
    if (!acceptsMatch(task)) continue;
    const own = await tx.select({ id: purchasedRecords.id, trackingId: purchasedRecords.trackingId }).from(purchasedRecords).where(eq(purchasedRecords.taskId, task.id));
    const perRecord: { arrived: number; disagrees: boolean }[] = [];
    for (const rec of own) {
      const result = (await allocations.get(rec.trackingId)).allocation.records.get(rec.id);
      if (result) perRecord.push(result);
    }
    const v = verdictOf(task, perRecord);
    const nextStatus = v.outcome;
    if (task.status === nextStatus && task.productCount === v.productCount && task.canSplit === v.canSplit) continue;
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

/** Ids of the tasks (not deleted) with a record on the tracking id. */
async function tasksOnTracking(tx: Tx, trackingId: string): Promise<number[]> {
  const rows = await tx
    .selectDistinct({ id: tasks.id })
    .from(purchasedRecords)
    .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
    .where(and(eq(purchasedRecords.trackingId, trackingId), ne(tasks.status, 'deleted')));
  return rows.map((r) => r.id);
}

async function run(tx: Tx, trackingIds: string[], extraTaskIds: number[], actor: SessionUser | null): Promise<MatchReport> {
  await lockTrackings(tx, trackingIds);
  const onTracking = new Map<string, number[]>();
  for (const t of trackingIds) onTracking.set(t, await tasksOnTracking(tx, t));
  const ids = [...new Set([...extraTaskIds, ...[...onTracking.values()].flat()])].sort((a, b) => a - b);
  const taskRows = await lockTaskRows(tx, ids);
  const allocations = new Allocations(tx);
  for (const t of trackingIds) {
    const loaded = await allocations.get(t, true);
    await writeTracking(tx, t, loaded, taskRows, actor);
  }
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
