// The matching planner's store in memory, for tests on plain data (decision 095): tables as arrays of
// the schema's rows, a read that answers the snapshot db/matching-store.ts readForMatching answers
// (the same rows, by the same rules: the tasks concerned, all their records, the scan rows and live
// records of every tracking id concerned) and a write that applies a plan as writePlan does. With
// it the real planner (src/server/matching/plan.ts) runs whole worlds without a database.
import type { AuditEntry } from '../../../src/server/audit.ts';
import type { SessionUser } from '../../../src/server/auth/session-user.ts';
import {
  completePlan,
  freshScanRow,
  planMatching,
  type CompletedPlan,
  type MatchChange,
  type MatchingState,
  type MatchPlan,
  type RecordRow,
} from '../../../src/server/matching/plan.ts';
import type { ScanRow } from '../../../src/server/receiving/scan-rows.ts';
import type { TaskRow } from '../../../src/server/tasks/apply-event.ts';

export const NOW = new Date('2026-01-02T03:04:05Z');
const T0 = new Date('2026-01-01T00:00:00Z');

/** A task row (open, nothing arrived) with `fields` over defaults. */
export const taskRow = (fields: Partial<TaskRow> & Pick<TaskRow, 'id' | 'upc' | 'count' | 'userId'>): TaskRow => ({
  mainId: fields.id,
  subId: 0,
  boardId: 1,
  boardTaskId: 1,
  itemId: 1,
  itemName: `item ${fields.upc}`,
  url: '',
  price: null,
  buyIn: 100,
  bonus: 0,
  punish: 0,
  productCount: 0,
  status: 'open',
  isHome: false,
  state: null,
  zipCode: null,
  labelCount: null,
  canSplit: false,
  trackingId: null,
  createdAt: T0,
  updatedAt: T0,
  ...fields,
});

export class MemoryStore {
  tasks = new Map<number, TaskRow>();
  records: RecordRow[] = [];
  scans: ScanRow[] = [];
  /** Nicknames by user id. */
  names = new Map<number, string>();
  audits: AuditEntry[] = [];
  private nextId = 1;

  /** An id from the store's one sequence (records, scan rows, split rows). */
  id = () => this.nextId++;

  addTask(fields: Parameters<typeof taskRow>[0]): TaskRow {
    const t = taskRow(fields);
    this.tasks.set(t.id, t);
    return t;
  }
  addRecord(taskId: number, trackingId: string, productCount: number, fields: Partial<RecordRow> = {}): RecordRow {
    const r: RecordRow = {
      id: this.id(),
      taskId,
      userId: this.tasks.get(taskId)!.userId,
      trackingId,
      typedTrackingId: null,
      productCount,
      status: 'init',
      msg: '',
      assignedCount: null,
      missingNote: '',
      lostAt: null,
      claimedAt: null,
      createdAt: T0,
      updatedAt: T0,
      ...fields,
    };
    this.records.push(r);
    return r;
  }
  /** A stored scan row (status scan unless given: 'init' is an imported one). */
  addScan(trackingId: string, upc: string, count: number, fields: Partial<ScanRow> = {}): ScanRow {
    const row: ScanRow = { ...freshScanRow(this.id(), { trackingId, upc, count, itemId: 1, itemName: `item ${upc}`, opUid: null }, T0), ...fields };
    this.scans.push(row);
    return row;
  }

  /** What readForMatching answers for these tracking ids and tasks, with `newIds` ids for new rows. */
  read(trackingIds: string[], taskIds: number[] = [], newIds = 0): MatchingState {
    const live = (r: RecordRow) => this.tasks.get(r.taskId)!.status !== 'deleted';
    const concerned = new Set([
      ...this.records.filter((r) => trackingIds.includes(r.trackingId) && live(r)).map((r) => r.taskId),
      ...taskIds.filter((id) => this.tasks.has(id)),
    ]);
    const taskRows = new Map([...concerned].sort((a, b) => a - b).map((id) => [id, structuredClone(this.tasks.get(id)!)]));
    const ofTasks = this.records.filter((r) => concerned.has(r.taskId)).sort((a, b) => a.id - b.id);
    const state: MatchingState = {
      scans: new Map(),
      records: new Map(),
      taskRows,
      names: new Map([...taskRows.values()].map((t) => [t.userId, this.names.get(t.userId) ?? `user${t.userId}`])),
      recordsOfTask: new Map(
        [...taskRows.keys()].map((id) => [id, ofTasks.filter((r) => r.taskId === id).map((r) => ({ id: r.id, trackingId: r.trackingId }))]),
      ),
      newIds: Array.from({ length: newIds }, this.id),
      items: new Map(),
    };
    for (const t of new Set([...trackingIds, ...ofTasks.map((r) => r.trackingId)])) {
      state.scans.set(
        t,
        this.scans
          .filter((s) => s.trackingId === t)
          .sort((a, b) => a.id - b.id)
          .map((s) => structuredClone(s)),
      );
      state.records.set(
        t,
        this.records
          .filter((r) => r.trackingId === t && live(r))
          .sort((a, b) => a.id - b.id)
          .map((r) => ({ record: structuredClone(r), task: taskRows.get(r.taskId) ?? structuredClone(this.tasks.get(r.taskId)!) })),
      );
    }
    return state;
  }

  /** Applies a plan as writePlan does (ids for its split rows from the store's sequence). */
  write(plan: MatchPlan): CompletedPlan {
    const done = completePlan(
      plan,
      plan.splits.map(() => this.id()),
    );
    this.scans.push(...done.inserts);
    for (const after of plan.scanUpdates) this.scans[this.scans.findIndex((s) => s.id === after.id)] = { ...after, updatedAt: plan.now };
    for (const u of plan.recordUpdates)
      Object.assign(
        this.records.find((r) => r.id === u.id)!,
        u,
        { updatedAt: plan.now },
      );
    for (const t of plan.taskUpdates) this.tasks.set(t.id, t);
    this.audits.push(...done.audits);
    return done;
  }

  /** A matching run: read, plan, write (match.ts's run). */
  match(change: MatchChange, state = this.read(change.trackingIds, change.extraTaskIds)) {
    const plan = planMatching(state, change, NOW);
    return { plan, done: this.write(plan) };
  }

  /** A scan of a new row, as the scan calls do it: the row's id read with the snapshot, inserted by matching. */
  scan(trackingId: string, upc: string, count: number, actor: SessionUser | null = null) {
    const state = this.read([trackingId], [], 1);
    const row = freshScanRow(state.newIds[0]!, { trackingId, upc, count, itemId: 1, itemName: `item ${upc}`, opUid: actor?.id ?? null }, NOW);
    state.scans.get(trackingId)!.push(row);
    return this.match({ trackingIds: [trackingId], actor, fresh: [{ row, action: 'scan' }], seen: new Map() }, state);
  }
}
