// The search params of /admin/user-list: filters, page and size live in the URL (TanStack Router
// validateSearch), so a filtered page can be linked, reloaded and walked back to. A value that does
// not parse falls back to its default instead of failing the route; defaults stay out of the URL.
import * as v from 'valibot';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import { optionalSearchText } from '../../navigation/search';

/** SPEC §2: the role filter offers all, admin (the admin side) and user. */
export const USER_ROLE_FILTERS = ['all', 'admin', 'user'] as const;
export type UserRoleFilter = (typeof USER_ROLE_FILTERS)[number];

const pageParam = v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0), 0);
const sizeParam = v.optional(v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), DEFAULT_PAGE_SIZE), DEFAULT_PAGE_SIZE);

export const userListSearchSchema = v.object({
  roleType: v.optional(v.fallback(v.picklist(USER_ROLE_FILTERS), 'all'), 'all'),
  mailAddr: optionalSearchText,
  nickName: optionalSearchText,
  page: pageParam,
  size: sizeParam,
});

export type UserListSearch = v.InferOutput<typeof userListSearchSchema>;
export type UserListSearchInput = v.InferInput<typeof userListSearchSchema>;

/** Defaults, left out of the URL by the route's stripSearchParams middleware. */
export const USER_LIST_SEARCH_DEFAULTS = { roleType: 'all', page: 0, size: DEFAULT_PAGE_SIZE } as const;

/** The URL form of a search: filters trimmed, blank ones left out. */
export function toUserListUrlSearch(search: UserListSearch): UserListSearchInput {
  const mailAddr = search.mailAddr?.trim();
  const nickName = search.nickName?.trim();
  return { ...search, mailAddr: mailAddr ? mailAddr : undefined, nickName: nickName ? nickName : undefined };
}
