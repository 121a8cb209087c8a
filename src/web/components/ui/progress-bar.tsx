// A progress bar with its label under it. Given a percent it is determinate (aria-valuenow); with
// null it is indeterminate (a pulsing full bar, aria-busy): work is going on, its size unknown.
import type { JSX } from 'react';

export interface ProgressBarProps {
  /** What is in progress; also the bar's accessible name. */
  label: string;
  /** 0..100, or null when how far along it is cannot be known. */
  percent: number | null;
  className?: string;
}

export function ProgressBar({ label, percent, className = 'max-w-xl' }: ProgressBarProps): JSX.Element {
  const determinate = percent !== null;
  return (
    <div className="flex flex-col gap-1.5">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={determinate ? 0 : undefined}
        aria-valuemax={determinate ? 100 : undefined}
        aria-valuenow={determinate ? percent : undefined}
        aria-busy={determinate ? undefined : true}
        className={`h-2 w-full overflow-hidden rounded-full bg-slate-200 ${className}`}
      >
        {determinate ? (
          <div className="h-full rounded-full bg-blue-500 transition-[width] duration-200" style={{ width: `${percent}%` }} />
        ) : (
          <div className="h-full w-full animate-pulse rounded-full bg-blue-500" />
        )}
      </div>
      <p className="text-xs text-slate-500">{label}</p>
    </div>
  );
}
