import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { loadWithdrawOrders } from '../../../../features/withdraw/withdraw-api';
import { WithdrawOrdersPage } from '../../../../features/withdraw/withdraw-orders-page';
import { WITHDRAW_SEARCH_DEFAULTS, withdrawOrdersQuery, withdrawOrdersSearchSchema } from '../../../../features/withdraw/withdraw-search';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_user/user/withdraw-orders')({
  staticData: { title: zh.titles.userWithdrawOrders },
  validateSearch: withdrawOrdersSearchSchema,
  search: { middlewares: [stripSearchParams(WITHDRAW_SEARCH_DEFAULTS)] },
  // The status filters the rows on screen, not the call (SPEC §2): it is no dependency of the loader.
  loaderDeps: ({ search }) => withdrawOrdersQuery(search),
  loader: ({ context, deps }) => loadWithdrawOrders(context.api, deps),
  component: function UserWithdrawOrdersRoute() {
    const navigate = useNavigate();
    return (
      <WithdrawOrdersPage
        search={Route.useSearch()}
        orders={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/user/withdraw-orders', search: next })}
      />
    );
  },
});
