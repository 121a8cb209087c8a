import { createFileRoute, redirect } from '@tanstack/react-router';
import { HOME_PATH } from '../session/route-guards';

// `/` -> /me for every role (see route-guards.ts for why).
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: HOME_PATH, replace: true });
  },
});
