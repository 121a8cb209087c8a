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
//   member's nickName); units no record took (another product, or more than recorded) become
//   status unmatch, untied - the admin's queue (allocate.ts pieceStatus, decision 090). A row whose units serve two tasks is split into one row per
//   task (schema/receiving.ts: "matching records as separate rows each tied to one task"), so
//   paying one task can later mark exactly its own units wait2pay. init rows (not yet seen) and
//   wait2pay/payed rows are left alone.
// - purchased records of T whose task still accepts matching: status match (all its units
//   arrived), unmatch with a msg (fewer arrived, fewer because earlier records took the parcel's
//   units, more arrived than recorded), or init (nothing of T scanned yet).
// - tasks with a record on T, through planMatchEvents (task.match, the bulk form of
//   applyTaskEvent: the task machine decides each one and the change is audited):
//   the outcome is the task machine's matchVerdict over the units tied to the task on ALL its
//   tracking ids (each record capped by what the task's count leaves it: allocate.ts recordCaps). Tasks whose state refuses task.match (pending, locked,
//   processing, finished, closed, deleted) are left exactly as they are; their records still hold
//   their units (allocate.ts: settled records are served first).
//   A task whose status, productCount and canSplit would not change gets no event (no audit noise).
// Every change is audited in the same transaction: entity 'tracking' for scan rows, 'purchased'
// for records, 'task' (planMatchEvents) for tasks. A run reads in one statement (readForMatching) and
// writes every change and audit entry in one (db/together.ts; see README Decisions, Matching's statements).
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { matchVerdict } from '../../../machines/task.machine.ts';
import { auditInserts, type AuditEntry } from '../audit.ts';
import { executePrepared, isPipelined, rowsOf, type Tx } from '../db/client.ts';
import { jsonRowMapper } from '../db/json-rows.ts';
import { executeTogether } from '../db/together.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { newScanIds, scanIdsSql, scanRowsInsert, type ItemBrief, type NewScanRow, type ScanRow } from '../receiving/scan-rows.ts';
import { decideTask, planMatchEvents, type TaskRow } from '../tasks/apply-event.ts';
import { confirmScan, isAnnounced } from '../../../machines/scan-record.machine.ts';
import { allocate, pieceStatus, POOL_STATUSES, problemMessage, recordCaps, type Allocation, type Piece, type ScanStatus } from './allocate.ts';

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

/** Does the machine let a task in this state be matched? (open, unmatch) */
export const acceptsMatch = (row: TaskRow) => decideTask(row, { type: 'task.match', outcome: 'open' }).ok;

/** `column = any(values)`: one array parameter instead of one per value (the long lists of an upload). */
const anyInt = (column: AnyPgColumn, values: number[]): SQL => sql`${column} = any(${sql.param(values)}::int[])`;

/**
 * Takes the matching lock of each tracking id (a transaction-scoped advisory lock), in a fixed
 * order so two transactions never wait on each other. Re-entrant within a transaction. Call it
 * inside a transaction, before locking task rows.
 *
 * `genericPlans` (the scan batches, receiving/scan-service.ts): the statements of the rest of the
 * transaction use the plan PostgreSQL keeps for each named statement (executePrepared) instead of
 * planning it again for the values of each call (plan_cache_mode, set in the lock statement: no
 * round trip of its own). PostgreSQL re-plans a statement with array parameters on most calls, and
 * planning matching's read took as long as running it. Not for statements whose best plan depends
 * on their values (the list filters): they are not in a scan's transaction.
 */
export async function lockTrackings(tx: Tx, trackingIds: Iterable<string>, opts: { genericPlans?: boolean } = {}): Promise<void> {
  const ids = [...new Set(trackingIds)].sort();
  if (!ids.length) return;
  // Locks this transaction already holds are not asked for again (a scan locks its tracking id and
  // then matches it). Only a real transaction is remembered: the locks last as long as it does.
  const held = tx instanceof PgTransaction ? (heldLocks.get(tx) ?? { all: null, ids: new Set<string>() }) : null;
  if (held) heldLocks.set(tx, held);
  if (held?.all === 'exclusive') return;
  // Every statement is sent before this call first waits (executePrepared sends at once), so in a
  // pipelined transaction what the caller sends next runs after all of them (lockAndRead).
  if (ids.length > BULK_LOCK_THRESHOLD) {
    await executePrepared(tx, sql`select pg_advisory_xact_lock(hashtextextended(${ALL_TRACKINGS}, 0))`);
    if (held) held.all = 'exclusive';
    return;
  }
  const todo = held ? ids.filter((id) => !held.ids.has(id)) : ids;
  // One statement per chunk, taking the locks in the array's order: the shared all-trackings lock
  // first (unless held), then the tracking ids, sorted.
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < todo.length; i += LOCK_CHUNK) {
    const shared = i === 0 && held?.all !== 'shared';
    const keys = [...(shared ? [ALL_TRACKINGS] : []), ...todo.slice(i, i + LOCK_CHUNK).map((id) => `tracking:${id}`)];
    const generic = i === 0 && opts.genericPlans ? sql`, set_config('plan_cache_mode', 'force_generic_plan', true)` : sql``;
    const locked = executePrepared(
      tx,
      sql`select (select count(case when u.n = 1 and ${shared} then pg_advisory_xact_lock_shared(hashtextextended(u.k, 0)) else pg_advisory_xact_lock(hashtextextended(u.k, 0)) end)
        from (select k, n from unnest(${sql.param(keys)}::text[]) with ordinality as t(k, n) order by n) u)${generic}`,
    );
    if (held) held.all = 'shared';
    // In a pipelined transaction the chunks go one behind the other (PostgreSQL still takes them in order).
    if (isPipelined(tx)) {
      locked.catch(() => undefined);
      sent.push(locked);
    } else await locked;
  }
  await Promise.all(sent);
  if (held) for (const id of todo) held.ids.add(id);
}

type ReadOptions = { lock?: boolean; newIds?: number; itemIds?: number[] };

/**
 * The tracking locks of `trackingIds` (lockTrackings), then readForMatching: the lock-then-read of
 * every matching run. In a pipelined transaction (db/client.ts) the read is sent behind the lock
 * statements without waiting for them: PostgreSQL runs it after the locks are held, on a snapshot
 * taken then, and the two cost one round trip.
 */
export async function lockAndRead(
  tx: Tx,
  trackingIds: string[],
  taskIds: number[] = [],
  opts: ReadOptions & { genericPlans?: boolean } = {},
): Promise<MatchingState> {
  const locking = lockTrackings(tx, trackingIds, { genericPlans: opts.genericPlans });
  if (!isPipelined(tx)) await locking;
  const [, state] = await Promise.all([locking, readForMatching(tx, trackingIds, taskIds, opts)]);
  return state;
}

/** The tracking locks each open transaction holds (see lockTrackings). */
const heldLocks = new WeakMap<object, { all: 'shared' | 'exclusive' | null; ids: Set<string> }>();

/** Tracking ids per lock statement: keeps statements of a large upload small. */
const LOCK_CHUNK = 1000;

/**
 * matchTrackings matches at most this many tracking ids per run (memory; see there). 2,000: a run's
 * read answers its rows as JSON, and slices of 5,000 took a 50,000-row confirm to ~525 MB (486 MB
 * with 2,500, in the same time); since uploads run pipelined (a write is built while the one before
 * runs) 2,500 peaked at 508-518 MB in some runs, 2,000 at 463-471 MB.
 */
export const MATCH_CHUNK = 2000;

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
    if (!c || !isAnnounced(row)) return row;
    this.originals.set(row.id, row);
    return { ...confirmScan(row, { count: c.count, item: c.item }), opUid: c.opUid };
  }
  actionOf(id: number): string {
    return this.changes.get(id)!.action;
  }
}

/**
 * Scan rows a scan call is adding (receiving/scan-service.ts runScanJobs): not inserted yet, they
 * are matched with the tracking id's rows under the ids taken for them beforehand (readForMatching's
 * newIds: above every row of the tracking id, whose writers all hold its lock when they take ids)
 * and inserted once, in their final state - instead of inserted in status scan and updated by
 * matching at once (twice the writes, index entries and audit entries of every scan). A row that
 * matching divides between tasks is inserted as one row per task. Each inserted row is audited with
 * its scan's action and no before.
 */
export class FreshScans {
  /** The rows by id, with the action of the scan that adds each. */
  private rows = new Map<number, { row: ScanRow; action: string }>();
  /** A row for `values` (status scan) under the new `id`, to be handed to matching with the tracking id's rows. */
  add(
    id: number,
    values: Omit<ScanRow, 'id' | 'createdAt' | 'updatedAt' | 'status' | 'matchedUser' | 'userId' | 'mainId' | 'subId' | 'taskId'>,
    action: string,
    now: Date,
  ): ScanRow {
    const row: ScanRow = {
      ...values,
      id,
      status: 'scan',
      matchedUser: null,
      userId: null,
      mainId: null,
      subId: null,
      taskId: null,
      createdAt: now,
      updatedAt: now,
    };
    this.rows.set(id, { row, action });
    return row;
  }
  /** The action of a fresh row's id, or undefined for a stored row. */
  actionOf(id: number): string | undefined {
    return this.rows.get(id)?.action;
  }
  /** The rows, in the order they were added. */
  get all(): ScanRow[] {
    return [...this.rows.values()].map((r) => r.row);
  }
}

/**
 * What a matching run reads, in one statement (each round trip counts: issue 5 speed), after the
 * tracking locks of `trackingIds`:
 * - the tasks concerned: every task with a live record (its task not deleted) on those tracking ids,
 *   and `taskIds`; locked FOR UPDATE in id order (the lock order of the header; `lock: false` for a
 *   read-only caller), with their members' nicknames (what matched scan rows show as matchedUser);
 * - every record of those tasks (to judge each task on all of its tracking ids);
 * - the scan rows and live records, with their tasks, of those tracking ids and of every other
 *   tracking id of the tasks concerned. A record's task is the locked row where the task is locked
 *   (a task deleted in between drops out, as a deleted task's records always do);
 * - `newIds` ids for scan rows the caller will add (see FreshScans), and the items of `itemIds`
 *   (the products a scan names).
 * The rows come as JSON (json_agg) and are mapped to the schema's rows (db/json-rows.ts).
 */
export async function readForMatching(tx: Tx, trackingIds: string[], taskIds: number[] = [], opts: ReadOptions = {}): Promise<MatchingState> {
  const ts = sql.param(trackingIds);
  const [row] = await rowsOf<{
    scans: Json[];
    records: [Json, Json][];
    tasks: [Json, string][];
    task_records: [number, number, string][];
    new_ids: number[];
    items: [number, string, string | null][];
  }>(
    executePrepared(
      tx,
      sql`
      with tk as materialized (
        select t.id, to_json(t) as task, (select u.nick_name from users u where u.id = t.user_id) as nick_name from tasks t
        where t.id = any(${concernedTaskIds(trackingIds, taskIds)})
        order by t.id ${opts.lock === false ? sql`` : sql`for update of t`}
      ), tr as materialized (
        select id, task_id, tracking_id from purchased_records where task_id in (select id from tk)
      ), tt as materialized (
        select unnest(${ts}::text[]) as tracking_id union select tracking_id from tr
      )
      select
        (select coalesce(json_agg(s order by s.id), '[]') from scan_trackings s where s.tracking_id in (select tracking_id from tt)) as scans,
        (select coalesce(json_agg(json_build_array(p, t) order by p.id), '[]') from purchased_records p join tasks t on t.id = p.task_id
          where p.tracking_id in (select tracking_id from tt) and t.status <> 'deleted') as records,
        (select coalesce(json_agg(json_build_array(tk.task, tk.nick_name) order by tk.id), '[]') from tk) as tasks,
        (select coalesce(json_agg(json_build_array(id, task_id, tracking_id) order by id), '[]') from tr) as task_records,
        ${scanIdsSql(opts.newIds ?? 0)} as new_ids,
        (select coalesce(json_agg(json_build_array(i.id, i.item_name, i.upc)), '[]') from items i where i.id = any(${sql.param(opts.itemIds ?? [])}::int[])) as items`,
    ),
  );
  const state: MatchingState = {
    scans: new Map(),
    records: new Map(),
    taskRows: new Map(),
    names: new Map(),
    recordsOfTask: new Map(),
    newIds: row!.new_ids.map(Number),
    items: new Map(row!.items.map(([id, itemName, upc]) => [id, { id, itemName, upc }])),
  };
  for (const [json, nickName] of row!.tasks) {
    const task = taskOfJson(json);
    state.taskRows.set(task.id, task);
    state.names.set(task.userId, nickName);
    state.recordsOfTask.set(task.id, []);
  }
  for (const t of trackingIds) {
    state.scans.set(t, []);
    state.records.set(t, []);
  }
  for (const [id, taskId, trackingId] of row!.task_records) {
    state.recordsOfTask.get(taskId)!.push({ id, trackingId });
    if (!state.scans.has(trackingId)) {
      state.scans.set(trackingId, []);
      state.records.set(trackingId, []);
    }
  }
  for (const json of row!.scans) {
    const scan = scanOfJson(json);
    state.scans.get(scan.trackingId)!.push(scan);
  }
  for (const [recordJson, taskJson] of row!.records) {
    const record = recordOfJson(recordJson);
    const read = taskOfJson(taskJson);
    const task = state.taskRows.get(read.id) ?? read;
    if (task.status !== 'deleted') state.records.get(record.trackingId)!.push({ record, task });
  }
  return state;
}

type Json = Record<string, unknown>;
const scanOfJson = jsonRowMapper(scanTrackings);
const recordOfJson = jsonRowMapper(purchasedRecords);
const taskOfJson = jsonRowMapper(tasks);

/** What readForMatching answers. */
export interface MatchingState {
  /** Scan rows (id order) of the tracking ids read and of the other tracking ids of the tasks concerned (an entry for each). */
  scans: Map<string, ScanRow[]>;
  /** Live records (record id order) with their tasks, of the same tracking ids. */
  records: Map<string, Loaded['records']>;
  /** The tasks concerned (locked) by id, and their members' nicknames by user id. */
  taskRows: Map<number, TaskRow>;
  names: Map<number, string>;
  /** Each task concerned's records (record id order). */
  recordsOfTask: Map<number, { id: number; trackingId: string }[]>;
  /** Ids taken for new scan rows. */
  newIds: number[];
  /** The items asked for that exist. */
  items: Map<number, ItemBrief>;
}

/** The ids of the tasks concerned by a change of these tracking ids: those with a live record on them (task not deleted), and `taskIds`. */
const concernedTaskIds = (trackingIds: string[], taskIds: number[]): SQL => sql`array(
  select p.task_id from purchased_records p join tasks d on d.id = p.task_id
  where p.tracking_id = any(${sql.param(trackingIds)}::text[]) and d.status <> 'deleted') || ${sql.param(taskIds)}::int[]`;

/**
 * Takes the tracking locks of `trackingIds`, then locks (FOR UPDATE, id order) every live task with a
 * record on them together with `taskIds`: the lock set of a change that is followed by matching,
 * taken before any other task lock (see the header). Call inside a transaction.
 */
export async function lockForMatching(tx: Tx, trackingIds: Iterable<string>, taskIds: number[] = []): Promise<void> {
  const ts = [...new Set(trackingIds)];
  await lockTrackings(tx, ts);
  await tx.execute(sql`select t.id from tasks t where t.id = any(${concernedTaskIds(ts, taskIds)}) order by t.id for update`);
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

/** The writes of one matching run, collected over its tracking ids and turned into bulk statements by writeStatements. */
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
    return {
      status: pieceStatus(p),
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

/**
 * The statements of the planned writes (bulk, one per chunk) for the run to execute with its other
 * writes in one statement; answers them with what they write and the audit entry of each changed
 * row. Reads nothing, except the ids of rows that matching divides (one statement, when there are any).
 */
async function writeStatements(tx: Tx, w: Writes, actorOf: ActorOf, now: Date, seen?: Seen, fresh?: FreshScans) {
  const statements: SQL[] = [];
  const audits: AuditEntry[] = [];
  const written = { updated: new Map<number, ScanRow>(), inserted: [] as ScanRow[], fresh: new Map<number, ScanRow>() };
  // Fresh rows (see FreshScans) are inserted in their final state: what matching planned for them,
  // or as they came where it changed nothing. Further shares of a fresh row are inserted as rows of
  // the same scan (audited with its action, like the first).
  const isFresh = (id: number) => fresh?.actionOf(id) !== undefined;
  const inserts: { row: ScanRow; audit: AuditEntry }[] = [];
  if (fresh) {
    const planned = new Map(w.scanUpdates.filter((u) => isFresh(u.before.id)).map((u) => [u.before.id, u.set]));
    w.scanUpdates = w.scanUpdates.filter((u) => !planned.has(u.before.id));
    for (const first of fresh.all) {
      const row = { ...first, ...planned.get(first.id) };
      written.fresh.set(row.id, row);
      inserts.push({ row, audit: scanAudit(actorOf(row.trackingId), fresh.actionOf(row.id)!, null, row) });
    }
  }
  const splitIds = await newScanIds(tx, w.scanInserts.length);
  w.scanInserts.forEach(({ splitFrom, values }, k) => {
    const row = { id: splitIds[k]!, ...values, updatedAt: now };
    written.inserted.push(row);
    const audit = isFresh(splitFrom)
      ? scanAudit(actorOf(row.trackingId), fresh!.actionOf(splitFrom)!, null, row)
      : { ...scanAudit(actorOf(row.trackingId), 'match.split', null, row), before: { splitFrom } };
    inserts.push({ row, audit });
  });
  statements.push(...scanRowsInsert(inserts.map((i) => i.row)));
  audits.push(...inserts.map((i) => i.audit));
  // A seen row is written even where matching leaves it as the change made it.
  if (seen) {
    const planned = new Set(w.scanUpdates.map((u) => u.before.id));
    for (const original of seen.originals.values()) {
      if (planned.has(original.id)) continue;
      const row = seen.apply(original);
      w.scanUpdates.push({
        before: row,
        set: {
          count: row.count,
          status: row.status,
          userId: row.userId,
          mainId: row.mainId,
          subId: row.subId,
          taskId: row.taskId,
          matchedUser: row.matchedUser,
        },
      });
    }
  }
  for (let i = 0; i < w.scanUpdates.length; i += UNNEST_CHUNK) {
    const chunk = w.scanUpdates.slice(i, i + UNNEST_CHUNK);
    const col = <T>(f: (u: (typeof chunk)[number]) => T) => sql.param(chunk.map(f));
    statements.push(sql`
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
  for (let i = 0; i < w.recordUpdates.length; i += UNNEST_CHUNK) {
    const chunk = w.recordUpdates.slice(i, i + UNNEST_CHUNK);
    statements.push(sql`
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
  return { statements, audits, ...written };
}

/** The allocation of each tracking id read (readForMatching), computed once per matching run; `seen` rows count as seen. */
class Allocations {
  private cache = new Map<string, Loaded>();
  /** Each record's cap (recordCaps), over every record read: all the records of every task concerned. */
  private caps: Map<number, number> | null = null;
  constructor(
    private state: MatchingState,
    private seen?: Seen,
  ) {}
  private capOf(recordId: number): number {
    if (!this.caps) {
      const all = [...this.state.records.values()].flat();
      const counts = new Map(all.map(({ task }) => [task.id, (this.state.taskRows.get(task.id) ?? task).count]));
      this.caps = recordCaps(
        all.map(({ record }) => record),
        (taskId) => counts.get(taskId)!,
      );
    }
    return this.caps.get(recordId)!;
  }
  get(trackingId: string): Loaded {
    let loaded = this.cache.get(trackingId);
    if (!loaded) {
      const scans = (this.state.scans.get(trackingId) ?? []).map((r) => (this.seen ? this.seen.apply(r) : r));
      const records = this.state.records.get(trackingId) ?? [];
      const allocation = allocate(
        scans.map((s) => ({ id: s.id, upc: s.upc, count: s.count, status: s.status as ScanStatus, taskId: s.taskId })),
        records.map(({ record, task }) => ({
          id: record.id,
          taskId: task.id,
          upc: task.upc || null,
          productCount: record.productCount,
          cap: this.capOf(record.id),
          settled: !acceptsMatch(task),
        })),
      );
      loaded = { scans, records, allocation };
      this.cache.set(trackingId, loaded);
    }
    return loaded;
  }
}

/**
 * The verdict of each locked task that accepts matching, as the task.match events to apply (see
 * planMatchEvents). Every tracking id of these tasks was read in one snapshot (readForMatching), so
 * each verdict reads the same state whatever order the tasks are evaluated in.
 */
function evaluate(tasks: TaskRow[], state: MatchingState, allocations: Allocations, actorOfTask: (trackingIds: string[]) => SessionUser | null) {
  const moves: Parameters<typeof planMatchEvents>[0] = [];
  for (const task of tasks.filter(acceptsMatch).sort((a, b) => a.id - b.id)) {
    const own = state.recordsOfTask.get(task.id) ?? [];
    const perRecord: { arrived: number }[] = [];
    for (const rec of own) {
      const result = allocations.get(rec.trackingId).allocation.records.get(rec.id);
      if (result) perRecord.push(result);
    }
    const v = matchVerdict(task.count, perRecord);
    if (task.status === v.outcome && task.productCount === v.productCount && task.canSplit === v.canSplit) continue;
    // Each change is attributed to whoever caused it (one actor, except in a batch of scans by
    // several clerks: see RunOptions.actors).
    moves.push({ row: task, ...v, actor: actorOfTask(own.map((r) => r.trackingId)) });
  }
  return moves;
}

/** The distinct tracking ids of the given tasks' records (to lock them before locking the tasks). */
export async function trackingIdsOfTasks(tx: Tx, taskIds: number[]): Promise<string[]> {
  if (!taskIds.length) return [];
  const rows = await tx.selectDistinct({ t: purchasedRecords.trackingId }).from(purchasedRecords).where(anyInt(purchasedRecords.taskId, taskIds));
  return rows.map((r) => r.t).sort();
}

interface RunOptions {
  seen?: Seen;
  /**
   * What the caller read with readForMatching of the run's tracking ids (and no task ids) under their
   * locks, not read again; the scan calls add their new rows to it (`fresh`).
   */
  state?: MatchingState;
  /** Rows the caller added to `state` that are not inserted yet (see FreshScans). */
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

/**
 * One matching run: lock, one read (readForMatching), the plan (allocate.ts, the task machine), and
 * every write and audit entry in one statement (db/together.ts). Answers the report and the scan
 * rows of its tracking ids after matching.
 */
async function run(
  tx: Tx,
  trackingIds: string[],
  extraTaskIds: number[],
  actor: SessionUser | null,
  opts: RunOptions = {},
): Promise<{ report: MatchReport; rows: Map<string, ScanRow[]> }> {
  const { seen } = opts;
  const actorOf: ActorOf = (t) => opts.actors?.get(t) ?? actor;
  const actorOfTask = (ts: string[]) => ts.map((t) => opts.actors?.get(t)).find(Boolean) ?? actor;
  // A caller's state was read under the locks it holds (lockTrackings then asks nothing).
  const state = opts.state ? (await lockTrackings(tx, trackingIds), opts.state) : await lockAndRead(tx, trackingIds, extraTaskIds);
  const { taskRows, names } = state;
  // The tasks this run judges: those with a live record on its tracking ids, and those asked for
  // (a caller's state may hold more: the scan calls read the tracking ids of duplicates too).
  const ids = [...new Set([...extraTaskIds, ...trackingIds.flatMap((t) => (state.records.get(t) ?? []).map((r) => r.task.id))])]
    .filter((id) => taskRows.has(id))
    .sort((a, b) => a - b);
  const allocations = new Allocations(state, seen);
  const writes = newWrites();
  for (const t of trackingIds) planTracking(allocations.get(t), taskRows, names, writes);
  const now = new Date();
  const written = await writeStatements(tx, writes, actorOf, now, seen, opts.fresh);
  const tasksAfter = planMatchEvents(
    evaluate(
      ids.map((id) => taskRows.get(id)!),
      state,
      allocations,
      actorOfTask,
    ),
    now,
  );
  for (const after of tasksAfter.afters) taskRows.set(after.id, after);
  // Every write and audit entry of the run, in one statement.
  const audits = [...written.audits, ...tasksAfter.audits];
  await executeTogether(
    tx,
    (function* () {
      yield* written.statements;
      yield* tasksAfter.statements;
      yield* auditInserts(audits);
    })(),
    audits.length,
  );
  // The rows after matching, of the run's tracking ids: what was read, with matching's own writes applied.
  const rows = new Map<string, ScanRow[]>();
  for (const t of trackingIds) {
    const list = allocations.get(t).scans.map((r) => written.updated.get(r.id) ?? written.fresh.get(r.id) ?? r);
    list.push(...written.inserted.filter((r) => r.trackingId === t));
    rows.set(
      t,
      list.sort((a, b) => a.id - b.id),
    );
  }
  return { report: { trackingIds, taskIds: ids, changedTaskIds: tasksAfter.afters.map((t) => t.id) }, rows };
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
 * read everything matching needs already (readForMatching of their tracking ids, with ids for their
 * new rows): `state` is that read plus the new rows (`fresh`: inserted by matching in their final
 * state); `seen` holds the announced rows the scans saw (written by matching in their final state);
 * `actors` who scanned each tracking id (a batch of scans by several clerks is matched in one run);
 * `trackingIds` those that changed. Every row is written and audited once, as stored. Answers the
 * rows of each tracking id after matching as well, without reading them again.
 */
export async function matchScannedTrackings(
  tx: Tx,
  trackingIds: string[],
  state: MatchingState,
  actors: ReadonlyMap<string, SessionUser>,
  fresh: FreshScans,
  seen: Seen,
): Promise<{ report: MatchReport; rows: Map<string, ScanRow[]> }> {
  return run(tx, [...trackingIds].sort(), [], null, { state, actors, fresh, seen });
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
  const state = await readForMatching(tx, [], [taskId], { lock: false });
  const own = [...state.records.values()]
    .flat()
    .filter((r) => r.record.taskId === taskId)
    .map((r) => r.record)
    .sort((a, b) => a.id - b.id);
  const allocations = new Allocations(state);
  const out: { record: RecordRow; arrived: number; status: 'init' | 'match' | 'unmatch'; msg: string }[] = [];
  for (const record of own) {
    const r = allocations.get(record.trackingId).allocation.records.get(record.id);
    out.push({
      record,
      arrived: r?.arrived ?? 0,
      status: r?.status ?? 'init',
      msg: r ? problemMessage(r.problem) : '',
    });
  }
  return out;
}
