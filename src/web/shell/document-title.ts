// SPEC §2: the page title comes from the route's title (`staticData: { title }` on each route).
import { useEffect } from 'react';
import { useMatches } from '@tanstack/react-router';
import { formatDocumentTitle } from './page-frame';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** Page title (Chinese), shown in the browser tab. */
    title?: string;
  }
}

/** The deepest matched route's title. */
export function useRouteTitle(): string | undefined {
  return useMatches({
    select: (matches) => {
      for (let i = matches.length - 1; i >= 0; i--) {
        const title = matches[i]?.staticData?.title;
        if (title) return title;
      }
      return undefined;
    },
  });
}

export function useDocumentTitle(): void {
  const title = useRouteTitle();
  useEffect(() => {
    document.title = formatDocumentTitle(title);
  }, [title]);
}
