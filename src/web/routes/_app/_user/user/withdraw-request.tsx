import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { EMPTY_LINE_PAGE, loadAwaitingReceipt, loadBalance, loadOwnCards, loadWithdrawRequests } from '../../../../features/withdraw/withdraw-api';
import { WithdrawRequestPage, type WithdrawRequestData } from '../../../../features/withdraw/withdraw-request-page';
import { WITHDRAW_SEARCH_DEFAULTS, withdrawRequestQuery, withdrawRequestSearchSchema } from '../../../../features/withdraw/withdraw-search';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { useLiveRefresh } from '../../../../live/use-live';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';

const NOTHING_YET: WithdrawRequestData = { lines: EMPTY_LINE_PAGE, balance: null, cards: [], awaitingReceipt: 0 };

// Loading and a failed load show the page itself, skeletons or the failure in its table (lib/list-route.ts).
export const Route = createFileRoute('/_app/_user/user/withdraw-request')({
  staticData: { title: zh.titles.userWithdrawRequest },
  validateSearch: withdrawRequestSearchSchema,
  search: { middlewares: [stripSearchParams(WITHDRAW_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }): Promise<WithdrawRequestData> => {
    const [lines, balance, cards, awaitingReceipt] = await Promise.all([
      loadWithdrawRequests(context.api, withdrawRequestQuery(deps)),
      loadBalance(context.api),
      loadOwnCards(context.api),
      loadAwaitingReceipt(context.api),
    ]);
    return { lines, balance, cards, awaitingReceipt };
  },
  ...LIST_ROUTE_TIMING,
  // The loader and the three views are the page: one chunk, loaded with the route, not in the main bundle.
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function UserWithdrawRequestRoute() {
    useLiveRefresh(['withdraw', 'apply']);
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    return <WithdrawRequestView data={Route.useLoaderData()} loading={loading} />;
  },
  pendingComponent: () => <WithdrawRequestView pending />,
  errorComponent: ({ error, reset }) => <WithdrawRequestView error={error} reset={reset} />,
});

function WithdrawRequestView({ data = NOTHING_YET, loading = false, ...state }: ListViewState & { data?: WithdrawRequestData; loading?: boolean }) {
  const navigate = Route.useNavigate();
  return (
    <WithdrawRequestPage
      search={Route.useSearch()}
      data={data}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
    />
  );
}
