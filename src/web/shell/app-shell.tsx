// The page frame: header on top, content, footer with the version. Login-required routes add the
// role's sidebar (AppLayout); the public pages (signup, forgot-password, reset: PublicLayout in
// page-frame.tsx, which the login page's own entry draws too) have none.
import { useEffect, type JSX } from 'react';
import { Navigate, Outlet, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { Button } from '../components/ui/button';
import { ConfirmDialogHost, preloadConfirmDialog } from '../components/ui/confirm';
import { useDocumentTitle } from './document-title';
import { Header } from './header';
import { PageFrame } from './page-frame';
import { Sidebar } from './sidebar';
import { useSessionRole } from '../session/use-session';
import { zhApp as zh } from '../i18n/zh-app';

export function RootLayout(): JSX.Element {
  useDocumentTitle();
  return (
    <PageFrame header={<Header />} overlays={<ConfirmDialogHost />}>
      <Outlet />
    </PageFrame>
  );
}

export function AppLayout(): JSX.Element {
  const role = useSessionRole();
  // The logged-in pages ask for confirmations: have the dialog's code before the first one.
  useEffect(preloadConfirmDialog, []);
  return (
    <>
      <Sidebar role={role} />
      <main id="content" className="min-w-0 flex-1 p-4 sm:p-6">
        <Outlet />
      </main>
    </>
  );
}

/** SPEC §2: any unknown path redirects to /me. */
export function NotFoundRedirect(): JSX.Element {
  return <Navigate to="/me" replace />;
}

export function PendingScreen(): JSX.Element {
  return (
    <div role="status" className="flex flex-1 items-center justify-center p-12 text-sm text-slate-500">
      {zh.app.loading}
    </div>
  );
}

/** A route that failed to load (a loader threw): say so in Chinese and offer a retry. */
export function ErrorScreen({ reset }: ErrorComponentProps): JSX.Element {
  const router = useRouter();
  return (
    <div role="alert" className="mx-auto my-12 max-w-md rounded-lg border border-red-200 bg-white px-6 py-8 text-center">
      <h1 className="text-lg font-semibold text-slate-900">{zh.app.errorTitle}</h1>
      <p className="mt-2 text-sm text-slate-600">{zh.app.errorBody}</p>
      <Button
        className="mt-4"
        onClick={() => {
          reset();
          void router.invalidate();
        }}
      >
        {zh.app.retry}
      </Button>
    </div>
  );
}
