import { createFileRoute } from '@tanstack/react-router';
import { MemberBoardPage } from '../../../../features/member-boards/board-page';
import { loadMemberBoard } from '../../../../features/member-boards/member-boards-api';
import { MyTasksTable } from '../../../../features/tasks/my-tasks-table';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_user/user/board/$uuid')({
  staticData: { title: zh.titles.userBoard },
  loader: ({ context, params }) => loadMemberBoard(context.api, params.uuid),
  component: function MemberBoardRoute() {
    const data = Route.useLoaderData();
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    return <MemberBoardPage data={data} loading={loading} myTasksTable={<MyTasksTable tasks={data.myTasks} loading={loading} />} />;
  },
});
