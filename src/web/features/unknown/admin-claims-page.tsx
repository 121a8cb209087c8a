// /admin/parcel-claims (decision 169): records members made on parcels that had arrived with nobody's
// record (the claim dialog, the record dialog or an upload), newest first, with the member, task,
// full tracking id, units and where matching and the task stand. The clerk takes these parcels off
// the unknown shelf; an admin undoes a wrong claim (confirmed, audited), which the task machine
// allows until the task is applied for payment (the answer's `undoable`, the machine's canUndoClaim). Filters by
// member and tracking id, page and size live in the URL; on a phone each claim is a card.
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { PurchasedStatusBadge, TaskStatusBadge } from '../../components/task-status-badges';
import { idTextClass } from '../../components/tracking-ids';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { columnHelper, type TableFailure } from '../../components/ui/data-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { toast } from '../../components/ui/toast';
import { useAppContext } from '../../app/app-context';
import { zh } from '../../i18n/zh';
import { userOptions } from '../../lib/filter-fields';
import { filterForm, LIST_SIZE_OPTIONS } from '../../lib/list-search';
import type { AppUser } from '../../lib/users';
import { undoParcelClaim, type ParcelClaim, type ParcelClaimPage } from './unknown-api';
import type { ClaimSearch } from './unknown-search';

const U = zh.unknown;
const C = U.col;
const col = columnHelper<ParcelClaim>();

export interface AdminClaimsPageProps {
  search: ClaimSearch;
  result: ParcelClaimPage;
  users: AppUser[];
  /** Admin only (the undo call's role): lowerAdmins read the list. */
  mayUndo: boolean;
  loading?: boolean;
  failure?: TableFailure | null;
  onSearch: (next: ClaimSearch) => void;
  /** After an undo: the route loads the page again. */
  onChanged: () => void;
}

export function AdminClaimsPage({ search, result, users, mayUndo, loading = false, failure = null, onSearch, onChanged }: AdminClaimsPageProps): JSX.Element {
  const { api } = useAppContext();
  const columns = useMemo(() => {
    async function undo(claim: ParcelClaim) {
      const shown = claim.typedTrackingId ?? claim.trackingId;
      if (!(await confirmDialog(U.undoConfirm(shown, claim.nickName), { danger: true, okText: U.undo }))) return;
      const outcome = await undoParcelClaim(api, claim.id);
      if (outcome.ok) toast.success(outcome.msg);
      else toast.error(outcome.msg || U.undoFailed);
      onChanged();
    }
    return claimColumns(mayUndo ? undo : null);
  }, [api, mayUndo, onChanged]);
  const filters = filterForm(search, onSearch, {});
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminParcelClaims} description={U.adminIntro} />
      <ClaimFilters key={filters.key} search={search} users={users} onApply={filters.onApply} onReset={filters.onReset} />
      <PagedTable
        columns={columns}
        search={search}
        result={result}
        onSearch={onSearch}
        sizeOptions={LIST_SIZE_OPTIONS}
        loading={loading}
        failure={failure}
        cards
        emptyText={U.adminEmpty}
        caption={U.adminCaption}
      />
    </div>
  );
}

/** The list's columns; `undo` (admin only) adds the undo button where the task machine allows it. */
function claimColumns(undo: ((claim: ParcelClaim) => Promise<void>) | null) {
  return col.columns([
    col.accessor('claimedAt', { header: C.claimedAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
    col.display({
      id: 'trackingId',
      header: C.fullTrackingId,
      cell: ({ row }) => <span className={idTextClass}>{row.original.typedTrackingId ?? row.original.trackingId}</span>,
      meta: { card: 'title' },
    }),
    col.display({
      id: 'member',
      header: C.member,
      cell: ({ row }) => (
        <span className="flex flex-col">
          <span>{row.original.nickName}</span>
          <span className="text-xs text-slate-500">{row.original.mailAddr}</span>
        </span>
      ),
      meta: { className: 'whitespace-nowrap' },
    }),
    col.accessor('taskDisplayId', { header: C.task, meta: { className: 'whitespace-nowrap tabular-nums' } }),
    col.accessor('itemName', { header: C.itemName, meta: { className: 'min-w-32 break-words' } }),
    col.accessor('productCount', { header: C.count, meta: { align: 'right', className: 'tabular-nums' } }),
    col.display({
      id: 'status',
      header: C.recordStatus,
      cell: ({ row }) => <PurchasedStatusBadge record={row.original} />,
      meta: { card: 'badge' },
    }),
    col.display({ id: 'taskStatus', header: C.taskStatus, cell: ({ row }) => <TaskStatusBadge status={row.original.taskStatus} /> }),
    ...(undo
      ? [
          col.display({
            id: 'actions',
            header: C.actions,
            cell: ({ row }) =>
              row.original.undoable ? (
                <Button
                  variant="link"
                  aria-label={U.undoNamed(row.original.typedTrackingId ?? row.original.trackingId)}
                  onClick={() => void undo(row.original)}
                >
                  {U.undo}
                </Button>
              ) : (
                <span className="text-xs text-slate-500">{U.undoLocked}</span>
              ),
            meta: { className: 'whitespace-nowrap', card: 'actions' as const },
          }),
        ]
      : []),
  ]);
}

const filterSchema = v.object({
  userId: v.union([v.literal(''), v.number()]),
  trackingId: v.pipe(v.string(), v.trim(), v.maxLength(64)),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;

function ClaimFilters({
  search,
  users,
  onApply,
  onReset,
}: {
  search: ClaimSearch;
  users: AppUser[];
  onApply: (filters: Omit<ClaimSearch, 'page' | 'size'>) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, { defaultValues: { userId: search.userId ?? '', trackingId: search.trackingId ?? '' } });
  const apply = (values: FilterValues) => onApply({ userId: values.userId === '' ? undefined : values.userId, trackingId: values.trackingId || undefined });
  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-3">
      <SelectField<FilterInput, 'userId', number> name="userId" label={U.filter.member} options={userOptions(users)} placeholder={U.filter.allMembers} />
      <TextField<FilterInput, 'trackingId'> name="trackingId" label={U.filter.trackingId} placeholder={U.filter.trackingIdHint} autoComplete="off" />
    </FilterBar>
  );
}
