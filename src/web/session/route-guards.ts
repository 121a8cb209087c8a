// Route guards (beforeLoad) for SPEC §2 / §6. The UI guard only keeps people off screens they
// cannot use; the server enforces the same roles on every call anyway (x-roles).
//
// Home: `/` sends everybody to /me. /me exists for every role, it is where no_access lands
// (goHome navigates to /), and it needs no role-specific choice that could itself be refused.
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { isLoggedIn, selectRole, type RoleType } from '../../../machines/session.machine';
import type { AppContext } from '../app/app-context';
import { waitForSession } from './session-actor';

export const HOME_PATH = '/me';
export const LOGIN_PATH = '/login';

export const ADMIN_SIDE_ROLES: readonly RoleType[] = ['admin', 'lowerAdmin'];
export const USER_SIDE_ROLES: readonly RoleType[] = ['user'];
export const ADMIN_ONLY_ROLES: readonly RoleType[] = ['admin'];

/** SPEC §2: the session is initialised before every route except /login. */
export async function initialiseSession(context: AppContext, location: ParsedLocation): Promise<void> {
  if (location.pathname === LOGIN_PATH || location.pathname.startsWith(`${LOGIN_PATH}/`)) return;
  await waitForSession(context.session);
}

/** Login-required routes: without a user, go to /login?callback=<wanted path>. */
export function requireLogin(context: AppContext, location: ParsedLocation): void {
  if (!isLoggedIn(context.session.getSnapshot())) {
    throw redirect({ to: LOGIN_PATH, search: { callback: location.href }, replace: true });
  }
}

/** Role-restricted routes: a wrong role goes home. */
export function requireRole(context: AppContext, roles: readonly RoleType[]): void {
  const role = selectRole(context.session.getSnapshot());
  if (role === null || !roles.includes(role)) {
    throw redirect({ to: '/', replace: true });
  }
}
