// A fake of the HTTP boundary for the people screens: an in-memory set of users and groups behind
// the contract's calls (listAdminUsers, listUsers, updateAdminUser, listUserGroups, getUserGroup,
// listGroupUsers, saveUserGroup, addGroupUsers, removeGroupUsers), answering in its envelope
// (support/fake-api.ts), with a log of the calls.
// The real handlers are tested in tests/server; here only the pages are under test.
import type { components } from '../../../src/api/schema';
import { createFakeServer, notFound, ok, pageOf, type Call, type FakeServer, type Routes } from '../support/fake-api';

type AdminUser = components['schemas']['AdminUser'];
type UserGroup = components['schemas']['UserGroup'];

export interface PeopleFake {
  users: AdminUser[];
  groups: UserGroup[];
  /** What add/remove answer in `data`; the server answers false when nothing changed. */
  memberResult: boolean;
  handlers: Routes;
  calls: Call[];
  callsTo: FakeServer['callsTo'];
}

const CREATED = Date.UTC(2024, 4, 1, 8, 30);

export function adminUser(id: number, fields: Partial<AdminUser> = {}): AdminUser {
  return {
    id,
    nickName: `user${id}`,
    mailAddr: `user${id}@example.com`,
    phoneNo: `555-01${String(id).padStart(2, '0')}`,
    qq: String(10000 + id),
    roleType: 'user',
    groupIds: [],
    createdAt: CREATED + id * 60_000,
    ...fields,
  };
}

export function createPeopleFake(seed: { users?: AdminUser[]; groups?: UserGroup[] } = {}): PeopleFake {
  const server = createFakeServer();
  const fake: PeopleFake = {
    users: seed.users ?? [],
    groups: seed.groups ?? [],
    memberResult: true,
    handlers: server.handlers,
    calls: server.calls,
    callsTo: server.callsTo,
  };
  const toUser = ({ id, nickName, mailAddr, phoneNo, qq, roleType }: AdminUser) => ({ id, nickName, mailAddr, phoneNo, qq, roleType });
  const membersOf = (groupId: number) => fake.users.filter((u) => u.groupIds.includes(groupId));
  const groupOf = (id: string | undefined) => fake.groups.find((g) => g.id === Number(id));
  const noGroup = () => notFound('用户组不存在');

  server.on('GET', '/api/admin/user/list', ({ query }) => {
    const role = query.roleType ?? 'all';
    const mail = (query.mailAddr ?? '').toLowerCase();
    const nick = (query.nickName ?? '').toLowerCase();
    const matching = fake.users.filter(
      (u) =>
        (role === 'all' || (role === 'admin' ? u.roleType !== 'user' : u.roleType === role)) &&
        u.mailAddr.toLowerCase().includes(mail) &&
        u.nickName.toLowerCase().includes(nick),
    );
    return ok(pageOf(matching, query));
  });
  server.on('GET', '/api/user/list', () => ok(fake.users.map(toUser)));
  server.on('POST', '/api/admin/user/update', ({ body }) => {
    const change = body as { id: number; roleType?: AdminUser['roleType']; groupIds?: number[] };
    const user = fake.users.find((u) => u.id === change.id);
    if (!user) return notFound('用户不存在');
    Object.assign(user, change.roleType && { roleType: change.roleType }, change.groupIds && { groupIds: change.groupIds });
    return ok(user);
  });
  server.on('GET', '/api/usergroup/list', () => ok(fake.groups));
  server.on('POST', '/api/usergroup/update', ({ body }) => {
    const change = body as { id?: number; groupName: string; remark?: string };
    if (change.id === undefined) {
      const created = { id: Math.max(0, ...fake.groups.map((g) => g.id)) + 1, groupName: change.groupName, remark: change.remark ?? '' };
      fake.groups.push(created);
      return ok(created);
    }
    const group = groupOf(String(change.id));
    if (!group) return noGroup();
    Object.assign(group, { groupName: change.groupName, remark: change.remark ?? '' });
    return ok(group);
  });

  server.on('GET', '/api/usergroup/{id}/info', ({ params }) => {
    const group = groupOf(params.id);
    return group ? ok(group) : noGroup();
  });
  server.on('GET', '/api/usergroup/list/{id}', ({ params }) => {
    const group = groupOf(params.id);
    return group ? ok(membersOf(group.id).map(toUser)) : noGroup();
  });
  /** add / remove members: the server answers false when nothing changed (memberResult). */
  const members =
    (change: 'add' | 'remove') =>
    ({ params, query }: Call) => {
      const group = groupOf(params.id);
      if (!group) return noGroup();
      const uids = (query.uids ?? '').split(',').map(Number);
      if (fake.memberResult) {
        for (const user of fake.users) {
          if (!uids.includes(user.id)) continue;
          if (change === 'add' && !user.groupIds.includes(group.id)) user.groupIds = [...user.groupIds, group.id];
          if (change === 'remove') user.groupIds = user.groupIds.filter((g) => g !== group.id);
        }
      }
      return ok(fake.memberResult);
    };
  server.on('POST', '/api/usergroup/{id}/user', members('add'));
  server.on('DELETE', '/api/usergroup/{id}/user', members('remove'));
  return fake;
}
