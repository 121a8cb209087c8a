import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { UserListPage } from '../../../../features/people/user-list-page';
import { USER_LIST_SEARCH_DEFAULTS, userListSearchSchema } from '../../../../features/people/user-list-search';
import { loadUserList } from '../../../../features/people/users';
import { zhApp as zh } from '../../../../i18n/zh-app';

export const Route = createFileRoute('/_app/_admin/admin/user-list')({
  staticData: { title: zh.titles.adminUserList },
  validateSearch: userListSearchSchema,
  search: { middlewares: [stripSearchParams(USER_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadUserList(context.api, deps),
  component: function UserListRoute() {
    return <UserListPage search={Route.useSearch()} data={Route.useLoaderData()} />;
  },
});
