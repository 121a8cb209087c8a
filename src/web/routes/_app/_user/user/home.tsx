import { createFileRoute } from '@tanstack/react-router';
import { MemberHomePage } from '../../../../features/home/member-home-page';
import { zhApp as zh } from '../../../../i18n/zh-app';

// The member's home (`/` and a login without callback lead members here): the page loads its own
// parts, so the title and sections show at once.
export const Route = createFileRoute('/_app/_user/user/home')({
  staticData: { title: zh.titles.userHome },
  component: MemberHomePage,
});
