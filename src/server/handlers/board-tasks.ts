// Board tasks (SPEC §2 board detail and /admin/boardtask, §3 BoardTask, §5 "Admin board task form",
// §7 "Board tasks"; DECISIONS "Boards, claims and tasks"). Members reach a board task only through a
// board visible to them (boards/visibility.ts); their answers leave out the admin's numbers (need,
// averageCost, allCount) and they do not see deleted board tasks: deleting takes a board task off
// the board for them. A claim on a deleted board task that is still open in someone's dialog is
// answered by the claim rules ('该任务已删除，无法认领'), not as a missing task. The queries and the
// save: boards/board-tasks.ts (decision 164).
import { boardTaskClaimers, boardTaskMessages, boardTasksOf, boardTasksOfBoards, saveBoardTask, visibleBoardTask } from '../boards/board-tasks.ts';
import { boardTaskOut } from '../boards/shapes.ts';
import { boardById, boardByUuid, isAdminSide } from '../boards/visibility.ts';
import { me, ok, type Handlers } from './types.ts';

export const boardTasksHandlers: Handlers = {
  async getBoardTask(req, ctx) {
    const user = me(req);
    const board = await boardById(ctx.db, user, req.params.boardId);
    const row = await visibleBoardTask(ctx.db, user, req.params.taskId, board.id);
    return ok(boardTaskOut(row, isAdminSide(user)));
  },

  /** Create (no id) or update a board task of a board the caller sees: the rules are saveBoardTask's. */
  async saveBoardTask(req, ctx) {
    const { row, created } = await saveBoardTask(ctx.db, me(req), req.params.boardId, req.body);
    const msg = created ? boardTaskMessages.created : boardTaskMessages.saved;
    return ok({ status: 'succ' as const, msg, boardTask: boardTaskOut(row, true) }, msg);
  },

  async listBoardTaskUsers(req, ctx) {
    const bt = await visibleBoardTask(ctx.db, me(req), req.params.id);
    return ok(await boardTaskClaimers(ctx.db, bt.row.id));
  },

  async listBoardTasks(req, ctx) {
    const user = me(req);
    const board = await boardById(ctx.db, user, req.params.id);
    const rows = await boardTasksOf(ctx.db, user, board.id);
    return ok(rows.map((r) => boardTaskOut(r, isAdminSide(user))));
  },

  /**
   * Claim progress {count, need}: count is the units claimed by non-deleted tasks, need is the shown
   * quantity (show): progress is measured against what may be claimed, which is also what members
   * see (the actual demand `need` of the board task is the admin's number and never leaves to them).
   */
  async getBoardTaskProgress(req, ctx) {
    const row = await visibleBoardTask(ctx.db, me(req), req.params.id);
    return ok({ count: Number(row.claimCount), need: row.row.show });
  },

  /** Several boards' board tasks in one answer (the deal cards), under listBoardTasksByUuid's rules; boards not visible are left out. */
  async listBoardTasksOfBoards(req, ctx) {
    const user = me(req);
    const groups = await boardTasksOfBoards(ctx.db, user, req.query.boardId);
    return ok(groups.map((g) => ({ boardId: g.boardId, boardTasks: g.rows.map((r) => boardTaskOut(r, isAdminSide(user))) })));
  },

  async listBoardTasksByUuid(req, ctx) {
    const user = me(req);
    const board = await boardByUuid(ctx.db, user, req.params.uuid);
    const rows = await boardTasksOf(ctx.db, user, board.id);
    return ok(rows.map((r) => boardTaskOut(r, isAdminSide(user))));
  },
};
