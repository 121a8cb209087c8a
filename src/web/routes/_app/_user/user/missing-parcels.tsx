import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { EMPTY_MISSING_PAGE, loadMyMissingParcels, type MissingParcelPage } from '../../../../features/missing/missing-api';
import { MemberMissingPage } from '../../../../features/missing/member-missing-page';
import { memberMissingSearchSchema, MISSING_SEARCH_DEFAULTS } from '../../../../features/missing/missing-search';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { useLiveRefresh } from '../../../../live/use-live';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';

// The member's missing parcels (decision 077). Loading and a failed load show the page itself,
// skeletons or the failure in its table (lib/list-route.ts); a scan of one of them reloads it.
export const Route = createFileRoute('/_app/_user/user/missing-parcels')({
  staticData: { title: zh.titles.userMissingParcels },
  validateSearch: memberMissingSearchSchema,
  search: { middlewares: [stripSearchParams(MISSING_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadMyMissingParcels(context.api, deps),
  ...LIST_ROUTE_TIMING,
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function MemberMissingRoute() {
    useLiveRefresh(['task']);
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    return <MissingView result={Route.useLoaderData()} loading={loading} />;
  },
  pendingComponent: () => <MissingView pending />,
  errorComponent: ({ error, reset }) => <MissingView error={error} reset={reset} />,
});

function MissingView({ result = EMPTY_MISSING_PAGE, loading = false, ...state }: ListViewState & { result?: MissingParcelPage; loading?: boolean }) {
  const navigate = Route.useNavigate();
  return (
    <MemberMissingPage
      search={Route.useSearch()}
      result={result}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
    />
  );
}
