// Which actions the member's "my tasks" table offers on a task (SPEC §2 /user/board/{id}, §4 Task
// status):
// - upload and records: every task except a pending one (a pending claim waits for an admin);
// - edit: only an open task;
// - delete: an open or unmatch task with nothing arrived yet (productCount 0). SPEC §4's "open or
//   unmatch and productCount is 0" is read as (open or unmatch) and productCount 0: units that
//   arrived must not be thrown away with the task.
//
// Interim home: machines/task.machine.ts (the task-lifecycle issue) will own these rules, for this
// table and the server alike; these functions then read from it. The actions themselves arrive with
// that issue too.
import type { MemberTask } from './member-boards-api';

export type MemberTaskAction = 'upload' | 'records' | 'edit' | 'delete';

type TaskFacts = Pick<MemberTask, 'status' | 'productCount'>;

export const canUploadRecords = (task: TaskFacts): boolean => task.status !== 'pending';
export const canViewRecords = (task: TaskFacts): boolean => task.status !== 'pending';
export const canEditTask = (task: TaskFacts): boolean => task.status === 'open';
export const canDeleteTask = (task: TaskFacts): boolean =>
  (task.status === 'open' || task.status === 'unmatch') && task.productCount === 0;

/** The actions offered on a task, in the order the table shows them. */
export function memberTaskActions(task: TaskFacts): MemberTaskAction[] {
  const actions: MemberTaskAction[] = [];
  if (canUploadRecords(task)) actions.push('upload');
  if (canViewRecords(task)) actions.push('records');
  if (canEditTask(task)) actions.push('edit');
  if (canDeleteTask(task)) actions.push('delete');
  return actions;
}

/** SPEC §2: a task is shown as mainId, plus '-subId' when subId is not 0. */
export function taskDisplayId(task: Pick<MemberTask, 'mainId' | 'subId'>): string {
  return task.subId === 0 ? String(task.mainId) : `${task.mainId}-${task.subId}`;
}
