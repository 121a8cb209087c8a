// Users' queries and the role/groups change (SPEC §2 /admin/user-list, §7 "Users and groups";
// DECISIONS "Roles", "Accounts and sessions"). The handler (handlers/users.ts) checks the request
// and answers; the rules of a change live here with its writes, so a script or another call that
// changes a role gets the same guards: a lowerAdmin cannot make anyone an admin nor change an
// admin, nobody changes their own role, and the last admin is never demoted.
import { and, asc, count, desc, eq, inArray, ne, notInArray, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { writeAudit } from '../audit.ts';
import { sessionsChanged } from '../auth/sessions.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { Db, Tx } from '../db/client.ts';
import { containsText } from '../db/contains.ts';
import { users } from '../db/schema/accounts.ts';
import { userGroupMembers, userGroups } from '../db/schema/groups.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { isDbId } from '../ids.ts';
import { totalPagesOf } from '../paging.ts';

type RoleFilter = 'all' | 'admin' | 'lowerAdmin' | 'user';
type AdminUser = components['schemas']['AdminUser'];

/** The User of the contract (pickers, group members). */
export const userColumns = {
  id: users.id,
  nickName: users.nickName,
  mailAddr: users.mailAddr,
  phoneNo: users.phoneNo,
  qq: users.qq,
  roleType: users.roleType,
};

/** Each user's group ids, ascending. */
async function groupIdsOf(tx: Tx, userIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return map;
  const rows = await tx
    .select({ userId: userGroupMembers.userId, groupId: userGroupMembers.groupId })
    .from(userGroupMembers)
    .where(inArray(userGroupMembers.userId, userIds))
    .orderBy(asc(userGroupMembers.groupId));
  for (const r of rows) map.get(r.userId)?.push(r.groupId);
  return map;
}

/**
 * The role filter of /admin/user-list offers all, admin and user (SPEC §2). Decision: the screen
 * splits accounts into the admin side and members, so 'admin' means everyone with admin-side access
 * (admin and lowerAdmin) and 'user' means plain members only; all = admin + user. 'lowerAdmin' (the
 * contract's third role) narrows to lowerAdmins alone; 'all' or no value filters nothing.
 */
function roleCondition(roleType: RoleFilter | undefined): SQL | undefined {
  switch (roleType) {
    case 'admin':
      return inArray(users.roleType, ['admin', 'lowerAdmin']);
    case 'lowerAdmin':
      return eq(users.roleType, 'lowerAdmin');
    case 'user':
      return eq(users.roleType, 'user');
    default:
      return undefined;
  }
}

/** Every account, newest first (the pickers: publish to users, group members, task-amount filter). */
export function listUsers(tx: Tx) {
  return tx.select(userColumns).from(users).orderBy(desc(users.createdAt), desc(users.id));
}

/** One account as the contract's User, or undefined. */
export async function userById(tx: Tx, id: number) {
  const [u] = await tx.select(userColumns).from(users).where(eq(users.id, id));
  return u;
}

/** /admin/user-list: a page of accounts by role and mail/nickname fragments, each with its group ids. */
export async function pageAdminUsers(
  tx: Tx,
  f: { roleType?: RoleFilter; mailAddr?: string; nickName?: string },
  p: { size: number; offset: number; isDesc: boolean },
): Promise<{ content: AdminUser[]; totalPages: number; totalElements: number }> {
  const where = and(
    roleCondition(f.roleType),
    f.mailAddr ? containsText(users.mailAddr, f.mailAddr) : undefined,
    f.nickName ? containsText(users.nickName, f.nickName) : undefined,
  );
  const order = p.isDesc ? [desc(users.createdAt), desc(users.id)] : [asc(users.createdAt), asc(users.id)];
  const [totals] = await tx.select({ n: count() }).from(users).where(where);
  const rows = await tx
    .select({ ...userColumns, createdAt: users.createdAt })
    .from(users)
    .where(where)
    .orderBy(...order)
    .limit(p.size)
    .offset(p.offset);
  const groups = await groupIdsOf(
    tx,
    rows.map((r) => r.id),
  );
  const total = totals?.n ?? 0;
  return {
    content: rows.map((r) => ({ ...r, groupIds: groups.get(r.id) ?? [], createdAt: r.createdAt.getTime() })),
    totalPages: totalPagesOf(total, p.size),
    totalElements: total,
  };
}

/**
 * Changes a user's role and/or groups (groupIds replaces the membership). Rules:
 * - a lowerAdmin cannot make anyone an admin and cannot change an admin at all (role or groups)
 *   (DECISIONS "Roles"); it may move users between user and lowerAdmin;
 * - nobody changes their own role (sending one's current role is not a change), so an admin
 *   cannot demote themselves by accident;
 * - the last admin is never demoted. With the rule above only another admin can demote an admin,
 *   but two admins demoting each other at the same moment could leave none: every role change
 *   therefore locks the admin rows first (always in id order, so two changes never deadlock) and
 *   counts the admins that remain after the lock is granted;
 * - the caller's role is read again inside that transaction, so a caller demoted a moment ago no
 *   longer acts as an admin.
 * Everything (role, membership, audit entry) is written in one transaction. The caller forgets the
 * user's cached sessions after it (the other processes hear the NOTIFY).
 */
export async function updateAdminUser(
  db: Db,
  actor: SessionUser,
  change: Pick<components['schemas']['AdminUserUpdateRequest'], 'id' | 'roleType' | 'groupIds'>,
): Promise<AdminUser> {
  const { id, roleType: newRole, groupIds } = change;
  if (!isDbId(id)) throw notFound('用户不存在');
  const wantedGroups = groupIds ? [...new Set(groupIds)] : undefined;

  return db.transaction(async (tx) => {
    if (newRole !== undefined) {
      await tx.select({ id: users.id }).from(users).where(eq(users.roleType, 'admin')).orderBy(asc(users.id)).for('no key update');
    }
    const [target] = await tx
      .select({ ...userColumns, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, id))
      .for('no key update');
    if (!target) throw notFound('用户不存在');
    const [caller] = await tx.select({ roleType: users.roleType }).from(users).where(eq(users.id, actor.id));
    const callerRole = caller?.roleType;
    if (callerRole !== 'admin' && callerRole !== 'lowerAdmin') throw forbidden();

    if (callerRole === 'lowerAdmin') {
      if (target.roleType === 'admin') throw forbidden('下级管理员不能修改管理员');
      if (newRole === 'admin') throw forbidden('下级管理员不能将用户设为管理员');
    }
    const roleChanges = newRole !== undefined && newRole !== target.roleType;
    if (roleChanges && target.id === actor.id) throw forbidden('不能修改自己的角色');
    if (roleChanges && target.roleType === 'admin') {
      const [others] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.roleType, 'admin'), ne(users.id, target.id)));
      if ((others?.n ?? 0) === 0) throw conflict('不能移除最后一个管理员');
    }

    const beforeGroups = (await groupIdsOf(tx, [id])).get(id) ?? [];
    if (wantedGroups) await replaceGroups(tx, id, wantedGroups);
    if (roleChanges) {
      await tx.update(users).set({ roleType: newRole, updatedAt: new Date() }).where(eq(users.id, id));
      // The user's sessions carry the role: every process reads them again once this commits.
      await sessionsChanged(tx, id);
    }

    const afterGroups = wantedGroups ? [...wantedGroups].sort((a, b) => a - b) : beforeGroups;
    const roleType = roleChanges ? newRole : target.roleType;
    const groupsChange = afterGroups.join(',') !== beforeGroups.join(',');
    if (roleChanges || groupsChange) {
      await writeAudit(tx, {
        entity: 'user',
        entityId: id,
        action: 'edit',
        opUid: actor.id,
        userId: id,
        status: roleType,
        before: { roleType: target.roleType, groupIds: beforeGroups },
        after: { roleType, groupIds: afterGroups },
      });
    }
    return { ...target, roleType, groupIds: afterGroups, createdAt: target.createdAt.getTime() };
  });
}

/** The user's membership becomes exactly `wanted` (every one an existing group, else A00001 naming the unknown). */
async function replaceGroups(tx: Tx, userId: number, wanted: number[]) {
  const valid = wanted.filter(isDbId);
  const known = valid.length ? await tx.select({ id: userGroups.id }).from(userGroups).where(inArray(userGroups.id, valid)) : [];
  const knownIds = new Set(known.map((g) => g.id));
  const missing = wanted.filter((g) => !knownIds.has(g));
  if (missing.length) throw badRequest(`用户组不存在：${missing.join(',')}`);
  await tx.delete(userGroupMembers).where(and(eq(userGroupMembers.userId, userId), wanted.length ? notInArray(userGroupMembers.groupId, wanted) : undefined));
  if (wanted.length) {
    await tx
      .insert(userGroupMembers)
      .values(wanted.map((groupId) => ({ groupId, userId })))
      .onConflictDoNothing();
  }
}
