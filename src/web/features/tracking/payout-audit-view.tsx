// /admin/tracking-audit?log=payout, the admin log's payout view (decision 168; decision 052 writes
// the entries): who read whose payout details, when and which withdraw line, masked as it was read.
// A reveal (收款信息) is one entry; a downloaded payment file is one entry per line. Filters: the
// kind (action), the admin, the member and the days (in this browser's offset), and the sort; they
// live in the URL with the scan view's (tracking-search.ts). Admin only, like the reads it lists.
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { paymentTypeLabel } from '../../../../machines/bank-card';
import { columnHelper } from '../../components/ui/data-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime, formatMoney } from '../../components/ui/format';
import { PagedTable } from '../../components/ui/paged-table';
import { zh } from '../../i18n/zh';
import { userOptions } from '../../lib/filter-fields';
import { filterForm, isDay } from '../../lib/list-search';
import { offsetLabel, timezoneOffsetHours } from '../../lib/timezone';
import type { AppUser, PayoutAuditEntry, PayoutAuditPage } from './tracking-api';
import { PAYOUT_ACTIONS, TRACKING_SIZE_OPTIONS, type PayoutAction, type TrackingAuditSearch } from './tracking-search';
import { useReloading } from '../../navigation/use-reloading';

const P = zh.tracking.payoutAudit;
const C = P.column;
const col = columnHelper<PayoutAuditEntry>();

const actionLabel = (action: PayoutAction) => zh.audit.action[action] ?? action;
const nameOf = (name: string | undefined, id: number | null) => name ?? (id === null ? '' : `#${id}`);

const COLUMNS = col.columns([
  col.accessor('createdAt', {
    header: C.time,
    cell: ({ getValue }) => formatDateTime(getValue()),
    meta: { className: 'whitespace-nowrap tabular-nums', card: 'title' },
  }),
  col.accessor('action', { header: C.action, cell: ({ getValue }) => actionLabel(getValue()), meta: { className: 'whitespace-nowrap', card: 'badge' } }),
  col.display({ id: 'admin', header: C.admin, cell: ({ row }) => nameOf(row.original.opName, row.original.opUid) }),
  col.display({ id: 'member', header: C.member, cell: ({ row }) => nameOf(row.original.userName, row.original.userId) }),
  col.accessor('lineId', { header: C.lineId, meta: { className: 'tabular-nums' } }),
  col.accessor('orderId', { header: C.orderId, meta: { className: 'tabular-nums' } }),
  col.accessor('paymentType', { header: C.paymentType, cell: ({ getValue }) => paymentTypeLabel(getValue()) }),
  col.accessor('accountName', { header: C.accountName, meta: { className: 'font-mono text-xs' } }),
  col.accessor('cardNo', { header: C.cardNo, meta: { className: 'font-mono text-xs' } }),
  col.accessor('withdrawAmount', {
    header: C.amount,
    cell: ({ getValue }) => formatMoney(getValue()),
    meta: { align: 'right', className: 'tabular-nums' },
  }),
]);

export interface PayoutAuditViewProps {
  search: TrackingAuditSearch;
  audits: PayoutAuditPage;
  users: AppUser[];
  onSearch: (next: TrackingAuditSearch) => void;
}

export function PayoutAuditView({ search, audits, users, onSearch }: PayoutAuditViewProps): JSX.Element {
  const loading = useReloading();
  const form = filterForm(search, onSearch, { log: 'payout', isDesc: true });
  const admins = useMemo(() => users.filter((u) => u.roleType === 'admin'), [users]);
  const members = useMemo(() => users.filter((u) => u.roleType === 'user'), [users]);
  return (
    <>
      <p className="text-sm text-slate-600">{P.intro}</p>
      <PayoutFilters key={form.key} search={search} admins={admins} members={members} onApply={form.onApply} onReset={form.onReset} />
      <PagedTable
        columns={COLUMNS}
        search={search}
        result={audits}
        onSearch={onSearch}
        sizeOptions={TRACKING_SIZE_OPTIONS}
        loading={loading}
        emptyText={P.empty}
        caption={P.caption}
        cards
        dense
      />
    </>
  );
}

// ---------------------------------------------------------------- filters

const SORTS = ['desc', 'asc'] as const;
const day = v.pipe(
  v.string(),
  v.trim(),
  v.check((text) => text === '' || isDay(text), P.dateInvalid),
);
const filterSchema = v.pipe(
  v.object({
    action: v.union([v.literal(''), v.picklist(PAYOUT_ACTIONS)]),
    opUid: v.union([v.literal(''), v.number()]),
    userId: v.union([v.literal(''), v.number()]),
    startTime: day,
    endTime: day,
    sort: v.picklist(SORTS),
  }),
  v.forward(
    v.partialCheck([['startTime'], ['endTime']], ({ startTime, endTime }) => !startTime || !endTime || startTime <= endTime, P.endBeforeStart),
    ['endTime'],
  ),
);
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
const ACTION_OPTIONS = PAYOUT_ACTIONS.map((action) => ({ value: action, label: actionLabel(action) }));

function PayoutFilters({
  search,
  admins,
  members,
  onApply,
  onReset,
}: {
  search: TrackingAuditSearch;
  admins: AppUser[];
  members: AppUser[];
  onApply: (filters: Omit<TrackingAuditSearch, 'page' | 'size'>) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      action: search.action ?? '',
      opUid: search.opUid ?? '',
      userId: search.userId ?? '',
      startTime: search.startTime ?? '',
      endTime: search.endTime ?? '',
      sort: search.isDesc ? 'desc' : 'asc',
    },
  });
  const apply = (values: FilterValues) =>
    onApply({
      log: 'payout',
      action: values.action === '' ? undefined : values.action,
      opUid: values.opUid === '' ? undefined : values.opUid,
      userId: values.userId === '' ? undefined : values.userId,
      startTime: values.startTime || undefined,
      endTime: values.endTime || undefined,
      isDesc: values.sort === 'desc',
    });
  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
      <SelectField<FilterInput, 'action', PayoutAction> name="action" label={P.action} options={ACTION_OPTIONS} placeholder={P.allActions} />
      <SelectField<FilterInput, 'opUid', number> name="opUid" label={P.admin} options={userOptions(admins)} placeholder={P.allAdmins} />
      <SelectField<FilterInput, 'userId', number> name="userId" label={P.member} options={userOptions(members)} placeholder={P.allMembers} />
      <TextField<FilterInput, 'startTime'>
        name="startTime"
        label={P.startTime}
        type="date"
        hint={zh.tracking.list.timezoneHint(offsetLabel(timezoneOffsetHours()))}
      />
      <TextField<FilterInput, 'endTime'> name="endTime" label={P.endTime} type="date" />
      <SelectField<FilterInput, 'sort', (typeof SORTS)[number]>
        name="sort"
        label={zh.audit.sort}
        placeholder={false}
        options={[
          { value: 'desc', label: zh.audit.sortDesc },
          { value: 'asc', label: zh.audit.sortAsc },
        ]}
      />
    </FilterBar>
  );
}
