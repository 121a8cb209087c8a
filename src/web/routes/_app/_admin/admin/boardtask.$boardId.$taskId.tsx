import { createFileRoute, notFound } from '@tanstack/react-router';
import { BoardTaskPage } from '../../../../features/boards/board-task-page';
import { loadBoardTask, parseRouteId } from '../../../../features/boards/boards-api';
import { backSearch } from '../../../../navigation/search';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/boardtask/$boardId/$taskId')({
  staticData: { title: zh.titles.adminBoardTask },
  validateSearch: backSearch,
  loader: async ({ context, params }) => {
    const boardId = parseRouteId(params.boardId);
    if (boardId === null) throw notFound();
    if (params.taskId === 'new') return { boardId, task: null };
    const taskId = parseRouteId(params.taskId);
    const task = taskId === null ? null : await loadBoardTask(context.api, boardId, taskId);
    if (!task) throw notFound();
    return { boardId, task };
  },
  component: function AdminBoardTaskRoute() {
    const { boardId, taskId } = Route.useParams();
    const { back } = Route.useSearch();
    const data = Route.useLoaderData();
    return <BoardTaskPage key={`${boardId}/${taskId}`} boardId={data.boardId} task={data.task} back={back} />;
  },
});
