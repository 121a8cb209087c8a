import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { loadPayoutAudits, loadTrackingAudits } from '../../../../features/tracking/tracking-api';
import { loadAllUsers } from '../../../../lib/users';
import { TrackingAuditPage } from '../../../../features/tracking/tracking-audit-page';
import { payoutAuditQuery, TRACKING_SEARCH_DEFAULTS, trackingAuditQuery, trackingAuditSearchSchema } from '../../../../features/tracking/tracking-search';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { useSessionRole } from '../../../../session/use-session';

const EMPTY_AUDITS = { content: [], totalPages: 0, totalElements: 0 };

export const Route = createFileRoute('/_app/_admin/admin/tracking-audit')({
  staticData: { title: zh.titles.adminTrackingAudit },
  validateSearch: trackingAuditSearchSchema,
  search: { middlewares: [stripSearchParams(TRACKING_SEARCH_DEFAULTS)] },
  // The payout view (decision 168) is an admin's only: a lowerAdmin asking for it gets the scan log.
  loaderDeps: ({ search }) => ({ scan: trackingAuditQuery(search), payout: search.log === 'payout' ? payoutAuditQuery(search) : undefined }),
  loader: async ({ context, deps }) => {
    const users = loadAllUsers(context.api);
    if (deps.payout && context.session.view().role === 'admin') {
      const [payouts, all] = await Promise.all([loadPayoutAudits(context.api, deps.payout), users]);
      return { audits: EMPTY_AUDITS, payouts, users: all };
    }
    const [audits, all] = await Promise.all([loadTrackingAudits(context.api, deps.scan), users]);
    return { audits, users: all };
  },
  component: function AdminTrackingAuditRoute() {
    const navigate = useNavigate();
    const role = useSessionRole();
    return (
      <TrackingAuditPage
        payoutView={role === 'admin'}
        search={Route.useSearch()}
        data={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/admin/tracking-audit', search: next })}
      />
    );
  },
});
