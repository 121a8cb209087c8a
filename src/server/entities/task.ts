// The task as the lifecycle store knows it (entities/store.ts): machines/task.machine.ts decides,
// with the row's productCount and canSplit as its context. Its decisions are remembered by status,
// context and event, which are all its guards read: matching asks the same few questions for every
// task it judges (a scan batch, a 50,000-row confirm), and resolving a snapshot and taking a
// transition in XState cost more than the rest of judging a task.
import { decide, type Decision } from '../../../machines/stored-state.ts';
import { explainTaskRefusal, taskMachine, type TaskEvent, type TaskStatus } from '../../../machines/task.machine.ts';
import { tasks } from '../db/schema/tasks.ts';
import { taskChanged } from '../live/publish.ts';
import type { Entity } from './store.ts';

export type TaskRow = typeof tasks.$inferSelect;
export const TASK_NOT_FOUND = '任务不存在';

/** The machine's context of a stored task. */
export const taskContext = (row: Pick<TaskRow, 'productCount' | 'canSplit'>) => ({ productCount: row.productCount, canSplit: row.canSplit });

const decisions = new Map<string, Decision<TaskStatus>>();

/** The task machine's decision on `event` for the task in `row` (stored-state decide), remembered. */
export function decideTask(row: Pick<TaskRow, 'status' | 'productCount' | 'canSplit'>, event: TaskEvent): Decision<TaskStatus> {
  const key = `${row.status}|${row.productCount}|${row.canSplit}|${JSON.stringify(event)}`;
  let d = decisions.get(key);
  if (!d) {
    d = decide(taskMachine, row.status, taskContext(row), event, explainTaskRefusal);
    if (decisions.size < 10_000) decisions.set(key, d);
  }
  return d;
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
};
