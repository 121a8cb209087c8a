import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { MemberBoardListPage } from '../../../../features/member-boards/board-list-page';
import { BOARD_LIST_SEARCH_DEFAULTS, boardListSearchSchema } from '../../../../features/member-boards/board-list-search';
import { EMPTY_BOARD_LIST, loadUserBoardsView, type BoardListPage } from '../../../../features/member-boards/member-boards-api';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { LIST_ROUTE_TIMING, useListFailure, type ListViewState } from '../../../../lib/list-route';

// Loading and a failed load show the page itself, skeletons or the failure in its table (lib/list-route.ts).
export const Route = createFileRoute('/_app/_user/user/board-list')({
  staticData: { title: zh.titles.userBoardList },
  validateSearch: boardListSearchSchema,
  search: { middlewares: [stripSearchParams(BOARD_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadUserBoardsView(context.api, deps),
  ...LIST_ROUTE_TIMING,
  // The loader and the three views are the page: one chunk, loaded with the route, not in the main bundle.
  codeSplitGroupings: [['loader', 'component', 'pendingComponent', 'errorComponent']],
  component: function BoardListRoute() {
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    return <BoardListView result={Route.useLoaderData()} loading={loading} />;
  },
  pendingComponent: () => <BoardListView pending />,
  errorComponent: ({ error, reset }) => <BoardListView error={error} reset={reset} />,
});

function BoardListView({ result = EMPTY_BOARD_LIST, loading = false, ...state }: ListViewState & { result?: BoardListPage; loading?: boolean }) {
  const navigate = Route.useNavigate();
  return (
    <MemberBoardListPage
      search={Route.useSearch()}
      result={result}
      loading={loading || state.pending === true}
      failure={useListFailure(state)}
      onSearch={(next) => void navigate({ search: next })}
    />
  );
}
