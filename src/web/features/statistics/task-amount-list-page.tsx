// /admin/task-amount-list (SPEC §2, §7 listTaskAmounts, §9 dates YYYY-MM-DD with the timezone
// offset in hours): the order amounts per member (src/server/money/statistics.ts says what counts).
// Filters: the ascending switch, the sort field (user id or amount), the user, the start and end
// date (days in this browser's timezone, whose offset goes with the call), and reset. A paged table
// (20 a page) of userId, nickName, mailAddr and amount (two decimals) with row selection; the Excel
// export holds the selected users (userIds comma-joined; the selection is kept across pages and
// cleared when the filters change) or, when none is selected, every row the filters select.
// Filters, page and size live in the URL: this page reads them from `search` and changes them
// through `onSearch`; the route's loader fetches the page they describe.
import { useState, type JSX } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { columnHelper, type RowSelectionState } from '../../components/ui/data-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { Checkbox, SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatMoney } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { PagedTable, type PageResult } from '../../components/ui/paged-table';
import { zh } from '../../i18n/zh';
import { userOptions } from '../../lib/filter-fields';
import { isDay, filterForm } from '../../lib/list-search';
import { offsetLabel, timezoneOffsetHours } from '../../lib/timezone';
import { useAppContext } from '../../app/app-context';
import { useDownload } from '../../navigation/use-download';
import { taskAmountExcelUrl, type AppUser, type TaskAmount } from './task-amount-api';
import {
  ORDER_ITEMS,
  TASK_AMOUNT_SEARCH_DEFAULTS,
  TASK_AMOUNT_SIZE_OPTIONS,
  taskAmountFilters,
  type OrderItem,
  type TaskAmountSearch,
} from './task-amount-search';
import { useReloading } from '../../navigation/use-reloading';

const t = zh.statistics;

export interface TaskAmountListData {
  amounts: PageResult<TaskAmount>;
  users: AppUser[];
}

export interface TaskAmountListPageProps {
  search: TaskAmountSearch;
  data: TaskAmountListData;
  onSearch: (next: TaskAmountSearch) => void;
}

const col = columnHelper<TaskAmount>();
const columns = col.columns([
  col.accessor('userId', { header: t.col.userId, meta: { className: 'tabular-nums' } }),
  col.accessor('nickName', { header: t.col.nickName }),
  col.accessor('mailAddr', { header: t.col.mailAddr, meta: { className: 'break-all' } }),
  col.accessor('amount', { header: t.col.amount, cell: ({ getValue }) => formatMoney(getValue()), meta: { align: 'right', className: 'tabular-nums' } }),
]);

const rowId = (row: TaskAmount) => row.userId;

/** The selected user ids, ascending. */
export function selectedUserIds(selection: RowSelectionState): number[] {
  return Object.entries(selection)
    .filter(([, selected]) => selected)
    .map(([id]) => Number(id))
    .sort((a, b) => a - b);
}

export function TaskAmountListPage({ search, data, onSearch }: TaskAmountListPageProps): JSX.Element {
  const { api } = useAppContext();
  const loading = useReloading();
  const { busy: exporting, download } = useDownload();

  // A new URL (back button, a link) re-seeds the filter form; new filters drop the selection.
  const filters = filterForm(search, onSearch, TASK_AMOUNT_SEARCH_DEFAULTS);
  const filterKey = filters.key;
  const [selectionOf, setSelectionOf] = useState<{ key: string; rows: RowSelectionState }>({ key: filterKey, rows: {} });
  const selection = selectionOf.key === filterKey ? selectionOf.rows : {};
  const selected = selectedUserIds(selection);

  const exportExcel = () => download(() => taskAmountExcelUrl(api, taskAmountFilters(search), selected));

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.adminTaskAmountList}
        description={selected.length > 0 ? t.selected(selected.length) : t.noneSelected}
        actions={
          <>
            {selected.length > 0 && (
              <Button variant="secondary" onClick={() => setSelectionOf({ key: filterKey, rows: {} })}>
                {t.clearSelection}
              </Button>
            )}
            <Button variant="secondary" loading={exporting} onClick={() => void exportExcel()}>
              {selected.length > 0 ? t.exportSelected(selected.length) : t.exportExcel}
            </Button>
          </>
        }
      />
      <AmountFilters key={filterKey} search={search} users={data.users} onApply={filters.onApply} onReset={filters.onReset} />
      <PagedTable
        columns={columns}
        search={search}
        result={data.amounts}
        onSearch={onSearch}
        sizeOptions={TASK_AMOUNT_SIZE_OPTIONS}
        loading={loading}
        rowId={rowId}
        rowSelection={selection}
        onRowSelectionChange={(rows) => setSelectionOf({ key: filterKey, rows })}
        emptyText={t.empty}
        caption={t.caption}
      />
    </div>
  );
}

// ---------------------------------------------------------------- filters

const day = v.pipe(
  v.string(),
  v.trim(),
  v.check((text) => text === '' || isDay(text), t.dateInvalid),
);

const filterSchema = v.pipe(
  v.object({
    isAsc: v.boolean(),
    orderItem: v.picklist(ORDER_ITEMS),
    userId: v.union([v.literal(''), v.number()]),
    startTime: day,
    endTime: day,
  }),
  v.forward(
    v.partialCheck([['startTime'], ['endTime']], ({ startTime, endTime }) => !startTime || !endTime || startTime <= endTime, t.endBeforeStart),
    ['endTime'],
  ),
);
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
type Filters = Omit<TaskAmountSearch, 'page' | 'size'>;

const ORDER_OPTIONS = ORDER_ITEMS.map((value) => ({ value, label: t.orderBy[value] }));

function AmountFilters({
  search,
  users,
  onApply,
  onReset,
}: {
  search: TaskAmountSearch;
  users: AppUser[];
  onApply: (filters: Filters) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      isAsc: search.isAsc,
      orderItem: search.orderItem,
      userId: search.userId ?? '',
      startTime: search.startTime ?? '',
      endTime: search.endTime ?? '',
    },
  });

  function apply(values: FilterValues) {
    onApply({
      isAsc: values.isAsc,
      orderItem: values.orderItem,
      userId: values.userId === '' ? undefined : values.userId,
      startTime: values.startTime || undefined,
      endTime: values.endTime || undefined,
    });
  }

  const zone = t.timezoneHint(offsetLabel(timezoneOffsetHours()));
  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-6">
      <Checkbox<FilterInput, 'isAsc'> name="isAsc" label={t.isAsc} className="sm:pt-7" />
      <SelectField<FilterInput, 'orderItem', OrderItem> name="orderItem" label={t.orderItem} options={ORDER_OPTIONS} placeholder={false} />
      <SelectField<FilterInput, 'userId', number> name="userId" label={t.user} options={userOptions(users)} placeholder={t.allUsers} />
      <TextField<FilterInput, 'startTime'> name="startTime" label={t.startTime} type="date" hint={zone} />
      <TextField<FilterInput, 'endTime'> name="endTime" label={t.endTime} type="date" />
    </FilterBar>
  );
}
