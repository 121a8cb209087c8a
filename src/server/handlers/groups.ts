// User groups (SPEC §2 /admin/group-list, /admin/group/{id}; §5 Group; §7 "Users and groups").
// The handlers check the request and answer; the queries and writes, with their audit entries, are
// people/groups.ts (decision 164).
import { badRequest } from '../errors.ts';
import { addGroupUsers, listGroups, listGroupUsers, removeGroupUsers, requireGroup, saveGroup } from '../people/groups.ts';
import { me, ok, type Handlers } from './types.ts';

export const groupsHandlers: Handlers = {
  async getUserGroup(req, ctx) {
    return ok(await requireGroup(ctx.db, req.params.id));
  },

  // Every group, newest first (the group list and the board's group-binding transfer show them all).
  async listUserGroups(_req, ctx) {
    return ok(await listGroups(ctx.db));
  },

  // Members, most recently added first, so a member just added shows at the top.
  async listGroupUsers(req, ctx) {
    return ok(await listGroupUsers(ctx.db, req.params.id));
  },

  /**
   * Creates (no id) or updates a group. The name is required after trimming ('组名称必填', SPEC §5;
   * an empty string is already refused by the contract's minLength, naming groupName) and unique
   * (saveGroup). The request is the whole form: an absent remark is stored empty.
   */
  async saveUserGroup(req, ctx) {
    const groupName = req.body.groupName.trim();
    if (!groupName) throw badRequest('组名称必填');
    const remark = (req.body.remark ?? '').trim();
    return ok(await saveGroup(ctx.db, me(req), { id: req.body.id, groupName, remark }), '保存成功');
  },

  /**
   * Adds users to a group. Idempotent, and the answer is still true, the truthy result the screen
   * checks (SPEC §5: a falsy result shows 'operation failed'); failures are errors and change nothing.
   */
  async addGroupUsers(req, ctx) {
    await addGroupUsers(ctx.db, me(req), req.params.id, req.query.uids);
    return ok(true, '操作成功');
  },

  /**
   * Removes users from a group; a user who is not a member is already "removed" (true). A plain user
   * removed from their last group gets no_group at their next login; decision: a session already
   * open is not ended (it expires as usual), so the member can still finish and get paid for work
   * already claimed.
   */
  async removeGroupUsers(req, ctx) {
    await removeGroupUsers(ctx.db, me(req), req.params.id, req.query.uids);
    return ok(true, '操作成功');
  },
};
