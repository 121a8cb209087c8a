import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../../../../features/placeholder/placeholder-page';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_user/user/board/$uuid')({
  staticData: { title: zh.titles.userBoard },
  component: () => <PlaceholderPage title={zh.titles.userBoard} />,
});
