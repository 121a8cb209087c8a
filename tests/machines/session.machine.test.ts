import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor, type EventObject } from 'xstate';
import { createTestModel, getShortestPaths } from 'xstate/graph';
import { LOGOUT_DELAY_MS, isLoggedIn, isSettling, selectRole, sessionMachine, type SessionInput, type SessionUser } from '../../machines/session.machine';

const alice: SessionUser = {
  id: 7,
  nickName: 'alice',
  mailAddr: 'alice@example.com',
  phoneNo: '555-0100',
  qq: '12345',
  roleType: 'admin',
};

/** The machine with spies for every side effect and a loadUser the test settles by hand. */
function harness(input: SessionInput = { token: null }) {
  const loads: Array<{ token: string; resolve: (u: SessionUser) => void; reject: (e: Error) => void }> = [];
  const effects = {
    storeToken: vi.fn(),
    clearToken: vi.fn(),
    revokeToken: vi.fn(),
    reloadRoot: vi.fn(),
    goHome: vi.fn(),
    notify: vi.fn(),
  };
  const logic = sessionMachine.provide({
    actors: {
      loadUser: fromPromise<SessionUser, { token: string }>(
        ({ input: loadInput }) => new Promise<SessionUser>((resolve, reject) => loads.push({ token: loadInput.token, resolve, reject })),
      ),
    },
    actions: {
      storeToken: (_, params) => effects.storeToken(params),
      clearToken: () => effects.clearToken(),
      revokeToken: (_, params) => effects.revokeToken(params),
      reloadRoot: () => effects.reloadRoot(),
      goHome: () => effects.goHome(),
      notify: (_, params) => effects.notify(params),
    },
  });
  const actor = createActor(logic, { input });
  actor.start();
  const lastLoad = () => {
    const load = loads.at(-1);
    if (!load) throw new Error('loadUser was not invoked');
    return load;
  };
  return {
    actor,
    effects,
    loads,
    async loadSucceeds(user: SessionUser = alice) {
      lastLoad().resolve(user);
      await waitFor(actor, (s) => !s.matches('loadingUser'));
    },
    async loadFails() {
      lastLoad().reject(new Error('401'));
      await waitFor(actor, (s) => !s.matches('loadingUser'));
    },
  };
}

async function loggedInHarness(user: SessionUser = alice) {
  const h = harness({ token: 'tok-1', keep: true });
  await h.loadSucceeds(user);
  return h;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('session machine: start', () => {
  it('without a stored token rests in noToken and loads nothing', () => {
    const h = harness({ token: null });
    expect(h.actor.getSnapshot().value).toBe('noToken');
    expect(h.loads).toHaveLength(0);
    expect(isSettling(h.actor.getSnapshot())).toBe(false);
  });

  it('treats an empty stored token as none', () => {
    expect(harness({ token: '' }).actor.getSnapshot().value).toBe('noToken');
  });

  it('with a stored token loads the user with that token', () => {
    const h = harness({ token: 'stored', keep: true });
    expect(h.actor.getSnapshot().value).toBe('loadingUser');
    expect(isSettling(h.actor.getSnapshot())).toBe(true);
    expect(h.loads.map((l) => l.token)).toEqual(['stored']);
    expect(h.actor.getSnapshot().context).toMatchObject({ token: 'stored', keep: true, user: null });
  });

  it('goes to loggedIn with the loaded user', async () => {
    const h = harness({ token: 'stored' });
    await h.loadSucceeds();
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toBe('loggedIn');
    expect(snapshot.context.user).toEqual(alice);
    expect(isLoggedIn(snapshot)).toBe(true);
    expect(selectRole(snapshot)).toBe('admin');
  });

  it('clears the token and goes to noToken when the user cannot be loaded', async () => {
    const h = harness({ token: 'stale' });
    await h.loadFails();
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toBe('noToken');
    expect(h.effects.clearToken).toHaveBeenCalledTimes(1);
    expect(snapshot.context).toEqual({ token: null, keep: false, user: null });
    expect(h.effects.reloadRoot).not.toHaveBeenCalled();
    expect(isLoggedIn(snapshot)).toBe(false);
    expect(selectRole(snapshot)).toBeNull();
  });

  it('without a loader provided, a stored token is no session: it is cleared', async () => {
    const actor = createActor(sessionMachine, { input: { token: 'tok-1' } });
    actor.start();
    await waitFor(actor, (s) => !s.matches('loadingUser'));
    expect(actor.getSnapshot().value).toBe('noToken');
    expect(isLoggedIn(actor.getSnapshot())).toBe(false);
  });

  it('ignores token.expired while loading (the load itself fails)', () => {
    const h = harness({ token: 'stale' });
    h.actor.send({ type: 'token.expired' });
    expect(h.actor.getSnapshot().value).toBe('loadingUser');
    expect(h.effects.notify).not.toHaveBeenCalled();
  });
});

describe('session machine: login', () => {
  it('session.login stores the token with the keep flag and loads the user', async () => {
    const h = harness();
    h.actor.send({ type: 'session.login', token: 'fresh', keep: true });
    expect(h.effects.storeToken).toHaveBeenCalledWith({ token: 'fresh', keep: true });
    expect(h.actor.getSnapshot().value).toBe('loadingUser');
    expect(h.loads.map((l) => l.token)).toEqual(['fresh']);
    await h.loadSucceeds({ ...alice, roleType: 'user' });
    expect(h.actor.getSnapshot().value).toBe('loggedIn');
    expect(selectRole(h.actor.getSnapshot())).toBe('user');
  });

  it('a new login while logged in replaces the session', async () => {
    const h = await loggedInHarness();
    h.actor.send({ type: 'session.login', token: 'other', keep: false });
    expect(h.actor.getSnapshot().value).toBe('loadingUser');
    expect(h.actor.getSnapshot().context).toEqual({ token: 'other', keep: false, user: null });
    await h.loadSucceeds({ ...alice, id: 8, roleType: 'lowerAdmin' });
    expect(h.actor.getSnapshot().context.user?.id).toBe(8);
  });

  it('a second login while loading restarts the load with the new token', async () => {
    const h = harness({ token: 'first' });
    h.actor.send({ type: 'session.login', token: 'second', keep: false });
    expect(h.loads.map((l) => l.token)).toEqual(['first', 'second']);
    await h.loadSucceeds();
    expect(h.actor.getSnapshot().context.token).toBe('second');
  });
});

describe('session machine: logout', () => {
  it('session.logout revokes the token, clears token and user, and reloads the root', async () => {
    const h = await loggedInHarness();
    h.actor.send({ type: 'session.logout' });
    const snapshot = h.actor.getSnapshot();
    expect(snapshot.value).toBe('noToken');
    expect(snapshot.context).toEqual({ token: null, keep: false, user: null });
    expect(h.effects.revokeToken).toHaveBeenCalledWith({ token: 'tok-1' });
    expect(h.effects.clearToken).toHaveBeenCalledTimes(1);
    expect(h.effects.reloadRoot).toHaveBeenCalledTimes(1);
  });

  it('session.logout without a session does nothing', () => {
    const h = harness();
    h.actor.send({ type: 'session.logout' });
    expect(h.actor.getSnapshot().value).toBe('noToken');
    expect(h.effects.reloadRoot).not.toHaveBeenCalled();
  });
});

describe('session machine: token.expired', () => {
  it("shows 'Token已过期' (notice tokenExpired) and logs out after 1 s", async () => {
    const h = await loggedInHarness();
    h.actor.send({ type: 'token.expired' });
    expect(h.actor.getSnapshot().value).toBe('expiring');
    expect(h.effects.notify).toHaveBeenCalledWith({ notice: 'tokenExpired' });
    expect(isLoggedIn(h.actor.getSnapshot())).toBe(true);

    vi.advanceTimersByTime(LOGOUT_DELAY_MS - 1);
    expect(h.actor.getSnapshot().value).toBe('expiring');
    expect(h.effects.clearToken).not.toHaveBeenCalled();

    vi.advanceTimersByTime(1);
    expect(h.actor.getSnapshot().value).toBe('noToken');
    expect(h.actor.getSnapshot().context.user).toBeNull();
    expect(h.effects.clearToken).toHaveBeenCalledTimes(1);
    expect(h.effects.reloadRoot).toHaveBeenCalledTimes(1);
    // The server already refused the token: nothing to revoke.
    expect(h.effects.revokeToken).not.toHaveBeenCalled();
  });

  it('repeated token.expired while expiring neither re-notifies nor restarts the delay', async () => {
    const h = await loggedInHarness();
    h.actor.send({ type: 'token.expired' });
    vi.advanceTimersByTime(600);
    h.actor.send({ type: 'token.expired' });
    vi.advanceTimersByTime(400);
    expect(h.actor.getSnapshot().value).toBe('noToken');
    expect(h.effects.notify).toHaveBeenCalledTimes(1);
  });

  it('an explicit logout while expiring logs out at once', async () => {
    const h = await loggedInHarness();
    h.actor.send({ type: 'token.expired' });
    h.actor.send({ type: 'session.logout' });
    expect(h.actor.getSnapshot().value).toBe('noToken');
    expect(h.effects.reloadRoot).toHaveBeenCalledTimes(1);
    // The stored token and the user are gone: the reloaded page asks for a login.
    expect(h.effects.clearToken).toHaveBeenCalledTimes(1);
    expect(h.actor.getSnapshot().context).toEqual({ token: null, keep: false, user: null });
    vi.advanceTimersByTime(LOGOUT_DELAY_MS);
    expect(h.effects.reloadRoot).toHaveBeenCalledTimes(1);
  });

  it('is ignored without a session', () => {
    const h = harness();
    h.actor.send({ type: 'token.expired' });
    expect(h.actor.getSnapshot().value).toBe('noToken');
    expect(h.effects.notify).not.toHaveBeenCalled();
  });
});

describe('session machine: no.access', () => {
  it('goes home and keeps the session', async () => {
    const h = await loggedInHarness();
    h.actor.send({ type: 'no.access' });
    expect(h.effects.goHome).toHaveBeenCalledTimes(1);
    expect(h.actor.getSnapshot().value).toBe('loggedIn');
    expect(h.actor.getSnapshot().context.user).toEqual(alice);
  });
});

// ------------------------------------------------------------------ model-based
//
// createTestModel refuses machines with invoke/after (it cannot drive them), so the model here is
// SPEC §4 written as its own small machine: what the outside world can do (log in, log out, the
// user load succeeding or failing, the 1 s timer running out, token.expired, no.access) and which
// state must follow. Every shortest path of the model is replayed against the real session actor.
// getShortestPaths on the real machine then checks it reaches exactly the model's states.

function specModel(initial: 'noToken' | 'loadingUser') {
  return createMachine({
    id: 'sessionSpec',
    initial,
    states: {
      noToken: { on: { 'session.login': 'loadingUser', 'token.expired': 'noToken', 'session.logout': 'noToken' } },
      loadingUser: {
        on: { 'load.succeeds': 'loggedIn', 'load.fails': 'noToken', 'session.login': 'loadingUser', 'token.expired': 'loadingUser' },
      },
      loggedIn: {
        on: { 'token.expired': 'expiring', 'session.logout': 'noToken', 'no.access': 'loggedIn', 'session.login': 'loadingUser' },
      },
      expiring: { on: { 'delay.elapses': 'noToken', 'session.logout': 'noToken', 'token.expired': 'expiring' } },
    },
  });
}

const serializeState = (s: { value: unknown }) => JSON.stringify(s.value);
const STABLE_STATES = Object.keys(sessionMachine.root.states).filter((key) => key !== 'starting');

/** Real-machine events for getShortestPaths, including the loadUser outcomes and the timer. */
const realEvents = [
  { type: 'session.login', token: 'tok-model', keep: true },
  { type: 'session.logout' },
  { type: 'token.expired' },
  { type: 'no.access' },
  { type: 'xstate.done.actor.loadUser', output: alice },
  { type: 'xstate.error.actor.loadUser', error: new Error('401') },
  { type: 'xstate.after.logoutDelay.session.expiring' },
];

describe('session machine: model', () => {
  it('has the states of SPEC §4 (plus the transient start)', () => {
    expect([...STABLE_STATES].sort()).toEqual(['expiring', 'loadingUser', 'loggedIn', 'noToken']);
  });

  const variants = [
    { label: 'without a stored token', input: { token: null } as SessionInput, initial: 'noToken' as const },
    { label: 'with a stored token', input: { token: 'stored', keep: false } as SessionInput, initial: 'loadingUser' as const },
  ];

  for (const { label, input, initial } of variants) {
    it(`the real machine reaches every state ${label}`, () => {
      const paths = getShortestPaths(sessionMachine, { events: realEvents as never, serializeState, input });
      const reached = new Set(paths.map((p) => serializeState(p.state)));
      expect([...reached].sort()).toEqual(STABLE_STATES.map((state) => JSON.stringify(state)).sort());
    });

    const model = createTestModel(specModel(initial), { serializeState });
    const paths = model.getShortestPaths();

    it(`the replayed paths visit every state ${label}`, () => {
      // Paths contained in longer ones are dropped, so count every step's state.
      const reached = new Set(paths.flatMap((p) => p.steps.map((step) => serializeState(step.state))));
      expect(reached.size).toBe(STABLE_STATES.length);
    });

    describe(`shortest paths ${label}`, () => {
      for (const path of paths) {
        it(path.description, async () => {
          const h = harness(input);
          const send = (event: EventObject) => void h.actor.send(event as never);
          await path.test({
            events: {
              'session.login': () => send({ type: 'session.login', token: 'tok-model', keep: true } as EventObject),
              'session.logout': () => send({ type: 'session.logout' }),
              'token.expired': () => send({ type: 'token.expired' }),
              'no.access': () => send({ type: 'no.access' }),
              'load.succeeds': () => h.loadSucceeds(),
              'load.fails': () => h.loadFails(),
              'delay.elapses': () => void vi.advanceTimersByTime(LOGOUT_DELAY_MS),
            },
            states: {
              noToken: () => {
                const s = h.actor.getSnapshot();
                expect(s.value).toBe('noToken');
                expect(s.context).toEqual({ token: null, keep: false, user: null });
                expect(isLoggedIn(s)).toBe(false);
              },
              loadingUser: () => {
                const s = h.actor.getSnapshot();
                expect(s.value).toBe('loadingUser');
                expect(isSettling(s)).toBe(true);
                expect(h.loads.at(-1)?.token).toBe(s.context.token);
              },
              loggedIn: () => {
                const s = h.actor.getSnapshot();
                expect(s.value).toBe('loggedIn');
                expect(s.context.user).toEqual(alice);
                expect(selectRole(s)).toBe('admin');
              },
              expiring: () => {
                expect(h.actor.getSnapshot().value).toBe('expiring');
                expect(h.effects.notify).toHaveBeenLastCalledWith({ notice: 'tokenExpired' });
              },
            },
          });
        });
      }
    });
  }
});
