// What every route and page can reach through the router context: the session actor and the API
// client. main.tsx passes the real ones; tests pass a session actor with fakes provided and a client
// built on a fake fetch.
import { useRouter } from '@tanstack/react-router';
import type { ApiClient } from '../../api/client';
import type { SessionActor } from '../session/session-actor';

export interface AppContext {
  session: SessionActor;
  api: ApiClient;
}

/** The router context's services, for components (loaders and beforeLoad get `context` directly). */
export function useAppContext(): AppContext {
  return useRouter().options.context as AppContext;
}
