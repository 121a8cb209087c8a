import type { JSX, ReactNode } from 'react';

/** Tones, not statuses: features map their own status values to a tone. */
export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const TONE_CLASS: Record<BadgeTone, string> = {
  neutral: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  info: 'bg-blue-50 text-blue-700 ring-blue-600/20',
  success: 'bg-green-50 text-green-700 ring-green-600/20',
  warning: 'bg-orange-50 text-orange-700 ring-orange-600/20',
  danger: 'bg-red-50 text-red-700 ring-red-600/20',
};

export interface StatusBadgeProps {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
}

export function StatusBadge({ tone = 'neutral', children, className = '' }: StatusBadgeProps): JSX.Element {
  return (
    <span
      data-tone={tone}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONE_CLASS[tone]} ${className}`}
    >
      {children}
    </span>
  );
}
