import { createFileRoute, notFound } from '@tanstack/react-router';
import { BoardPage } from '../../../../features/boards/board-page';
import { loadBoardPage, parseRouteId } from '../../../../features/boards/boards-api';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { useLiveRefresh } from '../../../../live/use-live';

export const Route = createFileRoute('/_app/_admin/admin/board/$id')({
  staticData: { title: zh.titles.adminBoard },
  loader: async ({ context, params }) => {
    if (params.id === 'new') return null;
    const id = parseRouteId(params.id);
    const data = id === null ? null : await loadBoardPage(context.api, id);
    if (!data) throw notFound();
    return data;
  },
  component: function AdminBoardRoute() {
    const { id } = Route.useParams();
    useLiveRefresh(['claim'], { ids: [Number(id)] });
    return <BoardPage key={id} data={Route.useLoaderData()} />;
  },
});
