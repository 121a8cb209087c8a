import { useId, type JSX, type ReactNode } from 'react';
import { UI_TEXT } from './ui-text';

export interface NotYetAvailableProps {
  /** What the user was trying to reach, e.g. '提现管理'. */
  feature: string;
  /** Which piece of work delivers it, e.g. 'issue #14（提现）'. */
  deliveredBy?: string;
  children?: ReactNode;
}

/** An honest placeholder for a screen that is routed but not built yet. */
export function NotYetAvailable({ feature, deliveredBy, children }: NotYetAvailableProps): JSX.Element {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="mx-auto my-12 max-w-lg rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center"
    >
      <h1 id={titleId} className="text-lg font-semibold text-slate-800">
        {UI_TEXT.notYetAvailable}
      </h1>
      <p className="mt-3 text-sm text-slate-600">{UI_TEXT.notYetAvailableBody(feature)}</p>
      {deliveredBy && <p className="mt-1 text-sm text-slate-600">{UI_TEXT.deliveredBy(deliveredBy)}</p>}
      {children && <div className="mt-4 text-sm text-slate-600">{children}</div>}
    </section>
  );
}
