import type { JSX } from 'react';
import { Link } from '@tanstack/react-router';
import { Button } from '../components/ui/button';
import { onDemand, useOnDemand } from '../components/ui/on-demand';
import { zhApp as zh } from '../i18n/zh-app';
import { useAppContext } from '../app/app-context';
import { useSessionUser } from '../session/use-session';

const mobileNav = onDemand(() => import('./mobile-nav'));

/** SPEC §1: a header with the title, and a logout button only when logged in (and, on a narrow screen, the menu: MobileNav). */
export function Header(): JSX.Element {
  const { session } = useAppContext();
  const user = useSessionUser();
  const nav = useOnDemand(mobileNav, user !== null);
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center justify-between border-b border-slate-200 bg-white px-4 shadow-sm sm:px-6">
      <div className="flex min-w-0 items-center gap-3">
        {user && nav && <nav.MobileNav role={user.roleType} />}
        <Link to="/" className="flex min-w-0 items-center gap-2 text-base font-semibold text-slate-900">
          <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-md bg-blue-600 text-sm text-white">
            采
          </span>
          <span className="truncate">{zh.app.name}</span>
        </Link>
      </div>
      {user && (
        <div className="flex items-center gap-3 text-sm">
          <span className="hidden text-slate-600 sm:inline">
            {user.nickName}
            <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{zh.roles[user.roleType]}</span>
          </span>
          <Button variant="secondary" size="sm" onClick={() => session.send({ type: 'session.logout' })}>
            {zh.app.logout}
          </Button>
        </div>
      )}
    </header>
  );
}
