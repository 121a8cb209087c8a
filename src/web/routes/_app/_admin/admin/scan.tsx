import { createFileRoute } from '@tanstack/react-router';
import { ScanPage } from '../../../../features/scan/scan-page';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/scan')({
  staticData: { title: zh.titles.adminScan },
  component: ScanPage,
});
