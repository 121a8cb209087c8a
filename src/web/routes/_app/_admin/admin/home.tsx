import { createFileRoute } from '@tanstack/react-router';
import { AdminHomePage } from '../../../../features/home/admin-home-page';
import { zhApp as zh } from '../../../../i18n/zh-app';

// The admin side's home (`/` leads admin and lowerAdmin here): the page loads its own counts, so
// the title and the links show at once.
export const Route = createFileRoute('/_app/_admin/admin/home')({
  staticData: { title: zh.titles.adminHome },
  component: AdminHomePage,
});
