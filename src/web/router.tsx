// The app's router: file routes (src/web/routes, tree generated into routeTree.gen.ts by the
// TanStack router plugin), browser history (SPEC §2 history mode), no scroll-position recording
// (SPEC §2 default), the session actor and API client in the router context.
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import type { AppContext } from './app/app-context';
import { ErrorScreen, NotFoundRedirect, PendingScreen } from './shell/app-shell';

export function createAppRouter(context: AppContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    history,
    scrollRestoration: false,
    defaultPreload: false,
    defaultNotFoundComponent: NotFoundRedirect,
    defaultPendingComponent: PendingScreen,
    defaultErrorComponent: ErrorScreen,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
