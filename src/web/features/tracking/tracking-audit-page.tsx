// /admin/tracking-audit, the admin log (SPEC §2, §3 Audit entries; DECISIONS "Receiving and
// matching": every scan, match, upload and record change writes who, when, what, before and after):
// the entries of GET /api/audit/tracking/list, scan records ('tracking') and members' purchased
// records ('purchased'), with the filters the contract offers: trackingId, upc, operator (opUid:
// the admins and lower admins) and status (a scan status: the scan record's status after the
// change; a purchased-record entry carries its task's status, so 'unmatch' finds both), and the
// sort. Each row expands to the change itself, before -> after (components/audit/, shared with the
// user log).
// Filters, sort, page and size live in the URL; the route's loader fetches the page they describe.
// An admin also has the payout view (?log=payout, decision 168: payout-audit-view.tsx), chosen by
// two tabs; a lowerAdmin, who cannot read payout details, sees the scan log alone.
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { auditColumn, auditColumns } from '../../components/audit/audit-columns';
import { auditFilterSchema, AuditTable, type AuditFilterForm } from '../../components/audit/audit-table';
import { SCAN_STATUSES, type ScanStatus } from '../../../../machines/scan-record.machine';
import { ScanStatusBadge, TaskStatusBadge } from '../../components/task-status-badges';
import { SelectField, TextField } from '../../components/ui/form';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { userOptions } from '../../lib/filter-fields';
import { Link } from '@tanstack/react-router';
import type { AppUser, AuditEntry, AuditPage, PayoutAuditPage } from './tracking-api';
import { PayoutAuditView } from './payout-audit-view';
import { TRACKING_SIZE_OPTIONS, type TrackingAuditSearch } from './tracking-search';
import { useReloading } from '../../navigation/use-reloading';

const t = zh.tracking;
const A = t.audit;

export interface TrackingAuditData {
  audits: AuditPage;
  users: AppUser[];
  /** The payout view's page (admin, ?log=payout); absent otherwise. */
  payouts?: PayoutAuditPage;
}

export interface TrackingAuditPageProps {
  search: TrackingAuditSearch;
  data: TrackingAuditData;
  onSearch: (next: TrackingAuditSearch) => void;
  /** Whether the payout view is offered (admin only). */
  payoutView?: boolean;
}

/** A scan record's status as a scan status; a purchased-record entry's (its task's) as a task status. */
function EntryStatus({ entry }: { entry: AuditEntry }): JSX.Element | null {
  if (!entry.status) return null;
  return entry.entity === 'tracking' ? <ScanStatusBadge status={entry.status} /> : <TaskStatusBadge status={entry.status} />;
}

export function TrackingAuditPage({ search, data, onSearch, payoutView = false }: TrackingAuditPageProps): JSX.Element {
  const payout = payoutView && search.log === 'payout' && data.payouts !== undefined;
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminTrackingAudit} />
      {payoutView && <LogTabs payout={payout} />}
      {payout ? (
        <PayoutAuditView search={search} audits={data.payouts!} users={data.users} onSearch={onSearch} />
      ) : (
        <ScanAuditView search={search} data={data} onSearch={onSearch} />
      )}
    </div>
  );
}

/** The two views as links (each its own address), the current one marked. */
function LogTabs({ payout }: { payout: boolean }): JSX.Element {
  const tab = (current: boolean) =>
    `rounded-md px-3 py-1.5 text-sm font-medium ${current ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`;
  return (
    <nav aria-label={A.views} className="flex w-fit gap-1 rounded-lg bg-slate-100 p-1">
      <Link to="/admin/tracking-audit" search={{}} className={tab(!payout)} aria-current={payout ? undefined : 'page'}>
        {A.scanView}
      </Link>
      <Link to="/admin/tracking-audit" search={{ log: 'payout' }} className={tab(payout)} aria-current={payout ? 'page' : undefined}>
        {A.payoutView}
      </Link>
    </nav>
  );
}

function ScanAuditView({ search, data, onSearch }: Omit<TrackingAuditPageProps, 'payoutView'>): JSX.Element {
  const loading = useReloading();

  const columns = useMemo(() => {
    const c = auditColumns(data.users);
    return [
      c.id,
      c.time,
      c.operator,
      c.entity,
      c.action,
      c.trackingId,
      c.upc,
      c.count,
      c.itemName,
      auditColumn.accessor('status', { header: zh.audit.column.status, cell: ({ row }) => <EntryStatus entry={row.original} /> }),
      c.user,
      c.task,
    ];
  }, [data.users]);

  // Who can appear as the operator of a scan, an upload or an edit: the admin side.
  const filters = useMemo(() => trackingAuditFilters(data.users.filter((user) => user.roleType !== 'user')), [data.users]);

  return (
    <AuditTable
      search={search}
      onSearch={onSearch}
      audits={data.audits}
      columns={columns}
      fieldLabels={t.field}
      filters={filters}
      sizeOptions={TRACKING_SIZE_OPTIONS}
      loading={loading}
      emptyText={A.empty}
      caption={A.caption}
    />
  );
}

// ---------------------------------------------------------------- filters

const filterSchema = auditFilterSchema({
  trackingId: v.pipe(v.string(), v.trim(), v.maxLength(64)),
  upc: v.pipe(v.string(), v.trim(), v.maxLength(64)),
  opUid: v.union([v.literal(''), v.number()]),
  status: v.union([v.literal(''), v.picklist(SCAN_STATUSES)]),
});
type FilterInput = v.InferInput<typeof filterSchema>;

const STATUS_OPTIONS = SCAN_STATUSES.map((status) => ({ value: status, label: zh.status.scan[status] }));

function trackingAuditFilters(operators: AppUser[]): AuditFilterForm<TrackingAuditSearch, typeof filterSchema> {
  return {
    schema: filterSchema,
    values: (search) => ({
      trackingId: search.trackingId ?? '',
      upc: search.upc ?? '',
      opUid: search.opUid ?? '',
      status: search.status ?? '',
    }),
    toSearch: (values) => ({
      trackingId: values.trackingId || undefined,
      upc: values.upc || undefined,
      opUid: values.opUid === '' ? undefined : values.opUid,
      status: values.status === '' ? undefined : values.status,
    }),
    layout: 'grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6',
    fields: (
      <>
        <TextField<FilterInput, 'trackingId'> name="trackingId" label={A.trackingId} type="search" maxLength={64} autoComplete="off" />
        <TextField<FilterInput, 'upc'> name="upc" label={A.upc} type="search" maxLength={64} autoComplete="off" />
        <SelectField<FilterInput, 'opUid', number> name="opUid" label={A.operator} options={userOptions(operators)} placeholder={A.allOperators} />
        <SelectField<FilterInput, 'status', ScanStatus> name="status" label={A.status} options={STATUS_OPTIONS} placeholder={A.allStatuses} />
      </>
    ),
  };
}
