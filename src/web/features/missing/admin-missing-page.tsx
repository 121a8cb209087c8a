// /admin/missing-parcels (decision 077): every member's tracking ids recorded more than the setting's
// days ago that no scan has seen, oldest first, with the member, carrier, age, task and the
// member's note and lost report; filtered by member, state and tracking id (the canonical key
// contains what is typed). Filters, page and size live in the URL; the route's loader reads the
// page they describe (skeletons while it does, the failure in the table's place).
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import type { TableFailure } from '../../components/ui/data-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { zh } from '../../i18n/zh';
import { userOptions } from '../../lib/filter-fields';
import { filterForm, LIST_SIZE_OPTIONS } from '../../lib/list-search';
import type { AppUser } from '../../lib/users';
import type { MissingParcelPage } from './missing-api';
import { missingCol, missingColumns } from './missing-columns';
import { MISSING_STATES, type AdminMissingSearch, type MissingState } from './missing-search';

const M = zh.missing;
const F = M.filter;

export interface AdminMissingPageProps {
  search: AdminMissingSearch;
  result: MissingParcelPage;
  users: AppUser[];
  loading?: boolean;
  failure?: TableFailure | null;
  onSearch: (next: AdminMissingSearch) => void;
}

const memberColumn = missingCol.display({
  id: 'member',
  header: M.col.member,
  cell: ({ row }) => (
    <span className="flex flex-col">
      <span>{row.original.nickName ?? `#${row.original.userId}`}</span>
      {row.original.mailAddr && <span className="text-xs text-slate-500">{row.original.mailAddr}</span>}
    </span>
  ),
  meta: { className: 'whitespace-nowrap' },
});

export function AdminMissingPage({ search, result, users, loading = false, failure = null, onSearch }: AdminMissingPageProps): JSX.Element {
  const columns = useMemo(() => missingColumns({ afterTracking: [memberColumn] }), []);
  const filters = filterForm(search, onSearch, {});
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminMissingParcels} description={M.adminIntro(result.days)} />
      <MissingFilters key={filters.key} search={search} users={users} onApply={filters.onApply} onReset={filters.onReset} />
      <PagedTable
        columns={columns}
        search={search}
        result={result}
        onSearch={onSearch}
        sizeOptions={LIST_SIZE_OPTIONS}
        loading={loading}
        failure={failure}
        cards
        emptyText={M.empty}
        caption={M.caption}
      />
    </div>
  );
}

const filterSchema = v.object({
  userId: v.union([v.literal(''), v.number()]),
  state: v.union([v.literal(''), v.picklist(MISSING_STATES)]),
  trackingId: v.pipe(v.string(), v.trim(), v.maxLength(64)),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;

const STATE_OPTIONS = MISSING_STATES.map((state) => ({ value: state, label: M.state[state] }));

function MissingFilters({
  search,
  users,
  onApply,
  onReset,
}: {
  search: AdminMissingSearch;
  users: AppUser[];
  onApply: (filters: Omit<AdminMissingSearch, 'page' | 'size'>) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: { userId: search.userId ?? '', state: search.state ?? '', trackingId: search.trackingId ?? '' },
  });
  function apply(values: FilterValues) {
    onApply({
      userId: values.userId === '' ? undefined : values.userId,
      state: values.state === '' ? undefined : values.state,
      trackingId: values.trackingId || undefined,
    });
  }
  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-4">
      <SelectField<FilterInput, 'userId', number> name="userId" label={F.member} options={userOptions(users)} placeholder={F.allMembers} />
      <SelectField<FilterInput, 'state', MissingState> name="state" label={F.state} options={STATE_OPTIONS} placeholder={F.allStates} />
      <TextField<FilterInput, 'trackingId'> name="trackingId" label={F.trackingId} placeholder={F.trackingIdHint} autoComplete="off" />
    </FilterBar>
  );
}
