import { createRootRouteWithContext } from '@tanstack/react-router';
import type { AppContext } from '../features/app/app-context';
import { NotFoundRedirect, RootLayout } from '../features/shell/app-shell';
import { initialiseSession } from '../features/session/route-guards';

export const Route = createRootRouteWithContext<AppContext>()({
  beforeLoad: ({ context, location }) => initialiseSession(context, location),
  component: RootLayout,
  notFoundComponent: NotFoundRedirect,
});
