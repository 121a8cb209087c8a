import { createFileRoute, notFound } from '@tanstack/react-router';
import { loadTask, parseTaskId } from '../../../../features/admin-tasks/admin-tasks-api';
import { TaskEditPage } from '../../../../features/admin-tasks/task-edit-page';
import { backSearch } from '../../../../navigation/search';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/task/$id')({
  staticData: { title: zh.titles.adminTask },
  validateSearch: backSearch,
  loader: async ({ context, params }) => {
    const id = parseTaskId(params.id);
    const task = id === null ? null : await loadTask(context.api, id);
    if (!task) throw notFound();
    return task;
  },
  component: function AdminTaskRoute() {
    const task = Route.useLoaderData();
    const { back } = Route.useSearch();
    // Keyed by task and its last change: a reload after a save starts from the stored values.
    return <TaskEditPage key={`${task.id}:${task.updatedAt}`} task={task} back={back} />;
  },
});
