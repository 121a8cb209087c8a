// The matching planner (decision 095): pure. Given a snapshot of what matching needs (MatchingState,
// as db/matching-store.ts reads it) and the change being matched as data (MatchChange), it answers a
// plan: the scan rows, records and tasks to write, the audit entry of each change and the rows of each
// tracking id after matching. It reads and writes nothing; the store writes the plan (writePlan) and
// match.ts ties the two together. Tested on plain data (tests/server/matching/*.unit.test.ts). The rules are elsewhere and only applied here: allocate.ts divides
// each tracking id's units among its records (decision 090), the task machine judges each task
// (matchVerdict) and moves it (planMatchEvents), the scan record machine says which rows are seen and
// what a confirm does to an announced row (isAnnounced, confirmScan). What a plan writes: planMatching.
import { MATCH_QUESTION, matchVerdict } from '../../../machines/task.machine.ts';
import { confirmScan, isAnnounced, SCANNED_SCAN_STATUS } from '../../../machines/scan-record.machine.ts';
import type { AuditEntry } from '../audit.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { purchasedRecords } from '../db/schema/tasks.ts';
import type { ItemBrief, ScanRow } from '../receiving/scan-rows.ts';
import { decideTask, planMatchEvents, type TaskRow } from '../tasks/apply-event.ts';
import { allocate, pieceStatus, problemMessage, recordCaps, type Allocation, type Piece, type ScanStatus } from './allocate.ts';
import { auditOf } from '../entities/store.ts';
import { scanRecordEntity } from '../entities/scan-record.ts';
import { purchasedEntity, taskAudit } from '../entities/purchased-record.ts';

export type RecordRow = typeof purchasedRecords.$inferSelect;

/**
 * The snapshot a matching run plans on (db/matching-store.ts readForMatching reads it in one statement).
 * It holds an entry of `scans` and `records` for every tracking id matched and every tracking id of a
 * task concerned, and an entry of `recordsOfTask` for every task concerned: the planner reads them
 * without fallbacks, and a snapshot without one is refused (`held`).
 */
export interface MatchingState {
  /** Scan rows (id order) of the tracking ids read and of the other tracking ids of the tasks concerned (an entry for each). */
  scans: Map<string, ScanRow[]>;
  /** Live records (record id order) with their tasks, of the same tracking ids; a task concerned is its row of `taskRows` (as locked). */
  records: Map<string, { record: RecordRow; task: TaskRow }[]>;
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

/** What the change being matched does to an announced (init) row it sees. */
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

/** A row a scan adds (not inserted yet: matching inserts it in its final state), with its scan's action. */
export interface FreshScan {
  row: ScanRow;
  action: string;
}

/** The change a matching run plans for. */
export interface MatchChange {
  /** The tracking ids matched (their rows and records are written), sorted. */
  trackingIds: string[];
  /** Tasks judged even without a record on those tracking ids (the task match calls). */
  extraTaskIds?: number[];
  /** Who triggered the run (null: the system). */
  actor: SessionUser | null;
  /** Who changed each tracking id where it is not `actor` (a batch of scans by several clerks). */
  actors?: ReadonlyMap<string, SessionUser>;
  /** Announced rows (by id) the change sees; they must be in the snapshot as init rows. */
  seen?: ReadonlyMap<number, SeenChange>;
  /** Rows the change adds, already in the snapshot's scans under ids it took (state.newIds). */
  fresh?: readonly FreshScan[];
}

export interface MatchReport {
  /** The tracking ids that were matched. */
  trackingIds: string[];
  /** Every task concerned (a record on those tracking ids, or asked for), in id order. */
  taskIds: number[];
  /** The tasks whose status, productCount or canSplit this run changed. */
  changedTaskIds: number[];
}

/** A share of a row that matching divides: a new row, whose id is taken when the plan is written. */
export interface SplitRow {
  splitFrom: number;
  values: Omit<ScanRow, 'id'>;
  /** The action of the fresh row it came from (audited as that scan), or null: 'match.split'. */
  freshAction: string | null;
  actor: SessionUser | null;
}

/** A run's writes. The store turns each list into bulk statements (db/matching-store.ts writePlan). */
export interface MatchPlan {
  now: Date;
  report: MatchReport;
  /** Fresh rows in their final state, with their audit entries. */
  inserts: { row: ScanRow; audit: AuditEntry }[];
  splits: SplitRow[];
  /** Stored rows after the run (count, status, ties; a seen row's item and opUid). */
  scanUpdates: ScanRow[];
  recordUpdates: Pick<RecordRow, 'id' | 'status' | 'msg'>[];
  /** Tasks after their task.match event (status, productCount, canSplit). */
  taskUpdates: TaskRow[];
  /** The audit entries of the updates, records and tasks (the inserts' are with them). */
  audits: AuditEntry[];
  /** The rows of each matched tracking id after the run, without the split rows (completePlan adds them). */
  rows: Map<string, ScanRow[]>;
  /** The UPCs each matched tracking id's records contest after the run (allocate.ts contestedUpcs): the scan calls say why those units wait. */
  contested: Map<string, ReadonlySet<string>>;
}

/** A plan with the ids of its split rows: every row to insert and every audit entry, in writing order. */
export interface CompletedPlan {
  inserts: ScanRow[];
  audits: AuditEntry[];
  rows: Map<string, ScanRow[]>;
}

/** Does the machine let a task in this state be matched? (open, unmatch) */
export const acceptsMatch = (row: TaskRow) => decideTask(row, MATCH_QUESTION).ok;

/** The audit entry of a scan row change (entity 'tracking'): the scan-record entity's (entities/scan-record.ts), before and after whole. */
export const scanAudit = (actor: SessionUser | null, action: string, before: ScanRow | null, after: ScanRow): AuditEntry =>
  auditOf(scanRecordEntity, actor, action, before, after);

/** A new row of a scan (status scan, tied to nobody) under `id`, for the snapshot and `fresh`. */
export const freshScanRow = (
  id: number,
  values: Omit<ScanRow, 'id' | 'createdAt' | 'updatedAt' | 'status' | 'matchedUser' | 'userId' | 'mainId' | 'subId' | 'taskId'>,
  now: Date,
): ScanRow => ({
  ...values,
  id,
  status: SCANNED_SCAN_STATUS,
  matchedUser: null,
  userId: null,
  mainId: null,
  subId: null,
  taskId: null,
  createdAt: now,
  updatedAt: now,
});

/** The entry of `key` the snapshot holds by its contract (MatchingState); a snapshot without it is a caller's bug, refused. */
export function held<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`matching: the snapshot holds no ${what} ${String(key)}`);
  return value;
}

/** An announced row as the change sees it (confirmScan), or the row itself. */
const asSeen = (row: ScanRow, seen: ReadonlyMap<number, SeenChange> | undefined): ScanRow => {
  const c = seen?.get(row.id);
  if (!c || !isAnnounced(row)) return row;
  return { ...confirmScan(row, { count: c.count, item: c.item }), opUid: c.opUid };
};

interface Loaded {
  scans: ScanRow[];
  records: { record: RecordRow; task: TaskRow }[];
  allocation: Allocation;
}

/** The allocation of each tracking id of the snapshot, computed once when first asked; `seen` rows count as seen. */
class Allocations {
  private cache = new Map<string, Loaded>();
  /** Each record's cap (recordCaps), over every record read: all the records of every task concerned. */
  private caps: Map<number, number>;
  constructor(
    private state: MatchingState,
    private seen?: ReadonlyMap<number, SeenChange>,
  ) {
    const all = [...state.records.values()].flat();
    const counts = new Map(all.map(({ task }) => [task.id, task.count]));
    this.caps = recordCaps(
      all.map(({ record }) => record),
      (taskId) => counts.get(taskId)!,
    );
  }
  get(trackingId: string): Loaded {
    return this.cache.get(trackingId) ?? this.load(trackingId);
  }
  private load(trackingId: string): Loaded {
    const scans = held(this.state.scans, trackingId, 'scan rows of tracking id').map((r) => asSeen(r, this.seen));
    const records = held(this.state.records, trackingId, 'records of tracking id');
    const allocation = allocate(
      scans.map((s) => ({ id: s.id, upc: s.upc, count: s.count, status: s.status as ScanStatus, taskId: s.taskId })),
      records.map(({ record, task }) => ({
        id: record.id,
        taskId: task.id,
        upc: task.upc || null,
        productCount: record.productCount,
        cap: this.caps.get(record.id)!,
        settled: !acceptsMatch(task),
        memberId: task.userId,
        assigned: record.assignedCount,
      })),
    );
    const loaded = { scans, records, allocation };
    this.cache.set(trackingId, loaded);
    return loaded;
  }
}

type ScanTie = Pick<ScanRow, 'status' | 'userId' | 'mainId' | 'subId' | 'taskId' | 'matchedUser'>;
const TIE_KEYS = ['count', 'status', 'userId', 'mainId', 'subId', 'taskId', 'matchedUser'] as const;

/**
 * Plans a matching run of `change` on `state`.
 *
 * What it writes, for one tracking id T:
 * - scan rows of T in status scan/match/unmatch: each share of a row that serves a record becomes
 *   status match, tied to that record's task (userId, mainId, subId, taskId, matchedUser = the
 *   member's nickName); units no record took (another product, or more than recorded) become status
 *   unmatch, untied - the admin's queue (allocate.ts pieceStatus, decision 090). A row whose units
 *   serve two tasks is split into one row per task (schema/receiving.ts: "matching records as
 *   separate rows each tied to one task"), so paying one task can later mark exactly its own units
 *   wait2pay. init rows (not yet seen) and wait2pay/payed rows are left alone.
 * - every live purchased record of T, its task settled or not (judged again together, so no record
 *   keeps a verdict a later record made untrue): status match (all its units arrived), unmatch with a
 *   msg (fewer arrived, fewer because earlier records took the parcel's units, more arrived than
 *   recorded), or init (nothing of T scanned yet).
 * - tasks with a record on T, through planMatchEvents (task.match, the bulk form of applyTaskEvent:
 *   the task machine decides each one and the change is audited): the outcome is the task machine's
 *   matchVerdict over the units tied to the task on ALL its tracking ids (each record capped by what
 *   the task's count leaves it: allocate.ts recordCaps). Tasks whose state refuses task.match
 *   (pending, locked, processing, finished, closed, deleted) are left exactly as they are; their
 *   records still hold their units and get their verdict (allocate.ts: settled records are served first). A task whose
 *   status, productCount and canSplit would not change gets no event (no audit noise).
 * Every change is audited: entity 'tracking' for scan rows, 'purchased' for records, 'task'
 * (planMatchEvents) for tasks. How the plan writes them:
 * - each non-frozen seen row of the change's tracking ids takes its first share's count and tie; its
 *   further shares become new rows (`splits`, ids taken when written: completePlan), audited
 *   'match.split' with the row they came from, or with the fresh row's action;
 * - fresh rows (a scan's new rows, ids taken by the read) are inserted once in their final state,
 *   audited with their scan's action and no before;
 * - announced rows the change sees are matched as seen and written once, audited with the change's
 *   action and the announced row as before, even where matching leaves them as the change made them.
 *   Only those of the change's own tracking ids are written: rows of other tracking ids read to judge
 *   a task count as seen for the verdict and are written by the run that matches them;
 * - records get their status and msg; tasks move through the machine.
 */
export function planMatching(state: MatchingState, change: MatchChange, now: Date): MatchPlan {
  const { trackingIds, seen } = change;
  const { taskRows } = state;
  const actorOf = (t: string) => change.actors?.get(t) ?? change.actor;
  const actorOfTask = (ts: string[]) => ts.map((t) => change.actors?.get(t)).find(Boolean) ?? change.actor;
  // The tasks this run judges: those with a live record on its tracking ids, and those asked for
  // (a caller's snapshot may hold more: the scan calls read the tracking ids of duplicates too).
  const judged = new Set(change.extraTaskIds);
  for (const t of trackingIds) for (const { task } of held(state.records, t, 'records of tracking id')) judged.add(task.id);
  const taskIds = [...judged].filter((id) => taskRows.has(id)).sort((a, b) => a - b);
  const allocations = new Allocations(state, seen);
  const freshAction = new Map((change.fresh ?? []).map((f) => [f.row.id, f.action]));

  // Scan rows and records of each tracking id, from its allocation.
  const scanPlan: ScanPlan = { updates: [], planned: new Map(), splits: [], records: [] };
  for (const t of trackingIds) planTrackingId(t, { state, allocations, freshAction, actorOf, now }, scanPlan);
  const { planned, splits, records } = scanPlan;

  const { inserts, freshAfter } = planInserts(change, planned, actorOf);
  const scanUpdates = scanPlan.updates.filter((u) => !freshAction.has(u.before.id));
  // The announced rows the change sees, as read: written once, audited with the change's action
  // (each tracking id's rows were held when it was allocated above).
  const originals = new Map<number, ScanRow>();
  if (seen) for (const t of trackingIds) for (const r of state.scans.get(t)!) if (seen.has(r.id) && isAnnounced(r)) originals.set(r.id, r);
  // A seen row is written even where matching leaves it as the change made it.
  for (const original of originals.values()) {
    if (planned.has(original.id)) continue;
    const row = asSeen(original, seen);
    scanUpdates.push({ before: row, after: { ...row, updatedAt: now } });
  }

  const audits: AuditEntry[] = [];
  for (const { before, after } of scanUpdates) {
    const original = originals.get(before.id);
    const actor = actorOf(after.trackingId);
    audits.push(original ? scanAudit(actor, seen!.get(original.id)!.action, original, after) : scanAudit(actor, 'match', before, after));
  }
  for (const verdict of records) audits.push(purchasedAudit(verdict, actorOf(verdict.before.trackingId), now));

  const tasksAfter = planMatchEvents(planTaskMoves(state, taskIds, allocations, actorOfTask), now);
  audits.push(...tasksAfter.audits);

  // The rows after matching, of the run's tracking ids: what was read, with the run's writes applied.
  const written = new Map(scanUpdates.map((u) => [u.after.id, u.after]));
  const rows = new Map<string, ScanRow[]>();
  const contested = new Map<string, ReadonlySet<string>>();
  for (const t of trackingIds) {
    rows.set(
      t,
      allocations.get(t).scans.map((r) => written.get(r.id) ?? freshAfter.get(r.id) ?? r),
    );
    contested.set(t, allocations.get(t).allocation.contested);
  }

  return {
    now,
    report: { trackingIds, taskIds, changedTaskIds: tasksAfter.afters.map((t) => t.id) },
    inserts,
    splits,
    scanUpdates: scanUpdates.map((u) => u.after),
    recordUpdates: records.map((r) => ({ id: r.before.id, status: r.status, msg: r.msg })),
    taskUpdates: tasksAfter.afters,
    audits,
    rows,
    contested,
  };
}

type ActorOf = (trackingId: string) => SessionUser | null;

/** A record's new verdict (status and msg), with the task it serves as locked. */
interface RecordVerdict {
  before: RecordRow;
  task: TaskRow;
  status: RecordRow['status'];
  msg: string;
}

/** What the allocations change of the scan rows and records, in tracking id order. */
interface ScanPlan {
  updates: { before: ScanRow; after: ScanRow }[];
  /** Each seen row's state after matching, by id (only rows matching changes). */
  planned: Map<number, ScanRow>;
  splits: SplitRow[];
  records: RecordVerdict[];
}

/**
 * Adds to `out` what the allocation of tracking id `t` changes: each seen row takes its first share's
 * count and tie, its further shares become split rows, and each record whose verdict changes.
 */
function planTrackingId(
  t: string,
  ctx: { state: MatchingState; allocations: Allocations; freshAction: ReadonlyMap<number, string>; actorOf: ActorOf; now: Date },
  out: ScanPlan,
): void {
  const { state, now } = ctx;
  const { names } = state;
  const { scans, records: recs, allocation } = ctx.allocations.get(t);
  const recordById = new Map(recs.map((r) => [r.record.id, r]));
  const desired = (p: Piece): ScanTie => {
    if (p.recordId === null) return { status: pieceStatus(p), userId: null, mainId: null, subId: null, taskId: null, matchedUser: null };
    const { task } = recordById.get(p.recordId)!;
    return {
      status: pieceStatus(p),
      userId: task.userId,
      mainId: task.mainId,
      subId: task.subId,
      taskId: task.id,
      matchedUser: names.get(task.userId) ?? null,
    };
  };
  // allocate divides the units of seen rows only: a row without pieces (announced, frozen, empty) stays as it is.
  for (const row of scans) {
    const pieces = allocation.pieces.get(row.id);
    if (!pieces?.length) continue;
    const [first, ...rest] = pieces;
    const after = { ...row, count: first!.count, ...desired(first!), updatedAt: now };
    if (!TIE_KEYS.every((k) => row[k] === after[k])) {
      out.planned.set(row.id, after);
      out.updates.push({ before: row, after });
    }
    for (const piece of rest) {
      const { id: splitFrom, ...columns } = row;
      out.splits.push({
        splitFrom,
        values: { ...columns, count: piece.count, ...desired(piece), updatedAt: now },
        freshAction: ctx.freshAction.get(row.id) ?? null,
        actor: ctx.actorOf(row.trackingId),
      });
    }
  }
  for (const { record, task } of recs) {
    // Every record of the tracking id is judged again, settled tasks' too (their units stay theirs,
    // allocate.ts serves them first): a verdict a later record made untrue (a surplus it took) is
    // rewritten, never left standing (issue 33).
    const result = allocation.records.get(record.id)!;
    const msg = problemMessage(result.problem);
    if (record.status === result.status && record.msg === msg) continue;
    out.records.push({ before: record, task, status: result.status, msg });
  }
}

/** Fresh rows are inserted in their final state: what matching planned for them, or as they came. */
function planInserts(change: MatchChange, planned: ReadonlyMap<number, ScanRow>, actorOf: ActorOf) {
  const inserts: MatchPlan['inserts'] = [];
  const freshAfter = new Map<number, ScanRow>();
  for (const { row: first, action } of change.fresh ?? []) {
    const p = planned.get(first.id);
    const row = p ? { ...first, ...pick(p, TIE_KEYS) } : first;
    freshAfter.set(row.id, row);
    inserts.push({ row, audit: scanAudit(actorOf(row.trackingId), action, null, row) });
  }
  return { inserts, freshAfter };
}

/**
 * The audit entry of a record's new verdict: the purchased entity's (entities/purchased-record.ts),
 * with its task's columns as every record change has them (the store's taskAudit).
 */
const purchasedAudit = ({ before, task, status, msg }: RecordVerdict, actor: SessionUser | null, now: Date): AuditEntry => ({
  ...auditOf(purchasedEntity, actor, 'match', before, { ...before, status, msg, updatedAt: now }),
  ...taskAudit(task),
});

/**
 * The task.match of each task judged whose verdict changes it. Every tracking id of each was allocated
 * on the same snapshot, so each verdict reads the same state whatever order the tasks are judged in.
 */
function planTaskMoves(state: MatchingState, taskIds: readonly number[], allocations: Allocations, actorOfTask: (ts: string[]) => SessionUser | null) {
  const moves: Parameters<typeof planMatchEvents>[0] = [];
  for (const task of taskIds.map((id) => state.taskRows.get(id)!).filter(acceptsMatch)) {
    const own = held(state.recordsOfTask, task.id, 'records of task');
    // A task that accepts matching is live, so each of its records is on a tracking id of the snapshot.
    const perRecord = own.map((rec) => held(allocations.get(rec.trackingId).allocation.records, rec.id, 'record'));
    const v = matchVerdict(task.count, perRecord);
    if (task.status === v.outcome && task.productCount === v.productCount && task.canSplit === v.canSplit) continue;
    // Each change is attributed to whoever caused it (one actor, except in a batch of scans by
    // several clerks: see MatchChange.actors).
    moves.push({ row: task, ...v, actor: actorOfTask(own.map((r) => r.trackingId)) });
  }
  return moves;
}

const pick = <T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> => Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;

/**
 * The plan with `ids` for its split rows (as many as plan.splits, taken from the sequence when it is
 * written): the rows to insert (fresh, then split), every audit entry in writing order (the inserts',
 * then the plan's) and the rows of each tracking id after the run, in id order.
 */
export function completePlan(plan: MatchPlan, ids: readonly number[]): CompletedPlan {
  const split = plan.splits.map(({ splitFrom, values, freshAction, actor }, k) => {
    const row: ScanRow = { id: ids[k]!, ...values };
    const audit = freshAction !== null ? scanAudit(actor, freshAction, null, row) : { ...scanAudit(actor, 'match.split', null, row), before: { splitFrom } };
    return { row, audit };
  });
  const rows = new Map<string, ScanRow[]>();
  for (const [t, list] of plan.rows)
    rows.set(
      t,
      [...list, ...split.filter((s) => s.row.trackingId === t).map((s) => s.row)].sort((a, b) => a.id - b.id),
    );
  return {
    inserts: [...plan.inserts.map((i) => i.row), ...split.map((s) => s.row)],
    audits: [...plan.inserts.map((i) => i.audit), ...split.map((s) => s.audit), ...plan.audits],
    rows,
  };
}

/** Per record of the task, what has arrived in the snapshot (read-only: /api/task/part/match). */
export function arrivalsOf(state: MatchingState, taskId: number) {
  const own = [...state.records.values()]
    .flat()
    .filter((r) => r.record.taskId === taskId)
    .map((r) => r.record)
    .sort((a, b) => a.id - b.id);
  const allocations = new Allocations(state);
  return own.map((record) => {
    // Every record of the snapshot is allocated with the records of its tracking id.
    const r = allocations.get(record.trackingId).allocation.records.get(record.id)!;
    return { record, arrived: r.arrived, status: r.status, msg: problemMessage(r.problem) };
  });
}
