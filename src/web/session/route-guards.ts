// Route guards (beforeLoad) for SPEC §2 / §6. The UI guard only keeps people off screens they
// cannot use; the server enforces the same roles on every call anyway (x-roles).
//
// Home: `/` (where a login without callback and a wrong role go) leads to the role's home: the
// admin home for admin and lowerAdmin, the member home for a member. no_access lands on /me instead:
// it exists for every role and loads nothing that could be refused again (a home's call, refused,
// would send it back to itself).
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import type { RoleType } from '../../../machines/session.machine';
import type { AppContext } from '../app/app-context';

export const NO_ACCESS_PATH = '/me';
export const LOGIN_PATH = '/login';

const HOME_BY_ROLE = {
  admin: '/admin/home',
  lowerAdmin: '/admin/home',
  user: '/user/home',
} as const satisfies Record<RoleType, string>;

export const ADMIN_SIDE_ROLES: readonly RoleType[] = ['admin', 'lowerAdmin'];
export const USER_SIDE_ROLES: readonly RoleType[] = ['user'];
export const ADMIN_ONLY_ROLES: readonly RoleType[] = ['admin'];

/** SPEC §2: the session is initialised before every route except /login. */
export async function initialiseSession(context: AppContext, location: ParsedLocation): Promise<void> {
  if (location.pathname === LOGIN_PATH || location.pathname.startsWith(`${LOGIN_PATH}/`)) return;
  const session = await context.session.start();
  await session.settled();
}

/** Login-required routes: without a user, go to /login?callback=<wanted path>. */
export function requireLogin(context: AppContext, location: ParsedLocation): void {
  if (!context.session.view().loggedIn) {
    throw redirect({ to: LOGIN_PATH, search: { callback: location.href }, replace: true });
  }
}

/** Role-restricted routes: a wrong role goes home. */
export function requireRole(context: AppContext, roles: readonly RoleType[]): void {
  const { role } = context.session.view();
  if (role === null || !roles.includes(role)) {
    throw redirect({ to: '/', replace: true });
  }
}

/** `/`: the logged-in role's home (without a user, the login page with `/` as callback). */
export function redirectHome(context: AppContext, location: ParsedLocation): never {
  requireLogin(context, location);
  const { role } = context.session.view();
  throw redirect({ to: role === null ? NO_ACCESS_PATH : HOME_BY_ROLE[role], replace: true });
}
