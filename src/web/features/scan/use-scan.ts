// The facade of /admin/scan: one scan actor (machines/scan.machine.ts) with its side effects
// provided — the four calls and the sound of each outcome. The page reads the machine's context
// through selectors and offers what `snapshot.can` allows.
import { useActorRef } from '@xstate/react';
import { fromPromise } from 'xstate';
import {
  scanMachine,
  type CreateInput,
  type LookupOutput,
  type ModifyInput,
  type ScanItem,
  type ScanNotice,
  type ScanRecord,
  type ScanTab,
} from '../../../../machines/scan.machine';
import { unmatchReasonMessages } from '../../../../machines/scan-record.machine';
import { nearMissMessages } from '../../../../machines/tracking-id';
import { playScanSound } from '../../lib/scan-sounds';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { withAppInspect } from '../../inspect/create-app-actor';
import { createScans, findItemsByUpc, lookupForScan, modifyScan } from './scan-api';
import type { BannerTone } from './scan-feedback';

export function useScanActor() {
  const { api } = useAppContext();
  return useActorRef(
    scanMachine.provide({
      actors: {
        lookupTracking: fromPromise<LookupOutput, { trackingId: string }>(({ input }) => lookupForScan(api, input.trackingId)),
        findItems: fromPromise<(ScanItem & { status?: string })[], { upc: string }>(({ input }) => findItemsByUpc(api, input.upc)),
        createScans: fromPromise<ScanRecord[], CreateInput>(({ input }) => createScans(api, input.trackingId, input.items)),
        modifyRecord: fromPromise<ScanRecord, ModifyInput>(({ input }) => modifyScan(api, input.id, input.changes)),
      },
      actions: {
        feedback: (_, params) => playScanSound(params.kind),
      },
    }),
    withAppInspect({}),
  );
}

export type ScanActor = ReturnType<typeof useScanActor>;

const s = zh.scan.scan;

/** The banner for the machine's notice; `tab` says whether the next scan is a parcel's tracking id. */
export function bannerOf(notice: ScanNotice | null, trackingId: string | null, tab: ScanTab = 'upc'): { tone: BannerTone; text: string } {
  switch (notice?.kind) {
    case 'tracking':
      return { tone: 'ok', text: s.trackingSet(notice.code, notice.isExist) };
    case 'added':
      return { tone: 'ok', text: notice.announced ? s.addedAnnounced(notice.code, notice.count) : s.added(notice.code, notice.count) };
    case 'undone':
      return { tone: 'info', text: s.undone(notice.code, notice.count) };
    case 'parcelCancelled':
      return { tone: 'info', text: s.parcelCancelled(notice.code) };
    case 'unknown':
      return { tone: 'warn', text: s.unknown(notice.code) };
    case 'refused':
      return { tone: 'error', text: `${notice.code}：${notice.message}` };
    case 'created':
      if (notice.unmatched) {
        const reason = notice.unmatched.reason ? unmatchReasonMessages[notice.unmatched.reason] : s.unmatchedNoReason;
        const near = notice.unmatched.near ? nearMissMessages.clerk(notice.unmatched.near) : undefined;
        return { tone: 'warn', text: s.createdUnmatched(notice.unmatched.code, reason, near) };
      }
      return { tone: 'ok', text: tab === 'tracking' ? s.createdNext : s.created };
    case 'saved':
      return { tone: 'ok', text: s.saved };
    case 'error':
      return { tone: 'error', text: notice.message };
    default:
      return { tone: 'idle', text: trackingId ? s.current(trackingId) : s.trackingPrompt };
  }
}
