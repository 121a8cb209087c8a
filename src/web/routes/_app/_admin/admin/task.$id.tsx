import { createFileRoute } from '@tanstack/react-router';
import { backSearch } from '../../../../features/navigation/search';
import { PlaceholderPage } from '../../../../features/placeholder/placeholder-page';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_admin/admin/task/$id')({
  staticData: { title: zh.titles.adminTask },
  validateSearch: backSearch,
  component: () => <PlaceholderPage title={zh.titles.adminTask} />,
});
