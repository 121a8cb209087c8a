// React view of the session (no copies of machine context in component state): what the session ref
// shows (session-ref.ts), nobody until the session has started.
import { useSyncExternalStore } from 'react';
import type { RoleType, SessionUser } from '../../../machines/session.machine';
import { useAppContext } from '../app/app-context';
import type { SessionView } from './session-ref';

function useSessionView<T>(select: (view: SessionView) => T): T {
  const { session } = useAppContext();
  const read = () => select(session.view());
  return useSyncExternalStore(session.subscribe, read, read);
}

export function useSessionUser(): SessionUser | null {
  return useSessionView((view) => view.user);
}

export function useSessionRole(): RoleType | null {
  return useSessionView((view) => view.role);
}

export function useIsLoggedIn(): boolean {
  return useSessionView((view) => view.loggedIn);
}
