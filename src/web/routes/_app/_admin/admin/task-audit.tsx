import { createFileRoute } from '@tanstack/react-router';
import { PlaceholderPage } from '../../../../features/placeholder/placeholder-page';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_admin/admin/task-audit')({
  staticData: { title: zh.titles.adminTaskAudit },
  component: () => <PlaceholderPage title={zh.titles.adminTaskAudit} />,
});
