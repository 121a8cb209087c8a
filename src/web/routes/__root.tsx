import { createRootRouteWithContext } from '@tanstack/react-router';
import type { AppContext } from '../app/app-context';
import { NotFoundRedirect, RootLayout } from '../shell/app-shell';
import { initialiseSession } from '../session/route-guards';

export const Route = createRootRouteWithContext<AppContext>()({
  beforeLoad: ({ context }) => initialiseSession(context),
  component: RootLayout,
  notFoundComponent: NotFoundRedirect,
});
