// Entry point. Order matters: the inspector (if asked for) is loaded before the first actor is
// created, the API client is created with the web's token store and toasts, the session ref is made
// (its actor, with xstate, starts when first needed: session-ref.ts), the client's session signals
// are forwarded to it, then the router renders. A stored token starts the session at once, so the
// header knows the user even on /login.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { sessionSignals } from '../api/client';
import { createAppApiClient } from './app/api';
import { toast } from './components/ui/toast';
import { initInspector } from './inspect/inspector';
import { NO_ACCESS_PATH } from './session/route-guards';
import { createSessionRef, forwardSessionSignals } from './session/session-ref';
import { getTokenStore } from './session/token-store';
import { createAppRouter, type AppRouter } from './router';
import './styles.css';

async function bootstrap(): Promise<void> {
  await initInspector();
  const api = createAppApiClient();

  // The session's goHome (no_access) needs the router, which needs the session: the closure reads
  // `router` only when no_access arrives, long after both exist. It lands on /me (route-guards.ts).
  const session = createSessionRef(async () => {
    const { createSessionActor, runSession } = await import('./session/session-actor');
    const actor = createSessionActor({
      api,
      tokenStore: getTokenStore(),
      goHome: () => void router.navigate({ to: NO_ACCESS_PATH }),
      reloadRoot: () => window.location.assign('/'),
      notify: (message) => toast.error(message),
    });
    return runSession(actor);
  });
  forwardSessionSignals(session, sessionSignals);
  const router: AppRouter = createAppRouter({ session, api });
  if (getTokenStore().read()) void session.start();

  const container = document.getElementById('root');
  if (!container) throw new Error('#root missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}

void bootstrap();
