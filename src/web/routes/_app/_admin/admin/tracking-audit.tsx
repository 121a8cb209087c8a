import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { loadTrackingAudits } from '../../../../features/tracking/tracking-api';
import { loadAllUsers } from '../../../../lib/users';
import { TrackingAuditPage } from '../../../../features/tracking/tracking-audit-page';
import { TRACKING_SEARCH_DEFAULTS, trackingAuditQuery, trackingAuditSearchSchema } from '../../../../features/tracking/tracking-search';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/tracking-audit')({
  staticData: { title: zh.titles.adminTrackingAudit },
  validateSearch: trackingAuditSearchSchema,
  search: { middlewares: [stripSearchParams(TRACKING_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => trackingAuditQuery(search),
  loader: async ({ context, deps }) => {
    const [audits, users] = await Promise.all([loadTrackingAudits(context.api, deps), loadAllUsers(context.api)]);
    return { audits, users };
  },
  component: function AdminTrackingAuditRoute() {
    const navigate = useNavigate();
    return (
      <TrackingAuditPage
        search={Route.useSearch()}
        data={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/admin/tracking-audit', search: next })}
      />
    );
  },
});
