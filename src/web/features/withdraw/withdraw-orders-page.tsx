// /user/withdraw-orders (SPEC §2): the member's withdraw orders, one row per line
// (listWithdrawOrders): id, order id, holder name, card number, address, amount, user note and
// status. Filters: the sort-by-creation switch, status and order id. SPEC §2: "the status filter is
// not sent in the call", so the call carries the order id and the sort only, and the status picks
// the rows of the page on screen (said under the filter).
// No Excel export here: the withdraw export's download token is for admins only (openapi.yaml
// getExcelDownloadToken x-kind-roles withdraw: [admin]); a member's request would be refused.
// Filters, sort, page and size live in the URL; the route's loader fetches the page (and while it
// does, or when it fails, the route shows this page with skeletons or the failure in the table).
// On a phone each line is a card: amount, status, order, card and note.
import { Link } from '@tanstack/react-router';
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { WITHDRAW_STATUSES, type WithdrawStatus } from '../../../../machines/withdraw.machine';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { secondaryLinkClass } from '../../components/ui/link-classes';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import type { TableFailure } from '../../components/ui/data-table';
import { zh } from '../../i18n/zh';
import { idText, toId } from '../../lib/filter-fields';
import { SwitchField } from './switch-field';
import type { WithdrawRequestPage as LinePage } from './withdraw-api';
import { withdrawCol, withdrawColumn } from './withdraw-columns';
import { WITHDRAW_STATUS_OPTIONS } from './withdraw-rules';
import { WITHDRAW_SIZE_OPTIONS, type WithdrawOrdersSearch } from './withdraw-search';
import { filterForm } from '../../lib/list-search';

const W = zh.withdraw;
const O = W.orders;
const F = W.filter;

export interface WithdrawOrdersPageProps {
  search: WithdrawOrdersSearch;
  orders: LinePage;
  loading?: boolean;
  /** The orders could not be loaded: said in the table's place. */
  failure?: TableFailure | null;
  onSearch: (next: WithdrawOrdersSearch) => void;
}

const columns = withdrawCol.columns([
  withdrawColumn.id,
  withdrawColumn.orderId,
  withdrawColumn.accountName,
  withdrawColumn.cardNo,
  withdrawColumn.address,
  withdrawColumn.withdrawAmount,
  withdrawColumn.userNote,
  withdrawColumn.status,
]);

export function WithdrawOrdersPage({ search, orders, loading = false, failure = null, onSearch }: WithdrawOrdersPageProps): JSX.Element {
  // The status is not sent (SPEC §2): it filters the rows of this page.
  const shown = useMemo(
    () => (search.status === undefined ? orders : { ...orders, content: orders.content.filter((row) => row.status === search.status) }),
    [orders, search.status],
  );
  const filters = filterForm(search, onSearch);
  const filterKey = filters.key;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.userWithdrawOrders}
        actions={
          <Link to="/user/withdraw-request" className={secondaryLinkClass}>
            {O.backToRequests}
          </Link>
        }
      />
      <OrdersFilters key={filterKey} search={search} onApply={filters.onApply} onReset={filters.onReset} />
      <PagedTable
        columns={columns}
        search={search}
        result={shown}
        onSearch={onSearch}
        sizeOptions={WITHDRAW_SIZE_OPTIONS}
        loading={loading}
        failure={failure}
        cards
        emptyText={O.empty}
        caption={O.caption}
      />
    </div>
  );
}

const filterSchema = v.object({
  isDesc: v.boolean(),
  status: v.union([v.literal(''), v.picklist(WITHDRAW_STATUSES)]),
  orderId: idText(F.idInvalid),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
type Filters = Omit<WithdrawOrdersSearch, 'page' | 'size'>;

function OrdersFilters({ search, onApply, onReset }: { search: WithdrawOrdersSearch; onApply: (filters: Filters) => void; onReset: () => void }): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: { isDesc: search.isDesc, status: search.status ?? '', orderId: search.orderId === undefined ? '' : String(search.orderId) },
  });

  function apply(values: FilterValues) {
    onApply({ isDesc: values.isDesc, status: values.status === '' ? undefined : values.status, orderId: toId(values.orderId) });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-4">
      <SwitchField<FilterInput, 'isDesc'> name="isDesc" label={F.isDesc} />
      <SelectField<FilterInput, 'status', WithdrawStatus>
        name="status"
        label={F.status}
        options={WITHDRAW_STATUS_OPTIONS}
        placeholder={F.allStatuses}
        hint={O.statusHint}
      />
      <TextField<FilterInput, 'orderId'> name="orderId" label={F.orderId} inputMode="numeric" autoComplete="off" />
    </FilterBar>
  );
}
