import { createFileRoute } from '@tanstack/react-router';
import { requireRole, USER_SIDE_ROLES } from '../../session/route-guards';

export const Route = createFileRoute('/_app/_user')({
  beforeLoad: ({ context }) => requireRole(context, USER_SIDE_ROLES),
});
