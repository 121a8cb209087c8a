// Whether a CSS media query matches, kept current as the window changes (useSyncExternalStore over
// matchMedia). Layouts that differ in structure, not only in style (a table's rows becoming cards),
// render one of the two instead of hiding one with CSS, so the page holds each control once.
import { useCallback, useSyncExternalStore } from 'react';

/** Tailwind's sm breakpoint: narrower than this is a phone held upright (390 px and the like). */
export const PHONE_QUERY = '(max-width: 639.98px)';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const read = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query).matches : false);
  return useSyncExternalStore(subscribe, read, () => false);
}

/** A phone's width (PHONE_QUERY). */
export const usePhoneWidth = () => useMediaQuery(PHONE_QUERY);
