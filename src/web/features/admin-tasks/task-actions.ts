// Which lifecycle actions /admin/tasks offers on a task: exactly the events the task machine
// (machines/task.machine.ts, the one place these rules live; the server decides with the same
// machine) accepts for the row's status and context, asked as the admin.
//
// - match: the event carries the outcome the server's matching decides; the machine's guards only
//   pick the target state, and its last branch has no guard, so whether match is offered does not
//   depend on the outcome given here.
// - records (the purchased-records dialog) is no lifecycle event: it is offered for every task
//   except a pending one (a claim waiting for approval has no records yet, SPEC §4).
import { allowedEvents } from '../../../../machines/stored-state';
import { recordsShown, taskMachine, type TaskEvent } from '../../../../machines/task.machine';
import type { Task } from './admin-tasks-api';

export type AdminTaskAction = 'accept' | 'reject' | 'edit' | 'match' | 'close' | 'delete';

/** The machine event behind each action, in the order the table shows them. */
export const ADMIN_TASK_EVENTS: ReadonlyArray<readonly [AdminTaskAction, TaskEvent]> = [
  ['accept', { type: 'task.accept' }],
  ['reject', { type: 'task.reject' }],
  ['edit', { type: 'task.edit', by: 'admin' }],
  ['match', { type: 'task.match', outcome: 'open' }],
  ['close', { type: 'task.close' }],
  ['delete', { type: 'task.delete', by: 'admin' }],
];

type TaskFacts = Pick<Task, 'status' | 'productCount' | 'canSplit'>;

/** The lifecycle actions the machine allows on `task`. */
export function adminTaskActions(task: TaskFacts): AdminTaskAction[] {
  const allowed = allowedEvents(
    taskMachine,
    task.status,
    { productCount: task.productCount, canSplit: task.canSplit },
    ADMIN_TASK_EVENTS.map(([, event]) => event),
  );
  return ADMIN_TASK_EVENTS.filter(([, event]) => allowed.includes(event)).map(([action]) => action);
}

/** May the admin edit the task (the edit page's save)? */
export const canAdminEdit = (task: TaskFacts): boolean => adminTaskActions(task).includes('edit');

/** May the admin read the task's records (the task machine's recordsShown)? */
export const canViewRecords = (task: Pick<Task, 'status'>): boolean => recordsShown(task.status, 'admin');
