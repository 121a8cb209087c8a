import { createFileRoute } from '@tanstack/react-router';
import { InvitePage } from '../../../../features/invite/invite-page';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/invite')({
  staticData: { title: zh.titles.adminInvite },
  component: InvitePage,
});
