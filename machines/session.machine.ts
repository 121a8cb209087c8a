/**
 * Session machine (SPEC §4 Session, §8 token_expired / no_access, §9 token storage). Its rules are
 * listed at sessionMachine: a stored token loads the user, a failed load clears it, login replaces
 * the session, logout revokes it, an expired token logs out after LOGOUT_DELAY_MS.
 *
 * Pure: no window, fetch or storage here. Every side effect is a named action or actor with a
 * no-op default; the app supplies the real ones with `.provide()` (src/web/session/).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';

export type RoleType = 'admin' | 'lowerAdmin' | 'user';

/** GET /api/user/info `data` (SPEC §3 User). */
export interface SessionUser {
  id: number;
  nickName: string;
  mailAddr: string;
  phoneNo: string;
  qq: string;
  roleType: RoleType;
}

export interface SessionContext {
  token: string | null;
  keep: boolean;
  user: SessionUser | null;
}

export interface SessionInput {
  /** The token found in the token store at start, or null. */
  token: string | null;
  keep?: boolean;
}

export type SessionEvent =
  { type: 'session.login'; token: string; keep: boolean } | { type: 'session.logout' } | { type: 'token.expired' } | { type: 'no.access' };

/** Keys of the messages the `notify` action shows; the app maps them to catalog text. */
export type SessionNotice = 'tokenExpired';

export const LOGOUT_DELAY_MS = 1000;

/**
 * - At start the app passes the stored token (if any) as input. A stored token goes straight to
 *   `loadingUser`; without one the session is `noToken`.
 * - `session.login` (token + keep flag from a successful login) stores the token and loads the
 *   user; it is accepted in every state, so logging in as someone else simply replaces the session.
 * - `loadingUser` invokes the `loadUser` actor (GET /api/user/info). Success -> `loggedIn` with
 *   `context.user`; any failure means the token is useless: clear it and go to `noToken`.
 *   A `token.expired` while loading is ignored: the load itself fails and clears the token.
 * - `session.logout` from a live session revokes the token on the server (best effort), clears the
 *   stored token and the user, and reloads the root of the app.
 * - `token.expired` (HTTP 401 / A00002 seen by the API client) while logged in shows 'Token已过期'
 *   through the `notify` action and logs out after 1 second (`logoutDelay`). The token is not
 *   revoked then: the server already refused it.
 * - `no.access` (A00003) sends the user home (`goHome`) and leaves the session as it is.
 */
export const sessionMachine = setup({
  // Stryker disable next-line ObjectLiteral: types only, erased at run time
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  guards: {
    hasStoredToken: ({ context }) => context.token !== null && context.token !== '',
  },
  delays: {
    logoutDelay: LOGOUT_DELAY_MS,
  },
  actors: {
    // Provided by the app: fetch the current user with the given token.
    loadUser: fromPromise<SessionUser, { token: string }>(async () => {
      // Stryker disable next-line StringLiteral: for a reader of the code; onError drops the error (a failed load is no session)
      throw new Error('loadUser not provided');
    }),
  },
  actions: {
    // Side effects (provided by the app).
    storeToken: (_, _params: { token: string; keep: boolean }) => {},
    clearToken: () => {},
    revokeToken: (_, _params: { token: string | null }) => {},
    reloadRoot: () => {},
    goHome: () => {},
    notify: (_, _params: { notice: SessionNotice }) => {},
    // Context updates.
    rememberToken: assign((_, params: { token: string; keep: boolean }) => ({
      token: params.token,
      keep: params.keep,
      user: null,
    })),
    forgetSession: assign({ token: null, keep: false, user: null }),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ token: input.token, keep: input.keep ?? false, user: null }),
  initial: 'starting',
  on: {
    'session.login': {
      // From loadingUser too: XState v5 exits and re-enters a targeted child, so the load restarts.
      target: '.loadingUser',
      actions: [
        { type: 'storeToken', params: ({ event }) => ({ token: event.token, keep: event.keep }) },
        { type: 'rememberToken', params: ({ event }) => ({ token: event.token, keep: event.keep }) },
      ],
    },
    'no.access': { actions: 'goHome' },
  },
  states: {
    starting: {
      always: [{ guard: 'hasStoredToken', target: 'loadingUser' }, { target: 'noToken' }],
    },
    noToken: {},
    loadingUser: {
      invoke: {
        id: 'loadUser',
        src: 'loadUser',
        // Entered only with a token: a stored one (hasStoredToken) or a login's.
        input: ({ context }) => ({ token: context.token! }),
        onDone: {
          target: 'loggedIn',
          actions: assign({ user: ({ event }) => event.output }),
        },
        onError: {
          target: 'noToken',
          actions: ['clearToken', 'forgetSession'],
        },
      },
    },
    loggedIn: {
      on: {
        'token.expired': { target: 'expiring' },
        'session.logout': {
          target: 'noToken',
          actions: [{ type: 'revokeToken', params: ({ context }) => ({ token: context.token }) }, 'clearToken', 'forgetSession', 'reloadRoot'],
        },
      },
    },
    expiring: {
      entry: { type: 'notify', params: { notice: 'tokenExpired' } },
      after: {
        logoutDelay: {
          target: 'noToken',
          actions: ['clearToken', 'forgetSession', 'reloadRoot'],
        },
      },
      on: {
        'session.logout': {
          target: 'noToken',
          actions: ['clearToken', 'forgetSession', 'reloadRoot'],
        },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** The signed-in user's role, or null when nobody is signed in (no user loaded: isLoggedIn). */
export function selectRole(snapshot: SessionSnapshot): RoleType | null {
  return snapshot.context.user?.roleType ?? null;
}

/**
 * True while a user is loaded (including the 1 s between token expiry and logout): the user is set
 * on entering loggedIn, kept while expiring, and cleared by every way out (login, logout, failure).
 */
export function isLoggedIn(snapshot: SessionSnapshot): boolean {
  return snapshot.context.user !== null;
}

/**
 * True while the session is still being established (the router waits for this to end). starting is
 * never seen: its `always` transitions leave it before any snapshot is read.
 */
export function isSettling(snapshot: SessionSnapshot): boolean {
  return snapshot.matches('loadingUser');
}
