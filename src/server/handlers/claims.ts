// Claims and the task lists around them (SPEC §2 /user/board, /admin/tasks, §3 Task, §4 claim rules,
// §5 "Claim", §7 "Tasks"; DECISIONS "Boards, claims and tasks"). What may be claimed, and whether the
// new task is open or pending, is machines/claim.machine.ts (claimOutcome, claimFieldErrors): the
// server refuses exactly what the claim dialog refuses, with its words (A00001). Over-claiming is
// impossible under concurrent claims (claim locks the board task's row).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { containsText } from '../db/contains.ts';
import { claimFieldErrors, claimOutcome, type ClaimTarget } from '../../../machines/claim.machine.ts';
import { CLAIM_PENDING_STATUS } from '../../../machines/task.machine.ts';
import { writeAudit } from '../audit.ts';
import { taskOut, type TaskRow } from '../boards/shapes.ts';
import { allOf, findTask, hasTrackingId, idOrMainId, listTasksWhere, pageTasks } from '../boards/task-queries.ts';
import { BOARD_TASK_NOT_FOUND, boardByUuid, claimedUnits, isAdminSide, isExpired, visibleToMember } from '../boards/visibility.ts';
import type { Tx } from '../db/client.ts';
import { boards, boardTasks } from '../db/schema/boards.ts';
import { items } from '../db/schema/catalog.ts';
import { tasks } from '../db/schema/tasks.ts';
import { badRequest, notFound } from '../errors.ts';
import { pageOf } from '../paging.ts';
import { applyTaskEvent, lockTask } from '../tasks/apply-event.ts';
import { hasNotArrivedRecord } from '../tasks/not-arrived.ts';
import { publishLive, taskChanged } from '../live/publish.ts';
import { withMemberDetails } from '../tasks/member-task-list.ts';
import { me, ok, type Ctx, type Handlers } from './types.ts';
import type { SessionUser } from '../auth/session-user.ts';

export const TASK_NOT_FOUND = '任务不存在';

export const taskMessages = {
  claimed: '认领成功',
  claimedPending: '认领成功，等待管理员审核',
  accepted: '操作成功',
  rejected: '操作成功',
} as const;

interface ClaimInput {
  count: number;
  isHome: boolean;
  state?: string;
  zipCode?: string;
  labelCount: number | null;
}

/** `like` pattern for a substring, with the pattern characters of the input taken literally. */

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
async function claim(ctx: Ctx, user: SessionUser, boardTaskId: number, input: ClaimInput) {
  return ctx.db.transaction(async (tx) => {
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
    await writeAudit(tx, {
      entity: 'task',
      entityId: row.id,
      action: 'claim',
      opUid: user.id,
      userId: user.id,
      mainId: row.mainId,
      subId: row.subId,
      taskId: row.id,
      upc: row.upc,
      count: row.count,
      itemName: row.itemName,
      status: row.status,
      before: null,
      after: row,
    });
    await publishLive(tx, taskChanged(row)); // live: the member's new task, the board's claims
    const msg = row.status === CLAIM_PENDING_STATUS ? taskMessages.claimedPending : taskMessages.claimed;
    return ok({ status: 'succ' as const, msg, task: taskOut(row, { boardUuid: board.uuid, boardName: board.boardName, nickName: user.nickName }) }, msg);
  });
}

/**
 * Accepting or rejecting a pending claim (SPEC §4: pending -> open on accept, -> deleted on reject):
 * task.accept / task.reject of machines/task.machine.ts, applied by applyTaskEvent (locks the task,
 * refuses with the machine's message, writes the audit entry). A pending task has no purchased
 * records (its member cannot record any), so there is nothing to match afterwards.
 */
async function review(ctx: Ctx, user: SessionUser, taskId: number, decision: 'accept' | 'reject') {
  return ctx.db.transaction(async (tx: Tx) => {
    const before = await lockTask(tx, user, taskId);
    const row = await applyTaskEvent(tx, user, before, decision === 'accept' ? { type: 'task.accept' } : { type: 'task.reject' });
    const msg = decision === 'accept' ? taskMessages.accepted : taskMessages.rejected;
    return ok({ status: 'succ' as const, msg, task: (await findTask(tx, eq(tasks.id, row.id)))! }, msg);
  });
}

export const claimsHandlers: Handlers = {
  async claimBoardTask(req, ctx) {
    return claim(ctx, me(req), req.params.id, { count: req.params.count, isHome: false, labelCount: null });
  },

  async claimBoardTaskWithLabel(req, ctx) {
    const b = req.body;
    return claim(ctx, me(req), req.params.id, {
      count: req.params.count,
      isHome: b.isHome,
      state: b.state,
      zipCode: b.zipCode,
      labelCount: req.params.labelCount,
    });
  },

  async acceptTask(req, ctx) {
    return review(ctx, me(req), req.params.id, 'accept');
  },

  async rejectTask(req, ctx) {
    return review(ctx, me(req), req.params.id, 'reject');
  },

  async listBoardTaskTasks(req, ctx) {
    const [bt] = await ctx.db.select({ id: boardTasks.id }).from(boardTasks).where(eq(boardTasks.id, req.params.id));
    if (!bt) throw notFound(BOARD_TASK_NOT_FOUND);
    return ok(await listTasksWhere(ctx.db, eq(tasks.boardTaskId, bt.id)));
  },

  async listTasks(req, ctx) {
    const q = req.query;
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
      q.notArrived ? hasNotArrivedRecord : undefined,
    );
    return ok(await pageTasks(ctx.db, where, pageOf(q)));
  },

  async listUserTasks(req, ctx) {
    const q = req.query;
    const where = allOf(
      eq(tasks.userId, me(req).id),
      // One status or several (a repeated taskStatus; the contract coerces a single one to a list of one).
      q.taskStatus !== undefined ? inArray(tasks.status, q.taskStatus) : undefined,
      q.itemName?.trim() ? containsText(tasks.itemName, q.itemName.trim()) : undefined,
      q.taskId !== undefined ? idOrMainId(q.taskId) : undefined,
      q.trackingId?.trim() ? hasTrackingId(q.trackingId.trim()) : undefined,
      q.boardId !== undefined ? eq(tasks.boardId, q.boardId) : undefined,
    );
    // Each task with its tracking ids' verdicts and its application's bonuses (decision 106).
    return ok(await withMemberDetails(ctx.db, await pageTasks(ctx.db, where, pageOf(q))));
  },

  /** The member's own tasks on a board they can see (the board page's "my tasks" table). */
  async listUserBoardTasks(req, ctx) {
    const user = me(req);
    const board = await boardByUuid(ctx.db, user, req.query.boardUuid);
    return ok(await listTasksWhere(ctx.db, and(eq(tasks.boardId, board.id), eq(tasks.userId, user.id))));
  },

  /** One task; a member reads only their own (another's answers A00004 as if it did not exist). */
  async getTask(req, ctx) {
    const user = me(req);
    const task = await findTask(ctx.db, allOf(eq(tasks.id, req.params.id), isAdminSide(user) ? undefined : eq(tasks.userId, user.id))!);
    if (!task) throw notFound(TASK_NOT_FOUND);
    return ok(task);
  },
};
