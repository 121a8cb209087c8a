// Users and user groups through the real API on a real database (SPEC §2 /admin/user-list,
// /admin/group-list, /admin/group/{id}; §5 Group; §7 "Users and groups"; DECISIONS "Roles",
// "Accounts and sessions").
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../../src/server/db/schema/accounts.ts';
import { userGroupMembers, userGroups } from '../../../src/server/db/schema/groups.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { call, createUser, login, TEST_PASSWORD, useTestApp } from '../support/harness.ts';

const t = useTestApp();

interface AdminUser {
  id: number;
  nickName: string;
  mailAddr: string;
  roleType: string;
  groupIds: number[];
  createdAt: number;
}
interface Page<T> {
  content: T[];
  totalPages: number;
  totalElements: number;
}
interface Group {
  id: number;
  groupName: string;
  remark: string;
}

const get = <T>(token: string, url: string) => call<T>(t().app, { method: 'GET', url, headers: { 'x-token': token } });
const post = <T>(token: string, url: string, payload?: unknown) =>
  call<T>(t().app, { method: 'POST', url, headers: { 'x-token': token }, ...(payload === undefined ? {} : { payload: payload as object }) });
const del = <T>(token: string, url: string) => call<T>(t().app, { method: 'DELETE', url, headers: { 'x-token': token } });
const loginStatus = async (mail: string) =>
  (await call<{ status: string }>(t().app, { method: 'POST', url: `/ext/login/login?mailAddr=${encodeURIComponent(mail)}&pwd=${TEST_PASSWORD}` })).body.data
    ?.status;

async function newGroup(groupName: string) {
  const [g] = await t().database.db.insert(userGroups).values({ groupName }).returning();
  return g!;
}
const membersOf = async (userId: number) =>
  (await t().database.db.select({ g: userGroupMembers.groupId }).from(userGroupMembers).where(eq(userGroupMembers.userId, userId)))
    .map((r) => r.g)
    .sort((a, b) => a - b);
const roleOf = async (userId: number) => (await t().database.db.select({ r: users.roleType }).from(users).where(eq(users.id, userId)))[0]?.r;

/** An admin, a lowerAdmin and three members created one minute apart (oldest first). */
async function people() {
  const { app, database } = t();
  const admin = await createUser(database, { mailAddr: 'boss@x.test', roleType: 'admin', nickName: 'Boss' });
  const lower = await createUser(database, { mailAddr: 'lower@x.test', roleType: 'lowerAdmin', nickName: 'Lower' });
  const alice = await createUser(database, { mailAddr: 'alice@x.test', nickName: 'Alice Wang', inGroup: true });
  const bob = await createUser(database, { mailAddr: 'bob@x.test', nickName: 'Bob 100%' });
  const carol = await createUser(database, { mailAddr: 'carol@shop.test', nickName: '小王' });
  const all = [admin, lower, alice, bob, carol];
  const base = Date.parse('2024-01-01T00:00:00Z');
  for (const [i, u] of all.entries())
    await database.db
      .update(users)
      .set({ createdAt: new Date(base + i * 60_000) })
      .where(eq(users.id, u.id));
  return { admin, lower, alice, bob, carol, adminToken: await login(app, 'boss@x.test'), lowerToken: await login(app, 'lower@x.test') };
}

describe('/admin/user-list', () => {
  it('filters by role (all, admin = admin side, user = members), mailAddr and nickName, case-insensitively', async () => {
    const p = await people();
    const list = async (q = '') => (await get<Page<AdminUser>>(p.adminToken, `/api/admin/user/list?${q}`)).body.data!;
    const mails = async (q = '') => (await list(q)).content.map((u) => u.mailAddr);

    expect(await mails()).toEqual(['carol@shop.test', 'bob@x.test', 'alice@x.test', 'lower@x.test', 'boss@x.test']);
    expect(await mails('roleType=all')).toHaveLength(5);
    expect(await mails('roleType=admin')).toEqual(['lower@x.test', 'boss@x.test']);
    expect(await mails('roleType=user')).toEqual(['carol@shop.test', 'bob@x.test', 'alice@x.test']);
    expect(await mails('roleType=lowerAdmin')).toEqual(['lower@x.test']);
    expect(await mails('mailAddr=ALICE')).toEqual(['alice@x.test']);
    expect(await mails('mailAddr=%40x.test&roleType=user')).toEqual(['bob@x.test', 'alice@x.test']);
    expect(await mails('nickName=wang')).toEqual(['alice@x.test']);
    expect(await mails(`nickName=${encodeURIComponent('小王')}`)).toEqual(['carol@shop.test']);
    // % and _ are the user's characters, not wildcards.
    expect(await mails('nickName=%25')).toEqual(['bob@x.test']);
    expect(await mails('mailAddr=_')).toEqual([]);
    expect(await mails('nickName=%20%20')).toHaveLength(5);

    const row = (await list('mailAddr=alice')).content[0]!;
    expect(row).toEqual({
      id: p.alice.id,
      nickName: 'Alice Wang',
      mailAddr: 'alice@x.test',
      phoneNo: '',
      qq: '',
      roleType: 'user',
      groupIds: await membersOf(p.alice.id),
      createdAt: Date.parse('2024-01-01T00:02:00Z'),
    });
    expect(row.groupIds).toHaveLength(1);
    expect(row).not.toHaveProperty('passwordHash');

    const bad = await get(p.adminToken, '/api/admin/user/list?roleType=root');
    expect(bad).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(bad.body.msg).toContain('roleType');
  });

  it('pages 0-based, newest first unless isDesc=false, and the lowerAdmin sees the same list', async () => {
    const p = await people();
    const page = async (q: string, token = p.adminToken) => (await get<Page<AdminUser>>(token, `/api/admin/user/list?${q}`)).body.data!;
    const first = await page('page=0&size=2');
    expect(first).toMatchObject({ totalPages: 3, totalElements: 5 });
    expect(first.content.map((u) => u.id)).toEqual([p.carol.id, p.bob.id]);
    expect((await page('page=2&size=2')).content.map((u) => u.id)).toEqual([p.admin.id]);
    expect((await page('page=3&size=2')).content).toEqual([]);
    expect((await page('page=0&size=2&isDesc=false')).content.map((u) => u.id)).toEqual([p.admin.id, p.lower.id]);
    expect((await page('page=0&size=20', p.lowerToken)).totalElements).toBe(5);
    expect((await get(p.adminToken, '/api/admin/user/list?size=0')).status).toBe(400);
    expect((await get(p.adminToken, '/api/admin/user/list?page=-1')).status).toBe(400);
  });

  it('gives pickers every user with the User fields only', async () => {
    const p = await people();
    const res = await get<Record<string, unknown>[]>(p.lowerToken, '/api/user/list');
    expect(res.body.code).toBe('A00000');
    expect(res.body.data!.map((u) => u.id)).toEqual([p.carol.id, p.bob.id, p.alice.id, p.lower.id, p.admin.id]);
    expect(Object.keys(res.body.data![0]!).sort()).toEqual(['id', 'mailAddr', 'nickName', 'phoneNo', 'qq', 'roleType']);
    const userToken = await login(t().app, 'alice@x.test');
    expect(await get(userToken, '/api/user/list')).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await get(userToken, '/api/admin/user/list')).toMatchObject({ status: 403, body: { code: 'A00003' } });
  });
});

describe('changing a role and groups', () => {
  it('lets an admin change role and groups; groups are replaced, and the change is audited', async () => {
    const p = await people();
    const g1 = await newGroup('一组');
    const g2 = await newGroup('二组');
    const update = (body: object) => post<AdminUser>(p.adminToken, '/api/admin/user/update', body);
    // Alice is signed in and has just been refused an admin page: the new role applies to her open
    // session at once (not after the session cache's few seconds).
    const aliceToken = await login(t().app, 'alice@x.test');
    expect((await get(aliceToken, '/api/admin/user/list')).status).toBe(403);

    await update({ id: p.alice.id, roleType: 'lowerAdmin' });
    expect((await get(aliceToken, '/api/admin/user/list')).status).toBe(200);
    expect((await get<{ roleType: string }>(aliceToken, '/api/user/info')).body.data).toMatchObject({ roleType: 'lowerAdmin' });
    await update({ id: p.alice.id, roleType: 'user' });
    expect((await get(aliceToken, '/api/admin/user/list')).status).toBe(403);

    const res = await update({ id: p.bob.id, roleType: 'lowerAdmin', groupIds: [g2.id, g1.id] });
    expect(res.body).toMatchObject({ code: 'A00000', data: { id: p.bob.id, roleType: 'lowerAdmin', groupIds: [g1.id, g2.id], mailAddr: 'bob@x.test' } });
    expect(await roleOf(p.bob.id)).toBe('lowerAdmin');
    expect(await membersOf(p.bob.id)).toEqual([g1.id, g2.id]);

    expect((await update({ id: p.bob.id, groupIds: [g2.id] })).body.data).toMatchObject({ roleType: 'lowerAdmin', groupIds: [g2.id] });
    expect(await membersOf(p.bob.id)).toEqual([g2.id]);
    const listed = (await get<Page<AdminUser>>(p.adminToken, '/api/admin/user/list?mailAddr=bob')).body.data!.content[0]!;
    expect(listed).toMatchObject({ roleType: 'lowerAdmin', groupIds: [g2.id] });

    expect((await update({ id: p.bob.id, roleType: 'user', groupIds: [] })).body.data).toMatchObject({ roleType: 'user', groupIds: [] });
    expect(await membersOf(p.bob.id)).toEqual([]);
    expect(await loginStatus('bob@x.test')).toBe('no_group');

    // Making a user admin is an admin's right.
    expect((await update({ id: p.carol.id, roleType: 'admin' })).body.data).toMatchObject({ roleType: 'admin' });

    const audit = await t()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, p.bob.id)))
      .orderBy(auditLog.id);
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatchObject({
      action: 'edit',
      opUid: p.admin.id,
      userId: p.bob.id,
      before: { roleType: 'user', groupIds: [] },
      after: { roleType: 'lowerAdmin', groupIds: [g1.id, g2.id] },
    });
  });

  it('keeps a lowerAdmin from making anyone admin or changing an admin (403 A00003), and changes nothing then', async () => {
    const p = await people();
    const g1 = await newGroup('一组');
    const update = (body: object) => post<AdminUser>(p.lowerToken, '/api/admin/user/update', body);

    const promote = await update({ id: p.bob.id, roleType: 'admin', groupIds: [g1.id] });
    expect(promote).toMatchObject({ status: 403, body: { code: 'A00003', msg: '下级管理员不能将用户设为管理员' } });
    expect(await roleOf(p.bob.id)).toBe('user');
    expect(await membersOf(p.bob.id)).toEqual([]);

    const demote = await update({ id: p.admin.id, roleType: 'user' });
    expect(demote).toMatchObject({ status: 403, body: { code: 'A00003', msg: '下级管理员不能修改管理员' } });
    expect(await update({ id: p.admin.id, groupIds: [g1.id] })).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await roleOf(p.admin.id)).toBe('admin');
    expect(await membersOf(p.admin.id)).toEqual([]);
    expect(await update({ id: p.lower.id, roleType: 'admin' })).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await roleOf(p.lower.id)).toBe('lowerAdmin');

    // What a lowerAdmin may do: groups of members, user <-> lowerAdmin.
    expect((await update({ id: p.bob.id, roleType: 'lowerAdmin', groupIds: [g1.id] })).body).toMatchObject({
      code: 'A00000',
      data: { roleType: 'lowerAdmin', groupIds: [g1.id] },
    });
    expect((await update({ id: p.bob.id, roleType: 'user' })).body.data).toMatchObject({ roleType: 'user', groupIds: [g1.id] });
    expect(await t().database.db.select().from(auditLog).where(eq(auditLog.entity, 'user'))).toHaveLength(2);
  });

  it('lets nobody change their own role, so the last admin stays; two admins demoting each other leave one', async () => {
    const p = await people();
    const g1 = await newGroup('一组');
    const self = await post(p.adminToken, '/api/admin/user/update', { id: p.admin.id, roleType: 'user' });
    expect(self).toMatchObject({ status: 403, body: { code: 'A00003', msg: '不能修改自己的角色' } });
    expect(await roleOf(p.admin.id)).toBe('admin');
    expect(await post(p.lowerToken, '/api/admin/user/update', { id: p.lower.id, roleType: 'user' })).toMatchObject({ status: 403, body: { code: 'A00003' } });
    // Sending one's own current role is no change; one's own groups may change.
    expect((await post(p.adminToken, '/api/admin/user/update', { id: p.admin.id, roleType: 'admin', groupIds: [g1.id] })).body).toMatchObject({
      code: 'A00000',
      data: { roleType: 'admin', groupIds: [g1.id] },
    });

    // Two admins demote each other at the same moment. The admin rows are held locked while both
    // requests arrive, so (on PostgreSQL) both are past the x-roles check, waiting inside their
    // transactions, when the lock is released: the second must notice it is no admin any more.
    const second = await createUser(t().database, { mailAddr: 'boss2@x.test', roleType: 'admin' });
    const secondToken = await login(t().app, 'boss2@x.test');
    let settled = 0;
    let both: Promise<{ status: number }[]> | undefined;
    await t().database.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.roleType, 'admin')).for('update');
      both = Promise.all(
        [
          post(p.adminToken, '/api/admin/user/update', { id: second.id, roleType: 'user' }),
          post(secondToken, '/api/admin/user/update', { id: p.admin.id, roleType: 'user' }),
        ].map((r) => r.finally(() => settled++)),
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(0);
    });
    const [a, b] = await both!;
    expect([a!.status, b!.status].sort()).toEqual([200, 403]);
    const admins = await t().database.db.select().from(users).where(eq(users.roleType, 'admin'));
    expect(admins).toHaveLength(1);
  });

  it('answers 404 A00004 for an unknown user and 400 A00001 for unknown groups or a bad body, changing nothing', async () => {
    const p = await people();
    const g1 = await newGroup('一组');
    const update = (body: unknown) => post(p.adminToken, '/api/admin/user/update', body);
    expect(await update({ id: 99999, roleType: 'user' })).toMatchObject({ status: 404, body: { code: 'A00004', msg: '用户不存在' } });
    // An id no integer column can hold is refused by the contract, as for every operation.
    expect(await update({ id: 99999999999, roleType: 'user' })).toMatchObject({
      status: 400,
      body: { code: 'A00001', msg: '参数错误：字段 id 不能大于 2147483647' },
    });

    const unknownGroups = await update({ id: p.bob.id, roleType: 'lowerAdmin', groupIds: [g1.id, 777, 778] });
    expect(unknownGroups).toMatchObject({ status: 400, body: { code: 'A00001', msg: '用户组不存在：777,778' } });
    for (const body of [
      { id: p.bob.id, roleType: 'root' },
      { id: p.bob.id, groupIds: 'x' },
      { id: p.bob.id, roleType: 'user', evil: 1 },
      { roleType: 'user' },
      { id: p.bob.id, groupIds: [g1.id, g1.id] },
    ]) {
      expect(await update(body), JSON.stringify(body)).toMatchObject({ status: 400, body: { code: 'A00001' } });
    }
    expect(await roleOf(p.bob.id)).toBe('user');
    expect(await membersOf(p.bob.id)).toEqual([]);
    expect(await t().database.db.select().from(auditLog)).toHaveLength(0);
  });
});

describe('/admin/group-list and /admin/group/{id}', () => {
  it("creates and edits a group; the name is required ('组名称必填') and unique", async () => {
    const p = await people();
    const save = (body: unknown) => post<Group>(p.adminToken, '/api/usergroup/update', body);

    expect(await save({ groupName: '   ', remark: 'x' })).toMatchObject({ status: 400, body: { code: 'A00001', msg: '组名称必填' } });
    const empty = await save({ groupName: '', remark: 'x' });
    expect(empty).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(empty.body.msg).toContain('groupName');
    expect(await save({ remark: 'x' })).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await save({ groupName: 'x', extra: 1 })).toMatchObject({ status: 400, body: { code: 'A00001' } });

    const created = await save({ groupName: ' 华东采购一组 ', remark: '上海' });
    expect(created.body).toMatchObject({ code: 'A00000', data: { groupName: '华东采购一组', remark: '上海' } });
    const id = created.body.data!.id;
    const noRemark = await save({ groupName: '华南组' });
    expect(noRemark.body.data).toMatchObject({ groupName: '华南组', remark: '' });

    expect((await get<Group>(p.adminToken, `/api/usergroup/${id}/info`)).body.data).toEqual({ id, groupName: '华东采购一组', remark: '上海' });
    const list = (await get<Group[]>(p.lowerToken, '/api/usergroup/list')).body.data!;
    expect(list.map((g) => g.groupName)).toEqual(['华南组', '华东采购一组', `g-${p.alice.id}`]);

    expect((await save({ id, groupName: '华东一组', remark: '' })).body.data).toEqual({ id, groupName: '华东一组', remark: '' });
    expect((await get<Group>(p.adminToken, `/api/usergroup/${id}/info`)).body.data).toMatchObject({ groupName: '华东一组', remark: '' });
    expect(await save({ id, groupName: '   ' })).toMatchObject({ status: 400, body: { msg: '组名称必填' } });
    const dup = await save({ id, groupName: '华南组' });
    expect(dup).toMatchObject({ status: 409, body: { code: 'A00004' } });
    expect((await get<Group>(p.adminToken, `/api/usergroup/${id}/info`)).body.data!.groupName).toBe('华东一组');

    expect(await save({ id: 9999, groupName: 'z' })).toMatchObject({ status: 404, body: { code: 'A00004', msg: '用户组不存在' } });
    expect(await get(p.adminToken, '/api/usergroup/9999/info')).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await get(p.adminToken, '/api/usergroup/99999999999/info')).toMatchObject({
      status: 400,
      body: { code: 'A00001', msg: '参数错误：字段 id 不能大于 2147483647' },
    });
    expect((await t().database.db.select().from(userGroups)).length).toBe(3);

    const audit = await t().database.db.select().from(auditLog).where(eq(auditLog.entity, 'group')).orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'create', 'edit']);
    expect(audit[2]).toMatchObject({ entityId: id, opUid: p.admin.id, before: { groupName: '华东采购一组' }, after: { groupName: '华东一组' } });

    const userToken = await login(t().app, 'alice@x.test');
    expect(await post(userToken, '/api/usergroup/update', { groupName: 'mine' })).toMatchObject({ status: 403, body: { code: 'A00003' } });
  });

  it('adds members (idempotent, answering true) so a new member can log in, and removes them again', async () => {
    const p = await people();
    const group = await newGroup('一组');
    expect(await loginStatus('bob@x.test')).toBe('no_group');

    const add = await post<boolean>(p.adminToken, `/api/usergroup/${group.id}/user?uids=${p.bob.id},${p.carol.id}`);
    expect(add.body).toMatchObject({ code: 'A00000', data: true });
    expect(await loginStatus('bob@x.test')).toBe('succ');
    // Adding again is no error and no duplicate.
    expect((await post<boolean>(p.lowerToken, `/api/usergroup/${group.id}/user?uids=${p.bob.id},${p.bob.id}`)).body.data).toBe(true);
    expect(await membersOf(p.bob.id)).toEqual([group.id]);

    const members = (await get<{ id: number }[]>(p.adminToken, `/api/usergroup/list/${group.id}`)).body.data!;
    expect(members.map((m) => m.id).sort()).toEqual([p.bob.id, p.carol.id].sort());
    expect(Object.keys(members[0]!).sort()).toEqual(['id', 'mailAddr', 'nickName', 'phoneNo', 'qq', 'roleType']);
    const listed = (await get<Page<AdminUser>>(p.adminToken, '/api/admin/user/list?mailAddr=bob')).body.data!.content[0]!;
    expect(listed.groupIds).toEqual([group.id]);

    const removed = await del<boolean>(p.adminToken, `/api/usergroup/${group.id}/user?uids=${p.bob.id}`);
    expect(removed.body).toMatchObject({ code: 'A00000', data: true });
    expect(await loginStatus('bob@x.test')).toBe('no_group');
    expect((await del<boolean>(p.adminToken, `/api/usergroup/${group.id}/user?uids=${p.bob.id}`)).body.data).toBe(true);
    expect((await get<{ id: number }[]>(p.adminToken, `/api/usergroup/list/${group.id}`)).body.data!.map((m) => m.id)).toEqual([p.carol.id]);

    const audit = await t().database.db.select().from(auditLog).where(eq(auditLog.entity, 'group')).orderBy(auditLog.id);
    expect(audit.map((a) => [a.action, a.userId])).toEqual([
      ['addUser', p.bob.id],
      ['addUser', p.carol.id],
      ['removeUser', p.bob.id],
    ]);
  });

  it('answers 404 A00004 for an unknown group and 400 A00001 naming unknown users, adding nobody', async () => {
    const p = await people();
    const group = await newGroup('一组');
    expect(await post(p.adminToken, `/api/usergroup/9999/user?uids=${p.bob.id}`)).toMatchObject({ status: 404, body: { code: 'A00004', msg: '用户组不存在' } });
    expect(await del(p.adminToken, `/api/usergroup/9999/user?uids=${p.bob.id}`)).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await get(p.adminToken, '/api/usergroup/list/9999')).toMatchObject({ status: 404, body: { code: 'A00004' } });

    const unknown = await post(p.adminToken, `/api/usergroup/${group.id}/user?uids=${p.bob.id},4242,4243`);
    expect(unknown).toMatchObject({ status: 400, body: { code: 'A00001', msg: '用户不存在：4242,4243' } });
    expect(await post(p.adminToken, `/api/usergroup/${group.id}/user?uids=${p.bob.id},99999999999`)).toMatchObject({
      status: 400,
      body: { code: 'A00001', msg: '参数错误：字段 uids 应为逗号分隔的id（1至2147483647）' },
    });
    expect(await membersOf(p.bob.id)).toEqual([]);
    expect(await del(p.adminToken, `/api/usergroup/${group.id}/user?uids=4242`)).toMatchObject({ status: 400, body: { code: 'A00001' } });
    for (const uids of ['', 'a,b', '1,,2', '0']) {
      expect(await post(p.adminToken, `/api/usergroup/${group.id}/user?uids=${uids}`), uids).toMatchObject({ status: 400, body: { code: 'A00001' } });
    }
    expect(await post(p.adminToken, `/api/usergroup/${group.id}/user`)).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await loginStatus('bob@x.test')).toBe('no_group');
    expect(await t().database.db.select().from(auditLog)).toHaveLength(0);

    const userToken = await login(t().app, 'alice@x.test');
    expect(await post(userToken, `/api/usergroup/${group.id}/user?uids=${p.bob.id}`)).toMatchObject({ status: 403, body: { code: 'A00003' } });
  });
});
