// The task lists (SPEC §2 /admin/tasks, /user/my-task, /user/board's "my tasks"; §7 "Tasks"): the
// filters of each call as SQL over tasks, read through boards/task-queries.ts (one shape for every
// task answer). A member reads only their own tasks; another's answers A00004 as if it did not exist.
import { and, eq, inArray } from 'drizzle-orm';
import type { operations } from '../../api/schema';
import type { SessionUser } from '../auth/session-user.ts';
import { allOf, findTask, hasPurchasedRecord, hasTrackingId, idOrMainId, isClaimed, listTasksWhere, pageTasks } from '../boards/task-queries.ts';
import { BOARD_TASK_NOT_FOUND, boardByUuid, isAdminSide } from '../boards/visibility.ts';
import { containsText } from '../db/contains.ts';
import type { Db } from '../db/client.ts';
import { boardTasks } from '../db/schema/boards.ts';
import { tasks } from '../db/schema/tasks.ts';
import { TASK_NOT_FOUND } from '../entities/task.ts';
import { notFound } from '../errors.ts';
import { pageOf } from '../paging.ts';
import { hasNotArrivedRecord } from './not-arrived.ts';
import { withMemberDetails } from './member-task-list.ts';

type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

/** The tasks of a board task (the admin's claims of it). */
export async function boardTaskTasks(db: Db, boardTaskId: number) {
  const [bt] = await db.select({ id: boardTasks.id }).from(boardTasks).where(eq(boardTasks.id, boardTaskId));
  if (!bt) throw notFound(BOARD_TASK_NOT_FOUND);
  return listTasksWhere(db, eq(tasks.boardTaskId, bt.id));
}

/** A page of /admin/tasks, saying the setting's days its not-arrived filter waits (the checkbox's label). */
export async function adminTaskPage(db: Db, q: Query<'listTasks'>, missingDays: number) {
  const where = allOf(
    q.userId !== undefined ? eq(tasks.userId, q.userId) : undefined,
    q.taskStatus !== undefined ? eq(tasks.status, q.taskStatus) : undefined,
    q.itemId !== undefined ? eq(tasks.itemId, q.itemId) : undefined,
    q.itemName?.trim() ? containsText(tasks.itemName, q.itemName.trim()) : undefined,
    q.boardId !== undefined ? eq(tasks.boardId, q.boardId) : undefined,
    q.boardTaskId !== undefined ? eq(tasks.boardTaskId, q.boardTaskId) : undefined,
    q.taskId !== undefined ? idOrMainId(q.taskId) : undefined,
    q.trackingId?.trim() ? hasTrackingId(q.trackingId.trim()) : undefined,
    // The admin home's not-arrived count links here; false is no filter (not "arrived only").
    q.notArrived ? hasNotArrivedRecord(missingDays) : undefined,
  );
  return { ...(await pageTasks(db, where, pageOf(q))), notArrivedDays: missingDays };
}

/** A page of the member's own tasks (/user/my-task), each with its tracking ids' verdicts and its application's bonuses (decision 106). */
export async function memberTaskPage(db: Db, user: SessionUser, q: Query<'listUserTasks'>, missingDays: number) {
  const where = allOf(
    eq(tasks.userId, user.id),
    // One status or several (a repeated taskStatus; the contract coerces a single one to a list of one).
    q.taskStatus !== undefined ? inArray(tasks.status, q.taskStatus) : undefined,
    q.itemName?.trim() ? containsText(tasks.itemName, q.itemName.trim()) : undefined,
    q.taskId !== undefined ? idOrMainId(q.taskId) : undefined,
    q.trackingId?.trim() ? hasTrackingId(q.trackingId.trim()) : undefined,
    q.boardId !== undefined ? eq(tasks.boardId, q.boardId) : undefined,
    // The home's 已购买（已填单号） tile links here; false is no filter (not "without records").
    q.recorded ? hasPurchasedRecord() : undefined,
    // The home's 已认领 tile links here: not deleted; false is no filter.
    q.claimed ? isClaimed() : undefined,
  );
  return withMemberDetails(db, await pageTasks(db, where, pageOf(q)), missingDays);
}

/** The member's own tasks on a board they can see (the board page's "my tasks" table). */
export async function memberBoardTasks(db: Db, user: SessionUser, boardUuid: string) {
  const board = await boardByUuid(db, user, boardUuid);
  return listTasksWhere(db, and(eq(tasks.boardId, board.id), eq(tasks.userId, user.id)));
}

/** One task; a member reads only their own. */
export async function visibleTask(db: Db, user: SessionUser, id: number) {
  const task = await findTask(db, allOf(eq(tasks.id, id), isAdminSide(user) ? undefined : eq(tasks.userId, user.id))!);
  if (!task) throw notFound(TASK_NOT_FOUND);
  return task;
}
