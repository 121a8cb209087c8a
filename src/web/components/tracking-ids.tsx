// A task's tracking ids (Task.trackingId: its purchased records' ids, comma-joined) in a table cell
// (/user/my-task, /admin/tasks). An id is never broken: the line breaks only between ids, each kept
// whole with the comma that follows it, so a narrow column stacks them instead of cutting one. A few
// ids share a line up to 16rem; the longest id alone sets the least width.
import type { JSX } from 'react';
import type { Carrier } from '../../../machines/carrier';
import { onDemand, useOnDemand } from './ui/on-demand';
import { zh } from '../i18n/zh';

/**
 * One id in a table cell (a tracking id, a upc): kept whole on one line, like the ids of a list
 * below. A breakable id let the table squeeze its column to a few characters and cut a 20-character
 * tracking id before its last digit; the tables scroll sideways instead (DataTable).
 */
export const idTextClass = 'font-mono text-xs whitespace-nowrap';

/** The ids of a comma-joined list, blanks dropped. */
export function splitTrackingIds(joined: string): string[] {
  return joined
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

export function TrackingIds({ value }: { value: string }): JSX.Element | null {
  const ids = splitTrackingIds(value);
  if (ids.length === 0) return null;
  return (
    <span className="flex max-w-64 min-w-min flex-wrap gap-x-1 font-mono text-xs">
      {ids.map((id, i) => (
        <span key={`${i}-${id}`} className="whitespace-nowrap">
          {id}
          {i < ids.length - 1 && ','}
        </span>
      ))}
    </span>
  );
}

/**
 * The carriers' patterns (machines/carrier.ts, ~25 kB brotli) load once a label is drawn, not before a
 * list's first rows (decision 179): the labels appear when they are in, tens of ms later.
 */
const carrierModule = onDemand(() => import('../../../machines/carrier'));

/**
 * carrierOf, remembered per id: it tries every carrier's patterns (0.1-0.3 ms an id), and a scan
 * station draws its rows again at every scan. Bounded: a long session's ids start a fresh memory.
 */
const carriers = new Map<string, Carrier | null>();
const CARRIERS_REMEMBERED = 2000;
function carrierShown(carrierOf: (id: string) => Carrier | null, id: string): Carrier | null {
  if (carriers.has(id)) return carriers.get(id)!;
  if (carriers.size >= CARRIERS_REMEMBERED) carriers.clear();
  const carrier = carrierOf(id);
  carriers.set(id, carrier);
  return carrier;
}

/**
 * Beside a tracking id a clerk sees (the scan stations, the tracking list; decision 099): its carrier
 * as a small muted label (slate-600: AA contrast on the scan2 rows' tinted backgrounds too), and the
 * check-digit warning when the carrier's digit fails - a warning only, the scan is taken. Nothing for
 * an id no known carrier writes so.
 */
export function CarrierLabel({ trackingId }: { trackingId: string }): JSX.Element | null {
  const loaded = useOnDemand(carrierModule, true);
  const carrier = loaded && carrierShown(loaded.carrierOf, trackingId);
  if (!carrier) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1 font-sans text-xs">
      <span data-carrier={carrier.code} className="whitespace-nowrap text-slate-600">
        {carrier.name}
      </span>
      {!carrier.checkDigitOk && <span className="rounded bg-amber-100 px-1.5 py-0.5 text-amber-900">{zh.tasks.trackingCheckDigit}</span>}
    </span>
  );
}
