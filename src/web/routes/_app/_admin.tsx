import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_SIDE_ROLES, requireRole } from '../../session/route-guards';

export const Route = createFileRoute('/_app/_admin')({
  beforeLoad: ({ context }) => requireRole(context, ADMIN_SIDE_ROLES),
});
