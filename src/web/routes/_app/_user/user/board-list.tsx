import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../../../../features/placeholder/placeholder-page';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_user/user/board-list')({
  staticData: { title: zh.titles.userBoardList },
  component: () => <PlaceholderPage title={zh.titles.userBoardList} />,
});
