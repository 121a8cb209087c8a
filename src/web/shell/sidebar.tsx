// The role's navigation (SPEC §2 sidebar). On a wide screen it is the sidebar beside the content; on
// a narrow one (a phone at the warehouse door scanning with its camera, a member checking a task)
// the sidebar would take half the width, so the header's menu button opens the same links instead
// (mobile-nav.tsx, loaded when a user is logged in).
import type { JSX } from 'react';
import { Link } from '@tanstack/react-router';
import type { RoleType } from '../../../machines/session.machine';
import { zhApp as zh } from '../i18n/zh-app';
import { sidebarFor } from './sidebar-items';

export function NavLinks({ role, onNavigate }: { role: RoleType | null; onNavigate?: () => void }): JSX.Element {
  return (
    <ul className="flex flex-col gap-0.5">
      {sidebarFor(role).map((item) => (
        <li key={item.to}>
          <Link
            to={item.to}
            onClick={onNavigate}
            className="block rounded-md px-3 py-2 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            activeProps={{ className: 'bg-blue-50 font-medium text-blue-700 hover:bg-blue-50 hover:text-blue-700', 'aria-current': 'page' }}
          >
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function Sidebar({ role }: { role: RoleType | null }): JSX.Element {
  return (
    <nav aria-label={zh.app.mainNav} className="hidden w-52 shrink-0 border-r border-slate-200 bg-white md:block">
      <div className="sticky top-14 p-3">
        <NavLinks role={role} />
      </div>
    </nav>
  );
}
