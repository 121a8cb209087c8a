// The facade of /admin/scan2: one scan2 actor (machines/scan2.machine.ts) with its side effects
// provided — the three calls, the sound of each outcome — its context stored on every change of the
// rows, the product or the scans that wait (the open choice's kept labels, decision 085;
// scan2-storage.ts) and restored when the page opens, and the browser's 'online'
// event turned into `retry.now`. The page reads the view model below; every rule comes from the
// machine (`snapshot.can` decides the row buttons).
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { fromPromise, type ActorOptions } from 'xstate';
import {
  SCAN2_STATUS,
  isSettled,
  persistedOf,
  scan2Machine,
  type AddInput,
  type LookupInput,
  type Scan2Candidate,
  type Scan2Record,
  type Scan2Input,
  type Scan2Machine,
  type Scan2Notice,
  type Scan2Row,
  type Scan2Snapshot,
} from '../../../../machines/scan2.machine';
import { playScanSound } from '../../lib/scan-sounds';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { withAppInspect } from '../../inspect/create-app-actor';
import { useSessionUser } from '../../session/use-session';
import { addScan, findItemsByUpc, lookupForScan2 } from './scan-api';
import type { BannerTone } from './scan-feedback';
import { claimScan2Slot, createScan2Store, SLOT_BEAT_MS } from './scan2-storage';

/**
 * This page load's name in the slot claims. One per module, not per render: React may run a state
 * initialiser twice, and both runs must claim the same slot. (Not crypto.randomUUID: it needs a
 * secure context, and a warehouse PC may open the app over plain http on the LAN.)
 */
const TAB_ID = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export function useScan2Actor() {
  const { api } = useAppContext();
  const user = useSessionUser();
  // This tab's slot of the admin's stored rows (scan2-storage.ts): another scan2 tab gets its own.
  const [slot] = useState(() => claimScan2Slot(user?.id ?? null, TAB_ID));
  const [store] = useState(() => createScan2Store(slot.key));
  const [restored] = useState(() => store.read());

  useEffect(() => {
    slot.beat();
    const timer = window.setInterval(() => slot.beat(), SLOT_BEAT_MS);
    window.addEventListener('pagehide', slot.release);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('pagehide', slot.release);
      slot.release();
    };
  }, [slot]);

  const actor = useActorRef(
    scan2Machine.provide({
      actors: {
        lookupTracking: fromPromise<Scan2Record[], LookupInput>(({ input }) => lookupForScan2(api, input.trackingId)),
        addScan: fromPromise<Scan2Record[], AddInput>(({ input }) => addScan(api, input)),
        findItems: fromPromise<Scan2Candidate[], { upc: string }>(({ input }) => findItemsByUpc(api, input.upc)),
      },
      actions: {
        feedback: (_, params) => {
          if (params.kind) playScanSound(params.kind);
        },
      },
    }),
    withAppInspect<ActorOptions<Scan2Machine> & { input: Scan2Input }>({ input: restored }),
  );

  useEffect(() => {
    let last = actor.getSnapshot().context;
    const subscription = actor.subscribe((snapshot) => {
      const context = snapshot.context;
      const same = (['rows', 'item', 'nextKey', 'choice', 'held', 'vetting'] as const).every((key) => context[key] === last[key]);
      if (same) return;
      last = context;
      store.write(persistedOf(context));
    });
    return () => subscription.unsubscribe();
  }, [actor, store]);

  useEffect(() => {
    const retry = () => actor.send({ type: 'retry.now' });
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [actor]);

  return actor;
}

export type Scan2Actor = ReturnType<typeof useScan2Actor>;

export interface Scan2Counts {
  pending: number;
  sending: number;
  failed: number;
  done: number;
  unsettled: number;
  retryable: number;
}

export function countsOf(rows: readonly Scan2Row[]): Scan2Counts {
  const count = (test: (row: Scan2Row) => boolean) => rows.filter(test).length;
  return {
    pending: count((r) => r.status === SCAN2_STATUS.pending),
    sending: count((r) => r.status === SCAN2_STATUS.submitting),
    failed: count((r) => r.status === SCAN2_STATUS.failed),
    done: count((r) => r.status === SCAN2_STATUS.submitted || r.status === SCAN2_STATUS.matchOk || r.status === SCAN2_STATUS.matchFailed),
    unsettled: count((r) => !isSettled(r)),
    retryable: count((r) => r.status === SCAN2_STATUS.failed && r.retryable),
  };
}

/** The rows as the page lists them: newest first. */
export function useScan2Rows(actor: Scan2Actor): Scan2Row[] {
  const rows = useSelector(actor, (s: Scan2Snapshot) => s.context.rows);
  return useMemo(() => [...rows].reverse(), [rows]);
}

/**
 * The banner for the machine's notice; while the catalog is asked about a code, that; without a
 * notice, what to do next (pick a product, or scan).
 */
export function scan2BannerOf(notice: Scan2Notice | null, hasItem: boolean, looking = false): { tone: BannerTone; text: string } {
  if (looking) return { tone: 'info', text: zh.scan.scan2.looking };
  switch (notice?.kind) {
    case 'accepted':
      return { tone: 'ok', text: zh.scan.scan2.accepted(notice.code) };
    case 'chosen':
      return { tone: 'ok', text: notice.message };
    case 'duplicate':
    case 'product':
    case 'choose':
      return { tone: 'warn', text: `${notice.code}：${notice.message}` };
    // A label kept while the choice is open: the choice waits, and how many labels wait with it.
    case 'kept':
      return { tone: 'warn', text: notice.message };
    case 'refused':
      return { tone: 'error', text: notice.message };
    case 'command':
      return { tone: 'info', text: notice.message };
    default:
      return { tone: 'idle', text: hasItem ? zh.scan.scan.trackingPrompt : zh.scan.scan2.empty };
  }
}
