import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { ADMIN_ONLY_ROLES, requireRole } from '../../../../session/route-guards';
import { AdminWithdrawListPage } from '../../../../features/withdraw/admin-withdraw-list-page';
import { loadAdminWithdrawRequests } from '../../../../features/withdraw/withdraw-api';
import { adminWithdrawQuery, adminWithdrawSearchSchema, WITHDRAW_SEARCH_DEFAULTS } from '../../../../features/withdraw/withdraw-search';
import { loadAllUsers } from '../../../../lib/users';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/withdraw-list')({
  staticData: { title: zh.titles.adminWithdrawList },
  // The withdraw list is admin-only (lowerAdmin has no /api/withdraw/admin/*).
  beforeLoad: ({ context }) => requireRole(context, ADMIN_ONLY_ROLES),
  validateSearch: adminWithdrawSearchSchema,
  search: { middlewares: [stripSearchParams(WITHDRAW_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const [lines, users] = await Promise.all([loadAdminWithdrawRequests(context.api, adminWithdrawQuery(deps)), loadAllUsers(context.api)]);
    return { lines, users };
  },
  component: function AdminWithdrawListRoute() {
    const navigate = useNavigate();
    return (
      <AdminWithdrawListPage
        search={Route.useSearch()}
        data={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/admin/withdraw-list', search: next })}
      />
    );
  },
});
