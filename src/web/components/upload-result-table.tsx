// The result of an Excel upload (SPEC §3 "Upload result row"), shared by /user/upload and both tabs
// of /admin/upload: the totals succ, skip and error, and every row (line, tracking, name, itemId,
// express, qty, oldQty, opStatus, msg; the tracking upload adds the row's upc) with SPEC §9's upload
// page sizes: 20, 40, 60, 100, 200 and 全部 (everything on one page). The rows that need attention
// (machines/upload-result.ts: errors, skips, warnings) come first, paged here in the browser (they
// are in hand); a large file's fine rows, which its answer leaves out (decision 172), follow in a
// table of their own, paged by the server (UploadFineRowsTable). On a phone each row is a card: its
// tracking id heads it, its status beside it, the rest labelled (a row's message is what a phone's
// user reads; nine columns scrolled sideways).
import { useState, type JSX } from 'react';
import { needsAttention } from '../../../machines/upload-result';
import { idTextClass } from './tracking-ids';
import { columnHelper, DataTable } from './ui/data-table';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './ui/pager';
import { StatusBadge, type BadgeTone } from './ui/status-badge';
import { zh } from '../i18n/zh';
import type { LoadFineRows, UploadResult, UploadResultRow } from '../lib/excel-upload';
import { useRemote } from '../lib/use-remote';

const u = zh.uploads;

const OP_TONE: Record<UploadResultRow['opStatus'], BadgeTone> = { succ: 'success', skip: 'warning', error: 'danger' };

const blankIfNull = ({ getValue }: { getValue: () => number | string | null | undefined }) => getValue() ?? '';

const col = columnHelper<UploadResultRow>();
const mono = ({ getValue }: { getValue: () => string | undefined }) => <span className={idTextClass}>{getValue() ?? ''}</span>;
const lineColumn = col.accessor('line', { header: u.colLine, meta: { align: 'right', className: 'w-16 tabular-nums' } });
const trackingColumn = col.accessor('tracking', { header: u.colTracking, cell: mono, meta: { card: 'title' } });
const upcColumn = col.accessor('upc', { header: u.colUpc, cell: mono });
const restColumns = col.columns([
  col.accessor('name', { header: u.colName, cell: blankIfNull, meta: { className: 'min-w-40' } }),
  col.accessor('itemId', { header: u.colItemId, cell: blankIfNull, meta: { align: 'right' } }),
  col.accessor('express', { header: u.colExpress, cell: blankIfNull }),
  col.accessor('qty', { header: u.colQty, cell: blankIfNull, meta: { align: 'right' } }),
  col.accessor('oldQty', { header: u.colOldQty, cell: blankIfNull, meta: { align: 'right' } }),
  col.accessor('opStatus', {
    header: u.colOpStatus,
    meta: { card: 'badge' },
    cell: ({ getValue }) => <StatusBadge tone={OP_TONE[getValue()]}>{u.opStatus[getValue()] ?? getValue()}</StatusBadge>,
  }),
  col.accessor('msg', { header: u.colMsg, cell: blankIfNull, meta: { className: 'min-w-48' } }),
]);
const columns = [lineColumn, trackingColumn, ...restColumns];
const columnsWithUpc = [lineColumn, trackingColumn, upcColumn, ...restColumns];

export const UPLOAD_RESULT_SIZE_OPTIONS = PAGE_SIZE_OPTIONS.uploadResults;

/** The rows that need attention first, each part in sheet order. */
export function attentionFirst(rows: readonly UploadResultRow[]): UploadResultRow[] {
  return [...rows.filter(needsAttention), ...rows.filter((row) => !needsAttention(row))];
}

/** One page of `rows` (0-based `page`). */
export function pageOf<T>(rows: readonly T[], page: number, size: number): T[] {
  return rows.slice(page * size, page * size + size);
}

export function UploadTotals({ result }: { result: Pick<UploadResult, 'succ' | 'skip' | 'error'> }): JSX.Element {
  // A count is coloured only when it is not 0, so the eye goes to what needs a look.
  const items: Array<[string, number, string]> = [
    [u.succ, result.succ, result.succ > 0 ? 'text-green-700' : 'text-slate-700'],
    [u.skip, result.skip, result.skip > 0 ? 'text-orange-700' : 'text-slate-700'],
    [u.error, result.error, result.error > 0 ? 'text-red-700' : 'text-slate-700'],
  ];
  return (
    <dl aria-label={u.totals} className="flex flex-wrap gap-6 text-sm">
      {items.map(([label, n, tone]) => (
        <div key={label} className="flex items-baseline gap-2">
          <dt className="text-slate-500">{label}</dt>
          <dd className={`font-semibold tabular-nums ${tone}`}>{u.count(n)}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface UploadResultTableProps {
  rows: readonly UploadResultRow[];
  caption?: string;
  /** Show each row's upc after its tracking (the tracking upload reports it). */
  showUpc?: boolean;
}

export function UploadResultTable({ rows, caption = u.caption, showUpc = false }: UploadResultTableProps): JSX.Element {
  const [paging, setPaging] = useState({ page: 0, size: DEFAULT_PAGE_SIZE });
  const totalPages = Math.ceil(rows.length / paging.size);
  const page = Math.min(paging.page, Math.max(0, totalPages - 1));
  return (
    <UploadRows
      showUpc={showUpc}
      paging={{ page, size: paging.size }}
      setPaging={setPaging}
      data={pageOf(rows, page, paging.size)}
      totalPages={totalPages}
      totalElements={rows.length}
      caption={caption}
    />
  );
}

export interface UploadFineRowsTableProps {
  /** The answer's resultId and fine: the server pages these rows. */
  resultId: string;
  fine: number;
  load: LoadFineRows;
  showUpc?: boolean;
}

/** A large upload's fine rows, a page at a time from the server (SPEC §9's upload page sizes). */
export function UploadFineRowsTable({ resultId, fine, load, showUpc = false }: UploadFineRowsTableProps): JSX.Element {
  const [paging, setPaging] = useState({ page: 0, size: DEFAULT_PAGE_SIZE });
  const remote = useRemote(`${resultId}:${paging.page}:${paging.size}`, () => load(resultId, paging.page, paging.size));
  const data = remote.data;
  return (
    <UploadRows
      showUpc={showUpc}
      paging={paging}
      setPaging={setPaging}
      data={data?.content ?? []}
      totalPages={data ? data.totalPages : Math.ceil(fine / paging.size)}
      totalElements={data ? data.totalElements : fine}
      loading={remote.loading}
      caption={u.fineCaption(fine)}
      emptyText={data === null ? u.fineGone : undefined}
    />
  );
}

interface Paging {
  page: number;
  size: number;
}

/** One page of an upload's rows, as both tables show it: their columns, page sizes and cards on a phone. */
function UploadRows(props: {
  showUpc: boolean;
  paging: Paging;
  setPaging: (update: (p: Paging) => Paging) => void;
  data: UploadResultRow[];
  totalPages: number;
  totalElements: number;
  loading?: boolean;
  caption: string;
  emptyText?: string;
}): JSX.Element {
  const { showUpc, paging, setPaging, ...rest } = props;
  return (
    <DataTable
      {...rest}
      columns={showUpc ? columnsWithUpc : columns}
      page={paging.page}
      size={paging.size}
      onPageChange={(next) => setPaging((p) => ({ ...p, page: next }))}
      onSizeChange={(size) => setPaging(() => ({ page: 0, size }))}
      sizeOptions={UPLOAD_RESULT_SIZE_OPTIONS}
      rowId={(row) => row.line}
      cards
    />
  );
}
