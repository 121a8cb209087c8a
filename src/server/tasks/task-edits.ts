// A member's and an admin's changes to tasks, and what the task dialogs read (SPEC §2 /user/my-task, /admin/tasks, /admin/task/{id};
// §4 task status; §5 "User task edit: count required ('count必填')"; §7 "Tasks"; §8 '拆分失败';
// DECISIONS "Boards, claims and tasks"). Every status change is an event of machines/task.machine.ts
// applied by applyTaskEvent (src/server/tasks/apply-event.ts): the server refuses exactly what the
// machine refuses, with its message (A00001), and writes the audit entry in the same transaction.
// Field edits are task.edit (by user: open only; by admin: not pending or deleted). After a count
// change, a delete or a close, matching runs again for the task's tracking ids (matchTasks). Claims,
// review and the task lists are claims.ts. The calls are handlers/tasks.ts.
import { and, eq, inArray } from 'drizzle-orm';
import { claimFieldErrors, type ClaimTarget } from '../../../machines/claim.machine.ts';
import { adminStatusEvent, type TaskEvent } from '../../../machines/task.machine.ts';
import { findTask } from '../boards/task-queries.ts';
import { claimedUnits, isAdminSide, isExpired } from '../boards/visibility.ts';
import type { Db, Tx } from '../db/client.ts';
import { boards } from '../db/schema/boards.ts';
import { paymentApplies } from '../db/schema/money.ts';
import { tasks } from '../db/schema/tasks.ts';
import { badRequest } from '../errors.ts';
import { arrivalsOfTask, matchTasks } from '../matching/match.ts';
import { toCents } from '../money/cents.ts';
import { applyTaskEvent, requireTransition, type TaskRow } from './apply-event.ts';
import { lockTaskForChange, splitMessages, splitTask } from './task-changes.ts';
import type { SessionUser } from '../auth/session-user.ts';

export const taskEditMessages = {
  countRequired: 'count必填',
  saved: '保存成功',
  deleted: '删除成功',
  statusNotEditable: '参数错误：字段 status 只能改为 closed 或 deleted',
} as const;

const taskOutOf = async (tx: Tx, id: number) => (await findTask(tx, eq(tasks.id, id)))!;

/**
 * A member's count (and labelCount) edit of an own task.
 *
 * It obeys the claim rules in 'edit' mode (claimFieldErrors: whole number, at least 1, at most the
 * board task's remaining shown quantity plus the task's own count), with the board task row locked
 * as a claim locks it, so edits and claims never over-claim together. isHome, state and zipCode
 * never change; labelCount changes only through the /label/{m} call.
 */
export async function editQuantity(db: Db, user: SessionUser, id: number, count: number, labelCount?: number) {
  return db.transaction(async (tx) => {
    const { task, boardTask } = await lockTaskForChange(tx, user, id, { boardTask: true });
    const event: TaskEvent = { type: 'task.edit', by: 'user' };
    // The machine first (an edit of a task that is not open is refused whatever the numbers).
    requireTransition(task, event);
    const [board] = await tx.select().from(boards).where(eq(boards.id, task.boardId));
    const target: ClaimTarget = {
      boardStatus: board!.status,
      boardExpired: isExpired(board!),
      boardTaskStatus: boardTask!.status,
      show: boardTask!.show,
      claimed: await claimedUnits(tx, boardTask!.id),
    };
    const nextLabel = labelCount ?? task.labelCount;
    const errors = claimFieldErrors(
      { count, isHome: task.isHome, state: task.state ?? '', zipCode: task.zipCode ?? '', labelCount: nextLabel },
      target,
      'edit',
      task.count,
    );
    const first = Object.values(errors)[0];
    if (first) throw badRequest(first);
    await applyTaskEvent(tx, user, task, event, { set: { count, labelCount: nextLabel } });
    if (count !== task.count) await matchTasks(tx, [task.id], user);
    return { msg: taskEditMessages.saved, task: await taskOutOf(tx, task.id) };
  });
}

/** The admin's field changes that differ from the row. */
function adminFieldChanges(row: TaskRow, b: { count: number; labelCount?: number; price?: number | null; buyIn?: number; bonus?: number; punish?: number }) {
  const set: Partial<TaskRow> = {};
  if (b.count !== row.count) set.count = b.count;
  if (b.labelCount !== undefined && b.labelCount !== (row.labelCount ?? 0)) set.labelCount = b.labelCount;
  const money = { price: b.price, buyIn: b.buyIn, bonus: b.bonus, punish: b.punish } as const;
  for (const k of Object.keys(money) as (keyof typeof money)[]) {
    const v = money[k];
    if (v === null) {
      if (row.price !== null) set.price = null;
    } else if (v !== undefined && toCents(v) !== row[k]) set[k] = toCents(v);
  }
  return set;
}

/** A member deletes an own task (task.delete by user); matching runs again for its tracking ids. */
export async function deleteOwnTask(db: Db, user: SessionUser, id: number) {
  return db.transaction(async (tx) => {
    const { task } = await lockTaskForChange(tx, user, id);
    await applyTaskEvent(tx, user, task, { type: 'task.delete', by: 'user' });
    await matchTasks(tx, [task.id], user);
    return { msg: taskEditMessages.deleted };
  });
}

export interface AdminTaskEdit {
  id: number;
  count?: number;
  labelCount?: number;
  price?: number | null;
  buyIn?: number;
  bonus?: number;
  punish?: number;
  status?: TaskRow['status'];
}

/**
 * The admin edit sets count (required, 'count必填'), labelCount, price, buyIn, bonus and punish
 * (task.edit by admin); its status asks for task.close or task.delete (by admin), applied after the
 * field edit; a status equal to the current one is no event (as the board save does). Without a
 * status change the edit is applied even when no field differs, so the admin's save is refused
 * exactly when the machine refuses task.edit. The admin is not held to the remaining shown quantity:
 * the admin corrects what a member holds. Matching runs again after a count change, a delete or a
 * close: the count decides whether the arrived units are "all" (locked); matching never ties more
 * units than the count (decision 090), and a deleted task's records no longer hold scanned units.
 */
export async function adminEditTask(db: Db, user: SessionUser, b: AdminTaskEdit) {
  if (b.count === undefined) throw badRequest(taskEditMessages.countRequired);
  const count = b.count;
  return db.transaction(async (tx) => {
    const { task } = await lockTaskForChange(tx, user, b.id);
    const set = adminFieldChanges(task, { ...b, count });
    // A status as read (the current one) is no event; an admin asks for closed or deleted only.
    const statusEvent: TaskEvent | null = b.status === undefined || b.status === task.status ? null : adminStatusEvent(b.status);
    if (b.status !== undefined && b.status !== task.status && !statusEvent) throw badRequest(taskEditMessages.statusNotEditable);
    let row = task;
    if (!statusEvent || Object.keys(set).length) row = await applyTaskEvent(tx, user, row, { type: 'task.edit', by: 'admin' }, { set });
    if (statusEvent) row = await applyTaskEvent(tx, user, row, statusEvent);
    if (statusEvent || set.count !== undefined) await matchTasks(tx, [row.id], user);
    const msg = statusEvent?.type === 'task.delete' ? taskEditMessages.deleted : taskEditMessages.saved;
    return { msg, task: await taskOutOf(tx, row.id) };
  });
}

/** A member splits the arrived units off an own task (tasks/task-changes.ts splitTask). */
export async function splitOwnTask(db: Db, user: SessionUser, id: number) {
  return db.transaction(async (tx) => {
    const { task } = await lockTaskForChange(tx, user, id);
    const { original, sibling } = await splitTask(tx, user, task);
    return { msg: splitMessages.done, tasks: [await taskOutOf(tx, original.id), await taskOutOf(tx, sibling.id)] };
  });
}

/**
 * Which of `ids` have a payment application, about tasks the caller may see only: for a member,
 * another member's task id reads as a task without an application, as if it did not exist.
 */
export async function applicationsExist(db: Db, user: SessionUser, ids: number[]) {
  const rows = await db
    .select({ taskId: paymentApplies.taskId })
    .from(paymentApplies)
    .innerJoin(tasks, eq(tasks.id, paymentApplies.taskId))
    .where(and(inArray(paymentApplies.taskId, ids), isAdminSide(user) ? undefined : eq(tasks.userId, user.id)));
  const applied = new Set(rows.map((r) => r.taskId));
  return Object.fromEntries(ids.map((id) => [String(id), applied.has(id)]));
}

/**
 * What has arrived of each task of `ids`, record by record, about tasks the caller may see only: for
 * a member, another member's task id is left out, as if it did not exist.
 */
export async function partMatchOf(db: Db, user: SessionUser, ids: number[]) {
  const rows = await db
    .select()
    .from(tasks)
    .where(and(inArray(tasks.id, ids), isAdminSide(user) ? undefined : eq(tasks.userId, user.id)))
    .orderBy(tasks.id);
  const out = [];
  for (const t of rows) {
    const arrivals = await arrivalsOfTask(db, t.id);
    out.push({
      taskId: t.id,
      count: t.count,
      productCount: t.productCount,
      canSplit: t.canSplit,
      status: t.status,
      recordedCount: arrivals.reduce((n, a) => n + a.record.productCount, 0),
      arrivedCount: arrivals.reduce((n, a) => n + a.arrived, 0),
      records: arrivals.map((a) => ({
        id: a.record.id,
        trackingId: a.record.trackingId,
        productCount: a.record.productCount,
        arrived: a.arrived,
        status: a.status,
        msg: a.msg,
      })),
    });
  }
  return out;
}
