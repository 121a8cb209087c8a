import { createFileRoute } from '@tanstack/react-router';
import { GroupListPage } from '../../../../features/people/group-list-page';
import { loadGroups } from '../../../../features/people/users';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/group-list')({
  staticData: { title: zh.titles.adminGroupList },
  loader: ({ context }) => loadGroups(context.api),
  component: function GroupListRoute() {
    return <GroupListPage groups={Route.useLoaderData()} />;
  },
});
