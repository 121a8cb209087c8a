// User groups' queries and writes (SPEC §2 /admin/group-list, /admin/group/{id}; §5 Group; §7
// "Users and groups"). A group is the unit of audience: boards open to the members of their bound
// groups, and a plain user in no group cannot log in (login answers no_group: hasGroup), so adding
// a user to a group is what lets a newly registered member in. Every change writes its audit
// entries in the same transaction.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { SessionUser } from '../auth/session-user.ts';
import { writeAudit } from '../audit.ts';
import type { Db, Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { userGroupMembers, userGroups } from '../db/schema/groups.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { isDbId, parseIdList } from '../ids.ts';
import { userColumns } from './users.ts';

const groupColumns = { id: userGroups.id, groupName: userGroups.groupName, remark: userGroups.remark };

async function findGroup(tx: Tx, id: number) {
  if (!isDbId(id)) return undefined;
  const [row] = await tx.select(groupColumns).from(userGroups).where(eq(userGroups.id, id));
  return row;
}

/** The group, else A00004 '用户组不存在'. */
export async function requireGroup(tx: Tx, id: number) {
  const group = await findGroup(tx, id);
  if (!group) throw notFound('用户组不存在');
  return group;
}

/** Whether the user belongs to at least one group (a plain user in none cannot log in). */
export async function hasGroup(tx: Tx, userId: number): Promise<boolean> {
  const [member] = await tx.select({ g: userGroupMembers.groupId }).from(userGroupMembers).where(eq(userGroupMembers.userId, userId)).limit(1);
  return member !== undefined;
}

/** Every group, newest first (the group list and the board's group-binding transfer show them all). */
export function listGroups(tx: Tx) {
  return tx.select(groupColumns).from(userGroups).orderBy(desc(userGroups.createdAt), desc(userGroups.id));
}

/** A group's members, most recently added first, so a member just added shows at the top (A00004 for no group). */
export async function listGroupUsers(tx: Tx, groupId: number) {
  await requireGroup(tx, groupId);
  return tx
    .select(userColumns)
    .from(userGroupMembers)
    .innerJoin(users, eq(users.id, userGroupMembers.userId))
    .where(eq(userGroupMembers.groupId, groupId))
    .orderBy(desc(userGroupMembers.createdAt), desc(users.id));
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

/**
 * Creates (no id) or updates a group, its name and remark already trimmed. Decision: the name is
 * unique (exact match), because the group-binding transfer of a board and the user list show groups
 * by name only, where two equal names could not be told apart (checked in the transaction; the
 * schema has no unique index, so two simultaneous creates of one name are not excluded).
 */
export async function saveGroup(db: Db, actor: SessionUser, g: { id?: number; groupName: string; remark: string }) {
  const { id, groupName, remark } = g;
  return db.transaction(async (tx) => {
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
}

/**
 * Adds users to a group. Idempotent: a user already in the group stays as is (ON CONFLICT DO
 * NOTHING); an unknown group (A00004) or unknown user ids (A00001 naming them) change nothing. One
 * audit entry per user actually added.
 */
export async function addGroupUsers(db: Db, actor: SessionUser, groupId: number, uids: string): Promise<void> {
  await db.transaction(async (tx) => {
    const group = await requireGroup(tx, groupId);
    const ids = await existingUserIds(tx, uids);
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
}

/** Removes users from a group (a user who is not a member is already removed); one audit entry per user removed. */
export async function removeGroupUsers(db: Db, actor: SessionUser, groupId: number, uids: string): Promise<void> {
  await db.transaction(async (tx) => {
    const group = await requireGroup(tx, groupId);
    const ids = await existingUserIds(tx, uids);
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
}
