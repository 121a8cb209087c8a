import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { BankCardPage } from '../../../../features/bank-cards/bank-card-page';
import { BANK_CARD_SEARCH_DEFAULTS, bankCardSearchSchema } from '../../../../features/bank-cards/bank-card-search';
import { loadBankCards, type BankCard } from '../../../../features/bank-cards/bank-cards-api';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';

const NO_CARDS: BankCard[] = [];

// Loading and a failed load show the page itself, skeletons or the failure in its table (lib/list-route.ts).
export const Route = createFileRoute('/_app/_user/user/bank-card')({
  staticData: { title: zh.titles.userBankCard },
  validateSearch: bankCardSearchSchema,
  search: { middlewares: [stripSearchParams(BANK_CARD_SEARCH_DEFAULTS)] },
  // Every card at once (show/cards is not paged); the page is cut on screen.
  loader: ({ context }) => loadBankCards(context.api),
  ...LIST_ROUTE_TIMING,
  // The loader and the three views are the page: one chunk, loaded with the route, not in the main bundle.
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function UserBankCardRoute() {
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    return <BankCardView cards={Route.useLoaderData()} loading={loading} />;
  },
  pendingComponent: () => <BankCardView pending />,
  errorComponent: ({ error, reset }) => <BankCardView error={error} reset={reset} />,
});

function BankCardView({ cards = NO_CARDS, loading = false, ...state }: ListViewState & { cards?: BankCard[]; loading?: boolean }) {
  const navigate = Route.useNavigate();
  return (
    <BankCardPage
      search={Route.useSearch()}
      cards={cards}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
    />
  );
}
