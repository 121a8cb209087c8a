import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { loadTaskAudits } from '../../../../features/admin-tasks/admin-tasks-api';
import { loadAllUsers } from '../../../../lib/users';
import { TaskAuditPage } from '../../../../features/admin-tasks/task-audit-page';
import { ADMIN_TASK_SEARCH_DEFAULTS, taskAuditQuery, taskAuditSearchSchema } from '../../../../features/admin-tasks/admin-tasks-search';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/task-audit')({
  staticData: { title: zh.titles.adminTaskAudit },
  validateSearch: taskAuditSearchSchema,
  search: { middlewares: [stripSearchParams(ADMIN_TASK_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => taskAuditQuery(search),
  loader: async ({ context, deps }) => {
    const [audits, users] = await Promise.all([loadTaskAudits(context.api, deps), loadAllUsers(context.api)]);
    return { audits, users };
  },
  component: function AdminTaskAuditRoute() {
    const navigate = useNavigate();
    return (
      <TaskAuditPage search={Route.useSearch()} data={Route.useLoaderData()} onSearch={(next) => void navigate({ to: '/admin/task-audit', search: next })} />
    );
  },
});
