import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { AdminApplyListPage } from '../../../../features/payments/admin-apply-list-page';
import { ADMIN_APPLY_LIST_SEARCH_DEFAULTS, adminApplyListQuery, adminApplyListSearchSchema } from '../../../../features/payments/apply-list-search';
import { loadPaymentApplies } from '../../../../features/payments/payments-api';
import { loadAllUsers } from '../../../../lib/users';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/apply-list')({
  staticData: { title: zh.titles.adminApplyList },
  validateSearch: adminApplyListSearchSchema,
  search: { middlewares: [stripSearchParams(ADMIN_APPLY_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const [applies, users] = await Promise.all([loadPaymentApplies(context.api, adminApplyListQuery(deps)), loadAllUsers(context.api)]);
    return { applies, users };
  },
  component: function AdminApplyListRoute() {
    const navigate = useNavigate();
    return (
      <AdminApplyListPage
        search={Route.useSearch()}
        data={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/admin/apply-list', search: next })}
      />
    );
  },
});
