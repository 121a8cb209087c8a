// Matching's database side (decisions 095, 094): the locks, the one-statement read (on a snapshot taken
// once the locks are held) of what the planner (matching/plan.ts) works on, and the writing of its plan. The one place, besides
// db/client.ts and db/together.ts, that knows whether a transaction runs pipelined: the domain code
// (matching/match.ts, the scan service, the uploads) hands it data and gets data back.
// LOCK ORDER, followed by every caller: the tracking ids, then the tasks, then anything else
// (lockForMatching says which and why). Each round trip counts (the receiving speed target): a scan
// batch is begin, the lock statements and one read sent together (lockAndRead), one write (writePlan)
// and commit (docs/decisions/093-matching-statements.md).
import { sql, type SQL } from 'drizzle-orm';
import { DELETED_TASK_STATUS } from '../../../machines/task.machine.ts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { auditInserts } from '../audit.ts';
import { completePlan, type CompletedPlan, type MatchingState, type MatchPlan } from '../matching/plan.ts';
import { newScanIds, scanIdsSql, scanRowsInsert, type ScanRow } from '../receiving/scan-rows.ts';
import type { TaskRow } from '../tasks/apply-event.ts';
import { executePrepared, isPipelined, KEY_LOOKUP_SETTINGS, keyLookupsDbOf, rowsOf, type Tx } from './client.ts';
import { jsonRowMapper } from './json-rows.ts';
import { scanTrackings } from './schema/receiving.ts';
import { purchasedRecords, tasks } from './schema/tasks.ts';
import { executeTogether } from './together.ts';

/** The deleted status as an SQL literal (not a parameter: the statements keep one plan). */
const DELETED = sql.raw(`'${DELETED_TASK_STATUS}'`);

/** `column = any(values)`: one array parameter instead of one per value (the long lists of an upload). */
const anyInt = (column: AnyPgColumn, values: number[]): SQL => sql`${column} = any(${sql.param(values)}::int[])`;

/** Tracking ids per lock statement: keeps statements of a large upload small. */
const LOCK_CHUNK = 1000;

/**
 * Above this many tracking ids, one exclusive lock of all tracking ids replaces the per-id locks.
 *
 * The tracking locks are two-level: every caller first takes one shared "all trackings" lock and
 * then an exclusive lock per tracking id, except a change of more than this many tracking ids (a
 * large upload), which takes the "all trackings" lock exclusively instead. A PostgreSQL server keeps
 * advisory locks in its shared lock table (max_locks_per_transaction x max_connections, about 6,400
 * by default): one lock per tracking id of a 50,000-row file would fail with "out of shared memory".
 * A large upload therefore waits for the scans in progress and holds the scanning of other parcels
 * off until it commits; the lock order is unchanged (the all-trackings lock comes first), and a
 * transaction takes its largest set first (an upload locks the whole file before matching any part
 * of it), so it never upgrades a shared lock.
 */
export const BULK_LOCK_THRESHOLD = 2000;

/**
 * KEY_LOOKUP_SETTINGS (client.ts), set by the first lock statement of every matching transaction
 * (decision 094). With statistics older than the data (PGlite runs no autovacuum) the planner
 * guessed hundreds of rows per task and scanned whole tables: the cost of a scan grew with the
 * table. Transaction-local (set_config's `true`).
 */
const KEY_LOOKUPS_ONLY = sql.join(
  KEY_LOOKUP_SETTINGS.map((setting) => sql`set_config(${sql.raw(`'${setting}'`)}, 'off', true)`),
  sql`, `,
);

/**
 * Runs a read-only `read` whose statements keep to key lookups (KEY_LOOKUP_SETTINGS): for reads by
 * key that hold no tracking lock (the near-miss candidates), whose plans statistics must not turn
 * into whole-table scans. On PostgreSQL, given the database's own handle, on a connection that keeps
 * those settings for its session (client.ts keyLookupsDbOf): each statement alone, no transaction
 * (decision 186). Else in a transaction (a savepoint inside one) that sets them first.
 */
export function withKeyLookupsOnly<T>(tx: Tx, read: (t: Tx) => Promise<T>): Promise<T> {
  const keyLookups = keyLookupsDbOf(tx);
  if (keyLookups) return read(keyLookups);
  return tx.transaction(async (t) => (await executePrepared(t, sql`select ${KEY_LOOKUPS_ONLY}`), read(t)));
}

/** The key of the all-trackings lock; per-id keys are `tracking:<id>`, so no tracking id yields it. */
const ALL_TRACKINGS = 'trackings:all';

/** The tracking locks each open transaction holds (see lockTrackings). */
const heldLocks = new WeakMap<object, { all: 'shared' | 'exclusive' | null; ids: Set<string> }>();

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
 *
 * Scanning takes `lockTrackings(tx, [trackingId])` BEFORE inserting or changing scan rows of the
 * tracking id, then calls matchTracking: a row changed first and locked second could deadlock with a
 * matching of the same tracking id that is updating that row.
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
    await executePrepared(tx, sql`select pg_advisory_xact_lock(hashtextextended(${ALL_TRACKINGS}, 0)), ${KEY_LOOKUPS_ONLY}`);
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
    const generic =
      i > 0 ? sql`` : opts.genericPlans ? sql`, ${KEY_LOOKUPS_ONLY}, set_config('plan_cache_mode', 'force_generic_plan', true)` : sql`, ${KEY_LOOKUPS_ONLY}`;
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

export type ReadOptions = { lock?: boolean; newIds?: number; itemIds?: number[] };

/**
 * What `read` sends, after `sent` (statements already sent, such as locks). In a pipelined
 * transaction (db/client.ts) the read is sent behind them without waiting: PostgreSQL runs it once
 * they have finished (their locks held), on a snapshot taken then, and the two cost one round trip.
 */
async function readAfter<T>(tx: Tx, sent: Promise<unknown>, read: () => Promise<T>): Promise<T> {
  if (!isPipelined(tx)) await sent;
  const [, answer] = await Promise.all([sent, read()]);
  return answer;
}

/** The tracking locks of `trackingIds` (lockTrackings), then what `read` sends (readAfter). */
export function lockThenRead<T>(tx: Tx, trackingIds: string[], read: () => Promise<T>, opts: { genericPlans?: boolean } = {}): Promise<T> {
  return readAfter(tx, lockTrackings(tx, trackingIds, opts), read);
}

/** lockThenRead with readForMatching: the lock-then-read of every matching run. */
export function lockAndRead(
  tx: Tx,
  trackingIds: string[],
  taskIds: number[] = [],
  opts: ReadOptions & { genericPlans?: boolean } = {},
): Promise<MatchingState> {
  return lockThenRead(tx, trackingIds, () => readForMatching(tx, trackingIds, taskIds, opts), { genericPlans: opts.genericPlans });
}

/**
 * What a matching run reads, in one statement, after the tracking locks of `trackingIds`:
 * - the tasks concerned: every task with a live record (its task not deleted) on those tracking ids,
 *   and `taskIds`; locked FOR UPDATE in id order (the lock order of lockForMatching; `lock: false` for a
 *   read-only caller), with their members' nicknames (what matched scan rows show as matchedUser);
 * - every record of those tasks (to judge each task on all of its tracking ids);
 * - the scan rows and live records, with their tasks, of those tracking ids and of every other
 *   tracking id of the tasks concerned. A record's task is the locked row where the task is locked
 *   (a task deleted in between drops out, as a deleted task's records always do); only the other
 *   tasks travel with their records (most records' tasks are among the locked ones);
 * - `newIds` ids for scan rows the caller will add (matching/plan.ts FreshScan), and the items of
 *   `itemIds` (the products a scan names).
 * The rows come as JSON (json_agg) and are mapped to the schema's rows (db/json-rows.ts).
 */
export async function readForMatching(tx: Tx, trackingIds: string[], taskIds: number[] = [], opts: ReadOptions = {}): Promise<MatchingState> {
  const ts = sql.param(trackingIds);
  // The tasks are locked by a statement of their own, before the read: a statement reads on the
  // snapshot taken when it began, so a read that had waited inside for a task's lock would judge the
  // task on its other parcels as they were before the holder wrote them (two parcels of one task
  // scanned at once). Pipelined, the read is sent behind the lock without waiting for it (readAfter).
  const read = (tx: Tx) =>
    rowsOf<{
      scans: Json[];
      records: [Json, Json | null][];
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
      ), ki as materialized (
        select array(select id from tk) as ids
      ), tr as materialized (
        select id, task_id, tracking_id from purchased_records where task_id = any((select ids from ki)::int[])
      ), tt as materialized (
        select array(select unnest(${ts}::text[]) union select tracking_id from tr) as ids
      )
      select
        (select coalesce(json_agg(s order by s.id), '[]') from scan_trackings s where s.tracking_id = any((select ids from tt)::text[])) as scans,
        (select coalesce(json_agg(json_build_array(p, case when p.task_id <> all((select ids from ki)::int[]) then to_json(t) end) order by p.id), '[]')
          from purchased_records p join tasks t on t.id = p.task_id
          where p.tracking_id = any((select ids from tt)::text[]) and t.status <> ${DELETED}) as records,
        (select coalesce(json_agg(json_build_array(tk.task, tk.nick_name) order by tk.id), '[]') from tk) as tasks,
        (select coalesce(json_agg(json_build_array(id, task_id, tracking_id) order by id), '[]') from tr) as task_records,
        ${scanIdsSql(opts.newIds ?? 0)} as new_ids,
        (select coalesce(json_agg(json_build_array(i.id, i.item_name, i.upc)), '[]') from items i where i.id = any(${sql.param(opts.itemIds ?? [])}::int[])) as items`,
      ),
    );
  // A read-only caller (no tracking locks taken) reads in a transaction (a savepoint inside one) that
  // keeps the plan on its indexes as matching's do (KEY_LOOKUPS_ONLY): the statement is one and its cached plan too.
  const [row] =
    opts.lock === false
      ? await withKeyLookupsOnly(tx, read)
      : await readAfter(tx, executePrepared(tx, sql`select count(*) from (${lockTasksSql(trackingIds, taskIds)}) l`), () => read(tx));
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
    // A task read above comes as its locked row alone; another member's task on the same parcel as JSON.
    const task = taskJson ? taskOfJson(taskJson) : state.taskRows.get(record.taskId)!;
    if (task.status !== DELETED_TASK_STATUS) state.records.get(record.trackingId)!.push({ record, task });
  }
  return state;
}

type Json = Record<string, unknown>;
const scanOfJson = jsonRowMapper(scanTrackings);
const recordOfJson = jsonRowMapper(purchasedRecords);
const taskOfJson = jsonRowMapper(tasks);

/** The ids of the tasks concerned by a change of these tracking ids: those with a live record on them (task not deleted), and `taskIds`. */
const concernedTaskIds = (trackingIds: string[], taskIds: number[]): SQL => sql`array(
  select p.task_id from purchased_records p join tasks d on d.id = p.task_id
  where p.tracking_id = any(${sql.param(trackingIds)}::text[]) and d.status <> ${DELETED}) || ${sql.param(taskIds)}::int[]`;

/**
 * Takes the tracking locks of `trackingIds`, then locks (FOR UPDATE, id order) every live task with a
 * record on them together with `taskIds`: the lock set of a change that is followed by matching,
 * taken before any other task lock. Call inside a transaction.
 *
 * LOCK ORDER, followed by every caller: first the tracking ids (transaction-scoped advisory locks,
 * sorted), then every live task with a record on them plus the tasks the caller changes, all at once
 * in id order, and only then anything else (lockTask re-locks a row already held). Matching itself
 * locks the same way, so two transactions never wait on each other in a cycle: one that holds a task
 * row without the tracking lock could deadlock with a concurrent scan of the same parcel, and one
 * that locked its own task first and the others later could deadlock with a member of another task
 * sharing two parcels. A caller that already holds the tracking locks and task rows may call matching
 * freely (the locks are re-entrant). A many-row upload may take lockForMatching for all its tracking
 * ids and tasks up front, so its locks are in one order too.
 */
export async function lockForMatching(tx: Tx, trackingIds: Iterable<string>, taskIds: number[] = []): Promise<void> {
  const ts = [...new Set(trackingIds)];
  await lockTrackings(tx, ts);
  await executePrepared(tx, lockTasksSql(ts, taskIds));
}

/** Locks (FOR UPDATE, id order) the tasks concerned by these tracking ids, and `taskIds`. */
const lockTasksSql = (trackingIds: string[], taskIds: number[]): SQL =>
  sql`select t.id from tasks t where t.id = any(${concernedTaskIds(trackingIds, taskIds)}) order by t.id for update`;

/**
 * (tracking id, task id) of every live record (its task not deleted) on these tracking ids, read
 * without locks: a hint of which tracking ids one matching judges together (an upload cuts its slices
 * along them). Whoever acts on it takes the locks and reads again.
 */
export async function taskLinks(tx: Tx, trackingIds: string[]): Promise<{ trackingId: string; taskId: number }[]> {
  if (!trackingIds.length) return [];
  return rowsOf(
    tx.execute(sql`select p.tracking_id as "trackingId", p.task_id as "taskId" from purchased_records p join tasks d on d.id = p.task_id
      where p.tracking_id = any(${sql.param(trackingIds)}::text[]) and d.status <> ${DELETED}`),
  );
}

/** The distinct tracking ids of the given tasks' records (to lock them before locking the tasks). */
export async function trackingIdsOfTasks(tx: Tx, taskIds: number[]): Promise<string[]> {
  if (!taskIds.length) return [];
  const rows = await tx.selectDistinct({ t: purchasedRecords.trackingId }).from(purchasedRecords).where(anyInt(purchasedRecords.taskId, taskIds));
  return rows.map((r) => r.t).sort();
}

/** Rows per UPDATE ... FROM unnest (one array parameter per column). */
const UNNEST_CHUNK = 5000;
/** Tasks per UPDATE ... FROM unnest. */
const TASK_CHUNK = 1000;

/**
 * Writes a plan (matching/plan.ts): ids for its divided rows (one statement, only when there are
 * any), then every insert, update and audit entry as bulk statements in one statement
 * (db/together.ts; in turn, a chunk of audit JSON at a time, for a large one). Answers the plan
 * completed with those ids (the rows after matching). `also`: a SELECT the completed plan asks to
 * run with the write, in the same statement (the live updates' NOTIFY, live/publish.ts).
 *
 * In a pipelined transaction the write is sent with the COMMIT.
 */
export async function writePlan(tx: Tx, plan: MatchPlan, also?: (done: CompletedPlan) => SQL | null): Promise<CompletedPlan> {
  const done = completePlan(plan, await newScanIds(tx, plan.splits.length));
  await executeTogether(tx, planStatements(plan, done), done.audits.length, also?.(done) ?? null);
  return done;
}

/** The statements of a plan, built as they are taken. */
function* planStatements(plan: MatchPlan, done: CompletedPlan): Generator<SQL> {
  const { now } = plan;
  yield* scanRowsInsert(done.inserts);
  for (let i = 0; i < plan.scanUpdates.length; i += UNNEST_CHUNK) {
    const chunk = plan.scanUpdates.slice(i, i + UNNEST_CHUNK);
    const col = <T>(f: (u: ScanRow) => T) => sql.param(chunk.map(f));
    yield sql`
      update scan_trackings s set count = v.count, status = v.status::scan_status, user_id = v.user_id, main_id = v.main_id, sub_id = v.sub_id,
        task_id = v.task_id, matched_user = v.matched_user, op_uid = v.op_uid, item_id = v.item_id, item_name = v.item_name, updated_at = ${now}
      from unnest(${col((u) => u.id)}::int[], ${col((u) => u.count)}::int[], ${col((u) => u.status)}::text[], ${col((u) => u.userId)}::int[],
        ${col((u) => u.mainId)}::int[], ${col((u) => u.subId)}::int[], ${col((u) => u.taskId)}::int[], ${col((u) => u.matchedUser)}::text[],
        ${col((u) => u.opUid)}::int[], ${col((u) => u.itemId)}::int[], ${col((u) => u.itemName)}::text[])
        as v(id, count, status, user_id, main_id, sub_id, task_id, matched_user, op_uid, item_id, item_name)
      where s.id = v.id`;
  }
  for (let i = 0; i < plan.recordUpdates.length; i += UNNEST_CHUNK) {
    const chunk = plan.recordUpdates.slice(i, i + UNNEST_CHUNK);
    yield sql`
      update purchased_records p set status = v.status::purchased_status, msg = v.msg, updated_at = ${now}
      from unnest(${sql.param(chunk.map((u) => u.id))}::int[], ${sql.param(chunk.map((u) => u.status))}::text[], ${sql.param(chunk.map((u) => u.msg))}::text[])
        as v(id, status, msg)
      where p.id = v.id`;
  }
  for (let i = 0; i < plan.taskUpdates.length; i += TASK_CHUNK) {
    const part: TaskRow[] = plan.taskUpdates.slice(i, i + TASK_CHUNK);
    yield sql`
      update tasks t set status = v.status::task_status, product_count = v.product_count, can_split = v.can_split, updated_at = ${now}
      from unnest(${sql.param(part.map((c) => c.id))}::int[], ${sql.param(part.map((c) => c.status))}::text[],
        ${sql.param(part.map((c) => c.productCount))}::int[], ${sql.param(part.map((c) => c.canSplit))}::bool[]) as v(id, status, product_count, can_split)
      where t.id = v.id`;
  }
  yield* auditInserts(done.audits);
}
