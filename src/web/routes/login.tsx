import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { LoginPage } from '../features/auth/login-page';
import { optionalSearchText } from '../navigation/search';
import { PublicLayout } from '../shell/app-shell';
import { zhApp as zh } from '../i18n/zh-app';

export const Route = createFileRoute('/login')({
  staticData: { title: zh.titles.login },
  validateSearch: v.object({ callback: optionalSearchText }),
  component: function LoginRoute() {
    const { callback } = Route.useSearch();
    return (
      <PublicLayout>
        <LoginPage callback={callback} />
      </PublicLayout>
    );
  },
});
