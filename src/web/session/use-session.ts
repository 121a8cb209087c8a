// React view of the session actor (no copies of machine context in component state).
import { useSelector } from '@xstate/react';
import { isLoggedIn, selectRole, type RoleType, type SessionUser } from '../../../machines/session.machine';
import { useAppContext } from '../app/app-context';

export function useSessionUser(): SessionUser | null {
  const { session } = useAppContext();
  return useSelector(session, (snapshot) => (isLoggedIn(snapshot) ? snapshot.context.user : null));
}

export function useSessionRole(): RoleType | null {
  const { session } = useAppContext();
  return useSelector(session, selectRole);
}

export function useIsLoggedIn(): boolean {
  const { session } = useAppContext();
  return useSelector(session, isLoggedIn);
}
