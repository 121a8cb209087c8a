// The page frame: header on top, content, footer with the version. Login-required routes add the
// role's sidebar (AppLayout); the public pages (login, signup, forgot-password, reset) have none.
import { useEffect, type JSX, type ReactNode } from 'react';
import { Navigate, Outlet, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { Button } from '../components/ui/button';
import { Toaster } from '../components/ui/toast';
import { ConfirmDialogHost, preloadConfirmDialog } from '../components/ui/confirm';
import { useDocumentTitle } from './document-title';
import { Footer } from './footer';
import { Header } from './header';
import { Sidebar } from './sidebar';
import { useSessionRole } from '../session/use-session';
import { zhApp as zh } from '../i18n/zh-app';

export function RootLayout(): JSX.Element {
  useDocumentTitle();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900">
      <a
        href="#content"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {zh.app.skipToContent}
      </a>
      <Header />
      <div className="flex min-h-0 flex-1">
        <Outlet />
      </div>
      <Footer />
      <Toaster />
      <ConfirmDialogHost />
    </div>
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

/** Public pages: a centred column, no sidebar. */
export function PublicLayout({ children }: { children: ReactNode }): JSX.Element {
  return (
    <main id="content" className="flex flex-1 items-start justify-center px-4 py-12 sm:py-20">
      <div className="w-full max-w-md">{children}</div>
    </main>
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
