// /admin/tracking-list (SPEC §2, §3 scan tracking record, §4 scan statuses, §7 listScanTrackings):
// every scanned or imported parcel line. Filters trackingId, status, start and end date (days in
// this browser's timezone, whose offset goes with the call), product and sort; a paged table of the
// records with each one's edit dialog (scan-edit-dialog.tsx); the Excel export of what the filters
// select; and the ways in: the two scan screens and the tracking upload. A record whose task is being
// paid (wait2pay, payed) offers no edit (machines/scan-record.machine.ts mayEdit, which the server asks too).
// Filters, sort, page and size live in the URL: this page reads them from `search` and changes
// them through `onSearch`; the route's loader fetches the page they describe.
import { Link, useRouter } from '@tanstack/react-router';
import { useCallback, useMemo, useState, type JSX } from 'react';
import * as v from 'valibot';
import { mayEdit, SCAN_STATUSES, type ScanStatus } from '../../../../machines/scan-record.machine';
import { taskDisplayId } from '../../../../machines/task.machine';
import { ScanStatusBadge } from '../../components/task-status-badges';
import { CarrierLabel, idTextClass } from '../../components/tracking-ids';
import { Button } from '../../components/ui/button';
import { columnHelper } from '../../components/ui/data-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime } from '../../components/ui/format';
import { primaryLinkClass, secondaryLinkClass } from '../../components/ui/link-classes';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { zh } from '../../i18n/zh';
import { userLabel } from '../../lib/filter-fields';
import { isDay, filterForm } from '../../lib/list-search';
import { offsetLabel, timezoneOffsetHours } from '../../lib/timezone';
import { useAppContext } from '../../app/app-context';
import { ItemFilterField } from '../../components/item-filter-field';
import { useDownload } from '../../navigation/use-download';
import { onDemand, useOnDemand } from '../../components/ui/on-demand';
import { trackingExcelUrl, type AppUser, type ScanTracking, type ScanTrackingPage } from './tracking-api';
import { trackingExportFilters, TRACKING_SIZE_OPTIONS, type TrackingFilters, type TrackingListSearch } from './tracking-search';
import { useReloading } from '../../navigation/use-reloading';

const scanEditDialog = onDemand(() => import('./scan-edit-dialog'));

const t = zh.tracking;
const L = t.list;
const F = t.field;

export interface TrackingListData {
  records: ScanTrackingPage;
  users: AppUser[];
}

export interface TrackingListPageProps {
  search: TrackingListSearch;
  data: TrackingListData;
  onSearch: (next: TrackingListSearch) => void;
}

/** The task a record matched: mainId, plus '-subId' when subId is not 0 (SPEC §2); '' for none. */
export function scanTaskLabel(record: Pick<ScanTracking, 'mainId' | 'subId'>): string {
  if (record.mainId === null) return '';
  return taskDisplayId({ mainId: record.mainId, subId: record.subId ?? 0 });
}

const col = columnHelper<ScanTracking>();

/** The records' columns: the scan, its item, match and operator, and 编辑 where the scan machine allows it. */
function trackingColumns(users: readonly AppUser[], onEdit: (record: ScanTracking) => void) {
  return col.columns([
    col.accessor('id', { header: F.id, meta: { className: 'tabular-nums', card: 'hidden' } }),
    col.accessor('trackingId', {
      header: F.trackingId,
      meta: { card: 'title' },
      // The id, and under it its carrier (decision 099).
      cell: ({ getValue }) => (
        <span className="flex flex-col items-start gap-0.5">
          <span className={idTextClass}>{getValue()}</span>
          <CarrierLabel trackingId={getValue()} />
        </span>
      ),
    }),
    col.accessor('upc', { header: F.upc, cell: ({ getValue }) => <span className={idTextClass}>{getValue()}</span> }),
    col.accessor('count', { header: F.count, meta: { align: 'right', className: 'tabular-nums' } }),
    col.display({
      id: 'item',
      header: F.item,
      meta: { className: 'min-w-40' },
      // Nothing for a row of no known item (an imported id whose UPC is no item's): a card leaves it off.
      cell: ({ row }) =>
        row.original.itemName || row.original.itemId !== null ? (
          <div className="flex flex-col">
            <span>{row.original.itemName}</span>
            {row.original.itemId !== null && <span className="text-xs text-slate-500 tabular-nums">#{row.original.itemId}</span>}
          </div>
        ) : null,
    }),
    col.accessor('status', { header: F.status, cell: ({ getValue }) => <ScanStatusBadge status={getValue()} />, meta: { card: 'badge' } }),
    col.display({
      id: 'matchedUser',
      header: F.matchedUser,
      meta: { className: 'whitespace-nowrap' },
      cell: ({ row }) => row.original.matchedUser ?? userLabel(users, row.original.userId),
    }),
    col.display({
      id: 'task',
      header: F.task,
      meta: { className: 'whitespace-nowrap tabular-nums' },
      cell: ({ row }) => {
        const label = scanTaskLabel(row.original);
        return label ? <span title={row.original.taskId === null ? undefined : `${F.taskId} ${row.original.taskId}`}>{label}</span> : null;
      },
    }),
    col.display({
      id: 'operator',
      header: F.opUid,
      meta: { className: 'whitespace-nowrap' },
      cell: ({ row }) => userLabel(users, row.original.opUid),
    }),
    col.accessor('createdAt', { header: F.createdAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
    col.accessor('updatedAt', {
      header: F.updatedAt,
      cell: ({ getValue }) => formatDateTime(getValue()),
      meta: { className: 'whitespace-nowrap', card: 'hidden' },
    }),
    col.display({
      id: 'actions',
      header: F.actions,
      meta: { card: 'actions' },
      // The scan machine's rule (the server's too): a record whose task is being paid is not edited.
      cell: ({ row }) =>
        mayEdit(row.original) ? (
          <Button variant="link" aria-label={L.editNamed(row.original.id, row.original.trackingId)} onClick={() => onEdit(row.original)}>
            {L.edit}
          </Button>
        ) : null,
    }),
  ]);
}

export function TrackingListPage({ search, data, onSearch }: TrackingListPageProps): JSX.Element {
  const router = useRouter();
  const { api } = useAppContext();
  const loading = useReloading();
  const [editing, setEditing] = useState<ScanTracking | null>(null);
  // The edit dialog (Headless UI's dialog and the item picker) loads after the first rows (decision 179).
  const edit = useOnDemand(scanEditDialog, true);
  const { busy: exporting, download } = useDownload();
  const reload = useCallback(() => router.invalidate(), [router]);

  const columns = useMemo(() => trackingColumns(data.users, setEditing), [data.users]);

  const exportExcel = () => download(() => trackingExcelUrl(api, trackingExportFilters(search)));

  const filters = filterForm(search, onSearch);
  const filterKey = filters.key;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.adminTrackingList}
        actions={
          <>
            <Link to="/admin/scan" className={primaryLinkClass}>
              {zh.titles.adminScan}
            </Link>
            <Link to="/admin/scan2" className={secondaryLinkClass}>
              {zh.titles.adminScan2}
            </Link>
            <Link to="/admin/upload" className={secondaryLinkClass}>
              {zh.titles.adminUpload}
            </Link>
            <Button variant="secondary" loading={exporting} onClick={() => void exportExcel()}>
              {L.exportExcel}
            </Button>
          </>
        }
      />
      <TrackingFilterBar key={filterKey} search={search} onApply={filters.onApply} onReset={filters.onReset} />
      <PagedTable
        columns={columns}
        search={search}
        result={data.records}
        onSearch={onSearch}
        sizeOptions={TRACKING_SIZE_OPTIONS}
        loading={loading}
        emptyText={L.empty}
        caption={L.caption}
        // A clerk checks parcels on a phone too: a card a record there (twelve columns do not fit).
        cards
      />
      {data.records.totalCapped && <p className="text-xs text-slate-500">{L.moreRows}</p>}
      {editing && edit && (
        <edit.ScanEditDialog
          key={editing.id}
          record={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void reload();
          }}
        />
      )}
    </div>
  );
}

// ---------------------------------------------------------------- filters

const SORTS = ['desc', 'asc'] as const;

const day = v.pipe(
  v.string(),
  v.trim(),
  v.check((text) => text === '' || isDay(text), L.dateInvalid),
);

const filterSchema = v.pipe(
  v.object({
    trackingId: v.pipe(v.string(), v.trim(), v.maxLength(64)),
    status: v.union([v.literal(''), v.picklist(SCAN_STATUSES)]),
    startTime: day,
    endTime: day,
    itemId: v.nullable(v.number()),
    sort: v.picklist(SORTS),
  }),
  v.forward(
    v.partialCheck([['startTime'], ['endTime']], ({ startTime, endTime }) => !startTime || !endTime || startTime <= endTime, L.endBeforeStart),
    ['endTime'],
  ),
);
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;

const STATUS_OPTIONS = SCAN_STATUSES.map((status) => ({ value: status, label: zh.status.scan[status] }));

function TrackingFilterBar({
  search,
  onApply,
  onReset,
}: {
  search: TrackingListSearch;
  onApply: (filters: TrackingFilters) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      trackingId: search.trackingId ?? '',
      status: search.status ?? '',
      startTime: search.startTime ?? '',
      endTime: search.endTime ?? '',
      itemId: search.itemId ?? null,
      sort: search.isDesc ? 'desc' : 'asc',
    },
  });

  function apply(values: FilterValues) {
    onApply({
      trackingId: values.trackingId || undefined,
      status: values.status === '' ? undefined : values.status,
      startTime: values.startTime || undefined,
      endTime: values.endTime || undefined,
      itemId: values.itemId ?? undefined,
      isDesc: values.sort === 'desc',
    });
  }

  const zone = L.timezoneHint(offsetLabel(timezoneOffsetHours()));
  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-6">
      <TextField<FilterInput, 'trackingId'> name="trackingId" label={L.trackingId} type="search" maxLength={64} autoComplete="off" />
      <SelectField<FilterInput, 'status', ScanStatus> name="status" label={L.status} options={STATUS_OPTIONS} placeholder={L.allStatuses} />
      <TextField<FilterInput, 'startTime'> name="startTime" label={L.startTime} type="date" hint={zone} />
      <TextField<FilterInput, 'endTime'> name="endTime" label={L.endTime} type="date" />
      <ItemFilterField<FilterInput, 'itemId'> name="itemId" label={L.itemId} className="sm:col-span-2" />
      <SelectField<FilterInput, 'sort', (typeof SORTS)[number]>
        name="sort"
        label={L.sort}
        placeholder={false}
        options={[
          { value: 'desc', label: L.sortDesc },
          { value: 'asc', label: L.sortAsc },
        ]}
      />
    </FilterBar>
  );
}
