import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { MyTaskPage } from '../../../../features/tasks/my-task-page';
import { MY_TASK_SEARCH_DEFAULTS, myTaskSearchSchema } from '../../../../features/tasks/my-task-search';
import { loadMyTasks } from '../../../../features/tasks/tasks-api';
import { zh } from '../../../../i18n/zh';

export const Route = createFileRoute('/_app/_user/user/my-task')({
  staticData: { title: zh.titles.userMyTask },
  validateSearch: myTaskSearchSchema,
  search: { middlewares: [stripSearchParams(MY_TASK_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadMyTasks(context.api, deps),
  component: function MyTaskRoute() {
    const search = Route.useSearch();
    const result = Route.useLoaderData();
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    const navigate = Route.useNavigate();
    return <MyTaskPage search={search} result={result} loading={loading} onSearch={(next) => void navigate({ search: next })} />;
  },
});
