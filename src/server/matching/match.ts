// Matching (DECISIONS "Receiving and matching"; SPEC §4 task status, scan record status): compares,
// per tracking id, what the warehouse scanned (scan_trackings: upc + count) with what members
// recorded (purchased_records of that tracking id, and the upc of each record's task), and moves
// tasks, records and scan rows accordingly. This module holds the entry points only, each three
// steps (decision 095): lock and read the snapshot (db/matching-store.ts), plan (plan.ts, pure, with
// allocate.ts's arithmetic and the machines' rules), write the plan (the store again).
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
// - `lockForMatching(tx, trackingIds, taskIds)` (db/matching-store.ts): the locks a change followed by matching needs.
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
// writes every change and audit entry in one (writePlan, db/together.ts; see docs/decisions/000-earlier-decisions.md,
// Matching's statements).
import type { SessionUser } from '../auth/session-user.ts';
import type { Tx } from '../db/client.ts';
import { lockAndRead, lockTrackings, readForMatching, trackingIdsOfTasks, writePlan } from '../db/matching-store.ts';
import type { ScanRow } from '../receiving/scan-rows.ts';
import { arrivalsOf, planMatching, type FreshScan, type MatchChange, type MatchingState, type MatchReport, type SeenChange } from './plan.ts';

export type { MatchReport, ScanRow };

/**
 * matchTrackings matches at most this many tracking ids per run (memory; see there). 2,000: a run's
 * read answers its rows as JSON, and slices of 5,000 took a 50,000-row confirm to ~525 MB (486 MB
 * with 2,500, in the same time); since uploads run pipelined (a write is built while the one before
 * runs) 2,500 peaked at 508-518 MB in some runs, 2,000 at 463-471 MB.
 */
export const MATCH_CHUNK = 2000;

/**
 * One matching run: the locks and one read (unless the caller read `state` under the locks it
 * holds: lockTrackings then asks nothing), the plan, and its writes in one statement. Answers the
 * report and the scan rows of its tracking ids after matching.
 */
async function run(
  tx: Tx,
  change: MatchChange,
  state?: MatchingState,
): Promise<{ report: MatchReport; rows: Map<string, ScanRow[]> }> {
  const snapshot = state ? (await lockTrackings(tx, change.trackingIds), state) : await lockAndRead(tx, change.trackingIds, change.extraTaskIds ?? []);
  const plan = planMatching(snapshot, change, new Date());
  const { rows } = await writePlan(tx, plan);
  return { report: plan.report, rows };
}

/**
 * Matches one tracking id: divides its scanned units among the purchased records of that tracking
 * id, updates scan rows and records, and moves the tasks concerned (see the header). Call inside a
 * transaction, after the change it follows (a scan: take lockTrackings(tx, [trackingId]) before
 * writing the scan rows); `actor` is who triggered it (null: the system), recorded as opUid of the
 * audit entries. Safe to call repeatedly; the tracking id is locked for the rest of the transaction.
 * Returns the tasks concerned and those whose state it changed. `alsoTaskIds`: tasks judged as well
 * though no record of theirs is on the tracking id any more (the task of a removed record, locked
 * by the caller with lockForMatching).
 */
export async function matchTracking(tx: Tx, trackingId: string, actor: SessionUser | null, alsoTaskIds: number[] = []): Promise<MatchReport> {
  return (await run(tx, { trackingIds: [trackingId], extraTaskIds: alsoTaskIds, actor })).report;
}

/**
 * matchTracking for the scan calls (receiving/scan-service.ts), which hold the tracking locks and
 * read everything matching needs already (readForMatching of their tracking ids, with ids for their
 * new rows): `state` is that read plus the new rows (`fresh`: inserted by matching in their final
 * state); `seen` the announced rows the scans saw (written by matching in their final state);
 * `actors` who scanned each tracking id (a batch of scans by several clerks is matched in one run);
 * `trackingIds` those that changed. Every row is written and audited once, as stored. Answers the
 * rows of each tracking id after matching as well, without reading them again.
 */
export async function matchScannedTrackings(
  tx: Tx,
  trackingIds: string[],
  state: MatchingState,
  actors: ReadonlyMap<string, SessionUser>,
  fresh: readonly FreshScan[],
  seen: ReadonlyMap<number, SeenChange>,
): Promise<{ report: MatchReport; rows: Map<string, ScanRow[]> }> {
  return run(tx, { trackingIds: [...trackingIds].sort(), actor: null, actors, fresh, seen }, state);
}

/**
 * Matches several tracking ids in one run (each tracking id once, each task concerned evaluated
 * once): for a many-row change such as an upload, which saves all its rows first and matches
 * afterwards instead of after every row. Same contract as matchTracking.
 *
 * `seen` (the tracking upload's confirm): imported rows (init, by id) that this change sees, with
 * their confirmed count. They are matched as status scan with that count and written once in their
 * final state, audited as `seen.action` with the init row as before (plan.ts); the caller does not
 * write them itself. Their tracking ids must be among `trackingIds`.
 */
export async function matchTrackings(
  tx: Tx,
  trackingIds: Iterable<string>,
  actor: SessionUser | null,
  seen?: { counts: ReadonlyMap<number, number>; action: string },
  chunk = MATCH_CHUNK,
): Promise<MatchReport> {
  const ids = [...new Set(trackingIds)].sort();
  const changes = seen && new Map([...seen.counts].map(([id, count]) => [id, { count, action: seen.action, opUid: actor?.id ?? null }]));
  if (ids.length <= chunk) return (await run(tx, { trackingIds: ids, actor, seen: changes })).report;
  // A large file is matched a slice of tracking ids at a time, so what one run holds in memory (scan
  // rows, records, tasks, audit entries) is a slice's, not the file's: a 50,000-row confirm stays
  // within the server's memory budget. The result is the same as one run: a task whose
  // records lie on tracking ids of several slices is judged on the allocations of all of them (the
  // other slices' tracking ids are read with the same rows and the same `seen` counts), so its
  // verdict is final the first time and unchanged the next. Each slice writes the seen rows of its
  // own tracking ids only. Locks are taken in the same order (tracking ids ascending, then each
  // slice's tasks); uploads hold the whole file's tracking locks before matching.
  const report: MatchReport = { trackingIds: ids, taskIds: [], changedTaskIds: [] };
  for (let i = 0; i < ids.length; i += chunk) {
    const part = (await run(tx, { trackingIds: ids.slice(i, i + chunk), actor, seen: changes })).report;
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
  return (await run(tx, { trackingIds: await trackingIdsOfTasks(tx, taskIds), extraTaskIds: taskIds, actor })).report;
}

/**
 * Read-only: per record of the given task, what has arrived right now (for /api/task/part/match).
 */
export async function arrivalsOfTask(tx: Tx, taskId: number) {
  return arrivalsOf(await readForMatching(tx, [], [taskId], { lock: false }), taskId);
}
