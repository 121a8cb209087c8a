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
import { loginHref } from '../navigation/navigate-to';

export const NO_ACCESS_PATH = '/me';

const HOME_BY_ROLE = {
  admin: '/admin/home',
  lowerAdmin: '/admin/home',
  user: '/user/home',
} as const satisfies Record<RoleType, string>;

export const ADMIN_SIDE_ROLES: readonly RoleType[] = ['admin', 'lowerAdmin'];
export const USER_SIDE_ROLES: readonly RoleType[] = ['user'];
export const ADMIN_ONLY_ROLES: readonly RoleType[] = ['admin'];

/** SPEC §2: the session is initialised before every route (/login is not one: decision 131). */
export async function initialiseSession(context: AppContext): Promise<void> {
  const session = await context.session.start();
  await session.settled();
}

/**
 * Login-required routes: without a user, go to /login?callback=<wanted path>, a full page load (the
 * login page is its own page, decision 131) that replaces the wanted path in the history, as before.
 */
export function requireLogin(context: AppContext, location: ParsedLocation): void {
  if (!context.session.view().loggedIn) {
    throw redirect({ href: loginHref(location.href), reloadDocument: true, replace: true });
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
