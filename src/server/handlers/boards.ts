// Boards (SPEC §2 board screens, §3 Board, §4 board status and publication, §5 "Board", §7 "Boards"
// and the publish calls; DECISIONS "Boards, claims and tasks", "Mail"). The handlers validate and
// answer; the writes (create, edit, publish in its three variants, close, reopen, group binding)
// are boards/board-service.ts, every status change through the lifecycle store, so the server
// refuses exactly what machines/board.machine.ts refuses. Who may see a board is boards/visibility.ts.
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PublishMode } from '../../../machines/board.machine.ts';
import { DELETED_BOARD_TASK_STATUS } from '../../../machines/claim.machine.ts';
import * as boardService from '../boards/board-service.ts';
import { boardOut } from '../boards/shapes.ts';
import { boardById, boardByUuid, boardScope, isAdminSide } from '../boards/visibility.ts';
import { boardGroups, boards, boardTasks } from '../db/schema/boards.ts';
import { userGroups } from '../db/schema/groups.ts';
import { badRequest } from '../errors.ts';
import { pageOf, totalPagesOf } from '../paging.ts';
import { me, ok, type Ctx, type Handlers } from './types.ts';
import type { SessionUser } from '../auth/session-user.ts';

const { boardSaveMessages } = boardService;

/** SPEC §5 "Board: all fields except id required ('{field}必填')", with the form's labels. */
const BOARD_LABELS = { boardName: '看板名称', remark: '备注', publishAt: '发布时间', expireAt: '截止时间' } as const;

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

/** Publishes board `boardId` (board-service publishBoard) and wakes the outbox when mail was queued. */
async function publish(ctx: Ctx, user: SessionUser, boardId: number, mode: PublishMode, userIds: number[] = []) {
  const mailQueued = await ctx.db.transaction((tx) => boardService.publishBoard(tx, user, ctx.config.appUrl, boardId, mode, userIds));
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

    const fields = { boardName, remark, publishAt, expireAt };
    return ctx.db.transaction(async (tx) => {
      if (b.id === undefined) return ok(boardOut(await boardService.createBoard(tx, user, fields, b.status)), boardSaveMessages.created);
      return ok(boardOut(await boardService.saveBoard(tx, user, b.id, fields, b.status)), boardSaveMessages.saved);
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
    await ctx.db.transaction((tx) => boardService.addBoardGroups(tx, me(req), req.params.id, req.query.groupIds));
    return ok(true, boardSaveMessages.published);
  },

  async removeBoardGroups(req, ctx) {
    await ctx.db.transaction((tx) => boardService.removeBoardGroups(tx, me(req), req.params.id, req.query.groupIds));
    return ok(true, boardSaveMessages.published);
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
