import type { JSX } from 'react';
import { Link } from '@tanstack/react-router';
import type { RoleType } from '../../../../machines/session.machine';
import { zh } from '../../i18n/zh';
import { sidebarFor } from './sidebar-items';

export function Sidebar({ role }: { role: RoleType | null }): JSX.Element {
  const items = sidebarFor(role);
  return (
    <nav aria-label={zh.app.mainNav} className="w-52 shrink-0 border-r border-slate-200 bg-white">
      <ul className="sticky top-14 flex flex-col gap-0.5 p-3">
        {items.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              className="block rounded-md px-3 py-2 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900"
              activeProps={{ className: 'bg-blue-50 font-medium text-blue-700 hover:bg-blue-50 hover:text-blue-700', 'aria-current': 'page' }}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
