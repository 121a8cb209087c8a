// A fake of the HTTP boundary for the people screens: an in-memory set of users and groups behind
// the contract's calls (listAdminUsers, listUsers, updateAdminUser, listUserGroups, getUserGroup,
// listGroupUsers, saveUserGroup, addGroupUsers, removeGroupUsers), answering in its envelope.
// The real handlers are tested in tests/server; here only the pages are under test.
import type { components } from '../../../src/api/schema';
import { json, ok, type Handler } from '../app-harness';

type AdminUser = components['schemas']['AdminUser'];
type UserGroup = components['schemas']['UserGroup'];

export interface FakePeople {
  users: AdminUser[];
  groups: UserGroup[];
  /** What add/remove answer in `data`; the server answers false when nothing changed. */
  memberResult: boolean;
  handlers: Record<string, Handler>;
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

function groupIdFrom(pathname: string): number {
  const match = /\/api\/usergroup\/(?:list\/)?(\d+)/.exec(pathname);
  return Number(match?.[1]);
}

function uidsFrom(url: URL): number[] {
  return (url.searchParams.get('uids') ?? '').split(',').map(Number);
}

export function fakePeopleApi(seed: { users?: AdminUser[]; groups?: UserGroup[] } = {}): FakePeople {
  const fake: FakePeople = {
    users: seed.users ?? [],
    groups: seed.groups ?? [],
    memberResult: true,
    handlers: {},
  };
  const toUser = ({ id, nickName, mailAddr, phoneNo, qq, roleType }: AdminUser) => ({ id, nickName, mailAddr, phoneNo, qq, roleType });
  const membersOf = (groupId: number) => fake.users.filter((u) => u.groupIds.includes(groupId));

  fake.handlers = {
    'GET /api/admin/user/list': (request) => {
      const q = new URL(request.url).searchParams;
      const page = Number(q.get('page') ?? 0);
      const size = Number(q.get('size') ?? 20);
      const role = q.get('roleType') ?? 'all';
      const mail = (q.get('mailAddr') ?? '').toLowerCase();
      const nick = (q.get('nickName') ?? '').toLowerCase();
      const matching = fake.users.filter(
        (u) =>
          (role === 'all' || (role === 'admin' ? u.roleType !== 'user' : u.roleType === role)) &&
          u.mailAddr.toLowerCase().includes(mail) &&
          u.nickName.toLowerCase().includes(nick),
      );
      return ok({
        content: matching.slice(page * size, page * size + size),
        totalPages: Math.ceil(matching.length / size),
        totalElements: matching.length,
      });
    },
    'GET /api/user/list': () => ok(fake.users.map(toUser)),
    'POST /api/admin/user/update': async (request) => {
      const body = (await request.json()) as { id: number; roleType?: AdminUser['roleType']; groupIds?: number[] };
      const user = fake.users.find((u) => u.id === body.id);
      if (!user) return json({ code: 'A00004', msg: '用户不存在' }, 404);
      Object.assign(user, body.roleType && { roleType: body.roleType }, body.groupIds && { groupIds: body.groupIds });
      return ok(user);
    },
    'GET /api/usergroup/list': () => ok(fake.groups),
    'POST /api/usergroup/update': async (request) => {
      const body = (await request.json()) as { id?: number; groupName: string; remark?: string };
      if (body.id === undefined) {
        const created = { id: Math.max(0, ...fake.groups.map((g) => g.id)) + 1, groupName: body.groupName, remark: body.remark ?? '' };
        fake.groups.push(created);
        return ok(created);
      }
      const group = fake.groups.find((g) => g.id === body.id);
      if (!group) return json({ code: 'A00004', msg: '用户组不存在' }, 404);
      Object.assign(group, { groupName: body.groupName, remark: body.remark ?? '' });
      return ok(group);
    },
  };

  // Path-parameter calls: one handler per group id the seed knows, plus ids created later.
  const groupHandler = (): Handler => (request) => {
    const url = new URL(request.url);
    const id = groupIdFrom(url.pathname);
    const group = fake.groups.find((g) => g.id === id);
    if (!group) return json({ code: 'A00004', msg: '用户组不存在' }, 404);
    if (url.pathname.endsWith('/info')) return ok(group);
    if (url.pathname.includes('/list/')) return ok(membersOf(id).map(toUser));
    const uids = uidsFrom(url);
    if (fake.memberResult) {
      for (const user of fake.users) {
        if (!uids.includes(user.id)) continue;
        if (request.method === 'POST' && !user.groupIds.includes(id)) user.groupIds = [...user.groupIds, id];
        if (request.method === 'DELETE') user.groupIds = user.groupIds.filter((g) => g !== id);
      }
    }
    return ok(fake.memberResult);
  };
  for (let id = 1; id <= 50; id += 1) {
    fake.handlers[`GET /api/usergroup/${id}/info`] = groupHandler();
    fake.handlers[`GET /api/usergroup/list/${id}`] = groupHandler();
    fake.handlers[`POST /api/usergroup/${id}/user`] = groupHandler();
    fake.handlers[`DELETE /api/usergroup/${id}/user`] = groupHandler();
  }
  return fake;
}
