import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../../../../features/placeholder/placeholder-page';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_user/user/boardtask/$boardId/$taskId')({
  staticData: { title: zh.titles.userBoardTask },
  component: () => <PlaceholderPage title={zh.titles.userBoardTask} />,
});
