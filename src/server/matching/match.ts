// Matching's entry points (DECISIONS "Receiving and matching"; SPEC §4 task status, scan record
// status): per tracking id, what the warehouse scanned (scan_trackings: upc + count) is compared with
// what members recorded (purchased_records of that tracking id, and the upc of each record's task),
// and tasks, records and scan rows move accordingly. Each entry point is three steps (decision 095):
// lock and read the snapshot (db/matching-store.ts), plan (plan.ts, pure, with allocate.ts's
// arithmetic and the machines' rules; what a run writes is planMatching's), write the plan (the store
// again). All run inside the caller's transaction, audit every change in it and are idempotent;
// every caller follows the one lock order of db/matching-store.ts (lockForMatching).
import type { SessionUser } from '../auth/session-user.ts';
import type { Tx } from '../db/client.ts';
import { lockAndRead, lockTrackings, readForMatching, trackingIdsOfTasks, writePlan } from '../db/matching-store.ts';
import type { ScanRow } from '../receiving/scan-rows.ts';
import { liveNotification, matchingChanges } from '../live/publish.ts';
import { arrivalsOf, planMatching, type FreshScan, type MatchChange, type MatchingState, type MatchReport, type SeenChange } from './plan.ts';

export type { MatchReport, ScanRow };

/**
 * matchTrackings matches at most this many tracking ids per run (memory; see there): a run's read
 * answers its rows as JSON, so the slice bounds what one run holds; larger slices took a
 * 50,000-row confirm past the server's memory budget (figures: docs/performance.md).
 */
export const MATCH_CHUNK = 2000;

/** What a run answers: its report, the scan rows of its tracking ids after it and the UPCs their records contest. */
export interface MatchRun {
  report: MatchReport;
  rows: Map<string, ScanRow[]>;
  contested: Map<string, ReadonlySet<string>>;
}

/**
 * One matching run: the locks and one read (unless the caller read `state` under the locks it
 * holds: lockTrackings then asks nothing), the plan, and its writes in one statement. Answers the
 * report and the scan rows of its tracking ids after matching.
 *
 * A run reads in one statement (readForMatching) and writes every change and audit entry in one
 * (writePlan, db/together.ts; docs/decisions/093-matching-statements.md).
 */
async function run(tx: Tx, change: MatchChange, state?: MatchingState): Promise<MatchRun> {
  const snapshot = state ? (await lockTrackings(tx, change.trackingIds), state) : await lockAndRead(tx, change.trackingIds, change.extraTaskIds ?? []);
  const plan = planMatching(snapshot, change, new Date());
  // live: the members whose tasks or parcels it changed and their boards' claims, told with the write.
  const { rows } = await writePlan(tx, plan, (done) => liveNotification(matchingChanges(done.audits)));
  return { report: plan.report, rows, contested: plan.contested };
}

/**
 * Matches one tracking id: divides its scanned units among the purchased records of that tracking
 * id, updates scan rows and records, and moves the tasks concerned (plan.ts planMatching). Call inside a
 * transaction, after the change it follows (a scan: take lockTrackings(tx, [trackingId]) before
 * writing the scan rows); `actor` is who triggered it (null: the system), recorded as opUid of the
 * audit entries. Safe to call repeatedly; the tracking id is locked for the rest of the transaction.
 * Returns the tasks concerned and those whose state it changed. `alsoTaskIds`: tasks judged as well
 * though no record of theirs is on the tracking id any more (the task of a removed record, locked
 * by the caller with lockForMatching).
 *
 * Called after anything about one tracking id changed: a scan (the scan service calls it after each
 * scan, modify, add or upload row), a purchased record change (purchased-service.ts), or the match
 * calls. Idempotent: running it twice changes nothing the second time.
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
 * rows of each tracking id after matching as well, and the UPCs its records contest, without reading
 * them again.
 */
export async function matchScannedTrackings(
  tx: Tx,
  trackingIds: string[],
  state: MatchingState,
  actors: ReadonlyMap<string, SessionUser>,
  fresh: readonly FreshScan[],
  seen: ReadonlyMap<number, SeenChange>,
): Promise<MatchRun> {
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
 *
 * For uploads, which save every row first and then match: matching after each row would
 * re-evaluate a task once per row (quadratic in rows per task).
 *
 * `state`: what readForMatching (lockAndRead) answered for these tracking ids, under their locks,
 * with nothing written since (the confirm's slices plan from it too). Used when the ids fit in one
 * run; a larger change reads its runs itself. `chunk`: tracking ids a run at most (MATCH_CHUNK).
 */
export async function matchTrackings(
  tx: Tx,
  trackingIds: Iterable<string>,
  actor: SessionUser | null,
  { seen, chunk = MATCH_CHUNK, state }: { seen?: { counts: ReadonlyMap<number, number>; action: string }; chunk?: number; state?: MatchingState } = {},
): Promise<MatchReport> {
  const ids = [...new Set(trackingIds)].sort();
  const changes = seen && new Map([...seen.counts].map(([id, count]) => [id, { count, action: seen.action, opUid: actor?.id ?? null }]));
  if (ids.length <= chunk) return (await run(tx, { trackingIds: ids, actor, seen: changes }, state)).report;
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
 *
 * For the task match calls and after task changes (count edit, split, delete) that change what
 * matching concludes; tasks without any record are evaluated too.
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
