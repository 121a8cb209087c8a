// Data of the people screens, loaded by the route loaders through the router context's client.
// Failed calls have already been toasted by the client (SPEC §8); the loaders then hand the page
// an empty result rather than failing the route.
import type { components } from '../../../api/schema';
import type { ApiClient } from '../../../api/client';
import { outcomeOf } from '../../../api/outcome';
import type { UserListSearch } from './user-list-search';

export type AdminUser = components['schemas']['AdminUser'];
export type UserPage = components['schemas']['UserPage'];
export type User = components['schemas']['User'];
export type UserGroup = components['schemas']['UserGroup'];
export type UserGroupSaveRequest = components['schemas']['UserGroupSaveRequest'];
export type AdminUserUpdateRequest = components['schemas']['AdminUserUpdateRequest'];

export interface UserListData {
  users: UserPage;
  /** Every group: names for the groups column and the choices of the edit dialog. */
  groups: UserGroup[];
}

const EMPTY_USER_PAGE: UserPage = { content: [], totalPages: 0, totalElements: 0 };

export async function loadUserList(api: ApiClient, search: UserListSearch): Promise<UserListData> {
  const mailAddr = search.mailAddr?.trim();
  const nickName = search.nickName?.trim();
  const [users, groups] = await Promise.all([
    outcomeOf(
      api.GET('/api/admin/user/list', {
        params: {
          query: {
            page: search.page,
            size: search.size,
            isDesc: true,
            roleType: search.roleType,
            mailAddr: mailAddr || undefined,
            nickName: nickName || undefined,
          },
        },
      }),
    ),
    outcomeOf(api.GET('/api/usergroup/list')),
  ]);
  return { users: users.ok ? (users.data ?? EMPTY_USER_PAGE) : EMPTY_USER_PAGE, groups: groups.ok ? (groups.data ?? []) : [] };
}

export async function loadGroups(api: ApiClient): Promise<UserGroup[]> {
  const outcome = await outcomeOf(api.GET('/api/usergroup/list'));
  return outcome.ok ? (outcome.data ?? []) : [];
}

export type GroupPageData = { kind: 'new' } | { kind: 'found'; group: UserGroup; members: User[] } | { kind: 'missing' };

/** `/admin/group/{id|new}`: nothing to load for 'new'; the group and its members otherwise. */
export async function loadGroupPage(api: ApiClient, idParam: string): Promise<GroupPageData> {
  if (idParam === 'new') return { kind: 'new' };
  const id = parseId(idParam);
  if (id === null) return { kind: 'missing' };
  const [group, members] = await Promise.all([
    outcomeOf(api.GET('/api/usergroup/{id}/info', { params: { path: { id } } })),
    outcomeOf(api.GET('/api/usergroup/list/{id}', { params: { path: { id } } })),
  ]);
  const found = group.ok ? group.data : undefined;
  if (!found) return { kind: 'missing' };
  return { kind: 'found', group: found, members: members.ok ? (members.data ?? []) : [] };
}

/** A positive integer id from a path segment, else null. */
export function parseId(param: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}

// ---------------------------------------------------------------- changes (a failure was toasted by the client)

/** Creates (no id) or updates a group: the saved group (undefined when the answer held none), or null when refused. */
export async function saveGroup(api: ApiClient, body: UserGroupSaveRequest): Promise<UserGroup | undefined | null> {
  const outcome = await outcomeOf(api.POST('/api/usergroup/update', { body }));
  return outcome.ok ? outcome.data : null;
}

export type MemberChange = 'add' | 'remove';

/**
 * Adds users to a group or removes them: 'done', 'refused' (an error code, already toasted) or
 * 'unchanged' (the server answered false: the page says the operation failed).
 */
export async function changeGroupMembers(
  api: ApiClient,
  groupId: number,
  change: MemberChange,
  uids: readonly number[],
): Promise<'done' | 'refused' | 'unchanged'> {
  const request = { params: { path: { id: groupId }, query: { uids: uids.join(',') } } };
  const outcome = await outcomeOf(change === 'add' ? api.POST('/api/usergroup/{id}/user', request) : api.DELETE('/api/usergroup/{id}/user', request));
  if (!outcome.ok) return 'refused';
  return outcome.data ? 'done' : 'unchanged';
}

/** Changes a user's role and groups; true when saved. */
export async function updateUser(api: ApiClient, body: AdminUserUpdateRequest): Promise<boolean> {
  return (await outcomeOf(api.POST('/api/admin/user/update', { body }))).ok;
}
