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
//   The tracking locks are two-level: every caller first takes one shared "all trackings" lock and
//   then an exclusive lock per tracking id, except a change of more than BULK_LOCK_THRESHOLD
//   tracking ids (a large upload), which takes the "all trackings" lock exclusively instead. A
//   PostgreSQL server keeps advisory locks in its shared lock table (max_locks_per_transaction x
//   max_connections, about 6,400 by default): one lock per tracking id of a 50,000-row file would
//   fail with "out of shared memory". A large upload therefore waits for the scans in progress and
//   holds the scanning of other parcels off until it commits; the lock order is unchanged (the
//   all-trackings lock comes first), and a transaction takes its largest set first (an upload
//   locks the whole file before matching any part of it), so it never upgrades a shared lock.
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
// - tasks with a record on T, through applyMatchEvents (task.match, the bulk form of
//   applyTaskEvent: the task machine decides each one and the change is audited):
//   the outcome is computed over ALL the task's tracking ids:
//     * the parcel disagrees on any of them, or more units arrived than the task's count -> unmatch
//     * every unit arrived (arrived = count) -> locked, productCount = count, canSplit false
//     * otherwise -> open with productCount = arrived units and canSplit = 0 < arrived < count.
//   An unmatch task keeps productCount and canSplit the same way (the machine lets an unmatch
//   task split off what did arrive). Tasks whose state refuses task.match (pending, locked,
//   processing, finished, closed, deleted) are left exactly as they are; their records still hold
//   their units (allocate.ts: settled records are served first).
//   A task whose status, productCount and canSplit would not change gets no event (no audit noise).
// Every change is audited in the same transaction: entity 'tracking' for scan rows, 'purchased'
// for records, 'task' (applyMatchEvents) for tasks; a run writes all its entries in one statement.
import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { decide } from '../../../machines/stored-state.ts';
import { explainTaskRefusal, taskMachine, type MatchOutcome } from '../../../machines/task.machine.ts';
import { writeAudit, type AuditEntry } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import type { SessionUser } from '../handlers/types.ts';
import { insertScanRows, rowsOfTrackings, type NewScanRow, type ScanRow } from '../receiving/scan-rows.ts';
import { applyMatchEvents, taskContext, type TaskRow } from '../tasks/apply-event.ts';
import { allocate, POOL_STATUSES, problemMessage, type Allocation, type Piece, type ScanStatus } from './allocate.ts';

export type { ScanRow };
type RecordRow = typeof purchasedRecords.$inferSelect;

export interface MatchReport {
  /** The tracking ids that were matched. */
  trackingIds: string[];
  /** Every task concerned (a record on those tracking ids, or asked for), in id order. */
  taskIds: number[];
  /** The tasks whose status, productCount or canSplit this run changed. */
  changedTaskIds: number[];
}

/** Does the machine let a task in this state be matched? (open, unmatch) Asked once per state: matching an upload asks it for every record. */
export function acceptsMatch(row: TaskRow): boolean {
  const key = `${row.status}|${row.productCount}|${row.canSplit}`;
  let ok = acceptsCache.get(key);
  if (ok === undefined) {
    ok = decide(taskMachine, row.status, taskContext(row), { type: 'task.match', outcome: 'open' }, explainTaskRefusal).ok;
    if (acceptsCache.size < 10_000) acceptsCache.set(key, ok);
  }
  return ok;
}
const acceptsCache = new Map<string, boolean>();

/** `column = any(values)`: one array parameter instead of one per value (the long lists of an upload). */
const anyText = (column: AnyPgColumn, values: string[]): SQL => sql`${column} = any(${sql.param(values)}::text[])`;
const anyInt = (column: AnyPgColumn, values: number[]): SQL => sql`${column} = any(${sql.param(values)}::int[])`;

/**
 * Takes the matching lock of each tracking id (a transaction-scoped advisory lock), in a fixed
 * order so two transactions never wait on each other. Re-entrant within a transaction. Call it
 * inside a transaction, before locking task rows.
 */
export async function lockTrackings(tx: Tx, trackingIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(trackingIds)].sort();
  if (!ids.length) return;
  // Locks this transaction already holds are not asked for again (a scan locks its tracking id and
  // then matches it). Only a real transaction is remembered: the locks last as long as it does.
  const held = tx instanceof PgTransaction ? (heldLocks.get(tx) ?? { all: null, ids: new Set<string>() }) : null;
  if (held) heldLocks.set(tx, held);
  if (held?.all === 'exclusive') return;
  if (ids.length > BULK_LOCK_THRESHOLD) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${ALL_TRACKINGS}, 0))`);
    if (held) held.all = 'exclusive';
    return;
  }
  const todo = held ? ids.filter((id) => !held.ids.has(id)) : ids;
  // One statement per chunk, taking the locks in the array's order: the shared all-trackings lock
  // first (unless held), then the tracking ids, sorted.
  for (let i = 0; i < todo.length; i += LOCK_CHUNK) {
    const shared = i === 0 && held?.all !== 'shared';
    const keys = [...(shared ? [ALL_TRACKINGS] : []), ...todo.slice(i, i + LOCK_CHUNK).map((id) => `tracking:${id}`)];
    await tx.execute(
      sql`select count(case when u.n = 1 and ${shared} then pg_advisory_xact_lock_shared(hashtextextended(u.k, 0)) else pg_advisory_xact_lock(hashtextextended(u.k, 0)) end)
        from (select k, n from unnest(${sql.param(keys)}::text[]) with ordinality as t(k, n) order by n) u`,
    );
    if (held) held.all = 'shared';
  }
  if (held) for (const id of todo) held.ids.add(id);
}

/** The tracking locks each open transaction holds (see lockTrackings). */
const heldLocks = new WeakMap<object, { all: 'shared' | 'exclusive' | null; ids: Set<string> }>();

/** Tracking ids per lock statement: keeps statements of a large upload small. */
const LOCK_CHUNK = 1000;

/** Values per read (one array parameter, `= any($1)`). */
const READ_CHUNK = 5000;

/** matchTrackings matches at most this many tracking ids per run (memory; see there). */
export const MATCH_CHUNK = 5000;

/** Above this many tracking ids, one exclusive lock of all tracking ids replaces the per-id locks (see the header). */
export const BULK_LOCK_THRESHOLD = 2000;

/** The key of the all-trackings lock; per-id keys are `tracking:<id>`, so no tracking id yields it. */
const ALL_TRACKINGS = 'trackings:all';

interface Loaded {
  scans: ScanRow[];
  records: { record: RecordRow; task: TaskRow }[];
  allocation: Allocation;
}

/** What the change being matched does to an imported (init) row it sees: see class Seen. */
export interface SeenChange {
  /** The units seen. */
  count: number;
  /** The audit action of the change ('upload.confirm', 'scan', 'add'). */
  action: string;
  /** Who saw it. */
  opUid: number | null;
  /** The item scanned, where the change names one (a scan does; a confirm keeps the imported item). */
  item?: { id: number; itemName: string };
}

/**
 * Imported rows (init) that the change being matched has just seen (the tracking upload's confirm,
 * a scan of an announced parcel): matching reads them as seen (status scan, the count seen, who saw
 * it, the item scanned) and writes each one once, in its final state, audited with the change's
 * action and the init row as before - instead of the caller writing 'scan' and matching writing the
 * result over it (twice the writes and audit entries).
 */
export class Seen {
  readonly originals = new Map<number, ScanRow>();
  constructor(private changes: ReadonlyMap<number, SeenChange>) {}
  apply(row: ScanRow): ScanRow {
    const c = this.changes.get(row.id);
    if (!c || row.status !== 'init') return row;
    this.originals.set(row.id, row);
    return { ...row, status: 'scan', count: c.count, opUid: c.opUid, ...(c.item && { itemId: c.item.id, itemName: c.item.itemName }) };
  }
  actionOf(id: number): string {
    return this.changes.get(id)!.action;
  }
}

/**
 * Scan rows a scan call is adding (receiving/scan-service.ts runScanJobs): not inserted yet, they
 * are matched under stand-in ids (above every real id, so in the order they will be inserted, after
 * the tracking id's existing rows) and inserted once, in their final state - instead of inserted in
 * status scan and updated by matching at once (twice the writes, index entries and audit entries of
 * every scan). A row that matching divides between tasks is inserted as one row per task. Each
 * inserted row is audited with its scan's action and no before.
 */
export class FreshScans {
  private static readonly FIRST_ID = 2 ** 40;
  /** The stand-in rows by id, with the action of the scan that adds each. */
  private rows = new Map<number, { row: ScanRow; action: string }>();
  /** A stand-in row for `values` (status scan), to be handed to matching with the tracking id's rows. */
  add(values: Omit<ScanRow, 'id' | 'createdAt' | 'updatedAt' | 'status' | 'matchedUser' | 'userId' | 'mainId' | 'subId' | 'taskId'>, action: string, now: Date): ScanRow {
    const id = FreshScans.FIRST_ID + this.rows.size;
    const row: ScanRow = { ...values, id, status: 'scan', matchedUser: null, userId: null, mainId: null, subId: null, taskId: null, createdAt: now, updatedAt: now };
    this.rows.set(id, { row, action });
    return row;
  }
  /** The action of a stand-in id, or undefined for a real row. */
  actionOf(id: number): string | undefined {
    return this.rows.get(id)?.action;
  }
  /** The stand-in rows, in the order they were added. */
  get all(): ScanRow[] {
    return [...this.rows.values()].map((r) => r.row);
  }
}

/** The live records (not of deleted tasks) of each tracking id with their tasks, oldest record first. */
async function recordsOn(tx: Tx, trackingIds: string[]): Promise<Map<string, Loaded['records']>> {
  const out = new Map<string, Loaded['records']>(trackingIds.map((t) => [t, []]));
  for (let i = 0; i < trackingIds.length; i += READ_CHUNK) {
    const records = await tx
      .select({ record: purchasedRecords, task: tasks })
      .from(purchasedRecords)
      .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
      .where(and(anyText(purchasedRecords.trackingId, trackingIds.slice(i, i + READ_CHUNK)), ne(tasks.status, 'deleted')))
      .orderBy(asc(purchasedRecords.id));
    for (const r of records) out.get(r.record.trackingId)?.push(r);
  }
  return out;
}

/**
 * Scan rows and live records of each tracking id, and their allocations: one or two queries per
 * chunk. `preloaded`: the records, when the caller has read them already (run() reads them to know
 * which tasks to lock).
 */
async function loadMany(
  tx: Tx,
  trackingIds: string[],
  preloaded?: Map<string, Loaded['records']>,
  seen?: Seen,
  known?: ReadonlyMap<string, ScanRow[]>,
): Promise<Map<string, Loaded>> {
  const scansOf = new Map<string, ScanRow[]>(trackingIds.map((t) => [t, (known?.get(t) ?? []).map((r) => (seen ? seen.apply(r) : r)).sort((a, b) => a.id - b.id)]));
  const toRead = known ? trackingIds.filter((t) => !known.has(t)) : trackingIds;
  for (const [t, rows] of await rowsOfTrackings(tx, toRead)) scansOf.get(t)!.push(...(seen ? rows.map((r) => seen.apply(r)) : rows));
  const recordsOf = preloaded ?? (await recordsOn(tx, trackingIds));
  const out = new Map<string, Loaded>();
  for (const t of trackingIds) {
    const scans = scansOf.get(t)!;
    const records = recordsOf.get(t) ?? [];
    const allocation = allocate(
      scans.map((s) => ({ id: s.id, upc: s.upc, count: s.count, status: s.status as ScanStatus, taskId: s.taskId })),
      records.map(({ record, task }) => ({ id: record.id, taskId: task.id, upc: task.upc || null, productCount: record.productCount, settled: !acceptsMatch(task) })),
    );
    out.set(t, { scans, records, allocation });
  }
  return out;
}

/**
 * Locks the given tasks (id order, so concurrent matchings never wait on each other in a cycle).
 * Answers them, and their members' nicknames (what matched scan rows show as matchedUser).
 */
async function lockTaskRows(tx: Tx, ids: number[]): Promise<{ taskRows: Map<number, TaskRow>; names: Map<number, string> }> {
  if (!ids.length) return { taskRows: new Map(), names: new Map() };
  const rows = await tx
    .select({ task: tasks, nickName: users.nickName })
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.userId))
    .where(anyInt(tasks.id, ids))
    .orderBy(asc(tasks.id))
    .for('update', { of: tasks });
  return { taskRows: new Map(rows.map((r) => [r.task.id, r.task])), names: new Map(rows.map((r) => [r.task.userId, r.nickName])) };
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

/** The audit entry of a scan row change (entity 'tracking'): the row's columns after, and before/after whole. */
export const scanAudit = (actor: SessionUser | null, action: string, before: ScanRow | null, after: ScanRow): AuditEntry => ({
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
  scanUpdates: { before: ScanRow; set: ScanTie & { count: number; opUid?: number | null } }[];
  scanInserts: { splitFrom: number; values: Omit<NewScanRow, 'updatedAt'> }[];
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
    const want: Writes['scanUpdates'][number]['set'] = { count: first!.count, ...desired(first!) };
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

/** Rows per UPDATE ... FROM unnest (one array parameter per column). */
const UNNEST_CHUNK = 5000;

/** Applies the planned writes (bulk statements); answers what it wrote and the audit entries of each changed row, for the run to write. */
async function flushWrites(tx: Tx, w: Writes, actorOf: ActorOf, seen?: Seen, fresh?: FreshScans) {
  const audits: AuditEntry[] = [];
  const now = new Date();
  const written = { updated: new Map<number, ScanRow>(), inserted: [] as ScanRow[], fresh: new Map<number, ScanRow>() };
  // Fresh rows (see FreshScans) are inserted in their final state: what matching planned for them
  // (the first share, and one more row per further share), or as they came where it changed nothing.
  const freshInserts: { freshId: number; values: NewScanRow }[] = [];
  if (fresh) {
    const isFresh = (id: number) => fresh.actionOf(id) !== undefined;
    const planned = new Map(w.scanUpdates.filter((u) => isFresh(u.before.id)).map((u) => [u.before.id, u]));
    w.scanUpdates = w.scanUpdates.filter((u) => !planned.has(u.before.id));
    const splits = new Map<number, Writes['scanInserts']>();
    for (const i of w.scanInserts) if (isFresh(i.splitFrom)) splits.set(i.splitFrom, [...(splits.get(i.splitFrom) ?? []), i]);
    w.scanInserts = w.scanInserts.filter((i) => !isFresh(i.splitFrom));
    for (const row of fresh.all) {
      const { id, ...values } = { ...row, ...planned.get(row.id)?.set };
      freshInserts.push({ freshId: id, values });
      for (const split of splits.get(id) ?? []) freshInserts.push({ freshId: id, values: { ...split.values, updatedAt: now } });
    }
  }
  if (freshInserts.length) {
    const inserted = await insertScanRows(
      tx,
      freshInserts.map((c) => c.values),
    );
    inserted.forEach((row, k) => {
      const { freshId } = freshInserts[k]!;
      audits.push(scanAudit(actorOf(row.trackingId), fresh!.actionOf(freshId)!, null, row));
      if (!written.fresh.has(freshId)) written.fresh.set(freshId, row);
      else written.inserted.push(row);
    });
  }
  // A seen row is written even where matching leaves it as the change made it. (At this point the
  // run has read only its own tracking ids: rows of other tracking ids are read later, to judge
  // tasks, and are written by the run of their own slice; see matchTrackings.)
  if (seen) {
    const planned = new Set(w.scanUpdates.map((u) => u.before.id));
    for (const original of seen.originals.values()) {
      if (planned.has(original.id)) continue;
      const row = seen.apply(original);
      w.scanUpdates.push({ before: row, set: { count: row.count, status: row.status, userId: row.userId, mainId: row.mainId, subId: row.subId, taskId: row.taskId, matchedUser: row.matchedUser } });
    }
  }
  for (let i = 0; i < w.scanUpdates.length; i += UNNEST_CHUNK) {
    const chunk = w.scanUpdates.slice(i, i + UNNEST_CHUNK);
    const col = <T>(f: (u: (typeof chunk)[number]) => T) => sql.param(chunk.map(f));
    await tx.execute(sql`
      update scan_trackings s set count = v.count, status = v.status::scan_status, user_id = v.user_id, main_id = v.main_id, sub_id = v.sub_id,
        task_id = v.task_id, matched_user = v.matched_user, op_uid = v.op_uid, item_id = v.item_id, item_name = v.item_name, updated_at = ${now}
      from unnest(${col((u) => u.before.id)}::int[], ${col((u) => u.set.count)}::int[], ${col((u) => u.set.status)}::text[], ${col((u) => u.set.userId)}::int[],
        ${col((u) => u.set.mainId)}::int[], ${col((u) => u.set.subId)}::int[], ${col((u) => u.set.taskId)}::int[], ${col((u) => u.set.matchedUser)}::text[],
        ${col((u) => u.before.opUid)}::int[], ${col((u) => u.before.itemId)}::int[], ${col((u) => u.before.itemName)}::text[])
        as v(id, count, status, user_id, main_id, sub_id, task_id, matched_user, op_uid, item_id, item_name)
      where s.id = v.id`);
    for (const u of chunk) {
      const after = { ...u.before, ...u.set, updatedAt: now };
      written.updated.set(after.id, after);
      const original = seen?.originals.get(u.before.id);
      const actor = actorOf(after.trackingId);
      audits.push(original ? scanAudit(actor, seen!.actionOf(original.id), original, after) : scanAudit(actor, 'match', u.before, after));
    }
  }
  if (w.scanInserts.length) {
    const inserted = await insertScanRows(
      tx,
      w.scanInserts.map((c) => ({ ...c.values, updatedAt: now })),
    );
    inserted.forEach((row, k) => audits.push({ ...scanAudit(actorOf(row.trackingId), 'match.split', null, row), before: { splitFrom: w.scanInserts[k]!.splitFrom } }));
    written.inserted.push(...inserted);
  }
  for (let i = 0; i < w.recordUpdates.length; i += UNNEST_CHUNK) {
    const chunk = w.recordUpdates.slice(i, i + UNNEST_CHUNK);
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
        opUid: actorOf(trackingId)?.id ?? null,
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
  return { ...written, audits };
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
  constructor(
    private tx: Tx,
    private seen?: Seen,
    private known?: ReadonlyMap<string, ScanRow[]>,
  ) {}
  /** Loads the allocations of `trackingIds` in bulk: all of them (fresh) or those not loaded yet (`preloaded`: see loadMany). */
  async load(trackingIds: Iterable<string>, fresh = false, preloaded?: Map<string, Loaded['records']>): Promise<void> {
    const missing = [...new Set(trackingIds)].filter((t) => fresh || !this.cache.has(t));
    if (!missing.length) return;
    for (const [t, loaded] of await loadMany(this.tx, missing, preloaded, this.seen, this.known)) this.cache.set(t, loaded);
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
async function evaluate(
  tx: Tx,
  taskRows: Map<number, TaskRow>,
  allocations: Allocations,
  actorOfTask: (trackingIds: string[]) => SessionUser | null,
  audits: AuditEntry[],
): Promise<number[]> {
  const changed: number[] = [];
  const candidates = [...taskRows.values()].filter(acceptsMatch).sort((a, b) => a.id - b.id);
  const recordsOf = new Map<number, { id: number; trackingId: string }[]>(candidates.map((t) => [t.id, []]));
  const ids = candidates.map((t) => t.id);
  for (let i = 0; i < ids.length; i += READ_CHUNK) {
    const rows = await tx
      .select({ id: purchasedRecords.id, taskId: purchasedRecords.taskId, trackingId: purchasedRecords.trackingId })
      .from(purchasedRecords)
      .where(anyInt(purchasedRecords.taskId, ids.slice(i, i + READ_CHUNK)))
      .orderBy(asc(purchasedRecords.id));
    for (const r of rows) recordsOf.get(r.taskId)!.push(r);
  }
  await allocations.load([...recordsOf.values()].flat().map((r) => r.trackingId));
  const moves: Parameters<typeof applyMatchEvents>[1] = [];
  for (const task of candidates) {
    const perRecord: { arrived: number; disagrees: boolean }[] = [];
    for (const rec of recordsOf.get(task.id)!) {
      const result = (await allocations.get(rec.trackingId)).allocation.records.get(rec.id);
      if (result) perRecord.push(result);
    }
    const v = verdictOf(task, perRecord);
    if (task.status === v.outcome && task.productCount === v.productCount && task.canSplit === v.canSplit) continue;
    moves.push({ row: task, ...v, actor: actorOfTask(recordsOf.get(task.id)!.map((r) => r.trackingId)) });
  }
  // Each change is attributed to whoever caused it (one actor, except in a batch of scans by several
  // clerks: see RunOptions.actors). The task machine decides each one (applyMatchEvents); the audit
  // entries join the run's.
  const afters = await applyMatchEvents(tx, moves, audits);
  for (const after of afters) {
    taskRows.set(after.id, after);
    changed.push(after.id);
  }
  return changed;
}

/** The distinct tracking ids of the given tasks' records (to lock them before locking the tasks). */
export async function trackingIdsOfTasks(tx: Tx, taskIds: number[]): Promise<string[]> {
  if (!taskIds.length) return [];
  const rows = await tx.selectDistinct({ t: purchasedRecords.trackingId }).from(purchasedRecords).where(anyInt(purchasedRecords.taskId, taskIds));
  return rows.map((r) => r.t).sort();
}

/** Per tracking id, the ids of the tasks (not deleted) with a record on it. */
async function tasksOnTrackings(tx: Tx, trackingIds: string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(trackingIds.map((t) => [t, []]));
  for (let i = 0; i < trackingIds.length; i += READ_CHUNK) {
    const rows = await tx
      .selectDistinct({ t: purchasedRecords.trackingId, id: tasks.id })
      .from(purchasedRecords)
      .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
      .where(and(anyText(purchasedRecords.trackingId, trackingIds.slice(i, i + READ_CHUNK)), ne(tasks.status, 'deleted')));
    for (const r of rows) out.get(r.t)?.push(r.id);
  }
  return out;
}

interface RunOptions {
  seen?: Seen;
  /** Every scan row of some of the tracking ids, as the caller holds them under their locks (not read again). */
  known?: ReadonlyMap<string, ScanRow[]>;
  /** Rows of `known` that are not inserted yet (see FreshScans). */
  fresh?: FreshScans;
  /**
   * Who changed each tracking id, where it is not the run's actor (a batch of scans by several
   * clerks, receiving/scan-batcher.ts): the tracking id's scan rows and records are audited as theirs,
   * and a task's change as the first of its tracking ids' (by record id) that has one.
   */
  actors?: ReadonlyMap<string, SessionUser>;
}

/** Who a change of a tracking id is attributed to (opUid of its audit entries; null: the system). */
type ActorOf = (trackingId: string) => SessionUser | null;

async function run(tx: Tx, trackingIds: string[], extraTaskIds: number[], actor: SessionUser | null, opts: RunOptions = {}): Promise<{ report: MatchReport; rows: Map<string, ScanRow[]> }> {
  const { seen } = opts;
  const actorOf: ActorOf = (t) => opts.actors?.get(t) ?? actor;
  const actorOfTask = (ts: string[]) => ts.map((t) => opts.actors?.get(t)).find(Boolean) ?? actor;
  await lockTrackings(tx, trackingIds);
  // The records are read once, before their tasks are locked: under the tracking locks no record of
  // these tracking ids can change, and each record is then paired with its task as locked (a task
  // deleted in between drops out, as a deleted task's records always do).
  const read = await recordsOn(tx, trackingIds);
  const ids = [...new Set([...extraTaskIds, ...[...read.values()].flatMap((list) => list.map((r) => r.task.id))])].sort((a, b) => a - b);
  const { taskRows, names } = await lockTaskRows(tx, ids);
  const records = new Map<string, Loaded['records']>();
  for (const [t, list] of read) {
    records.set(
      t,
      list.flatMap(({ record, task }) => {
        const locked = taskRows.get(task.id);
        return locked && locked.status !== 'deleted' ? [{ record, task: locked }] : [];
      }),
    );
  }
  const allocations = new Allocations(tx, seen, opts.known);
  await allocations.load(trackingIds, true, records);
  const writes = newWrites();
  for (const t of trackingIds) planTracking(await allocations.get(t), taskRows, names, writes);
  const written = await flushWrites(tx, writes, actorOf, seen, opts.fresh);
  const changedTaskIds = await evaluate(tx, taskRows, allocations, actorOfTask, written.audits);
  // Every change of the run is audited in one statement.
  await writeAudit(tx, written.audits);
  // The rows after matching, of the tracking ids the caller knew (it asks for them): what was
  // loaded, with matching's own writes applied.
  const rows = new Map<string, ScanRow[]>();
  for (const t of opts.known?.keys() ?? []) {
    const list = (await allocations.get(t)).scans.map((r) => written.updated.get(r.id) ?? written.fresh.get(r.id) ?? r);
    list.push(...written.inserted.filter((r) => r.trackingId === t));
    rows.set(
      t,
      list.sort((a, b) => a.id - b.id),
    );
  }
  return { report: { trackingIds, taskIds: ids.filter((id) => taskRows.has(id)), changedTaskIds }, rows };
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
  return (await run(tx, [trackingId], [], actor)).report;
}

/**
 * matchTracking for the scan calls (receiving/scan-service.ts), which hold the tracking locks and
 * every row of their tracking ids already: `known` is all of them per tracking id, read under the
 * lock, plus the new rows (`fresh`: inserted by matching in their final state); `seen` holds the
 * announced rows the scans saw (written by matching in their final state); `actors` who scanned
 * each tracking id (a batch of scans by several clerks is matched in one run). Every row is written
 * and audited once, as stored. Answers the rows of each tracking id after matching as well, without
 * reading them again (each round trip saved counts).
 */
export async function matchScannedTrackings(
  tx: Tx,
  known: ReadonlyMap<string, ScanRow[]>,
  actors: ReadonlyMap<string, SessionUser>,
  fresh: FreshScans,
  seen: Seen,
): Promise<{ report: MatchReport; rows: Map<string, ScanRow[]> }> {
  return run(tx, [...known.keys()].sort(), [], null, { known, actors, fresh, seen });
}

/**
 * Matches several tracking ids in one run (each tracking id once, each task concerned evaluated
 * once): for a many-row change such as an upload, which saves all its rows first and matches
 * afterwards instead of after every row. Same contract as matchTracking.
 *
 * `seen` (the tracking upload's confirm): imported rows (init, by id) that this change sees, with
 * their confirmed count. They are matched as status scan with that count and written once in their
 * final state, audited as `seen.action` with the init row as before (see class Seen); the caller
 * does not write them itself. Their tracking ids must be among `trackingIds`.
 */
export async function matchTrackings(
  tx: Tx,
  trackingIds: Iterable<string>,
  actor: SessionUser | null,
  seen?: { counts: ReadonlyMap<number, number>; action: string },
  chunk = MATCH_CHUNK,
): Promise<MatchReport> {
  const ids = [...new Set(trackingIds)].sort();
  // One Seen per run: it remembers the rows it made seen, and its run writes them all; a Seen shared
  // by the slices would make a slice write rows of a later slice read only to judge a task.
  const changes = seen && new Map([...seen.counts].map(([id, count]) => [id, { count, action: seen.action, opUid: actor?.id ?? null }]));
  const seenRows = () => changes && new Seen(changes);
  if (ids.length <= chunk) return (await run(tx, ids, [], actor, { seen: seenRows() })).report;
  // A large file is matched a slice of tracking ids at a time, so what one run holds in memory (scan
  // rows, records, tasks, audit entries) is a slice's, not the file's: a 50,000-row confirm stays
  // within the server's memory budget (issue 5). The result is the same as one run: a task whose
  // records lie on tracking ids of several slices is judged on the allocations of all of them (the
  // other slices' tracking ids are read with the same rows and the same `seen` counts), so its
  // verdict is final the first time and unchanged the next. Locks are taken in the same order
  // (tracking ids ascending, then each slice's tasks); uploads hold the whole file's tracking locks
  // before matching.
  const report: MatchReport = { trackingIds: ids, taskIds: [], changedTaskIds: [] };
  for (let i = 0; i < ids.length; i += chunk) {
    const part = (await run(tx, ids.slice(i, i + chunk), [], actor, { seen: seenRows() })).report;
    report.taskIds.push(...part.taskIds);
    report.changedTaskIds.push(...part.changedTaskIds);
  }
  report.taskIds = [...new Set(report.taskIds)].sort((a, b) => a - b);
  report.changedTaskIds = [...new Set(report.changedTaskIds)];
  return report;
}

/**
 * Re-matches every tracking id of the given tasks and evaluates the tasks themselves (a task with no
 * record goes back to open with nothing arrived, if its state accepts matching). Call inside a
 * transaction, either holding no task lock yet or after lockForMatching of the tasks' tracking ids.
 */
export async function matchTasks(tx: Tx, taskIds: number[], actor: SessionUser | null): Promise<MatchReport> {
  return (await run(tx, await trackingIdsOfTasks(tx, taskIds), taskIds, actor)).report;
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
