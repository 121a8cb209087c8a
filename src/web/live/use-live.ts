// Live updates for a page (docs/decisions/016-live-updates.md): the server's hints that something the
// page shows has changed, heard on the tab's one stream (live-connection.ts). useLiveRefresh(kinds)
// in a route's component reloads that route (its loader, through the router's invalidate) once a
// burst of hints has settled, so the page re-reads through its usual calls; useLiveEvents gives
// the hints themselves to a part that loads on its own. A member hears of their own tasks,
// applications and withdraw lines; the admin side of claims (by board id).
import { useMatch, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import type { ApiClient } from '../../api/client';
import { useAppContext } from '../app/app-context';
import { openLiveStream, type LiveEvent, type LiveKind } from './live-api';
import { LiveConnection } from './live-connection';

export type { LiveEvent, LiveKind };

/** How long hints gather before one reload: a batch of scans is one reload, well within 2 s. */
export const LIVE_REFRESH_DELAY_MS = 300;

const connections = new WeakMap<ApiClient, LiveConnection>();
const connectionOf = (api: ApiClient) => {
  let c = connections.get(api);
  if (!c) connections.set(api, (c = new LiveConnection((signal) => openLiveStream(api, signal))));
  return c;
};

export interface LiveOptions {
  /** Only hints naming one of these ids (a board's id for `claim`); a hint naming none counts. */
  ids?: readonly number[];
}

/** Calls `onChange` with each hint of `kinds` (null: the stream was broken, anything may have changed). */
export function useLiveEvents(kinds: readonly LiveKind[], onChange: (event: LiveEvent | null) => void, options: LiveOptions = {}): void {
  const { api } = useAppContext();
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  const kindsKey = [...kinds].sort().join(',');
  const idsKey = options.ids?.join(',') ?? '';
  useEffect(() => {
    const wanted = new Set(kindsKey.split(','));
    const ids = idsKey ? idsKey.split(',').map(Number) : null;
    return connectionOf(api).subscribe((signal) => {
      if (signal === 'resync') return latest.current(null);
      if (!wanted.has(signal.kind)) return;
      if (ids && signal.ids && !signal.ids.some((id) => ids.includes(id))) return;
      latest.current(signal);
    });
  }, [api, kindsKey, idsKey]);
}

/** Reloads the calling route's data when the server says something of `kinds` changed. */
export function useLiveRefresh(kinds: readonly LiveKind[], options: LiveOptions = {}): void {
  const router = useRouter();
  const routeId = useMatch({ strict: false, select: (match) => match.routeId });
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
      pending.current = null;
    },
    [],
  );
  useLiveEvents(
    kinds,
    () => {
      if (pending.current) return;
      pending.current = setTimeout(() => {
        pending.current = null;
        void router.invalidate({ filter: (match) => match.routeId === routeId });
      }, LIVE_REFRESH_DELAY_MS);
    },
    options,
  );
}
