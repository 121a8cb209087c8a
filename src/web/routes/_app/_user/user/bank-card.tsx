import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { BankCardPage } from '../../../../features/bank-cards/bank-card-page';
import { BANK_CARD_SEARCH_DEFAULTS, bankCardSearchSchema } from '../../../../features/bank-cards/bank-card-search';
import { loadBankCards } from '../../../../features/bank-cards/bank-cards-api';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_user/user/bank-card')({
  staticData: { title: zh.titles.userBankCard },
  validateSearch: bankCardSearchSchema,
  search: { middlewares: [stripSearchParams(BANK_CARD_SEARCH_DEFAULTS)] },
  // Every card at once (show/cards is not paged); the page is cut on screen.
  loader: ({ context }) => loadBankCards(context.api),
  component: function UserBankCardRoute() {
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    const navigate = Route.useNavigate();
    return <BankCardPage search={Route.useSearch()} cards={Route.useLoaderData()} loading={loading} onSearch={(next) => void navigate({ search: next })} />;
  },
});
