import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ApplyPaymentCell, ApplyPaymentScope } from '../../../../features/payments/apply-payment-dialog';
import { MyTaskPage, type MyTaskRowExtra } from '../../../../features/tasks/my-task-page';
import { MY_TASK_SEARCH_DEFAULTS, myTaskSearchSchema } from '../../../../features/tasks/my-task-search';
import { loadMyTasks } from '../../../../features/tasks/tasks-api';
import { zhApp as zh } from '../../../../i18n/zh-app';
import { useLiveRefresh } from '../../../../live/use-live';

// Each task's payment application (the payments feature) beside its own actions (the tasks feature).
const paymentApplication: MyTaskRowExtra = {
  scope: (tasks, onChanged, table) => (
    <ApplyPaymentScope tasks={tasks} onApplied={onChanged}>
      {table}
    </ApplyPaymentScope>
  ),
  cell: (task) => <ApplyPaymentCell task={task} />,
};

export const Route = createFileRoute('/_app/_user/user/my-task')({
  staticData: { title: zh.titles.userMyTask },
  validateSearch: myTaskSearchSchema,
  search: { middlewares: [stripSearchParams(MY_TASK_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadMyTasks(context.api, deps),
  component: function MyTaskRoute() {
    useLiveRefresh(['task', 'apply']);
    const search = Route.useSearch();
    const result = Route.useLoaderData();
    const loading = Route.useMatch({ select: (match) => match.isFetching !== false });
    const navigate = Route.useNavigate();
    return <MyTaskPage search={search} result={result} loading={loading} onSearch={(next) => void navigate({ search: next })} rowExtra={paymentApplication} />;
  },
});
