// The task as the lifecycle store knows it (entities/store.ts): machines/task.machine.ts decides,
// with the row's productCount and canSplit as its context. Its decisions are remembered by status,
// context and event, which are all its guards read: matching asks the same few questions for every
// task it judges (a scan batch, a 50,000-row confirm), and resolving a snapshot and taking a
// transition in XState cost more than the rest of judging a task.
//
// Its parcels follow it: the machine's task.apply emits record.apply and task.pay record.pay,
// delivered (follow) to the scan rows tied to the task that the event concerns (CONCERNS), which
// change through the store as scan records (entities/scan-record.ts). The caller holds the tasks'
// tracking locks (lockForMatching: matching's lock on those rows), as every task.apply and
// task.pay caller does (lock order, money/payment-transitions.ts).
import { asc } from 'drizzle-orm';
import { isFrozen } from '../../../machines/scan-record.machine.ts';
import { decide, type Decision } from '../../../machines/stored-state.ts';
import { explainTaskRefusal, taskMachine, type TaskEvent, type TaskStatus } from '../../../machines/task.machine.ts';
import type { TaskParcelEvent } from '../../../machines/task.machine.ts';
import type { Tx } from '../db/client.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { tasks } from '../db/schema/tasks.ts';
import { taskChanged } from '../live/publish.ts';
import { scanRecordEntity, type ScanRecordRow } from './scan-record.ts';
import { anyId, applyToLocked, type Entity, type Moved } from './store.ts';

export type TaskRow = typeof tasks.$inferSelect;
export const TASK_NOT_FOUND = '任务不存在';

/** The machine's context of a stored task. */
export const taskContext = (row: Pick<TaskRow, 'productCount' | 'canSplit'>) => ({ productCount: row.productCount, canSplit: row.canSplit });

/** The task machine's decision on `event` for the task in `row` (stored-state decide). */
export const decideTask = (row: Pick<TaskRow, 'status' | 'productCount' | 'canSplit'>, event: TaskEvent): Decision<TaskStatus> =>
  decide(taskMachine, row.status, taskContext(row), event, explainTaskRefusal);

/**
 * Which of a task's parcels an event concerns: record.apply the ones not yet frozen (matching ties
 * only matched rows to a task), record.pay the ones its apply froze. A row matched to the task after
 * its apply (an admin raised a record of the processing task) is not part of the payment: it stays
 * as it is, as the application's count does.
 */
const CONCERNS: Record<TaskParcelEvent['type'], (row: ScanRecordRow) => boolean> = {
  'record.apply': (row) => !isFrozen(row),
  'record.pay': isFrozen,
};

/** Sends `event` to the parcels of the moved tasks it concerns (locked here, id order; the store refuses all or nothing). */
async function followParcels(tx: Tx, actor: SessionUser | null, moved: Moved<TaskRow>[], event: { type: string }) {
  const parcelEvent = event as TaskParcelEvent;
  const taskIds = [...new Set(moved.map((m) => m.after.id))];
  const tied = await tx.select().from(scanTrackings).where(anyId(scanTrackings.taskId, taskIds)).orderBy(asc(scanTrackings.id)).for('update');
  await applyToLocked(tx, scanRecordEntity, actor, tied.filter(CONCERNS[parcelEvent.type]), parcelEvent);
}

export const taskEntity: Entity<TaskRow, TaskStatus, TaskEvent> = {
  name: 'task',
  table: tasks,
  id: tasks.id,
  updatedAt: tasks.updatedAt,
  notFound: TASK_NOT_FOUND,
  ownerOf: (row) => row.userId,
  decide: decideTask,
  describe: (row) => ({
    userId: row.userId,
    mainId: row.mainId,
    subId: row.subId,
    taskId: row.id,
    upc: row.upc,
    count: row.count,
    itemName: row.itemName,
    status: row.status,
  }),
  live: taskChanged, // the member's task, the board's claims
  follow: { 'record.apply': followParcels, 'record.pay': followParcels },
};
