import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { AdminMissingPage } from '../../../../features/missing/admin-missing-page';
import { EMPTY_MISSING_PAGE, loadMissingParcels, type MissingParcelPage } from '../../../../features/missing/missing-api';
import { adminMissingQuery, adminMissingSearchSchema, MISSING_SEARCH_DEFAULTS } from '../../../../features/missing/missing-search';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';
import { loadAllUsers, type AppUser } from '../../../../lib/users';

// Every member's missing parcels (decision 077). Loading and a failed load show the page itself,
// skeletons or the failure in its table (lib/list-route.ts).
export const Route = createFileRoute('/_app/_admin/admin/missing-parcels')({
  staticData: { title: zh.titles.adminMissingParcels },
  validateSearch: adminMissingSearchSchema,
  search: { middlewares: [stripSearchParams(MISSING_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const [result, users] = await Promise.all([loadMissingParcels(context.api, adminMissingQuery(deps)), loadAllUsers(context.api)]);
    return { result, users };
  },
  ...LIST_ROUTE_TIMING,
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function AdminMissingRoute() {
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    const data = Route.useLoaderData();
    return <MissingView result={data.result} users={data.users} loading={loading} />;
  },
  pendingComponent: () => <MissingView pending />,
  errorComponent: ({ error, reset }) => <MissingView error={error} reset={reset} />,
});

function MissingView({
  result = EMPTY_MISSING_PAGE,
  users = [],
  loading = false,
  ...state
}: ListViewState & { result?: MissingParcelPage; users?: AppUser[]; loading?: boolean }) {
  const navigate = Route.useNavigate();
  return (
    <AdminMissingPage
      search={Route.useSearch()}
      result={result}
      users={users}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
    />
  );
}
