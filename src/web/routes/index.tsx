import { createFileRoute } from '@tanstack/react-router';
import { redirectHome } from '../session/route-guards';

// `/` -> the role's home (see route-guards.ts for which, and why no_access lands elsewhere).
export const Route = createFileRoute('/')({
  beforeLoad: ({ context, location }) => redirectHome(context, location),
});
