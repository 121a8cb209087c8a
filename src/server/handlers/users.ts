// Users (SPEC §2 /admin/user-list, §7 "Users and groups"; DECISIONS "Roles", "Accounts and
// sessions"). Who may call what comes from x-roles; the data rules of a lowerAdmin and the guards
// against locking everybody out live with the writes in people/users.ts (decision 164: a handler
// checks, delegates and answers).
import { pageOf } from '../paging.ts';
import { listUsers, pageAdminUsers, updateAdminUser } from '../people/users.ts';
import { me, ok, type Handlers } from './types.ts';

export const usersHandlers: Handlers = {
  // Pickers (publish to users, group members, task-amount filter): every account, newest first.
  async listUsers(_req, ctx) {
    return ok(await listUsers(ctx.db));
  },

  async listAdminUsers(req, ctx) {
    const page = pageOf(req.query, 20);
    const filters = { roleType: req.query.roleType, mailAddr: req.query.mailAddr?.trim(), nickName: req.query.nickName?.trim() };
    return ok(await pageAdminUsers(ctx.db, filters, page));
  },

  /** Changes a user's role and/or groups (groupIds replaces the membership): the rules are updateAdminUser's. */
  async updateAdminUser(req, ctx) {
    const { id, roleType, groupIds } = req.body;
    const updated = await updateAdminUser(ctx.db, me(req), { id, roleType, groupIds });
    // And this process at once (the others when they hear the NOTIFY).
    ctx.sessions.forgetUser(updated.id);
    return ok(updated, '保存成功');
  },
};
