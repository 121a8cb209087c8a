import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../../../../features/placeholder/placeholder-page';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_admin/admin/apply-list')({
  staticData: { title: zh.titles.adminApplyList },
  component: () => <PlaceholderPage title={zh.titles.adminApplyList} />,
});
