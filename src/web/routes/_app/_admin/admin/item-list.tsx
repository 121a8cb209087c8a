import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../../../../features/placeholder/placeholder-page';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_admin/admin/item-list')({
  staticData: { title: zh.titles.adminItemList },
  component: () => <PlaceholderPage title={zh.titles.adminItemList} />,
});
