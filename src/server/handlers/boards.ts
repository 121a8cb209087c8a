// Boards (SPEC §2 board screens, §3 Board, §4 board status and publication, §5 "Board", §7 "Boards"
// and the publish calls; DECISIONS "Boards, claims and tasks", "Mail"). The handlers validate and
// answer (decision 164); the queries and writes (the lists, create, edit, publish in its three
// variants, close, reopen, group binding) are boards/board-service.ts, every status change through
// the lifecycle store, so the server refuses exactly what machines/board.machine.ts refuses. Who may
// see a board is boards/visibility.ts.
import type { PublishMode } from '../../../machines/board.machine.ts';
import * as boardService from '../boards/board-service.ts';
import type { BoardListQuery } from '../boards/board-service.ts';
import { boardOut } from '../boards/shapes.ts';
import { boardById, boardByUuid } from '../boards/visibility.ts';
import { badRequest } from '../errors.ts';
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

/** A page of the boards `user` may see (board-service boardPage), shaped for the list. */
async function listBoards(ctx: Ctx, user: SessionUser, q: BoardListQuery) {
  const { rows, pageNumber } = await boardService.boardPage(ctx.db, user, q);
  const now = new Date();
  return { data: rows.map((b) => boardOut(b, now)), pageNumber };
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
    return ok(await boardService.boardGroupsOf(ctx.db, board.id));
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
