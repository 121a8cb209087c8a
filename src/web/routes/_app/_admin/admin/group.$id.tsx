import { createFileRoute } from '@tanstack/react-router';
import { GroupPage } from '../../../../features/people/group-page';
import { loadGroupPage } from '../../../../features/people/users';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/group/$id')({
  staticData: { title: zh.titles.adminGroup },
  loader: ({ context, params }) => loadGroupPage(context.api, params.id),
  component: function GroupRoute() {
    return <GroupPage data={Route.useLoaderData()} />;
  },
});
