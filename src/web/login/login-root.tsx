// The login page's whole tree (decision 131): the page frame the app draws (page-frame.tsx) with a
// header of its own (a plain home link, no user: this page loads no session) around the app's login
// form. No router, no session machine: what it links to is a page load away.
import type { JSX } from 'react';
import type { ApiClient } from '../../api/client';
import { LoginPage } from '../features/auth/login-page';
import { Brand, HeaderBar, HOME_LINK_CLASS, PageFrame, PublicLayout } from '../shell/page-frame';

/** `search` is the page's query string: its `callback` is where a login goes (resolveLoginCallback). */
export function LoginRoot({ api, search }: { api: ApiClient; search: string }): JSX.Element {
  const callback = new URLSearchParams(search).get('callback') ?? undefined;
  return (
    <PageFrame
      header={
        <HeaderBar
          home={
            <a href="/" className={HOME_LINK_CLASS}>
              <Brand />
            </a>
          }
        />
      }
    >
      <PublicLayout>
        <LoginPage api={api} callback={callback} />
      </PublicLayout>
    </PageFrame>
  );
}
