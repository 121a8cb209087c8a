// /admin/tracking-audit, the admin log (SPEC §2, §3 Audit entries; DECISIONS "Receiving and
// matching": every scan, match, upload and record change writes who, when, what, before and after):
// the entries of GET /api/audit/tracking/list, scan records ('tracking') and members' purchased
// records ('purchased'), with the filters the contract offers: trackingId, upc, operator (opUid:
// the admins and lower admins) and status (a scan status: the scan record's status after the
// change; a purchased-record entry carries its task's status, so 'unmatch' finds both), and the
// sort. Each row expands to the change itself, before -> after (components/audit/audit-diff.tsx,
// shared with the user log).
// Filters, sort, page and size live in the URL; the route's loader fetches the page they describe.
import { useRouterState } from '@tanstack/react-router';
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { AuditDiff } from '../../components/audit/audit-diff';
import { auditActionLabel, auditEntityLabel, auditOperatorLabel, auditTaskLabel } from '../../components/audit/audit-entry';
import { ScanStatusBadge, SCAN_STATUSES, TaskStatusBadge, type ScanStatus } from '../../components/task-status-badges';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { userLabel, userOptions } from '../../lib/filter-fields';
import type { AppUser, AuditEntry, AuditPage } from './tracking-api';
import { TRACKING_SIZE_OPTIONS, type TrackingAuditSearch } from './tracking-search';

const t = zh.tracking;
const A = t.audit;

export interface TrackingAuditData {
  audits: AuditPage;
  users: AppUser[];
}

export interface TrackingAuditPageProps {
  search: TrackingAuditSearch;
  data: TrackingAuditData;
  onSearch: (next: TrackingAuditSearch) => void;
}

/** A scan record's status as a scan status; a purchased-record entry's (its task's) as a task status. */
function EntryStatus({ entry }: { entry: AuditEntry }): JSX.Element | null {
  if (!entry.status) return null;
  return entry.entity === 'tracking' ? <ScanStatusBadge status={entry.status} /> : <TaskStatusBadge status={entry.status} />;
}

const col = columnHelper<AuditEntry>();
const mono = ({ getValue }: { getValue: () => string | null | undefined }) => <span className="font-mono text-xs break-all">{getValue() ?? ''}</span>;
const renderDiff = (entry: AuditEntry) => <AuditDiff entry={entry} fieldLabels={t.field} />;

export function TrackingAuditPage({ search, data, onSearch }: TrackingAuditPageProps): JSX.Element {
  const loading = useRouterState({ select: (state) => state.isLoading });

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('id', { header: A.id, meta: { className: 'tabular-nums' } }),
        col.accessor('createdAt', { header: A.time, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
        col.display({ id: 'operator', header: A.operator, cell: ({ row }) => auditOperatorLabel(row.original), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('entity', { header: A.entity, cell: ({ getValue }) => auditEntityLabel(getValue()), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('action', { header: A.action, cell: ({ getValue }) => auditActionLabel(getValue()), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('trackingId', { header: A.trackingId, cell: mono, meta: { className: 'max-w-48' } }),
        col.accessor('upc', { header: A.upc, cell: mono }),
        col.accessor('count', { header: A.count, meta: { align: 'right', className: 'tabular-nums' } }),
        col.accessor('itemName', { header: A.itemName, meta: { className: 'min-w-32' } }),
        col.accessor('status', { header: A.statusCol, cell: ({ row }) => <EntryStatus entry={row.original} /> }),
        col.display({ id: 'user', header: A.user, cell: ({ row }) => userLabel(data.users, row.original.userId), meta: { className: 'whitespace-nowrap' } }),
        col.display({ id: 'task', header: A.task, cell: ({ row }) => auditTaskLabel(row.original), meta: { className: 'tabular-nums' } }),
      ]),
    [data.users],
  );

  const filterKey = JSON.stringify({ ...search, page: undefined, size: undefined });
  // Who can appear as the operator of a scan, an upload or an edit: the admin side.
  const operators = useMemo(() => data.users.filter((user) => user.roleType !== 'user'), [data.users]);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminTrackingAudit} />
      <AuditFilters
        key={filterKey}
        search={search}
        operators={operators}
        onApply={(filters) => onSearch({ ...filters, page: 0, size: search.size })}
        onReset={() => onSearch({ isDesc: true, page: 0, size: search.size })}
      />
      <DataTable
        columns={columns}
        data={data.audits.content}
        page={search.page}
        size={search.size}
        totalPages={data.audits.totalPages}
        totalElements={data.audits.totalElements}
        onPageChange={(page) => onSearch({ ...search, page })}
        onSizeChange={(size) => onSearch({ ...search, page: 0, size })}
        sizeOptions={TRACKING_SIZE_OPTIONS}
        renderSubRow={renderDiff}
        loading={loading}
        emptyText={A.empty}
        caption={A.caption}
      />
    </div>
  );
}

// ---------------------------------------------------------------- filters

const SORTS = ['desc', 'asc'] as const;

const filterSchema = v.object({
  trackingId: v.pipe(v.string(), v.trim(), v.maxLength(64)),
  upc: v.pipe(v.string(), v.trim(), v.maxLength(64)),
  opUid: v.union([v.literal(''), v.number()]),
  status: v.union([v.literal(''), v.picklist(SCAN_STATUSES)]),
  sort: v.picklist(SORTS),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
type Filters = Omit<TrackingAuditSearch, 'page' | 'size'>;

const STATUS_OPTIONS = SCAN_STATUSES.map((status) => ({ value: status, label: zh.status.scan[status] }));

function AuditFilters({
  search,
  operators,
  onApply,
  onReset,
}: {
  search: TrackingAuditSearch;
  operators: AppUser[];
  onApply: (filters: Filters) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      trackingId: search.trackingId ?? '',
      upc: search.upc ?? '',
      opUid: search.opUid ?? '',
      status: search.status ?? '',
      sort: search.isDesc ? 'desc' : 'asc',
    },
  });

  function apply(values: FilterValues) {
    onApply({
      trackingId: values.trackingId || undefined,
      upc: values.upc || undefined,
      opUid: values.opUid === '' ? undefined : values.opUid,
      status: values.status === '' ? undefined : values.status,
      isDesc: values.sort === 'desc',
    });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
      <TextField<FilterInput, 'trackingId'> name="trackingId" label={A.trackingId} type="search" maxLength={64} autoComplete="off" />
      <TextField<FilterInput, 'upc'> name="upc" label={A.upc} type="search" maxLength={64} autoComplete="off" />
      <SelectField<FilterInput, 'opUid', number> name="opUid" label={A.operator} options={userOptions(operators)} placeholder={A.allOperators} />
      <SelectField<FilterInput, 'status', ScanStatus> name="status" label={A.status} options={STATUS_OPTIONS} placeholder={A.allStatuses} />
      <SelectField<FilterInput, 'sort', (typeof SORTS)[number]>
        name="sort"
        label={A.sort}
        placeholder={false}
        options={[
          { value: 'desc', label: A.sortDesc },
          { value: 'asc', label: A.sortAsc },
        ]}
      />
    </FilterBar>
  );
}
