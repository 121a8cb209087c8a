// A box that scrolls sideways (a table wider than a phone or than the room beside the sidebar): a
// named region in the tab order, so a keyboard user can reach it and scroll it with the arrow keys
// even when the table holds nothing focusable (WCAG 2.1.1; axe's scrollable-region-focusable).
import type { JSX, ReactNode } from 'react';

export interface ScrollRegionProps {
  /** What scrolls, read as the region's name (a table's caption). */
  label: string;
  className?: string;
  children: ReactNode;
}

export function ScrollRegion({ label, className = '', children }: ScrollRegionProps): JSX.Element {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`overflow-x-auto focus-visible:outline-2 focus-visible:outline-blue-500 ${className}`}>
      {children}
    </div>
  );
}
