import type { JSX } from 'react';
import { Link } from '@tanstack/react-router';
import { Button } from '../components/ui/button';
import { onDemand, useOnDemand } from '../components/ui/on-demand';
import { zhApp as zh } from '../i18n/zh-app';
import { useAppContext } from '../app/app-context';
import { useSessionUser } from '../session/use-session';
import { Brand, HeaderBar, HOME_LINK_CLASS } from './page-frame';

const mobileNav = onDemand(() => import('./mobile-nav'));

/** SPEC §1: a header with the title, and a logout button only when logged in (and, on a narrow screen, the menu: MobileNav). */
export function Header(): JSX.Element {
  const { session } = useAppContext();
  const user = useSessionUser();
  const nav = useOnDemand(mobileNav, user !== null);
  return (
    <HeaderBar
      start={user && nav && <nav.MobileNav role={user.roleType} />}
      home={
        <Link to="/" className={HOME_LINK_CLASS}>
          <Brand />
        </Link>
      }
      end={
        user && (
          <div className="flex items-center gap-3 text-sm">
            <span className="hidden text-slate-600 sm:inline">
              {user.nickName}
              <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{zh.roles[user.roleType]}</span>
            </span>
            <Button variant="secondary" size="sm" onClick={() => session.send({ type: 'session.logout' })}>
              {zh.app.logout}
            </Button>
          </div>
        )
      }
    />
  );
}
