// How a list page loads (decision 006): the route's loader fetches the page its URL describes, and
// while it runs, or when it fails, the route still shows the page itself - title, filters, the table's
// headers - with skeleton rows, or the failure said in place of the rows with a retry. A route does
// so by rendering its page as its component, its pendingComponent (pending: true) and its
// errorComponent (the error), with LIST_ROUTE_TIMING; its loader reads through loadedOrThrow, so a
// failed read reaches the errorComponent instead of an empty table and a toast.
import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { errorText } from '../../api/client';
import type { ApiOutcome } from '../../api/outcome';
import type { TableFailure } from '../components/ui/data-table';
import { zhApp as zh } from '../i18n/zh-app';

/** A read the loader could not make: its SPEC §8 code and the server's words (code null: no answer). */
export class LoadFailure extends Error {
  constructor(
    readonly code: string | null,
    readonly serverMsg: string,
  ) {
    super(serverMsg || 'load failed');
    this.name = 'LoadFailure';
  }
}

/** The data of a (silent) read, or its failure thrown for the route's errorComponent. */
export function loadedOrThrow<T>(outcome: ApiOutcome<T>): T {
  if (!outcome.ok) throw new LoadFailure(outcome.code, outcome.msg);
  return outcome.data;
}

/**
 * The page shows itself as the pending view after 150 ms (a quicker load keeps the previous page a
 * moment instead of flashing skeletons), and for no minimum time: the rows replace the skeletons
 * as soon as they come.
 */
export const LIST_ROUTE_TIMING = { pendingMs: 150, pendingMinMs: 0 } as const;

/** What a list route's view is given besides its data: the first load under way, or the load's error. */
export interface ListViewState {
  pending?: boolean;
  error?: unknown;
  /** The errorComponent's reset. */
  reset?: () => void;
}

/** What the failure says: the code and the server's words, or that the network failed. */
export function loadFailureText(error: unknown): string {
  if (error instanceof LoadFailure) return error.code === null && !error.serverMsg ? zh.common.networkError : errorText(error.code, error.serverMsg);
  return zh.common.networkError;
}

/** The table's failure for a route's error (null when there is none), retried by loading the route again. */
export function useListFailure(state: ListViewState): TableFailure | null {
  const router = useRouter();
  const { error, reset } = state;
  const retry = useCallback(() => {
    reset?.();
    void router.invalidate();
  }, [reset, router]);
  if (state.error === undefined) return null;
  return { message: `${zh.app.loadFailed}：${loadFailureText(error)}`, onRetry: retry };
}
