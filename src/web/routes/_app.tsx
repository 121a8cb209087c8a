import { createFileRoute } from '@tanstack/react-router';
import { AppLayout } from '../shell/app-shell';
import { requireLogin } from '../session/route-guards';

// Every login-required route (/me, /user/*, /admin/*) sits under this layout.
export const Route = createFileRoute('/_app')({
  beforeLoad: ({ context, location }) => requireLogin(context, location),
  component: AppLayout,
});
