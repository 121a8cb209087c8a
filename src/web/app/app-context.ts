// What every route and page can reach through the router context: the session (its ref, which
// starts the session actor when needed) and the API client. main.tsx passes the real ones; tests pass
// a session actor with fakes provided (sessionRefOf) and a client built on a fake fetch.
import { useRouter } from '@tanstack/react-router';
import type { ApiClient } from '../../api/client';
import type { SessionRef } from '../session/session-ref';

export interface AppContext {
  session: SessionRef;
  api: ApiClient;
}

/** The router context's services, for components (loaders and beforeLoad get `context` directly). */
export function useAppContext(): AppContext {
  return useRouter().options.context as AppContext;
}
