import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { loadScanTrackings } from '../../../../features/tracking/tracking-api';
import { loadAllUsers } from '../../../../lib/users';
import { TrackingListPage } from '../../../../features/tracking/tracking-list-page';
import { TRACKING_SEARCH_DEFAULTS, trackingListQuery, trackingListSearchSchema } from '../../../../features/tracking/tracking-search';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/tracking-list')({
  staticData: { title: zh.titles.adminTrackingList },
  validateSearch: trackingListSearchSchema,
  search: { middlewares: [stripSearchParams(TRACKING_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const [records, users] = await Promise.all([loadScanTrackings(context.api, trackingListQuery(deps)), loadAllUsers(context.api)]);
    return { records, users };
  },
  component: function AdminTrackingListRoute() {
    const navigate = useNavigate();
    return (
      <TrackingListPage
        search={Route.useSearch()}
        data={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/admin/tracking-list', search: next })}
      />
    );
  },
});
