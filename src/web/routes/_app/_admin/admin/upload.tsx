import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { TrackingUploadPage } from '../../../../features/tracking/tracking-upload-page';
import { UPLOAD_SEARCH_DEFAULTS, uploadSearchSchema } from '../../../../features/tracking/tracking-search';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/upload')({
  staticData: { title: zh.titles.adminUpload },
  validateSearch: uploadSearchSchema,
  search: { middlewares: [stripSearchParams(UPLOAD_SEARCH_DEFAULTS)] },
  component: function AdminUploadRoute() {
    const navigate = useNavigate();
    const { tab } = Route.useSearch();
    // A tab is not a page of its own: switching replaces the history entry.
    return <TrackingUploadPage tab={tab} onTab={(next) => void navigate({ to: '/admin/upload', search: { tab: next }, replace: true })} />;
  },
});
