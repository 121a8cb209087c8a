import { createFileRoute, stripSearchParams, useRouter } from '@tanstack/react-router';
import { AdminClaimsPage } from '../../../../features/unknown/admin-claims-page';
import { EMPTY_CLAIM_PAGE, loadParcelClaims, type ParcelClaimPage } from '../../../../features/unknown/unknown-api';
import { claimQuery, claimSearchSchema, UNKNOWN_SEARCH_DEFAULTS } from '../../../../features/unknown/unknown-search';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';
import { loadAllUsers, type AppUser } from '../../../../lib/users';
import { ADMIN_ONLY_ROLES } from '../../../../session/route-guards';
import { useSessionRole } from '../../../../session/use-session';

// The claims of unknown parcels (decision 169). Loading and a failed load show the page itself,
// skeletons or the failure in its table (lib/list-route.ts); an undo loads the page again.
export const Route = createFileRoute('/_app/_admin/admin/parcel-claims')({
  staticData: { title: zh.titles.adminParcelClaims },
  validateSearch: claimSearchSchema,
  search: { middlewares: [stripSearchParams(UNKNOWN_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const [result, users] = await Promise.all([loadParcelClaims(context.api, claimQuery(deps)), loadAllUsers(context.api)]);
    return { result, users };
  },
  ...LIST_ROUTE_TIMING,
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function ParcelClaimsRoute() {
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    const data = Route.useLoaderData();
    return <ClaimsView result={data.result} users={data.users} loading={loading} />;
  },
  pendingComponent: () => <ClaimsView pending />,
  errorComponent: ({ error, reset }) => <ClaimsView error={error} reset={reset} />,
});

function ClaimsView({
  result = EMPTY_CLAIM_PAGE,
  users = [],
  loading = false,
  ...state
}: ListViewState & { result?: ParcelClaimPage; users?: AppUser[]; loading?: boolean }) {
  const navigate = Route.useNavigate();
  const router = useRouter();
  const role = useSessionRole();
  return (
    <AdminClaimsPage
      search={Route.useSearch()}
      result={result}
      users={users}
      mayUndo={role !== null && ADMIN_ONLY_ROLES.includes(role)}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
      onChanged={() => void router.invalidate()}
    />
  );
}
