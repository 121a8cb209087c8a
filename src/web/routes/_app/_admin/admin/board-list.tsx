import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { BoardListPage } from '../../../../features/boards/board-list-page';
import { BOARD_LIST_SEARCH_DEFAULTS, boardListQuery, boardListSearchSchema } from '../../../../features/boards/board-list-search';
import { loadBoardList } from '../../../../features/boards/boards-api';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/board-list')({
  staticData: { title: zh.titles.adminBoardList },
  validateSearch: boardListSearchSchema,
  search: { middlewares: [stripSearchParams(BOARD_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => boardListQuery(search),
  loader: ({ context, deps }) => loadBoardList(context.api, deps),
  component: function AdminBoardListRoute() {
    const search = Route.useSearch();
    const result = Route.useLoaderData();
    const navigate = useNavigate();
    return <BoardListPage search={search} result={result} onSearch={(next) => void navigate({ to: '/admin/board-list', search: next })} />;
  },
});
