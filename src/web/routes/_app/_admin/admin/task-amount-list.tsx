import { createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import { loadTaskAmounts } from '../../../../features/statistics/task-amount-api';
import { loadAllUsers } from '../../../../lib/users';
import { TaskAmountListPage } from '../../../../features/statistics/task-amount-list-page';
import { TASK_AMOUNT_SEARCH_DEFAULTS, taskAmountQuery, taskAmountSearchSchema } from '../../../../features/statistics/task-amount-search';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/task-amount-list')({
  staticData: { title: zh.titles.adminTaskAmountList },
  validateSearch: taskAmountSearchSchema,
  search: { middlewares: [stripSearchParams(TASK_AMOUNT_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const [amounts, users] = await Promise.all([loadTaskAmounts(context.api, taskAmountQuery(deps)), loadAllUsers(context.api)]);
    return { amounts, users };
  },
  component: function AdminTaskAmountListRoute() {
    const navigate = useNavigate();
    return (
      <TaskAmountListPage
        search={Route.useSearch()}
        data={Route.useLoaderData()}
        onSearch={(next) => void navigate({ to: '/admin/task-amount-list', search: next })}
      />
    );
  },
});
