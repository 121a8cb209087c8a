// /user/my-task (SPEC §2): the member's claimed tasks. Status filter (all, open, locked, unmatch) and
// search (item name, tracking id, task id), a paged table with each row's actions as the task
// machine allows them (member-task-actions.tsx), and the Excel export of what the filters select.
// The payment application (apply dialog, or 'already applied') belongs to the payments feature: the
// route hands it in as `rowExtra` (a feature does not import another feature).
// Filters, page and size live in the URL: this page reads them from `search` and changes them
// through `onSearch`; the route's loader fetches the page they describe.
import { Link, useRouter } from '@tanstack/react-router';
import { createContext, useContext, type JSX, type ReactNode } from 'react';
import * as v from 'valibot';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { TrackingIds } from '../../components/tracking-ids';
import { Button } from '../../components/ui/button';
import { columnHelper } from '../../components/ui/data-table';
import { PagedTable } from '../../components/ui/paged-table';
import { formatDateTime, formatMoney } from '../../components/ui/format';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { textLinkClass } from '../../components/ui/link-classes';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { useDownload } from '../../navigation/use-download';
import { ACTION_COLUMN_CLASS, MemberTaskActionCell, MemberTaskActionsScope } from './member-task-actions';
import { MY_TASK_STATUS_FILTERS, parseTaskIdSearch, type MyTaskSearch, type MyTaskStatusFilter } from './my-task-search';
import { taskDisplayId } from './task-actions';
import { userTaskExcelUrl, type Task, type TaskPage } from './tasks-api';

const t = zh.tasks;

const STATUS_FILTER_LABEL: Record<MyTaskStatusFilter, string> = {
  all: t.statusAll,
  open: zh.status.task.open,
  locked: zh.status.task.locked,
  unmatch: zh.status.task.unmatch,
};

/** What another feature adds to every row and around the table; the route composes it (the payment application). */
export interface MyTaskRowExtra {
  /** Wraps the table, given the page's tasks and a reload of the page. */
  scope: (tasks: readonly Task[], onChanged: () => void, table: ReactNode) => ReactNode;
  /** Shown after the row's own actions. */
  cell: (task: Task) => ReactNode;
}

// The extra cell reaches the module-scope columns through a context, as the action cells do.
const RowExtraCell = createContext<MyTaskRowExtra['cell']>(() => null);

function ExtraCell({ task }: { task: Task }): ReactNode {
  return useContext(RowExtraCell)(task);
}

const money = { cell: ({ getValue }: { getValue: () => number | null }) => formatMoney(getValue()), meta: { align: 'right' as const } };

const col = columnHelper<Task>();
const columns = col.columns([
  col.display({ id: 'taskId', header: t.colTaskId, cell: ({ row }) => taskDisplayId(row.original), meta: { className: 'whitespace-nowrap tabular-nums' } }),
  col.display({
    id: 'board',
    header: t.colBoard,
    cell: ({ row }) => {
      const { boardUuid, boardName, boardId } = row.original;
      const name = boardName ?? `#${boardId}`;
      return boardUuid ? (
        <Link to="/user/board/$uuid" params={{ uuid: boardUuid }} className={textLinkClass}>
          {name}
        </Link>
      ) : (
        name
      );
    },
    meta: { className: 'min-w-28' },
  }),
  col.accessor('itemName', { header: t.colItemName, meta: { className: 'min-w-40' } }),
  col.accessor('upc', { header: t.colUpc, cell: ({ getValue }) => <span className="font-mono text-xs">{getValue()}</span> }),
  col.accessor('count', { header: t.colCount, meta: { align: 'right' } }),
  col.accessor('productCount', { header: t.colProductCount, meta: { align: 'right' } }),
  col.accessor('price', { header: t.colPrice, ...money }),
  col.accessor('buyIn', { header: t.colBuyIn, ...money }),
  col.accessor('bonus', { header: t.colBonus, ...money }),
  col.accessor('punish', { header: t.colDiscount, ...money }),
  col.accessor('status', { header: t.colStatus, cell: ({ getValue }) => <TaskStatusBadge status={getValue()} /> }),
  col.accessor('trackingId', { header: t.colTrackingId, cell: ({ getValue }) => <TrackingIds value={getValue()} /> }),
  col.accessor('createdAt', { header: t.colCreatedAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
  col.display({
    id: 'actions',
    header: t.colActions,
    cell: ({ row }) => (
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <MemberTaskActionCell task={row.original} />
        <ExtraCell task={row.original} />
      </div>
    ),
    meta: { className: ACTION_COLUMN_CLASS },
  }),
]);

export interface MyTaskPageProps {
  search: MyTaskSearch;
  result: TaskPage;
  loading?: boolean;
  onSearch: (next: MyTaskSearch) => void;
  rowExtra?: MyTaskRowExtra;
}

export function MyTaskPage({ search, result, loading = false, onSearch, rowExtra }: MyTaskPageProps): JSX.Element {
  const router = useRouter();
  const { api } = useAppContext();
  const { busy: exporting, download } = useDownload();

  const exportExcel = () => download(() => userTaskExcelUrl(api, search));
  const reload = () => void router.invalidate();
  const table = <PagedTable columns={columns} search={search} result={result} onSearch={onSearch} loading={loading} caption={t.caption} />;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.userMyTask}
        actions={
          <Button variant="secondary" loading={exporting} onClick={() => void exportExcel()}>
            {t.exportExcel}
          </Button>
        }
      />
      <TaskFilters search={search} onApply={(filters) => onSearch({ ...filters, page: 0, size: search.size })} />
      <MemberTaskActionsScope onChanged={reload}>
        {rowExtra ? <RowExtraCell.Provider value={rowExtra.cell}>{rowExtra.scope(result.content, reload, table)}</RowExtraCell.Provider> : table}
      </MemberTaskActionsScope>
    </div>
  );
}

const filterSchema = v.object({
  status: v.picklist(MY_TASK_STATUS_FILTERS),
  itemName: v.pipe(v.string(), v.trim()),
  trackingId: v.pipe(v.string(), v.trim()),
  taskId: v.pipe(
    v.string(),
    v.check((text) => !Number.isNaN(parseTaskIdSearch(text) ?? 0), t.taskIdInvalid),
  ),
});
type FilterValues = v.InferOutput<typeof filterSchema>;

const EMPTY_FILTERS: FilterValues = { status: 'all', itemName: '', trackingId: '', taskId: '' };

type Filters = Pick<MyTaskSearch, 'status' | 'itemName' | 'trackingId' | 'taskId'>;

function toFilters(values: FilterValues): Filters {
  return {
    status: values.status,
    itemName: values.itemName || undefined,
    trackingId: values.trackingId || undefined,
    taskId: parseTaskIdSearch(values.taskId),
  };
}

function TaskFilters({ search, onApply }: { search: MyTaskSearch; onApply: (filters: Filters) => void }): JSX.Element {
  // `values` follows the URL (back / forward, a sidebar click) without remounting the form.
  const form = useValibotForm(filterSchema, {
    values: {
      status: search.status,
      itemName: search.itemName ?? '',
      trackingId: search.trackingId ?? '',
      taskId: search.taskId === undefined ? '' : String(search.taskId),
    },
  });
  return (
    <FilterBar
      form={form}
      onSubmit={(values) => onApply(toFilters(values))}
      onReset={() => {
        form.reset(EMPTY_FILTERS);
        onApply(toFilters(EMPTY_FILTERS));
      }}
      layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-[9rem_minmax(10rem,1fr)_minmax(10rem,1fr)_10rem_auto]"
    >
      <SelectField<FilterValues, 'status', MyTaskStatusFilter>
        name="status"
        label={t.status}
        options={MY_TASK_STATUS_FILTERS.map((value) => ({ value, label: STATUS_FILTER_LABEL[value] }))}
        placeholder={false}
      />
      <TextField<FilterValues, 'itemName'> name="itemName" label={t.itemName} type="search" maxLength={256} autoComplete="off" />
      <TextField<FilterValues, 'trackingId'> name="trackingId" label={t.trackingId} type="search" maxLength={64} autoComplete="off" />
      <TextField<FilterValues, 'taskId'> name="taskId" label={t.taskId} placeholder={t.taskIdHint} autoComplete="off" />
    </FilterBar>
  );
}
