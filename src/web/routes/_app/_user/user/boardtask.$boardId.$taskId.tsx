import { createFileRoute } from '@tanstack/react-router';
import { MemberBoardTaskPage } from '../../../../features/member-boards/board-task-page';
import { loadMemberBoardTask, parseRouteId } from '../../../../features/member-boards/member-boards-api';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_user/user/boardtask/$boardId/$taskId')({
  staticData: { title: zh.titles.userBoardTask },
  loader: ({ context, params }) => loadMemberBoardTask(context.api, parseRouteId(params.boardId), parseRouteId(params.taskId)),
  component: function MemberBoardTaskRoute() {
    return <MemberBoardTaskPage data={Route.useLoaderData()} />;
  },
});
