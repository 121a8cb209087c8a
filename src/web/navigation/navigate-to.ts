// Navigation rules of SPEC §2:
// - "A navigation to a non-local target does a full page load": targets the single-page app does
//   not own (another origin, or same-origin server paths such as /api/... and /ext/... downloads)
//   are loaded as documents; everything else is a router navigation.
// - The login callback: go to the `callback` query value, or to / when it is absent or itself starts
//   with /login. Only same-origin targets are honoured (an off-site callback would make the login
//   page an open redirect), so a foreign callback also goes to /.
// - The login page is a page of its own (login.html, decision 131), not a route of the app: the app
//   reaches it with a full page load (loginHref), and it leaves for the callback with one.
import type { AnyRouter } from '@tanstack/react-router';

/** The login page: the server answers it with login.html, the app has no such route. */
export const LOGIN_PATH = '/login';

/** The login page's address, with the path to come back to after the login (when there is one). */
export function loginHref(callback?: string): string {
  return callback ? `${LOGIN_PATH}?${new URLSearchParams({ callback }).toString()}` : LOGIN_PATH;
}

/** Path prefixes served by the server rather than the app. */
export const SERVER_PATH_PREFIXES = ['/api/', '/ext/'] as const;

function currentOrigin(): string {
  return typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
}

/** The same-origin path (path + search + hash) of a target, or null when it points elsewhere. */
export function toLocalPath(target: string, origin: string = currentOrigin()): string | null {
  const trimmed = target.trim();
  if (trimmed === '') return null;
  let url: URL;
  try {
    url = new URL(trimmed, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.username || url.password) return null;
  return url.pathname + url.search + url.hash;
}

/** True when the app's router handles this same-origin path. */
export function isAppPath(path: string): boolean {
  return path.startsWith('/') && !SERVER_PATH_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Where a successful login goes (SPEC §2 /login). */
export function resolveLoginCallback(callback: string | undefined | null, origin: string = currentOrigin()): string {
  if (!callback) return '/';
  const path = toLocalPath(callback, origin);
  if (path === null || path.startsWith(LOGIN_PATH)) return '/';
  return path;
}

/** Navigates to any target: router navigation for app paths, a full page load for the rest. */
export function navigateTo(router: Pick<AnyRouter, 'navigate'>, target: string, origin: string = currentOrigin()): Promise<void> {
  const path = toLocalPath(target, origin);
  if (path !== null && isAppPath(path)) return router.navigate({ href: path });
  if (typeof window !== 'undefined') window.location.assign(target);
  return Promise.resolve();
}
