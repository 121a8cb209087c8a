import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { loadTaskList } from '../../../../features/admin-tasks/admin-tasks-api';
import { loadAllUsers } from '../../../../lib/users';
import { TaskListPage, type TaskRecordsDialog } from '../../../../features/admin-tasks/task-list-page';
import { TaskRecordDialog } from '../../../../features/tasks/task-record-dialog';
import { ADMIN_TASK_SEARCH_DEFAULTS, taskListQuery, taskListSearchSchema } from '../../../../features/admin-tasks/admin-tasks-search';
import { zhApp as zh } from '../../../../i18n/zh-app';

// A task's purchased records: the tasks feature's record dialog in its read-only admin view.
const adminRecords = (dialog: TaskRecordsDialog) => <TaskRecordDialog {...dialog} view="admin" />;

export const Route = createFileRoute('/_app/_admin/admin/tasks')({
  staticData: { title: zh.titles.adminTasks },
  validateSearch: taskListSearchSchema,
  search: { middlewares: [stripSearchParams(ADMIN_TASK_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => taskListQuery(search),
  loader: async ({ context, deps }) => {
    const [tasks, users] = await Promise.all([loadTaskList(context.api, deps), loadAllUsers(context.api)]);
    return { tasks, users };
  },
  component: function AdminTasksRoute() {
    const navigate = useNavigate();
    return (
      <TaskListPage
        search={Route.useSearch()}
        data={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/admin/tasks', search: next })}
        renderRecords={adminRecords}
      />
    );
  },
});
