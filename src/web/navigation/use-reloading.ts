// A list page's "loading" (its table's overlay): true while the router loads a new state of the page
// on screen (a filter, a page, a sort, a reload), not while it loads the page itself. The router's
// isLoading stays true until after the new page's first render, then turns false: a page that read
// it rendered twice on arrival (the first row of /admin/tracking-list reached the screen ~20 ms
// later, decision 193), and showed its overlay for that one render.
import { useRouterState } from '@tanstack/react-router';

export function useReloading(): boolean {
  return useRouterState({ select: (state) => state.isLoading && state.resolvedLocation?.pathname === state.location.pathname });
}
