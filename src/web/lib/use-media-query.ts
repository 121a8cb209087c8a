// Whether the window matches a CSS media query, kept up to date as it is resized or turned. For a
// page whose layout changes in kind at a width (a table on a desktop, cards on a phone), where
// rendering both and hiding one with CSS would put every row's controls in the page twice.
import { useSyncExternalStore } from 'react';

/** Tailwind's md breakpoint (48rem): below it a page is laid out for a phone. */
export const WIDE_SCREEN_QUERY = '(min-width: 768px)';

export function useMediaQuery(query: string, fallback = true): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;
      list?.addEventListener('change', notify);
      return () => list?.removeEventListener('change', notify);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback),
    () => fallback,
  );
}
