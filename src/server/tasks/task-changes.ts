// Task changes beyond a single event: locking a task for a change in the order matching uses,
// and splitting (SPEC §4 "Split is offered for open or unmatch tasks with canSplit", §8 '拆分失败';
// DECISIONS "Boards, claims and tasks": split creates siblings with the same mainId and subId
// 1, 2, ...; "Split separates the arrived units (-> locked) from the rest (stays open)").
import { eq, sql } from 'drizzle-orm';
import { writeAudit, type AuditEntry } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { boardTasks } from '../db/schema/boards.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { badRequest, notFound } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { lockForMatching, trackingIdsOfTasks } from '../db/matching-store.ts';
import { arrivalsOfTask, matchTasks } from '../matching/match.ts';
import { applyTaskEvent, lockTask, requireTransition, TASK_NOT_FOUND, type TaskRow } from './apply-event.ts';
import { publishLive, taskChanged } from '../live/publish.ts';
import { SPLIT_OFF_STATUS } from '../../../machines/task.machine.ts';
import { nextPurchasedStatus } from '../../../machines/purchased-record.machine.ts';

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
  await publishLive(tx, taskChanged(sib)); // live: the member's new sub-task

  const audits: AuditEntry[] = [
    {
      entity: 'task',
      entityId: sib.id,
      action: 'split.create',
      opUid: actor.id,
      userId: sib.userId,
      mainId: sib.mainId,
      subId: sib.subId,
      taskId: sib.id,
      upc: sib.upc,
      count: sib.count,
      itemName: sib.itemName,
      status: sib.status,
      before: { splitFrom: row.id },
      after: sib,
    },
  ];
  const recordAudit = (before: unknown, after: typeof purchasedRecords.$inferSelect, taskOf: TaskRow): AuditEntry => ({
    entity: 'purchased',
    entityId: after.id,
    action: 'split',
    opUid: actor.id,
    userId: taskOf.userId,
    mainId: taskOf.mainId,
    subId: taskOf.subId,
    taskId: taskOf.id,
    upc: taskOf.upc,
    count: after.productCount,
    itemName: taskOf.itemName,
    status: taskOf.status,
    trackingId: after.trackingId,
    before,
    after,
  });

  // The records follow their units, at most `arrived` units in all (records in id order).
  let left = arrived;
  for (const a of await arrivalsOfTask(tx, row.id)) {
    const n = Math.min(a.arrived, left);
    if (n <= 0) continue;
    left -= n;
    const rec = a.record;
    if (n === rec.productCount) {
      const status = nextPurchasedStatus(rec.status, { type: 'record.split', part: 'arrived' });
      const [moved] = await tx.update(purchasedRecords).set({ taskId: sib.id, status, msg: '' }).where(eq(purchasedRecords.id, rec.id)).returning();
      audits.push(recordAudit(rec, moved!, sib));
    } else {
      const [kept] = await tx
        .update(purchasedRecords)
        .set({ productCount: rec.productCount - n, status: nextPurchasedStatus(rec.status, { type: 'record.split', part: 'rest' }), msg: '' })
        .where(eq(purchasedRecords.id, rec.id))
        .returning();
      const [part] = await tx
        .insert(purchasedRecords)
        .values({
          taskId: sib.id,
          userId: rec.userId,
          trackingId: rec.trackingId,
          productCount: n,
          status: nextPurchasedStatus(rec.status, { type: 'record.split', part: 'arrived' }),
        })
        .returning();
      audits.push(recordAudit(rec, kept!, row), recordAudit({ splitFrom: rec.id }, part!, sib));
    }
  }
  await writeAudit(tx, audits);

  const original = await applyTaskEvent(tx, actor, row, { type: 'task.split' }, { set: { count: row.count - arrived, productCount: 0, canSplit: false } });
  await matchTasks(tx, [original.id, sib.id], actor);
  const [o] = await tx.select().from(tasks).where(eq(tasks.id, original.id));
  const [s] = await tx.select().from(tasks).where(eq(tasks.id, sib.id));
  return { original: o!, sibling: s! };
}
