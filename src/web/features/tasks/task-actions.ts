// Which actions a member is offered on one of their tasks (SPEC §2 /user/my-task and the board
// page's 'my tasks', §4 Task status). machines/task.machine.ts owns the rules: edit, delete, split
// and match are offered exactly when the machine accepts the event for the task's status and
// context ({productCount, canSplit}), through the same `allowedEvents` the server's `decide` reads,
// so a button is shown exactly when the server would accept it.
import { allowedEvents } from '../../../../machines/stored-state';
import { recordsEvent, recordsShown, taskDisplayId, taskMachine, type TaskEvent, type TaskStatus } from '../../../../machines/task.machine';
import type { Task } from './tasks-api';

export type MemberTaskAction = 'upload' | 'records' | 'edit' | 'delete' | 'split' | 'match' | 'labelPdf';

/** The order the tables show the actions in. */
export const MEMBER_TASK_ACTIONS: readonly MemberTaskAction[] = ['upload', 'records', 'edit', 'delete', 'split', 'match', 'labelPdf'];

/**
 * The machine event behind each machine-governed action, as the member sends it. A match's outcome
 * is decided by the server when it compares parcels and records; every state that accepts a match
 * accepts it whatever the outcome, so any outcome asks the same question here.
 */
export const MEMBER_TASK_EVENTS = {
  edit: { type: 'task.edit', by: 'user' },
  delete: { type: 'task.delete', by: 'user' },
  split: { type: 'task.split' },
  match: { type: 'task.match', outcome: 'open' },
} as const satisfies Partial<Record<MemberTaskAction, TaskEvent>>;

type MachineAction = keyof typeof MEMBER_TASK_EVENTS;
const MACHINE_ACTIONS = Object.keys(MEMBER_TASK_EVENTS) as MachineAction[];

/**
 * The records dialog (reading a task's purchased records), as the task machine's recordsShown asks
 * it for a member; changing them is memberMayChangeRecords.
 */
export const offersRecords = (status: TaskStatus): boolean => recordsShown(status, 'user');

/**
 * May the member add, edit or remove the records of the task (by hand or by Excel upload)? The task
 * machine's task.records (open or unmatch), as the server asks it; the records stay readable beyond.
 */
export function memberMayChangeRecords(task: Pick<Task, 'status' | 'productCount' | 'canSplit'>): boolean {
  return allowedEvents(taskMachine, task.status, { productCount: task.productCount, canSplit: task.canSplit }, [recordsEvent('user')]).length > 0;
}

/** The shipping-label PDF exists for a task shipped home (isHome), under the same rule as records. */
export function offersLabelPdf(task: Pick<Task, 'status' | 'isHome'>): boolean {
  return task.isHome && offersRecords(task.status);
}

type TaskFacts = Pick<Task, 'status' | 'productCount' | 'canSplit' | 'isHome'>;

/** The actions offered on a task, in the order the tables show them. */
export function memberTaskActions(task: TaskFacts): MemberTaskAction[] {
  const candidates = MACHINE_ACTIONS.map((action) => MEMBER_TASK_EVENTS[action]);
  const allowed = new Set<TaskEvent>(allowedEvents(taskMachine, task.status, { productCount: task.productCount, canSplit: task.canSplit }, candidates));
  const offered = new Set<MemberTaskAction>(MACHINE_ACTIONS.filter((action) => allowed.has(MEMBER_TASK_EVENTS[action])));
  if (memberMayChangeRecords(task)) offered.add('upload');
  if (offersRecords(task.status)) offered.add('records');
  if (offersLabelPdf(task)) offered.add('labelPdf');
  return MEMBER_TASK_ACTIONS.filter((action) => offered.has(action));
}

/** Whether the member may match the task (the record dialog's match button). */
export function canMatch(task: Pick<Task, 'status' | 'productCount' | 'canSplit'>): boolean {
  return allowedEvents(taskMachine, task.status, { productCount: task.productCount, canSplit: task.canSplit }, [MEMBER_TASK_EVENTS.match]).length > 0;
}

export { taskDisplayId };
