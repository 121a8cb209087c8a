import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { ResetPage } from '../features/auth/reset-page';
import { checkToken } from '../features/auth/token-check';
import { optionalSearchText } from '../navigation/search';
import { PublicLayout } from '../shell/page-frame';
import { zhApp as zh } from '../i18n/zh-app';

export const Route = createFileRoute('/reset')({
  staticData: { title: zh.titles.reset },
  validateSearch: v.object({ token: optionalSearchText }),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: ({ context, deps }) => checkToken(context.api, deps.token, 'change'),
  component: function ResetRoute() {
    const { token } = Route.useSearch();
    const check = Route.useLoaderData();
    return (
      <PublicLayout>
        <ResetPage token={token ?? ''} check={check} />
      </PublicLayout>
    );
  },
});
