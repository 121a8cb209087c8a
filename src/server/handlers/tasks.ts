// A member's and an admin's changes to tasks (SPEC §2 /user/my-task, /admin/tasks, /admin/task/{id};
// §7 "Tasks"): the changes and what the task dialogs read are tasks/task-edits.ts.
import { parseIdList } from '../ids.ts';
import { adminEditTask, applicationsExist, deleteOwnTask, editQuantity, partMatchOf, splitOwnTask } from '../tasks/task-edits.ts';
import { me, ok, type Handlers } from './types.ts';

export const tasksHandlers: Handlers = {
  async deleteUserTask(req, ctx) {
    const { msg } = await deleteOwnTask(ctx.db, me(req), req.params.id);
    return ok({ status: 'succ' as const, msg }, msg);
  },

  async updateTask(req, ctx) {
    const { msg, task } = await adminEditTask(ctx.db, me(req), req.body);
    return ok({ status: 'succ' as const, msg, task }, msg);
  },

  async updateUserTaskQuantity(req, ctx) {
    const { msg, task } = await editQuantity(ctx.db, me(req), req.params.id, req.params.n);
    return ok({ status: 'succ' as const, msg, task }, msg);
  },

  async updateUserTaskQuantityWithLabel(req, ctx) {
    const { msg, task } = await editQuantity(ctx.db, me(req), req.params.id, req.params.n, req.params.m);
    return ok({ status: 'succ' as const, msg, task }, msg);
  },

  async splitUserTask(req, ctx) {
    const { msg, tasks } = await splitOwnTask(ctx.db, me(req), req.query.taskId);
    return ok({ status: 'succ' as const, msg, tasks }, msg);
  },

  async checkTaskApplyExists(req, ctx) {
    return ok({ applyRecords: await applicationsExist(ctx.db, me(req), parseIdList(req.query.taskIds, 'taskIds')) });
  },

  async getTaskPartMatch(req, ctx) {
    return ok(await partMatchOf(ctx.db, me(req), parseIdList(req.query.taskIds, 'taskIds')));
  },
};
