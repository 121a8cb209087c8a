// Task lists shared by the admin and member task screens: each task with its board, its claimer and
// the tracking ids of its purchased records (the contract's Task.trackingId, comma-joined).
import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { boards } from '../db/schema/boards.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { totalPagesOf } from '../paging.ts';
import { taskOut } from './shapes.ts';
import { canonicalTrackingId } from '../../../machines/tracking-id.ts';
import { CLAIMED_TASK_STATUSES, DELETED_TASK_STATUS } from '../../../machines/task.machine.ts';

const trackingIdsSql = sql<string>`coalesce((select string_agg(p.tracking_id, ',' order by p.id) from ${purchasedRecords} p where p.task_id = ${tasks.id}), '')`;

/** "Has a purchased record with this tracking id" (the trackingId filter of the task lists). */
export const hasTrackingId = (trackingId: string) =>
  sql`exists (select 1 from ${purchasedRecords} p where p.task_id = ${tasks.id} and p.tracking_id = ${canonicalTrackingId(trackingId)})`;

/**
 * "Claimed" (the member's task list's `claimed` filter): a task not deleted (CLAIMED_TASK_STATUSES),
 * the tasks whose units the member home's 已认领 figure sums (home/member-totals.ts), so the tile and
 * the list it opens agree.
 */
export const isClaimed = (): SQL => inArray(tasks.status, [...CLAIMED_TASK_STATUSES]);

/**
 * "Has records" (the member's task list's `recorded` filter): a claimed task with at least one
 * purchased record, the tasks whose units the 已购买（已填单号） figure sums.
 */
export const hasPurchasedRecord = (): SQL => and(isClaimed(), sql`exists (select 1 from ${purchasedRecords} p where p.task_id = ${tasks.id})`)!;

/** Matches a task's id or its mainId (the taskId filter: a claim and its split siblings). */
export const idOrMainId = (id: number) => sql`(${tasks.id} = ${id} or ${tasks.mainId} = ${id})`;

function baseSelect(tx: Tx) {
  return tx
    .select({ row: tasks, trackingIds: trackingIdsSql, boardUuid: boards.uuid, boardName: boards.boardName, nickName: users.nickName })
    .from(tasks)
    .innerJoin(boards, eq(boards.id, tasks.boardId))
    .innerJoin(users, eq(users.id, tasks.userId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof baseSelect>['execute']>>[number];
const out = (r: Selected) => taskOut(r.row, r);

/** Tasks matching `where`, in claim order (mainId, then subId), as the contract's Task. */
export async function listTasksWhere(tx: Tx, where: SQL | undefined) {
  const rows = await baseSelect(tx).where(where).orderBy(asc(tasks.mainId), asc(tasks.subId));
  return rows.map(out);
}

/** The tasks of these ids (only those of `ownerId` when given: a member's view), as listTasksWhere. */
export async function listTasksByIds(tx: Tx, ids: number[], ownerId?: number) {
  if (!ids.length) return [];
  return listTasksWhere(tx, and(inArray(tasks.id, ids), ownerId === undefined ? undefined : eq(tasks.userId, ownerId)));
}

/** Whether the member recorded this tracking id (canonical) on a purchased record of one of their live tasks. */
export async function recordedByMember(tx: Tx, userId: number, trackingId: string): Promise<boolean> {
  const [own] = await tx
    .select({ id: purchasedRecords.id })
    .from(purchasedRecords)
    .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
    .where(and(eq(purchasedRecords.trackingId, trackingId), eq(tasks.userId, userId), ne(tasks.status, DELETED_TASK_STATUS)))
    .limit(1);
  return own !== undefined;
}

/** A task's id and claimer, or undefined (who may ask for its labels). */
export async function taskOwnerOf(tx: Tx, id: number) {
  const [task] = await tx.select({ id: tasks.id, userId: tasks.userId }).from(tasks).where(eq(tasks.id, id));
  return task;
}

/** A task's row with its claimer's name and address (its labels), or undefined. */
export async function taskWithOwner(tx: Tx, id: number) {
  const [row] = await tx
    .select({ task: tasks, owner: { nickName: users.nickName, mailAddr: users.mailAddr } })
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.userId))
    .where(eq(tasks.id, id));
  return row;
}

/** One task as the contract's Task, or undefined. */
export async function findTask(tx: Tx, where: SQL) {
  const [row] = await baseSelect(tx).where(where).limit(1);
  return row && out(row);
}

/** A page of tasks matching `where`, newest first unless isDesc is false: {content, totalPages, totalElements}. */
export async function pageTasks(tx: Tx, where: SQL | undefined, p: { size: number; offset: number; isDesc: boolean }) {
  const order = p.isDesc ? [desc(tasks.createdAt), desc(tasks.id)] : [asc(tasks.createdAt), asc(tasks.id)];
  const [rows, [total]] = await Promise.all([
    baseSelect(tx)
      .where(where)
      .orderBy(...order)
      .limit(p.size)
      .offset(p.offset),
    tx
      .select({ n: sql<number>`count(*)::int` })
      .from(tasks)
      .where(where),
  ]);
  const totalElements = Number(total?.n ?? 0);
  return { content: rows.map(out), totalPages: totalPagesOf(totalElements, p.size), totalElements };
}

export const allOf = (...conds: (SQL | undefined)[]) => and(...conds.filter((c): c is SQL => c !== undefined));
