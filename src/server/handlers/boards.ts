// Boards (SPEC §2 board screens, §3 Board, §4 board status and publication, §5 "Board", §7 "Boards"
// and the publish calls; DECISIONS "Boards, claims and tasks", "Mail"). Every status change of a
// board (publish in its three variants, close, reopen) is asked of machines/board.machine.ts through
// decide(): the server refuses exactly what the machine refuses, with its message (A00001). Who may
// see a board is src/server/boards/visibility.ts.
import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import {
  boardMachine,
  CLOSED_BOARD_STATUS,
  explainBoardRefusal,
  NEW_BOARD_STATUS,
  type BoardContext,
  type BoardEvent,
  type BoardStatus,
  type PublishMode,
} from '../../../machines/board.machine.ts';
import { DELETED_BOARD_TASK_STATUS } from '../../../machines/claim.machine.ts';
import { decide } from '../../../machines/stored-state.ts';
import { writeAudit } from '../audit.ts';
import { boardOut } from '../boards/shapes.ts';
import { BOARD_NOT_FOUND, boardById, boardByUuid, boardScope, isAdminSide, type BoardRow } from '../boards/visibility.ts';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { boardGroups, boards, boardTasks, boardUsers } from '../db/schema/boards.ts';
import { userGroupMembers, userGroups } from '../db/schema/groups.ts';
import { badRequest, notFound } from '../errors.ts';
import { parseIdList } from '../ids.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { boardPublishedMail } from '../mail/templates.ts';
import { pageOf, totalPagesOf } from '../paging.ts';
import { me, ok, type Ctx, type Handlers } from './types.ts';
import type { SessionUser } from '../auth/session-user.ts';

/** SPEC §5 "Board: all fields except id required ('{field}必填')", with the form's labels. */
const BOARD_LABELS = { boardName: '看板名称', remark: '备注', publishAt: '发布时间', expireAt: '截止时间' } as const;

export const boardSaveMessages = {
  expireBeforePublish: '截止时间必须晚于发布时间',
  created: '创建成功',
  saved: '保存成功',
  published: '操作成功',
  notUnpublish: '已发布的看板不能改回未发布',
} as const;

function filled(value: string | undefined, label: string): string {
  const v = (value ?? '').trim();
  if (!v) throw badRequest(`${label}必填`);
  return v;
}

function dateOf(ms: number, label: string): Date {
  const d = new Date(ms);
  if (!Number.isFinite(d.getTime())) throw badRequest(`${label}格式错误`);
  return d;
}

/** What the board machine's guards read: non-deleted board tasks and bound groups. */
export async function boardContext(tx: Tx, boardId: number): Promise<BoardContext> {
  const [tasksRow] = await tx
    .select({ n: count() })
    .from(boardTasks)
    .where(and(eq(boardTasks.boardId, boardId), ne(boardTasks.status, DELETED_BOARD_TASK_STATUS)));
  const [groupsRow] = await tx.select({ n: count() }).from(boardGroups).where(eq(boardGroups.boardId, boardId));
  return { taskCount: tasksRow?.n ?? 0, groupCount: groupsRow?.n ?? 0 };
}

/**
 * The board row locked for the rest of the transaction, or A00004: publishes and edits of one board
 * run one after another. FOR NO KEY UPDATE, not FOR UPDATE, so claims inserting tasks that point at
 * the board (their foreign-key check takes KEY SHARE) are not held up by it.
 */
async function lockBoard(tx: Tx, id: number): Promise<BoardRow> {
  const [row] = await tx.select().from(boards).where(eq(boards.id, id)).for('no key update');
  if (!row) throw notFound(BOARD_NOT_FOUND);
  return row;
}

/** Asks the board machine; a refusal is A00001 with the machine's message. */
function boardDecision(status: BoardStatus, context: BoardContext, event: BoardEvent): BoardStatus {
  const decision = decide(boardMachine, status, context, event, explainBoardRefusal);
  if (!decision.ok) throw badRequest(decision.msg);
  return decision.next;
}

const statusEvent = (status: BoardStatus): BoardEvent => (status === CLOSED_BOARD_STATUS ? { type: 'board.close' } : { type: 'board.reopen' });

/** Board list filters: boardId, boardTaskId (its board), itemId (boards with a task of that item). */
function boardFilters(q: { boardId?: number; boardTaskId?: number; itemId?: number }, memberView: boolean): SQL[] {
  // A member does not see deleted board tasks (board-tasks.ts), so they do not find boards either.
  const live = memberView ? sql` and bt.status <> ${DELETED_BOARD_TASK_STATUS}` : sql``;
  const out: SQL[] = [];
  if (q.boardId !== undefined) out.push(eq(boards.id, q.boardId));
  if (q.boardTaskId !== undefined) out.push(sql`exists (select 1 from ${boardTasks} bt where bt.board_id = ${boards.id} and bt.id = ${q.boardTaskId}${live})`);
  if (q.itemId !== undefined) out.push(sql`exists (select 1 from ${boardTasks} bt where bt.board_id = ${boards.id} and bt.item_id = ${q.itemId}${live})`);
  return out;
}

async function listBoards(
  ctx: Ctx,
  user: SessionUser,
  q: { page?: number; size?: number; isDesc?: boolean; boardId?: number; boardTaskId?: number; itemId?: number },
) {
  // SPEC §9: page size 10 for the board lists.
  const p = pageOf(q, 10);
  const scope = boardScope(user);
  const where = and(...boardFilters(q, !isAdminSide(user)), ...(scope ? [scope] : []));
  const order = p.isDesc ? [desc(boards.createdAt), desc(boards.id)] : [asc(boards.createdAt), asc(boards.id)];
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(boards)
      .where(where)
      .orderBy(...order)
      .limit(p.size)
      .offset(p.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(boards)
      .where(where),
  ]);
  const now = new Date();
  return { data: rows.map((b) => boardOut(b, now)), pageNumber: totalPagesOf(Number(total?.n ?? 0), p.size) };
}

/** Group ids of the query that exist; an unknown one is A00004. */
async function existingGroups(tx: Tx, csv: string) {
  const ids = parseIdList(csv, 'groupIds');
  const found = await tx.select({ id: userGroups.id }).from(userGroups).where(inArray(userGroups.id, ids));
  const missing = ids.filter((id) => !found.some((g) => g.id === id));
  if (missing.length) throw notFound(`用户组不存在：${missing.join(',')}`);
  return ids;
}

/**
 * Publishing (DECISIONS "Boards, claims and tasks"): the machine decides; the board opens; one
 * notification mail per targeted member is queued in the outbox in the same transaction (so a mail
 * exists exactly when the publication does), through the backup transport for backup publish.
 * mode all/backup targets the members of the bound groups; mode users targets the given users and
 * records them in board_users, which is what makes the board visible to them.
 */
async function publish(ctx: Ctx, user: SessionUser, boardId: number, mode: PublishMode, userIds: number[] = []) {
  const mailQueued = await ctx.db.transaction(async (tx) => {
    const board = await lockBoard(tx, boardId);
    const next = boardDecision(board.status, await boardContext(tx, board.id), { type: 'board.publish', mode, userIds });
    let audience: { id: number; mailAddr: string }[];
    if (mode === 'users') {
      audience = await tx.select({ id: users.id, mailAddr: users.mailAddr }).from(users).where(inArray(users.id, userIds));
      const missing = userIds.filter((id) => !audience.some((u) => u.id === id));
      if (missing.length) throw notFound(`用户不存在：${missing.join(',')}`);
      await tx
        .insert(boardUsers)
        .values(userIds.map((userId) => ({ boardId: board.id, userId })))
        .onConflictDoNothing();
    } else {
      audience = await tx
        .selectDistinct({ id: users.id, mailAddr: users.mailAddr })
        .from(boardGroups)
        .innerJoin(userGroupMembers, eq(userGroupMembers.groupId, boardGroups.groupId))
        .innerJoin(users, eq(users.id, userGroupMembers.userId))
        .where(eq(boardGroups.boardId, board.id))
        .orderBy(users.id);
    }
    const [updated] = await tx.update(boards).set({ status: next, updatedAt: new Date() }).where(eq(boards.id, board.id)).returning();
    await enqueueMail(
      tx,
      'board.publish',
      audience.map((u) => boardPublishedMail(ctx.config.appUrl, u.mailAddr, updated!)),
      mode === 'backup' ? 'backup' : 'primary',
    );
    await writeAudit(tx, {
      entity: 'board',
      entityId: board.id,
      action: `publish.${mode}`,
      opUid: user.id,
      status: next,
      count: audience.length,
      before: board,
      after: { ...updated, audience: audience.map((u) => u.id) },
    });
    return audience.length;
  });
  if (mailQueued) ctx.outbox.kick();
  // SPEC §5: publish calls must answer status succ; §8: msg '操作成功'.
  return ok({ status: 'succ' as const, msg: boardSaveMessages.published, mailQueued }, boardSaveMessages.published);
}

export const boardsHandlers: Handlers = {
  async saveBoard(req, ctx) {
    const user = me(req);
    const b = req.body;
    const boardName = filled(b.boardName, BOARD_LABELS.boardName);
    const remark = filled(b.remark, BOARD_LABELS.remark);
    const publishAt = dateOf(b.publishAt, BOARD_LABELS.publishAt);
    const expireAt = dateOf(b.expireAt, BOARD_LABELS.expireAt);
    if (expireAt.getTime() <= publishAt.getTime()) throw badRequest(boardSaveMessages.expireBeforePublish);

    return ctx.db.transaction(async (tx) => {
      if (b.id === undefined) {
        // A new board is unpublish; asking for open/close at creation is the machine's refusal
        // (open happens by publishing).
        if (b.status && b.status !== NEW_BOARD_STATUS) boardDecision(NEW_BOARD_STATUS, { taskCount: 0, groupCount: 0 }, statusEvent(b.status));
        const [row] = await tx.insert(boards).values({ boardName, remark, publishAt, expireAt, status: NEW_BOARD_STATUS, createdBy: user.id }).returning();
        await writeAudit(tx, { entity: 'board', entityId: row!.id, action: 'create', opUid: user.id, status: row!.status, before: null, after: row });
        return ok(boardOut(row!), boardSaveMessages.created);
      }
      const before = await lockBoard(tx, b.id);
      // Only open <-> close changes here (board.close / board.reopen); a status equal to the
      // current one (a board posted back as read) is no event.
      let status = before.status;
      if (b.status && b.status !== before.status) {
        if (b.status === NEW_BOARD_STATUS) throw badRequest(boardSaveMessages.notUnpublish);
        status = boardDecision(before.status, await boardContext(tx, before.id), statusEvent(b.status));
      }
      const [row] = await tx
        .update(boards)
        .set({ boardName, remark, publishAt, expireAt, status, updatedAt: new Date() })
        .where(eq(boards.id, before.id))
        .returning();
      const action = status === before.status ? 'edit' : status === CLOSED_BOARD_STATUS ? 'close' : 'reopen';
      await writeAudit(tx, { entity: 'board', entityId: before.id, action, opUid: user.id, status, before, after: row });
      return ok(boardOut(row!), boardSaveMessages.saved);
    });
  },

  async getBoard(req, ctx) {
    return ok(boardOut(await boardById(ctx.db, me(req), req.params.id)));
  },

  async getBoardByUuid(req, ctx) {
    return ok(boardOut(await boardByUuid(ctx.db, me(req), req.params.uuid)));
  },

  async listAdminBoards(req, ctx) {
    return ok(await listBoards(ctx, me(req), req.query));
  },

  async listUserBoards(req, ctx) {
    return ok(await listBoards(ctx, me(req), req.query));
  },

  async listBoardGroups(req, ctx) {
    const board = await boardById(ctx.db, me(req), req.params.id);
    const rows = await ctx.db
      .select({ id: userGroups.id, groupName: userGroups.groupName, remark: userGroups.remark })
      .from(boardGroups)
      .innerJoin(userGroups, eq(userGroups.id, boardGroups.groupId))
      .where(eq(boardGroups.boardId, board.id))
      .orderBy(userGroups.id);
    return ok(rows);
  },

  // Binding and unbinding are idempotent: the answer is true once the board is in the asked state
  // (re-binding a bound group is not a failure the UI should report); an unknown board or group is
  // A00004.
  async addBoardGroups(req, ctx) {
    const user = me(req);
    return ctx.db.transaction(async (tx) => {
      const board = await lockBoard(tx, req.params.id);
      const ids = await existingGroups(tx, req.query.groupIds);
      const added = await tx
        .insert(boardGroups)
        .values(ids.map((groupId) => ({ boardId: board.id, groupId })))
        .onConflictDoNothing()
        .returning({ groupId: boardGroups.groupId });
      await writeAudit(tx, {
        entity: 'board',
        entityId: board.id,
        action: 'groups.add',
        opUid: user.id,
        before: null,
        after: { groupIds: added.map((g) => g.groupId) },
      });
      return ok(true, boardSaveMessages.published);
    });
  },

  async removeBoardGroups(req, ctx) {
    const user = me(req);
    return ctx.db.transaction(async (tx) => {
      const board = await lockBoard(tx, req.params.id);
      const ids = parseIdList(req.query.groupIds, 'groupIds');
      const removed = await tx
        .delete(boardGroups)
        .where(and(eq(boardGroups.boardId, board.id), inArray(boardGroups.groupId, ids)))
        .returning({ groupId: boardGroups.groupId });
      await writeAudit(tx, {
        entity: 'board',
        entityId: board.id,
        action: 'groups.remove',
        opUid: user.id,
        before: { groupIds: removed.map((g) => g.groupId) },
        after: null,
      });
      return ok(true, boardSaveMessages.published);
    });
  },

  async publishBoard(req, ctx) {
    return publish(ctx, me(req), req.params.id, 'all');
  },

  async publishBoardToUsers(req, ctx) {
    return publish(ctx, me(req), req.params.id, 'users', req.body.userIds);
  },

  async publishBoardBackup(req, ctx) {
    return publish(ctx, me(req), req.params.id, 'backup');
  },
};
