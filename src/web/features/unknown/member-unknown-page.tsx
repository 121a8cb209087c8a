// /user/unknown-parcels (decision 169): parcels the warehouse received that no member recorded,
// newest first, each masked to its last 6 characters with its carrier, products and scan time. A
// member who recognises one claims it (claim-dialog.tsx) on a task of theirs the server offers; a
// parcel none of their tasks could take says so instead of the button. The list loads again after a
// claim (the parcel leaves it) and when a parcel is scanned. On a phone each parcel is a card.
import { useMemo, type JSX } from 'react';
import { UNKNOWN_PARCEL_DAYS } from '../../../../machines/scan-record.machine';
import { Button } from '../../components/ui/button';
import { columnHelper, type TableFailure } from '../../components/ui/data-table';
import { formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { idTextClass } from '../../components/tracking-ids';
import { zh } from '../../i18n/zh';
import { useRowDialog } from '../../lib/use-row-dialog';
import { ClaimDialog } from './claim-dialog';
import type { UnknownParcel, UnknownParcelPage } from './unknown-api';
import type { UnknownSearch } from './unknown-search';

const U = zh.unknown;
const C = U.col;
const col = columnHelper<UnknownParcel>();

export interface MemberUnknownPageProps {
  search: UnknownSearch;
  result: UnknownParcelPage;
  loading?: boolean;
  failure?: TableFailure | null;
  onSearch: (next: UnknownSearch) => void;
}

export function MemberUnknownPage({ search, result, loading = false, failure = null, onSearch }: MemberUnknownPageProps): JSX.Element {
  const claimDialog = useRowDialog<UnknownParcel>();
  const { row: claiming, open: setClaiming } = claimDialog;
  const columns = useMemo(
    () =>
      col.columns([
        col.display({
          id: 'trackingId',
          header: C.trackingId,
          cell: ({ row }) => (
            <span className="flex flex-col gap-0.5">
              <span className={idTextClass}>{row.original.maskedTrackingId}</span>
              {row.original.carrier && <span className="text-xs text-slate-600">{row.original.carrier}</span>}
            </span>
          ),
          meta: { card: 'title' },
        }),
        col.display({
          id: 'products',
          header: C.products,
          cell: ({ row }) => (
            <ul className="flex flex-col gap-0.5">
              {row.original.products.map((p, i) => (
                <li key={i} className="break-words">
                  {U.productLine(p.itemName || p.upc, p.count)}
                </li>
              ))}
            </ul>
          ),
          meta: { className: 'min-w-40' },
        }),
        col.accessor('seenAt', { header: C.seenAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
        col.display({
          id: 'actions',
          header: C.actions,
          cell: ({ row }) =>
            row.original.myTasks.length ? (
              <Button variant="secondary" aria-label={U.claimNamed(row.original.maskedTrackingId)} onClick={() => setClaiming(row.original)}>
                {U.claim}
              </Button>
            ) : (
              <span className="text-xs text-slate-500" title={U.noTaskHint}>
                {U.noTask}
              </span>
            ),
          meta: { className: 'whitespace-nowrap', card: 'actions' as const },
        }),
      ]),
    [setClaiming],
  );
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.userUnknownParcels} description={U.intro(UNKNOWN_PARCEL_DAYS)} />
      <PagedTable
        columns={columns}
        search={search}
        result={result}
        onSearch={onSearch}
        loading={loading}
        failure={failure}
        cards
        emptyText={U.empty}
        caption={U.caption}
      />
      {claiming && <ClaimDialog key={claiming.maskedTrackingId} parcel={claiming} onClose={claimDialog.close} onClaimed={claimDialog.done} />}
    </div>
  );
}
