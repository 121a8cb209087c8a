import { createFileRoute } from '@tanstack/react-router';
import { Scan2Page } from '../../../../features/scan/scan2-page';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/scan2')({
  staticData: { title: zh.titles.adminScan2 },
  component: Scan2Page,
});
