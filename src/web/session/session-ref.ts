// The session as the app holds it before the session machine is loaded (docs/decisions/130; the
// login page is now a page of its own without it, decision 131): main.tsx starts the actor
// (session-actor.ts, its own chunk) when a token is stored, when a route is entered, or when
// something is sent to it (a signal of the API client). Until then nobody is logged in. The UI reads `view()`, which the
// running session computes with the machine's questions (isLoggedIn, selectRole).
import type { RoleType, SessionEvent, SessionUser } from '../../../machines/session.machine';
import type { SessionSignal } from '../../api/client';

export interface SessionView {
  /** A user is loaded (isLoggedIn). */
  loggedIn: boolean;
  /** The loaded user, or null. */
  user: SessionUser | null;
  /** The user's role, or null (selectRole). */
  role: RoleType | null;
}

export const NO_SESSION: SessionView = { loggedIn: false, user: null, role: null };

/** The started session actor, as session-actor.ts wraps it (runSession). */
export interface RunningSession {
  send(event: SessionEvent): void;
  /** The same object for as long as the actor's snapshot is the same. */
  view(): SessionView;
  subscribe(listener: () => void): () => void;
  /** Resolves once the session has left starting/loadingUser (isSettling). */
  settled(): Promise<void>;
}

export interface SessionRef {
  /** Starts the session once (loading its code the first time) and resolves with it. */
  start(): Promise<RunningSession>;
  /** Sends to the session, starting it first when it has not started. */
  send(event: SessionEvent): void;
  /** What the UI shows of the session; NO_SESSION until it has started. */
  view(): SessionView;
  /** Called when the view may have changed (the session started, or its actor moved). */
  subscribe(listener: () => void): () => void;
}

/** A session that starts when first needed: `load` creates and starts the actor. */
export function createSessionRef(load: () => Promise<RunningSession>, started?: RunningSession): SessionRef {
  let running: RunningSession | null = started ?? null;
  let starting: Promise<RunningSession> | null = started ? Promise.resolve(started) : null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const attach = (session: RunningSession) => {
    running = session;
    session.subscribe(notify);
    return session;
  };
  if (started) attach(started);

  const start = () => {
    starting ??= load().then(
      (session) => {
        attach(session);
        notify();
        return session;
      },
      (error: unknown) => {
        starting = null; // its code did not load (offline?): the next need tries again
        throw error;
      },
    );
    return starting;
  };
  return {
    start,
    send(event) {
      if (running) running.send(event);
      else void start().then((session) => session.send(event));
    },
    view: () => running?.view() ?? NO_SESSION,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** Sends the API client's token.expired / no.access to the session. */
export function forwardSessionSignals(
  session: Pick<SessionRef, 'send'>,
  signals: { subscribe(listener: (signal: SessionSignal) => void): () => void },
): () => void {
  return signals.subscribe((signal) => session.send(signal));
}
