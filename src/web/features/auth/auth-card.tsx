import type { JSX, ReactNode } from 'react';
import { zhApp as zh } from '../../i18n/zh-app';

/** The card every public auth page sits in. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }): JSX.Element {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <p className="text-xs font-medium tracking-wide text-blue-600">{zh.app.name}</p>
      <h1 className="mt-1 text-2xl font-semibold text-slate-900">{title}</h1>
      {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
      <div className="mt-6">{children}</div>
      {footer && <div className="mt-6 border-t border-slate-100 pt-4 text-center text-sm text-slate-500">{footer}</div>}
    </div>
  );
}

/** A success / information notice inside a card. */
export function NoticeBox({ children }: { children: ReactNode }): JSX.Element {
  return (
    <div role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
      {children}
    </div>
  );
}
