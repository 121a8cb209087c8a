// Task changes beyond a single event: locking a task for a change in the order matching uses,
// and splitting (SPEC §4 "Split is offered for open or unmatch tasks with canSplit", §8 '拆分失败';
// DECISIONS "Boards, claims and tasks": split creates siblings with the same mainId and subId
// 1, 2, ...; "Split separates the arrived units (-> locked) from the rest (stays open)"). Status
// changes go through the lifecycle store: the task's (task.split) and its records' (record.split).
import { eq, sql } from 'drizzle-orm';
import { writeAudit } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { boardTasks } from '../db/schema/boards.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { badRequest, notFound } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { lockForMatching, trackingIdsOfTasks } from '../db/matching-store.ts';
import { arrivalsOfTask, matchTasks } from '../matching/match.ts';
import { applyTaskEvent, lockTask, requireTransition, TASK_NOT_FOUND, type TaskRow } from './apply-event.ts';
import { publishLive } from '../live/publish.ts';
import { SPLIT_OFF_STATUS } from '../../../machines/task.machine.ts';
import { purchasedAuditEntry, purchasedEntity, taskAudit } from '../entities/purchased-record.ts';
import { applyToLocked, auditOf, planEvent } from '../entities/store.ts';
import { taskEntity } from '../entities/task.ts';

export type BoardTaskRow = typeof boardTasks.$inferSelect;

/**
 * Locks task `taskId` for a change by `user` (their own, or any for the admin side; else A00004),
 * in the order matching uses: first the tracking ids of its records and the tasks sharing them
 * (lockForMatching, which locks this task too), then - with `boardTask` - its board task (what a
 * count edit sums, as the claim does; claims lock only the board task, so this cannot cycle).
 */
export async function lockTaskForChange(
  tx: Tx,
  user: SessionUser,
  taskId: number,
  opts: { boardTask?: boolean } = {},
): Promise<{ task: TaskRow; boardTask: BoardTaskRow | null }> {
  const [peek] = await tx.select({ userId: tasks.userId, boardTaskId: tasks.boardTaskId }).from(tasks).where(eq(tasks.id, taskId));
  if (!peek || (user.roleType === 'user' && peek.userId !== user.id)) throw notFound(TASK_NOT_FOUND);
  await lockForMatching(tx, await trackingIdsOfTasks(tx, [taskId]), [taskId]);
  let boardTask: BoardTaskRow | null = null;
  if (opts.boardTask) {
    [boardTask = null] = await tx.select().from(boardTasks).where(eq(boardTasks.id, peek.boardTaskId)).for('update');
  }
  const task = await lockTask(tx, user, taskId);
  return { task, boardTask };
}

export const splitMessages = {
  failed: '拆分失败',
  done: '拆分成功',
} as const;

/**
 * Splits the arrived units off task `row` (locked by lockTaskForChange):
 *
 * - The task machine decides (task.split: open or unmatch with canSplit; refused with its message).
 *   Beyond it, a split needs 0 < productCount < count, else '拆分失败' (nothing, or everything,
 *   would be split off).
 * - A new sibling: same mainId, the next subId, status locked, count = productCount =
 *   the arrived units, canSplit false; board, item, prices, upc and isHome/state/zipCode copied.
 *   bonus, punish and labelCount stay with the original (they were set on the claim).
 * - The original keeps count - productCount with productCount 0 and canSplit false; the machine
 *   moves it to open (from unmatch too).
 * - Purchased records follow their units (decision): a record whose units all arrived moves to the
 *   sibling; a record of which only some arrived is divided - the arrived part becomes a record of
 *   the sibling with the same tracking id (status match) and the original keeps the rest (init);
 *   records of which nothing arrived stay. So the sibling's records account exactly for its units
 *   and the original's records for what is still expected.
 * - Then matching re-runs over both tasks' tracking ids: the scanned rows are re-tied to the
 *   sibling (settled tasks are served first, matching/allocate.ts), and the original is evaluated
 *   again (it may turn unmatch again if its parcel still disagrees).
 * Every change is audited (task: split of the original, split.create of the sibling; purchased:
 * split of each record moved or divided).
 */
export async function splitTask(tx: Tx, actor: SessionUser, row: TaskRow): Promise<{ original: TaskRow; sibling: TaskRow }> {
  requireTransition(row, { type: 'task.split' });
  const arrived = row.productCount;
  if (arrived < 1 || arrived >= row.count) throw badRequest(splitMessages.failed);

  const sib = await insertSibling(tx, actor, row, arrived);
  await moveRecords(tx, actor, row, sib, arrived);
  const original = await applyTaskEvent(tx, actor, row, { type: 'task.split' }, { set: { count: row.count - arrived, productCount: 0, canSplit: false } });
  await matchTasks(tx, [original.id, sib.id], actor);
  const [o] = await tx.select().from(tasks).where(eq(tasks.id, original.id));
  const [s] = await tx.select().from(tasks).where(eq(tasks.id, sib.id));
  return { original: o!, sibling: s! };
}

/** The sibling of a split: the next subId of `row`'s mainId, holding the `arrived` units; announced and audited (split.create). */
async function insertSibling(tx: Tx, actor: SessionUser, row: TaskRow, arrived: number): Promise<TaskRow> {
  const [last] = await tx
    .select({ n: sql<number>`coalesce(max(${tasks.subId}), 0)::int` })
    .from(tasks)
    .where(eq(tasks.mainId, row.mainId));
  const [sibling] = await tx
    .insert(tasks)
    .values({
      mainId: row.mainId,
      subId: Number(last?.n ?? 0) + 1,
      boardId: row.boardId,
      boardTaskId: row.boardTaskId,
      userId: row.userId,
      itemId: row.itemId,
      itemName: row.itemName,
      url: row.url,
      price: row.price,
      buyIn: row.buyIn,
      count: arrived,
      productCount: arrived,
      status: SPLIT_OFF_STATUS,
      isHome: row.isHome,
      state: row.state,
      zipCode: row.zipCode,
      upc: row.upc,
      canSplit: false,
      trackingId: row.trackingId,
    })
    .returning();
  const sib = sibling!;
  await publishLive(tx, taskEntity.live(sib)); // live: the member's new sub-task
  await writeAudit(tx, { ...auditOf(taskEntity, actor, 'split.create', null, sib), before: { splitFrom: row.id } });
  return sib;
}

/**
 * The records of `row` follow their units, at most `arrived` units in all (records in id order):
 * each one moved to the sibling `sib` or divided is the machine's record.split (the arrived part,
 * the rest), through the lifecycle store (audited as split, with the task it belongs to after). The
 * records are held by the task's lock (lockTaskForChange), under which every record change runs.
 */
async function moveRecords(tx: Tx, actor: SessionUser, row: TaskRow, sib: TaskRow, arrived: number) {
  const arrivedPart = { type: 'record.split', part: 'arrived' } as const;
  let left = arrived;
  for (const a of await arrivalsOfTask(tx, row.id)) {
    const n = Math.min(a.arrived, left);
    if (n <= 0) continue;
    left -= n;
    const rec = a.record;
    if (n === rec.productCount) {
      await applyToLocked(tx, purchasedEntity, actor, [rec], arrivedPart, { set: { taskId: sib.id, msg: '' }, audit: () => taskAudit(sib) });
      continue;
    }
    await applyToLocked(
      tx,
      purchasedEntity,
      actor,
      [rec],
      { type: 'record.split', part: 'rest' },
      { set: { productCount: rec.productCount - n, msg: '' }, audit: () => taskAudit(row) },
    );
    // The arrived part is a new record of the sibling, in the state the machine gives that part.
    const status = planEvent(purchasedEntity, [rec], arrivedPart)[0]!.next;
    const [part] = await tx
      .insert(purchasedRecords)
      .values({ taskId: sib.id, userId: rec.userId, trackingId: rec.trackingId, productCount: n, status })
      .returning();
    await writeAudit(tx, purchasedAuditEntry(actor, 'split', sib, { splitFrom: rec.id }, part!));
  }
}
