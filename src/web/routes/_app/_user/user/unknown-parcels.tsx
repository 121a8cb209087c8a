import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { EMPTY_UNKNOWN_PAGE, loadUnknownParcels, type UnknownParcelPage } from '../../../../features/unknown/unknown-api';
import { MemberUnknownPage } from '../../../../features/unknown/member-unknown-page';
import { UNKNOWN_SEARCH_DEFAULTS, unknownSearchSchema } from '../../../../features/unknown/unknown-search';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { useLiveRefresh } from '../../../../live/use-live';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';

// The unknown parcels a member may claim (decision 169). Loading and a failed load show the page
// itself, skeletons or the failure in its table (lib/list-route.ts); a change of the member's tasks
// (a claim, a scan matching one) reloads it.
export const Route = createFileRoute('/_app/_user/user/unknown-parcels')({
  staticData: { title: zh.titles.userUnknownParcels },
  validateSearch: unknownSearchSchema,
  search: { middlewares: [stripSearchParams(UNKNOWN_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadUnknownParcels(context.api, deps),
  ...LIST_ROUTE_TIMING,
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function UnknownParcelsRoute() {
    useLiveRefresh(['task']);
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    return <UnknownView result={Route.useLoaderData()} loading={loading} />;
  },
  pendingComponent: () => <UnknownView pending />,
  errorComponent: ({ error, reset }) => <UnknownView error={error} reset={reset} />,
});

function UnknownView({ result = EMPTY_UNKNOWN_PAGE, loading = false, ...state }: ListViewState & { result?: UnknownParcelPage; loading?: boolean }) {
  const navigate = Route.useNavigate();
  return (
    <MemberUnknownPage
      search={Route.useSearch()}
      result={result}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
    />
  );
}
