// Claims (SPEC §2 /user/board, §4 claim rules, §5 "Claim"; DECISIONS "Boards, claims and tasks"):
// what may be claimed, and whether the new task is open or pending, is machines/claim.machine.ts
// (claimOutcome, claimFieldErrors): the server refuses exactly what the claim dialog refuses, with
// its words (A00001). Over-claiming is impossible under concurrent claims (claim locks the board
// task's row). Accepting or rejecting a pending claim is the task machine's, through the store.
import { and, eq, sql } from 'drizzle-orm';
import { claimFieldErrors, claimOutcome, type ClaimTarget } from '../../../machines/claim.machine.ts';
import { CLAIM_PENDING_STATUS } from '../../../machines/task.machine.ts';
import { writeAudit } from '../audit.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { taskOut, type TaskRow } from '../boards/shapes.ts';
import { findTask } from '../boards/task-queries.ts';
import { BOARD_TASK_NOT_FOUND, claimedUnits, isExpired, visibleToMember } from '../boards/visibility.ts';
import type { Db, Tx } from '../db/client.ts';
import { boards, boardTasks } from '../db/schema/boards.ts';
import { items } from '../db/schema/catalog.ts';
import { tasks } from '../db/schema/tasks.ts';
import { auditOf } from '../entities/store.ts';
import { taskEntity } from '../entities/task.ts';
import { badRequest, notFound } from '../errors.ts';
import { publishLive, taskChanged } from '../live/publish.ts';
import { applyTaskEvent, lockTask } from './apply-event.ts';

export const taskMessages = {
  claimed: '认领成功',
  claimedPending: '认领成功，等待管理员审核',
  accepted: '操作成功',
  rejected: '操作成功',
} as const;

export interface ClaimInput {
  count: number;
  isHome: boolean;
  state?: string;
  zipCode?: string;
  labelCount: number | null;
}

/**
 * One claim, in one transaction: lock the board task, find its board (visible to the member, else
 * A00004 as if it did not exist), sum what is claimed, ask the claim rules, insert the task (id and
 * mainId from one nextval of the tasks id sequence, subId 0) and its audit entry.
 *
 * Over-claiming is impossible under concurrent claims: the transaction locks the board task's row
 * (SELECT ... FOR UPDATE) before summing the units of its non-deleted tasks, so claims of one board
 * task run one after another, each seeing every unit claimed before it.
 *
 * When the claims of a board task reach its shown quantity its status is NOT set to full: "full" is
 * the admin's word for "no more claims even if units free up"; a board task whose claims reach show
 * is already closed to claims by the remaining-quantity rule ('不能认领超过0件'), and it opens again
 * by itself when a claim is deleted or rejected. Progress (claimCount / show) tells members it is
 * full.
 */
export async function claim(db: Db, user: SessionUser, boardTaskId: number, input: ClaimInput) {
  return db.transaction(async (tx) => {
    const [bt] = await tx.select().from(boardTasks).where(eq(boardTasks.id, boardTaskId)).for('update');
    if (!bt) throw notFound(BOARD_TASK_NOT_FOUND);
    const [board] = await tx
      .select()
      .from(boards)
      .where(and(eq(boards.id, bt.boardId), visibleToMember(user.id)))
      .limit(1);
    if (!board) throw notFound(BOARD_TASK_NOT_FOUND);

    const target: ClaimTarget = {
      boardStatus: board.status,
      boardExpired: isExpired(board),
      boardTaskStatus: bt.status,
      show: bt.show,
      claimed: await claimedUnits(tx, bt.id),
    };
    const outcome = claimOutcome(target);
    if (!outcome.ok) throw badRequest(outcome.msg);
    const errors = claimFieldErrors(
      { count: input.count, isHome: input.isHome, state: input.state, zipCode: input.zipCode, labelCount: input.labelCount },
      target,
    );
    const first = Object.values(errors)[0];
    if (first) throw badRequest(first);

    const [item] = await tx.select({ upc: items.upc }).from(items).where(eq(items.id, bt.itemId));
    // One nextval of the tasks id sequence becomes both id and mainId (schema/tasks.ts: a claim is
    // its own main task).
    const [seq] = await tx.select({ id: sql<number>`nextval(pg_get_serial_sequence('tasks', 'id'))::int` }).from(sql`(select 1) as one`);
    const id = Number(seq!.id);
    const [row] = (await tx
      .insert(tasks)
      .values({
        id,
        mainId: id,
        subId: 0,
        boardId: board.id,
        boardTaskId: bt.id,
        userId: user.id,
        itemId: bt.itemId,
        itemName: bt.itemName,
        url: bt.url,
        price: bt.price,
        buyIn: bt.buyIn,
        count: input.count,
        status: outcome.taskStatus,
        isHome: input.isHome,
        // isHome, state and zipCode are fixed at claim time (SPEC §5); without isHome they are empty.
        state: input.isHome ? input.state!.trim() : null,
        zipCode: input.isHome ? input.zipCode!.trim() : null,
        labelCount: input.labelCount,
        upc: item?.upc ?? null,
      })
      .returning()) as [TaskRow];
    await writeAudit(tx, auditOf(taskEntity, user, 'claim', null, row));
    await publishLive(tx, taskChanged(row)); // live: the member's new task, the board's claims
    const msg = row.status === CLAIM_PENDING_STATUS ? taskMessages.claimedPending : taskMessages.claimed;
    return { msg, task: taskOut(row, { boardUuid: board.uuid, boardName: board.boardName, nickName: user.nickName }) };
  });
}

/**
 * Accepting or rejecting a pending claim (SPEC §4: pending -> open on accept, -> deleted on reject):
 * task.accept / task.reject of machines/task.machine.ts, applied by applyTaskEvent (locks the task,
 * refuses with the machine's message, writes the audit entry). A pending task has no purchased
 * records (its member cannot record any), so there is nothing to match afterwards.
 */
export async function review(db: Db, user: SessionUser, taskId: number, decision: 'accept' | 'reject') {
  return db.transaction(async (tx: Tx) => {
    const before = await lockTask(tx, user, taskId);
    const row = await applyTaskEvent(tx, user, before, decision === 'accept' ? { type: 'task.accept' } : { type: 'task.reject' });
    const msg = decision === 'accept' ? taskMessages.accepted : taskMessages.rejected;
    return { msg, task: (await findTask(tx, eq(tasks.id, row.id)))! };
  });
}
