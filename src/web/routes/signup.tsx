import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { SignupPage } from '../features/auth/signup-page';
import { checkToken } from '../features/auth/token-check';
import { optionalSearchText } from '../navigation/search';
import { PublicLayout } from '../shell/page-frame';
import { zhApp as zh } from '../i18n/zh-app';

export const Route = createFileRoute('/signup')({
  staticData: { title: zh.titles.signup },
  validateSearch: v.object({ mailAddr: optionalSearchText, token: optionalSearchText }),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: ({ context, deps }) => checkToken(context.api, deps.token, 'register'),
  component: function SignupRoute() {
    const { mailAddr, token } = Route.useSearch();
    const check = Route.useLoaderData();
    return (
      <PublicLayout>
        <SignupPage mailAddr={mailAddr ?? ''} token={token ?? ''} check={check} />
      </PublicLayout>
    );
  },
});
