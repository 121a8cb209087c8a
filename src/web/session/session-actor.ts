// The app's session actor: machines/session.machine.ts with the browser side effects provided.
// This module (with xstate) is its own chunk: main.tsx loads it through the session ref
// (session-ref.ts) when the session is first needed, creates the actor once (createSessionActor) and
// wraps it (runSession) for the router context; routes wait for it to settle before they decide
// whether a login is needed.
import { fromPromise, waitFor, type Actor } from 'xstate';
import {
  isLoggedIn,
  isSettling,
  selectRole,
  sessionMachine,
  type SessionNotice,
  type SessionSnapshot,
  type SessionUser,
} from '../../../machines/session.machine';
import type { ApiClient } from '../../api/client';
import { createAppActor } from '../inspect/create-app-actor';
import { createSessionRef, NO_SESSION, type RunningSession, type SessionRef, type SessionView } from './session-ref';
import type { TokenStore } from './token-store';
import { takeEarlyUserInfo } from './early-user-info';
import { zhApp as zh } from '../i18n/zh-app';

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

/**
 * GET /api/user/info with the token being tried; throws when there is no user to load. The first
 * time, the answer of index.html's early call for the same token when it is a user (decision 174).
 */
export async function fetchSessionUser(api: ApiClient, token: string): Promise<SessionUser> {
  const early = await takeEarlyUserInfo(token);
  if (early) return early as SessionUser;
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

/** The actor as the session ref runs it: its view computed by the machine's questions, once per snapshot. */
export function runSession(actor: SessionActor): RunningSession {
  let seen: SessionSnapshot | undefined;
  let view: SessionView = NO_SESSION;
  return {
    send: (event) => actor.send(event),
    view() {
      const snapshot = actor.getSnapshot();
      if (snapshot !== seen) {
        seen = snapshot;
        const loggedIn = isLoggedIn(snapshot);
        view = { loggedIn, user: loggedIn ? snapshot.context.user : null, role: selectRole(snapshot) };
      }
      return view;
    },
    subscribe(listener) {
      const subscription = actor.subscribe(() => listener());
      return () => subscription.unsubscribe();
    },
    settled: async () => {
      await waitFor(actor, (snapshot) => !isSettling(snapshot));
    },
  };
}

/** A session ref over an actor already started (tests, which create the actor themselves). */
export function sessionRefOf(actor: SessionActor): SessionRef {
  const running = runSession(actor);
  return createSessionRef(() => Promise.resolve(running), running);
}
