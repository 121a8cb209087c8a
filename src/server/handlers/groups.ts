// User groups (SPEC §2 /admin/group-list, /admin/group/{id}; §5 Group; §7 "Users and groups").
// A group is the unit of audience: boards open to the members of their bound groups, and a plain
// user in no group cannot log in (login answers no_group), so adding a user to a group is what lets
// a newly registered member in.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { userGroupMembers, userGroups } from '../db/schema/groups.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { parseIdList } from '../ids.ts';
import { writeAudit } from '../audit.ts';
import { isDbId, userColumns } from './users.ts';
import { me, ok, type Handlers } from './types.ts';

const groupColumns = { id: userGroups.id, groupName: userGroups.groupName, remark: userGroups.remark };

async function findGroup(tx: Tx, id: number) {
  if (!isDbId(id)) return undefined;
  const [row] = await tx.select(groupColumns).from(userGroups).where(eq(userGroups.id, id));
  return row;
}

async function requireGroup(tx: Tx, id: number) {
  const group = await findGroup(tx, id);
  if (!group) throw notFound('用户组不存在');
  return group;
}

/**
 * The uids query (already checked against the contract's pattern "1,2,3"): distinct ids, every one
 * an existing user, else A00001 naming the unknown ones and nothing changes.
 */
async function existingUserIds(tx: Tx, uids: string): Promise<number[]> {
  const ids = parseIdList(uids, 'uids');
  const valid = ids.filter(isDbId);
  const found = valid.length ? await tx.select({ id: users.id }).from(users).where(inArray(users.id, valid)) : [];
  const known = new Set(found.map((u) => u.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw badRequest(`用户不存在：${missing.join(',')}`);
  return ids;
}

export const groupsHandlers: Handlers = {
  async getUserGroup(req, ctx) {
    return ok(await requireGroup(ctx.db, req.params.id));
  },

  // Every group, newest first (the group list and the board's group-binding transfer show them all).
  async listUserGroups(_req, ctx) {
    const rows = await ctx.db.select(groupColumns).from(userGroups).orderBy(desc(userGroups.createdAt), desc(userGroups.id));
    return ok(rows);
  },

  // Members, most recently added first, so a member just added shows at the top.
  async listGroupUsers(req, ctx) {
    await requireGroup(ctx.db, req.params.id);
    const rows = await ctx.db
      .select(userColumns)
      .from(userGroupMembers)
      .innerJoin(users, eq(users.id, userGroupMembers.userId))
      .where(eq(userGroupMembers.groupId, req.params.id))
      .orderBy(desc(userGroupMembers.createdAt), desc(users.id));
    return ok(rows);
  },

  /**
   * Creates (no id) or updates a group. The name is required after trimming ('组名称必填', SPEC §5;
   * an empty string is already refused by the contract's minLength, naming groupName)
   * and, decision: unique (exact match after trimming), because the group-binding transfer of a
   * board and the user list show groups by name only, where two equal names could not be told
   * apart (checked in the transaction; the schema has no unique index, so two simultaneous creates
   * of one name are not excluded). The request is the whole form: an absent remark is stored empty.
   */
  async saveUserGroup(req, ctx) {
    const actor = me(req);
    const groupName = req.body.groupName.trim();
    if (!groupName) throw badRequest('组名称必填');
    const remark = (req.body.remark ?? '').trim();
    const id = req.body.id;
    const saved = await ctx.db.transaction(async (tx) => {
      const before = id === undefined ? undefined : await findGroup(tx, id);
      if (id !== undefined && !before) throw notFound('用户组不存在');
      const [same] = await tx.select({ id: userGroups.id }).from(userGroups).where(eq(userGroups.groupName, groupName)).limit(1);
      if (same && same.id !== id) throw conflict(`组名称${groupName}已存在`);
      const [row] = before
        ? await tx.update(userGroups).set({ groupName, remark }).where(eq(userGroups.id, before.id)).returning(groupColumns)
        : await tx.insert(userGroups).values({ groupName, remark }).returning(groupColumns);
      if (!row) throw notFound('用户组不存在');
      await writeAudit(tx, { entity: 'group', entityId: row.id, action: before ? 'edit' : 'create', opUid: actor.id, before: before ?? null, after: row });
      return row;
    });
    return ok(saved, '保存成功');
  },

  /**
   * Adds users to a group. Idempotent: a user already in the group stays as is (ON CONFLICT DO
   * NOTHING) and the answer is still true, the truthy result the screen checks (SPEC §5: a falsy
   * result shows 'operation failed'); failures are errors (unknown group A00004, unknown user ids
   * A00001 naming them) and change nothing. One audit entry per user actually added.
   */
  async addGroupUsers(req, ctx) {
    const actor = me(req);
    await ctx.db.transaction(async (tx) => {
      const group = await requireGroup(tx, req.params.id);
      const ids = await existingUserIds(tx, req.query.uids);
      const added = await tx
        .insert(userGroupMembers)
        .values(ids.map((userId) => ({ groupId: group.id, userId })))
        .onConflictDoNothing()
        .returning({ userId: userGroupMembers.userId });
      await writeAudit(
        tx,
        added.map((a) => ({
          entity: 'group' as const,
          entityId: group.id,
          action: 'addUser',
          opUid: actor.id,
          userId: a.userId,
          after: { groupId: group.id, groupName: group.groupName, userId: a.userId },
        })),
      );
    });
    return ok(true, '操作成功');
  },

  /**
   * Removes users from a group; a user who is not a member is already "removed" (true). A plain user
   * removed from their last group gets no_group at their next login; decision: a session already
   * open is not ended (it expires as usual), so the member can still finish and get paid for work
   * already claimed.
   */
  async removeGroupUsers(req, ctx) {
    const actor = me(req);
    await ctx.db.transaction(async (tx) => {
      const group = await requireGroup(tx, req.params.id);
      const ids = await existingUserIds(tx, req.query.uids);
      const removed = await tx
        .delete(userGroupMembers)
        .where(and(eq(userGroupMembers.groupId, group.id), inArray(userGroupMembers.userId, ids)))
        .returning({ userId: userGroupMembers.userId });
      await writeAudit(
        tx,
        removed.map((r) => ({
          entity: 'group' as const,
          entityId: group.id,
          action: 'removeUser',
          opUid: actor.id,
          userId: r.userId,
          before: { groupId: group.id, groupName: group.groupName, userId: r.userId },
        })),
      );
    });
    return ok(true, '操作成功');
  },
};
