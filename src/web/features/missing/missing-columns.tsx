// The columns both missing-parcel lists show (decision 077): the tracking id with its carrier, the
// age in days (how long it has been missing), the task and its item, the units, the time recorded,
// the state (未到货 or 已报丢件, with when) and the member's note. The admins' list adds the member
// after the tracking id; the member's adds the report button. As cards (a phone) the tracking id
// heads the card with the state beside it, and the button sits at the foot.
import { taskDisplayId } from '../../../../machines/task.machine';
import type { JSX, ReactNode } from 'react';
import { CarrierLabel, idTextClass } from '../../components/tracking-ids';
import { columnHelper, type DataTableColumn } from '../../components/ui/data-table';
import { formatDateTime } from '../../components/ui/format';
import { StatusBadge } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { MissingParcel } from './missing-api';

const M = zh.missing;
const C = M.col;

export const missingCol = columnHelper<MissingParcel>();

/** The state of a missing parcel: reported lost by its member, or still missing. */
export function MissingState({ parcel }: { parcel: Pick<MissingParcel, 'lostAt'> }): JSX.Element {
  return parcel.lostAt === null ? <StatusBadge tone="warning">{M.state.missing}</StatusBadge> : <StatusBadge tone="danger">{M.state.lost}</StatusBadge>;
}

export interface MissingColumnsOptions {
  /** Columns after the tracking id (the member on the admins' list). */
  afterTracking?: DataTableColumn<MissingParcel>[];
  /** The row's actions (the member's report button). */
  actions?: (row: MissingParcel) => ReactNode;
}

export function missingColumns({ afterTracking = [], actions }: MissingColumnsOptions = {}): DataTableColumn<MissingParcel>[] {
  return missingCol.columns([
    missingCol.display({
      id: 'trackingId',
      header: C.trackingId,
      cell: ({ row }) => (
        <span className="flex flex-col gap-0.5">
          <span className={idTextClass}>{row.original.typedTrackingId ?? row.original.trackingId}</span>
          <CarrierLabel trackingId={row.original.trackingId} />
        </span>
      ),
      meta: { card: 'title' },
    }),
    ...afterTracking,
    missingCol.accessor('ageDays', {
      header: C.age,
      cell: ({ getValue }) => <span className="font-medium text-orange-800">{M.ageDays(getValue())}</span>,
      meta: { align: 'right', className: 'whitespace-nowrap tabular-nums' },
    }),
    missingCol.display({ id: 'task', header: C.task, cell: ({ row }) => taskDisplayId(row.original), meta: { className: 'whitespace-nowrap tabular-nums' } }),
    missingCol.accessor('itemName', { header: C.itemName, meta: { className: 'min-w-32 break-words' } }),
    missingCol.accessor('productCount', { header: C.count, meta: { align: 'right', className: 'tabular-nums' } }),
    missingCol.accessor('createdAt', { header: C.createdAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
    missingCol.display({
      id: 'state',
      header: C.state,
      cell: ({ row }) => (
        <span className="flex flex-col items-start gap-0.5">
          <MissingState parcel={row.original} />
          {row.original.lostAt !== null && <span className="text-xs text-slate-500">{M.lostAt(formatDateTime(row.original.lostAt))}</span>}
        </span>
      ),
      meta: { card: 'badge' },
    }),
    missingCol.accessor('note', { header: C.note, meta: { className: 'max-w-60 break-words' } }),
    ...(actions
      ? [
          missingCol.display({
            id: 'actions',
            header: C.actions,
            cell: ({ row }) => actions(row.original),
            meta: { className: 'whitespace-nowrap', card: 'actions' as const },
          }),
        ]
      : []),
  ]);
}
