import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { loadBalance, loadOwnCards, loadWithdrawRequests } from '../../../../features/withdraw/withdraw-api';
import { WithdrawRequestPage } from '../../../../features/withdraw/withdraw-request-page';
import { WITHDRAW_SEARCH_DEFAULTS, withdrawRequestQuery, withdrawRequestSearchSchema } from '../../../../features/withdraw/withdraw-search';
import { zh } from '../../../../i18n/zh';
import { useLiveRefresh } from '../../../../live/use-live';

export const Route = createFileRoute('/_app/_user/user/withdraw-request')({
  staticData: { title: zh.titles.userWithdrawRequest },
  validateSearch: withdrawRequestSearchSchema,
  search: { middlewares: [stripSearchParams(WITHDRAW_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const [lines, balance, cards] = await Promise.all([
      loadWithdrawRequests(context.api, withdrawRequestQuery(deps)),
      loadBalance(context.api),
      loadOwnCards(context.api),
    ]);
    return { lines, balance, cards };
  },
  component: function UserWithdrawRequestRoute() {
    useLiveRefresh(['withdraw', 'apply']);
    const navigate = useNavigate();
    return (
      <WithdrawRequestPage
        search={Route.useSearch()}
        data={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/user/withdraw-request', search: next })}
      />
    );
  },
});
