// The app's session actor: machines/session.machine.ts with the browser side effects provided.
// main.tsx creates it once (createSessionActor), forwards the API client's session signals to it
// and hands it to the router context; routes wait for it to settle (waitForSession) before they
// decide whether a login is needed.
import { fromPromise, waitFor, type Actor } from 'xstate';
import { isSettling, sessionMachine, type SessionNotice, type SessionSnapshot, type SessionUser } from '../../../machines/session.machine';
import type { ApiClient, SessionSignal } from '../../api/client';
import { createAppActor } from '../inspect/create-app-actor';
import type { TokenStore } from './token-store';
import { zh } from '../i18n/zh';

export type SessionLogic = ReturnType<typeof provideSession>;
export type SessionActor = Actor<SessionLogic>;

export interface SessionDeps {
  api: ApiClient;
  tokenStore: TokenStore;
  /** SPEC §4 no_access: go to the home route (a router navigation). */
  goHome: () => void;
  /** SPEC §4 logout: reload the root of the app (a full page load, dropping all in-memory state). */
  reloadRoot: () => void;
  /** Shows a session notice (an error toast in the app). */
  notify: (message: string) => void;
}

const NOTICE_TEXT: Record<SessionNotice, string> = {
  tokenExpired: zh.session.tokenExpired,
};

/** GET /api/user/info with the token being tried; throws when there is no user to load. */
export async function fetchSessionUser(api: ApiClient, token: string): Promise<SessionUser> {
  const { data } = await api.GET('/api/user/info', { headers: { 'x-token': token }, silent: true });
  const user = data?.data;
  if (!user) throw new Error('user info unavailable');
  return user as SessionUser;
}

export function provideSession(deps: SessionDeps) {
  return sessionMachine.provide({
    actors: {
      loadUser: fromPromise<SessionUser, { token: string }>(({ input }) => fetchSessionUser(deps.api, input.token)),
    },
    actions: {
      storeToken: (_, params) => deps.tokenStore.write(params),
      clearToken: () => deps.tokenStore.clear(),
      revokeToken: (_, params) => {
        if (!params.token) return;
        // Best effort: the local logout happens whatever the server answers. keepalive lets the
        // request outlive the page, since reloadRoot navigates away right after.
        void deps.api.POST('/ext/login/logout', { headers: { 'x-token': params.token }, keepalive: true, silent: true }).catch(() => undefined);
      },
      reloadRoot: () => deps.reloadRoot(),
      goHome: () => deps.goHome(),
      notify: (_, params) => deps.notify(NOTICE_TEXT[params.notice]),
    },
  });
}

/** Creates and starts the session actor from the stored token. */
export function createSessionActor(deps: SessionDeps): SessionActor {
  const stored = deps.tokenStore.read();
  const actor = createAppActor(provideSession(deps), {
    input: { token: stored?.token ?? null, keep: stored?.keep ?? false },
  });
  actor.start();
  return actor;
}

/** Sends the API client's token.expired / no.access to the session actor. */
export function forwardSessionSignals(
  actor: Pick<SessionActor, 'send'>,
  signals: { subscribe(listener: (signal: SessionSignal) => void): () => void },
): () => void {
  return signals.subscribe((signal) => actor.send(signal));
}

/** Resolves once the session has left `starting`/`loadingUser` (SPEC §2: initialise before each route). */
export function waitForSession(actor: SessionActor): Promise<SessionSnapshot> {
  return waitFor(actor, (snapshot) => !isSettling(snapshot));
}
