import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { USER_APPLY_LIST_SEARCH_DEFAULTS, userApplyListQuery, userApplyListSearchSchema } from '../../../../features/payments/apply-list-search';
import { EMPTY_APPLY_PAGE, loadMyPaymentApplies, type PaymentApplyPage } from '../../../../features/payments/payments-api';
import { UserApplyListPage } from '../../../../features/payments/user-apply-list-page';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { useLiveRefresh } from '../../../../live/use-live';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';

// Loading and a failed load show the page itself, skeletons or the failure in its table (lib/list-route.ts).
export const Route = createFileRoute('/_app/_user/user/apply-list')({
  staticData: { title: zh.titles.userApplyList },
  validateSearch: userApplyListSearchSchema,
  search: { middlewares: [stripSearchParams(USER_APPLY_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadMyPaymentApplies(context.api, userApplyListQuery(deps)),
  ...LIST_ROUTE_TIMING,
  // The loader and the three views are the page: one chunk, loaded with the route, not in the main bundle.
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function UserApplyListRoute() {
    useLiveRefresh(['apply']);
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    return <ApplyListView result={Route.useLoaderData()} loading={loading} />;
  },
  pendingComponent: () => <ApplyListView pending />,
  errorComponent: ({ error, reset }) => <ApplyListView error={error} reset={reset} />,
});

function ApplyListView({ result = EMPTY_APPLY_PAGE, loading = false, ...state }: ListViewState & { result?: PaymentApplyPage; loading?: boolean }) {
  const navigate = Route.useNavigate();
  return (
    <UserApplyListPage
      search={Route.useSearch()}
      result={result}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
    />
  );
}
