// Claims and the task lists around them (SPEC §2 /user/board, /admin/tasks, §3 Task, §4 claim rules,
// §5 "Claim", §7 "Tasks"): the claim and its review are tasks/claims.ts, the lists tasks/task-lists.ts.
import { claim, review } from '../tasks/claims.ts';
import { adminTaskPage, boardTaskTasks, memberBoardTasks, memberTaskPage, visibleTask } from '../tasks/task-lists.ts';
import { me, ok, type Handlers } from './types.ts';

export const claimsHandlers: Handlers = {
  async claimBoardTask(req, ctx) {
    const { msg, task } = await claim(ctx.db, me(req), req.params.id, { count: req.params.count, isHome: false, labelCount: null });
    return ok({ status: 'succ' as const, msg, task }, msg);
  },

  async claimBoardTaskWithLabel(req, ctx) {
    const b = req.body;
    const { msg, task } = await claim(ctx.db, me(req), req.params.id, {
      count: req.params.count,
      isHome: b.isHome,
      state: b.state,
      zipCode: b.zipCode,
      labelCount: req.params.labelCount,
    });
    return ok({ status: 'succ' as const, msg, task }, msg);
  },

  async acceptTask(req, ctx) {
    const { msg, task } = await review(ctx.db, me(req), req.params.id, 'accept');
    return ok({ status: 'succ' as const, msg, task }, msg);
  },

  async rejectTask(req, ctx) {
    const { msg, task } = await review(ctx.db, me(req), req.params.id, 'reject');
    return ok({ status: 'succ' as const, msg, task }, msg);
  },

  async listBoardTaskTasks(req, ctx) {
    return ok(await boardTaskTasks(ctx.db, req.params.id));
  },

  async listTasks(req, ctx) {
    return ok(await adminTaskPage(ctx.db, req.query, ctx.config.missingParcelDays));
  },

  async listUserTasks(req, ctx) {
    return ok(await memberTaskPage(ctx.db, me(req), req.query, ctx.config.missingParcelDays));
  },

  async listUserBoardTasks(req, ctx) {
    return ok(await memberBoardTasks(ctx.db, me(req), req.query.boardUuid));
  },

  async getTask(req, ctx) {
    return ok(await visibleTask(ctx.db, me(req), req.params.id));
  },
};
