import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { MemberBoardListPage } from '../../../../features/member-boards/board-list-page';
import { BOARD_LIST_SEARCH_DEFAULTS, boardListSearchSchema } from '../../../../features/member-boards/board-list-search';
import { loadUserBoards } from '../../../../features/member-boards/member-boards-api';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_user/user/board-list')({
  staticData: { title: zh.titles.userBoardList },
  validateSearch: boardListSearchSchema,
  search: { middlewares: [stripSearchParams(BOARD_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadUserBoards(context.api, deps),
  component: function BoardListRoute() {
    const search = Route.useSearch();
    const result = Route.useLoaderData();
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    const navigate = Route.useNavigate();
    return <MemberBoardListPage search={search} result={result} loading={loading} onSearch={(next) => void navigate({ search: next })} />;
  },
});
