import { createFileRoute } from '@tanstack/react-router';
import { MePage } from '../../features/me/me-page';
import { loadNotice } from '../../features/me/notice';
import { zhApp as zh } from '../../i18n/zh-app';

export const Route = createFileRoute('/_app/me')({
  staticData: { title: zh.titles.me },
  loader: ({ context }) => loadNotice(context.api),
  component: function MeRoute() {
    return <MePage notice={Route.useLoaderData()} />;
  },
});
