// Claim progress of a board task (SPEC §4 "Claim progress colour", §9 thresholds 50 and 80): the
// claimed share of the demand, green up to 50 %, orange up to 80 %, red above. Shared by the admin
// board page and the member board page, so it is pure: no data loading, no app imports.
//
// The percent is rounded to a whole number once and both the label and the colour read that number,
// so what the user sees ("50%") and its colour never disagree.
import type { JSX } from 'react';

export type ProgressTone = 'green' | 'orange' | 'red';

/** Highest percent still shown green, and highest still shown orange. */
export const PROGRESS_THRESHOLDS = { green: 50, orange: 80 } as const;

/** Whole percent of `need` claimed (0 when there is no demand and nothing claimed, 100 when claimed without demand). */
export function claimPercent(count: number, need: number): number {
  if (!(need > 0)) return count > 0 ? 100 : 0;
  return Math.round((Math.max(0, count) * 100) / need);
}

/** ≤50 green, ≤80 orange, above that red. */
export function progressTone(percent: number): ProgressTone {
  if (percent <= PROGRESS_THRESHOLDS.green) return 'green';
  if (percent <= PROGRESS_THRESHOLDS.orange) return 'orange';
  return 'red';
}

const TEXT_CLASS: Record<ProgressTone, string> = {
  green: 'text-green-700',
  orange: 'text-orange-700',
  red: 'text-red-600',
};

const BAR_CLASS: Record<ProgressTone, string> = {
  green: 'bg-green-500',
  orange: 'bg-orange-500',
  red: 'bg-red-500',
};

export interface ClaimProgressProps {
  /** The bar's accessible name (what is claimed: its item), from the caller's words. */
  label: string;
  /** Units claimed. */
  count: number;
  /** Demand the progress is measured against. */
  need: number;
  className?: string;
}

/** A thin coloured bar with the percent beside it; `data-tone` carries the colour for tests and styling. */
export function ClaimProgress({ label, count, need, className = '' }: ClaimProgressProps): JSX.Element {
  const percent = claimPercent(count, need);
  const tone = progressTone(percent);
  return (
    <span data-tone={tone} className={`inline-flex items-center gap-2 ${className}`}>
      <span
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(percent, 100)}
        aria-valuetext={`${percent}%`}
        className="h-1.5 w-16 overflow-hidden rounded-full bg-slate-200"
      >
        <span className={`block h-full ${BAR_CLASS[tone]}`} style={{ width: `${Math.min(percent, 100)}%` }} />
      </span>
      <span className={`text-xs font-medium tabular-nums ${TEXT_CLASS[tone]}`}>{percent}%</span>
    </span>
  );
}
