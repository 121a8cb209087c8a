// The page frame without the router: the skip link, the header bar, the content, the footer and the
// toasts. The app's RootLayout (app-shell.tsx) and the login page's own entry (login/, decision 131)
// both draw it, so /login looks as it did inside the app; each hands in its own header content.
import type { JSX, ReactNode } from 'react';
import { Toaster } from '../components/ui/toast';
import { zhApp as zh } from '../i18n/zh-app';
import { Footer } from './footer';

export function formatDocumentTitle(title: string | undefined): string {
  return title ? `${title} - ${zh.app.name}` : zh.app.name;
}

/** The classes of the header's home link (the app's router Link, the login page's plain anchor). */
export const HOME_LINK_CLASS = 'flex min-w-0 items-center gap-2 text-base font-semibold text-slate-900';

/** The mark and the product's name, inside the header's home link. */
export function Brand(): JSX.Element {
  return (
    <>
      <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-md bg-blue-600 text-sm text-white">
        采
      </span>
      <span className="truncate">{zh.app.name}</span>
    </>
  );
}

/** SPEC §1: the header: `start` (the phone menu), the home link, and `end` (the user and logout). */
export function HeaderBar({ start, home, end }: { start?: ReactNode; home: ReactNode; end?: ReactNode }): JSX.Element {
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center justify-between border-b border-slate-200 bg-white px-4 shadow-sm sm:px-6">
      <div className="flex min-w-0 items-center gap-3">
        {start}
        {home}
      </div>
      {end}
    </header>
  );
}

/** Skip link, header, content, footer and toasts; `overlays` (the confirm host) go last. */
export function PageFrame({ header, children, overlays }: { header: ReactNode; children: ReactNode; overlays?: ReactNode }): JSX.Element {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900">
      <a
        href="#content"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {zh.app.skipToContent}
      </a>
      {header}
      <div className="flex min-h-0 flex-1">{children}</div>
      <Footer />
      <Toaster />
      {overlays}
    </div>
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
