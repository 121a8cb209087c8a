import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { USER_APPLY_LIST_SEARCH_DEFAULTS, userApplyListQuery, userApplyListSearchSchema } from '../../../../features/payments/apply-list-search';
import { loadPaymentApplies } from '../../../../features/payments/payments-api';
import { UserApplyListPage } from '../../../../features/payments/user-apply-list-page';
import { zh } from '../../../../i18n/zh';
import { useLiveRefresh } from '../../../../live/use-live';

export const Route = createFileRoute('/_app/_user/user/apply-list')({
  staticData: { title: zh.titles.userApplyList },
  validateSearch: userApplyListSearchSchema,
  search: { middlewares: [stripSearchParams(USER_APPLY_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadPaymentApplies(context.api, userApplyListQuery(deps)),
  component: function UserApplyListRoute() {
    useLiveRefresh(['apply']);
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    const navigate = Route.useNavigate();
    return (
      <UserApplyListPage search={Route.useSearch()} result={Route.useLoaderData()} loading={loading} onSearch={(next) => void navigate({ search: next })} />
    );
  },
});
