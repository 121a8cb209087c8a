// A task's tracking ids on /user/my-task, each showing at a glance where its parcel stands (decision
// 106): arrived, still expected or disagreed - its purchased record's status read through the task
// machine's RECORD_ARRIVAL - with an icon and a colour, and the reason (the record's msg, matching's
// words) on hover, on focus, or on a tap, which shows it under the ids. A list answer without
// per-record verdicts (Task.trackings absent) falls back to the plain ids. A missing parcel (decision
// 077: not arrived after the setting's days) is flagged in orange with its age, or in red when its
// member reported it lost, and its reason links to /user/missing-parcels where it is dealt with.
import { Link } from '@tanstack/react-router';
import { useId, useState, type JSX } from 'react';
import { TrackingIds } from '../../components/tracking-ids';
import { zh } from '../../i18n/zh';
import { recordArrivalOf, type RecordArrival } from '../../../../machines/task.machine';
import type { Task, TaskTracking } from './tasks-api';

const t = zh.tasks;

const LOOK: Record<RecordArrival, string> = {
  arrived: 'bg-green-50 text-green-800 ring-green-600/30',
  expected: 'bg-slate-100 text-slate-700 ring-slate-500/30',
  disagreed: 'bg-red-50 text-red-800 ring-red-600/30',
  checking: 'bg-amber-50 text-amber-900 ring-amber-600/30',
};
/** A missing parcel's look: its age in orange, reported lost in red (the same icon as disagreed: it needs the member). */
const MISSING_LOOK = 'bg-orange-50 text-orange-900 ring-orange-600/50';
const LOST_LOOK = 'bg-red-50 text-red-800 ring-red-600/30';

/** The flag of a missing parcel's record (its age, or reported lost), or null when it is not missing. */
export function missingFlag(record: Pick<TaskTracking, 'missingDays' | 'lost'>): string | null {
  if (record.missingDays === undefined) return null;
  return record.lost ? zh.missing.trackingLost : zh.missing.trackingMissing(record.missingDays);
}

function ArrivalIcon({ arrival }: { arrival: RecordArrival }): JSX.Element {
  const path = {
    // a check mark
    arrived: 'M3.5 8.5l3 3 6-7',
    // a clock
    expected: 'M8 4.5V8l2.5 1.5M14 8A6 6 0 112 8a6 6 0 0112 0z',
    // a clock too: waiting, on the admin this time
    checking: 'M8 4.5V8l2.5 1.5M14 8A6 6 0 112 8a6 6 0 0112 0z',
    // an exclamation mark in a triangle
    disagreed: 'M8 6v3M8 11.5v.5M7.1 2.6L1.6 12a1 1 0 00.9 1.5h11a1 1 0 00.9-1.5L8.9 2.6a1 1 0 00-1.8 0z',
  }[arrival];
  return (
    <svg
      viewBox="0 0 16 16"
      aria-hidden="true"
      className="size-3.5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}

/** The words of one tracking id: the id, where it stands, and why (matching's msg, when it gave one). */
export function arrivalText(record: Pick<TaskTracking, 'trackingId' | 'status' | 'msg' | 'missingDays' | 'lost'>): string {
  return t.arrivalOf(record.trackingId, missingFlag(record) ?? t.arrival[recordArrivalOf(record)], record.msg);
}

export function TrackingArrivals({ task }: { task: Pick<Task, 'trackingId' | 'trackings'> }): JSX.Element | null {
  const [shown, setShown] = useState<number | null>(null);
  const reasonId = useId();
  if (!task.trackings) return <TrackingIds value={task.trackingId} />;
  if (task.trackings.length === 0) return null;
  const open = shown === null ? undefined : task.trackings[shown];
  return (
    <div className="flex max-w-72 min-w-min flex-col gap-1">
      <ul className="flex flex-wrap gap-1">
        {task.trackings.map((record, i) => {
          const arrival = recordArrivalOf(record);
          const missing = missingFlag(record);
          const look = missing === null ? LOOK[arrival] : record.lost ? LOST_LOOK : MISSING_LOOK;
          return (
            <li key={`${i}-${record.trackingId}`}>
              <button
                type="button"
                data-arrival={arrival}
                data-missing={missing === null ? undefined : record.lost ? 'lost' : 'missing'}
                title={arrivalText(record)}
                aria-label={arrivalText(record)}
                aria-expanded={shown === i}
                aria-controls={reasonId}
                onClick={() => setShown(shown === i ? null : i)}
                className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 font-mono text-xs whitespace-nowrap ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-blue-500 ${look}`}
              >
                <ArrivalIcon arrival={missing === null ? arrival : 'disagreed'} />
                {record.trackingId}
              </button>
            </li>
          );
        })}
      </ul>
      <p id={reasonId} aria-live="polite" className={open ? 'text-xs text-slate-700' : 'sr-only'}>
        {open ? arrivalText(open) : ''}
        {open && missingFlag(open) !== null && (
          <Link to="/user/missing-parcels" className="ml-2 text-blue-700 underline hover:text-blue-900">
            {zh.missing.homeFlagLink}
          </Link>
        )}
      </p>
    </div>
  );
}
