// Renders the real app (routes, shell, session actor) at a path, on a memory history, or the login
// page's own root (renderLoginPage: login.html's tree, decision 131), with the API client on a fake fetch that answers only the calls a test stubs (uploads too, through a fake
// XMLHttpRequest on the same fetch), through the route table of support/fake-api.ts. Unit-level only: the
// real server is exercised by tests/server and tests/e2e.
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { vi } from 'vitest';
import type { RoleType, SessionUser } from '../../machines/session.machine';
import { toast } from '../../src/web/components/ui/toast';
import { createSessionActor, sessionRefOf } from '../../src/web/session/session-actor';
import { createTokenStore } from '../../src/web/session/token-store';
import { createAppRouter } from '../../src/web/router';
import { LoginRoot } from '../../src/web/login/login-root';
import { fakeApiClient, ok, type Routes } from './support/fake-api';
import type { UploadScript } from './support/fake-xhr';
import { createFakeLive } from './support/fake-live';

export function userOf(roleType: RoleType): SessionUser {
  return { id: 3, nickName: `${roleType}-name`, mailAddr: `${roleType}@example.com`, phoneNo: '555-0101', qq: '10001', roleType };
}

export interface RenderAppOptions {
  /** `'METHOD /path'` (or `/path/{param}`) -> handler: a fake's `handlers`, or a test's own. Unstubbed calls answer A00004. */
  handlers?: Routes;
  /** Log in as this user before rendering (stored token + GET /api/user/info). */
  loggedInAs?: SessionUser;
  /** How an upload's body goes out (api.upload's progress); all at once by default. */
  uploadScript?: UploadScript;
}

export function renderApp(path: string, options: RenderAppOptions = {}) {
  const handlers: Routes = { ...options.handlers };
  // Pages that listen for live updates get a stream that stays quiet unless the test speaks on it.
  const live = createFakeLive();
  handlers['GET /api/events'] ??= live.handler;
  if (options.loggedInAs) {
    const user = options.loggedInAs;
    handlers['GET /api/user/info'] ??= () => ok(user);
    handlers['GET /api/notice/get'] ??= () => ok({ content: '' });
  }
  const tokenStore = createTokenStore({}); // in memory
  if (options.loggedInAs) tokenStore.write({ token: 'test-token', keep: false });

  const effects = { goHome: vi.fn(), reloadRoot: vi.fn(), notify: vi.fn() };
  const { api, requests } = fakeApiClient(handlers, {
    uploadScript: options.uploadScript,
    readToken: () => tokenStore.read(),
    notifyError: (message) => toast.error(message),
    // Read only when a response arrives, after `session` exists.
    onSessionSignal: (signal) => session.send(signal),
  });
  const session = createSessionActor({ api, tokenStore, ...effects });
  const router = createAppRouter({ session: sessionRefOf(session), api }, createMemoryHistory({ initialEntries: [path] }));
  const view = render(<RouterProvider router={router} />);
  return { ...view, router, session, api, requests, tokenStore, effects, live };
}

/**
 * The login page as login.html draws it (src/web/login/main.tsx), at `search` (e.g. '?callback=..').
 * It stores the token in the app's token store (local storage here) and leaves with a page load.
 */
export function renderLoginPage(search = '', options: { handlers?: Routes } = {}) {
  const { api, requests } = fakeApiClient({ ...options.handlers }, { notifyError: (message) => toast.error(message) });
  const view = render(<LoginRoot api={api} search={search} />);
  return { ...view, api, requests };
}

/**
 * The page the document was last sent to by a full page load (window.location.assign/replace: the
 * test document keeps its content and only takes the address), as path + query.
 */
export function loadedPage(): string {
  return window.location.pathname + window.location.search;
}

/** Puts the test document back at the address it started on. */
export function resetLoadedPage(): void {
  window.location.replace('http://localhost:3000/');
}
