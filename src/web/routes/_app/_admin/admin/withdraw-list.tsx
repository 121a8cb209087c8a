import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_ONLY_ROLES, requireRole } from '../../../../features/session/route-guards';
import { PlaceholderPage } from '../../../../features/placeholder/placeholder-page';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_admin/admin/withdraw-list')({
  staticData: { title: zh.titles.adminWithdrawList },
  // The withdraw list is admin-only (lowerAdmin has no /api/withdraw/admin/*).
  beforeLoad: ({ context }) => requireRole(context, ADMIN_ONLY_ROLES),
  component: () => <PlaceholderPage title={zh.titles.adminWithdrawList} />,
});
