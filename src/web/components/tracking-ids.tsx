// A task's tracking ids (Task.trackingId: its purchased records' ids, comma-joined) in a table cell
// (/user/my-task, /admin/tasks). An id is never broken: the line breaks only between ids, each kept
// whole with the comma that follows it, so a narrow column stacks them instead of cutting one. A few
// ids share a line up to 16rem; the longest id alone sets the least width.
import type { JSX } from 'react';
import { carrierOf } from '../../../machines/tracking-id';
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
 * Where a member types a tracking id: the carrier its canonical key belongs to (decision 097), and a
 * warning when the carrier's check digit fails - a warning only, the id is still taken. Nothing for
 * an id no known carrier writes so.
 */
export function trackingCarrierHint(value: string): JSX.Element | null {
  const carrier = carrierOf(value);
  if (!carrier) return null;
  return (
    <span data-testid="tracking-carrier">
      {zh.tasks.trackingCarrier(carrier.name)}
      {!carrier.checkDigitOk && <span className="ml-2 text-amber-700">{zh.tasks.trackingCheckDigitFailed}</span>}
    </span>
  );
}
