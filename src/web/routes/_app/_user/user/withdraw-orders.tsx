import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { EMPTY_LINE_PAGE, loadWithdrawOrders, type WithdrawRequestPage } from '../../../../features/withdraw/withdraw-api';
import { WithdrawOrdersPage } from '../../../../features/withdraw/withdraw-orders-page';
import { WITHDRAW_SEARCH_DEFAULTS, withdrawOrdersQuery, withdrawOrdersSearchSchema } from '../../../../features/withdraw/withdraw-search';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';

// Loading and a failed load show the page itself, skeletons or the failure in its table (lib/list-route.ts).
export const Route = createFileRoute('/_app/_user/user/withdraw-orders')({
  staticData: { title: zh.titles.userWithdrawOrders },
  validateSearch: withdrawOrdersSearchSchema,
  search: { middlewares: [stripSearchParams(WITHDRAW_SEARCH_DEFAULTS)] },
  // The status filters the rows on screen, not the call (SPEC §2): it is no dependency of the loader.
  loaderDeps: ({ search }) => withdrawOrdersQuery(search),
  loader: ({ context, deps }) => loadWithdrawOrders(context.api, deps),
  ...LIST_ROUTE_TIMING,
  // The loader and the three views are the page: one chunk, loaded with the route, not in the main bundle.
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function UserWithdrawOrdersRoute() {
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    return <WithdrawOrdersView orders={Route.useLoaderData()} loading={loading} />;
  },
  pendingComponent: () => <WithdrawOrdersView pending />,
  errorComponent: ({ error, reset }) => <WithdrawOrdersView error={error} reset={reset} />,
});

function WithdrawOrdersView({ orders = EMPTY_LINE_PAGE, loading = false, ...state }: ListViewState & { orders?: WithdrawRequestPage; loading?: boolean }) {
  const navigate = Route.useNavigate();
  return (
    <WithdrawOrdersPage
      search={Route.useSearch()}
      orders={orders}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
    />
  );
}
