// /user/my-task (SPEC §2): the member's claimed tasks. Status filter and search, the page's tasks
// with each row's actions as the task machine allows them (member-task-actions.tsx), each tracking
// id's arrival at a glance (tracking-arrivals.tsx), the bonuses asked and agreed, the paste box for
// many tracking ids (bulk-records.tsx) and the Excel export. On a desktop a table that fits 1400 px
// without scrolling; below the md breakpoint a card per task (decision 106). The payment
// application belongs to the payments feature: the route hands it in as `rowExtra`. Filters, page
// and size live in the URL: read from `search`, changed through `onSearch`.
import { Link, useRouter } from '@tanstack/react-router';
import { createContext, useContext, useState, type JSX, type ReactNode } from 'react';
import * as v from 'valibot';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { Button } from '../../components/ui/button';
import { columnHelper } from '../../components/ui/data-table';
import { PagedTable } from '../../components/ui/paged-table';
import { Pager } from '../../components/ui/pager';
import { formatDateTime, formatMoney } from '../../components/ui/format';
import { FilterBar } from '../../components/ui/filter-bar';
import { Checkbox, SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { textLinkClass } from '../../components/ui/link-classes';
import { PageHeader } from '../../components/ui/page';
import { UI_TEXT } from '../../components/ui/ui-text';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { useMediaQuery, WIDE_SCREEN_QUERY } from '../../lib/use-media-query';
import { useDownload } from '../../navigation/use-download';
import { BulkRecordsDialog } from './bulk-records';
import { ACTION_COLUMN_CLASS, MemberTaskActionCell, MemberTaskActionsScope } from './member-task-actions';
import { MY_TASK_STATUS_FILTERS, parseTaskIdSearch, type MyTaskFilters, type MyTaskSearch, type MyTaskStatusFilter } from './my-task-search';
import { taskDisplayId } from './task-actions';
import { TrackingArrivals } from './tracking-arrivals';
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

function RowActions({ task }: { task: Task }): JSX.Element {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <MemberTaskActionCell task={task} />
      <ExtraCell task={task} />
    </div>
  );
}

function BoardLink({ task, className = '' }: { task: Task; className?: string }): JSX.Element {
  const name = task.boardName ?? `#${task.boardId}`;
  return task.boardUuid ? (
    <Link to="/user/board/$uuid" params={{ uuid: task.boardUuid }} className={`${textLinkClass} ${className}`}>
      {name}
    </Link>
  ) : (
    <span className={className}>{name}</span>
  );
}

/** A bonus as the row shows it: '—' while there is none (no application, or not yet agreed). */
const bonusText = (value: number | null | undefined) => (value === null || value === undefined ? t.noBonus : formatMoney(value));

/** The bonus asked for and the one agreed, one line each (decision 106). */
function Bonuses({ task }: { task: Task }): JSX.Element {
  return (
    <dl className="grid grid-cols-[auto_auto] justify-end gap-x-2 text-xs whitespace-nowrap">
      <dt className="text-slate-600">{t.askedBonus}</dt>
      <dd className="text-right text-slate-900 tabular-nums">{bonusText(task.askedBonus)}</dd>
      <dt className="text-slate-600">{t.agreedBonus}</dt>
      <dd className="text-right text-slate-900 tabular-nums">{bonusText(task.agreedBonus)}</dd>
    </dl>
  );
}

const arrivedOfClaimed = (task: Task) => `${task.productCount}/${task.count}`;

const col = columnHelper<Task>();
const columns = col.columns([
  col.display({ id: 'taskId', header: t.colTaskId, cell: ({ row }) => taskDisplayId(row.original), meta: { className: 'whitespace-nowrap tabular-nums' } }),
  col.display({
    id: 'item',
    header: t.colItem,
    cell: ({ row }) => (
      <div className="flex flex-col">
        <span>{row.original.itemName}</span>
        <span className="text-xs text-slate-600">
          <BoardLink task={row.original} /> · <span className="font-mono">{row.original.upc}</span>
        </span>
      </div>
    ),
    meta: { className: 'min-w-40' },
  }),
  col.display({
    id: 'arrived',
    header: t.colArrivedOfClaimed,
    cell: ({ row }) => arrivedOfClaimed(row.original),
    meta: { align: 'right', className: 'tabular-nums' },
  }),
  col.display({
    id: 'prices',
    header: t.colPrices,
    cell: ({ row }) => (
      <div className="flex flex-col tabular-nums">
        <span>{formatMoney(row.original.price)}</span>
        <span>{formatMoney(row.original.buyIn)}</span>
      </div>
    ),
    meta: { align: 'right' },
  }),
  col.display({ id: 'bonuses', header: t.colBonuses, cell: ({ row }) => <Bonuses task={row.original} />, meta: { align: 'right' } }),
  col.accessor('punish', { header: t.colDiscount, cell: ({ getValue }) => formatMoney(getValue()), meta: { align: 'right', className: 'tabular-nums' } }),
  col.accessor('status', { header: t.colStatus, cell: ({ getValue }) => <TaskStatusBadge status={getValue()} /> }),
  // Two tracking ids a line: a task of ten parcels stays five lines high.
  col.display({ id: 'trackings', header: t.colTrackingId, cell: ({ row }) => <TrackingArrivals task={row.original} />, meta: { className: 'min-w-52' } }),
  col.accessor('createdAt', {
    header: t.colCreatedAt,
    cell: ({ getValue }) => <span className="text-xs">{formatDateTime(getValue())}</span>,
    meta: { className: 'w-24 tabular-nums' },
  }),
  col.display({ id: 'actions', header: t.colActions, cell: ({ row }) => <RowActions task={row.original} />, meta: { className: ACTION_COLUMN_CLASS } }),
]);

/** A phone's view of the page: one card per task with its item, status, arrived/claimed, tracking ids and actions. */
function TaskCards({ search, result, loading, onSearch }: Pick<MyTaskPageProps, 'search' | 'result' | 'loading' | 'onSearch'>): JSX.Element {
  return (
    <div className="flex flex-col gap-3">
      {result.content.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white px-3 py-8 text-center text-slate-600">{loading ? UI_TEXT.loading : UI_TEXT.empty}</p>
      ) : (
        <ul aria-label={t.cardsCaption} aria-busy={loading || undefined} className="flex flex-col gap-3">
          {result.content.map((task) => (
            <li key={task.id} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <div className="flex items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{task.itemName}</p>
                  <p className="text-xs text-slate-600">
                    <span className="tabular-nums">{taskDisplayId(task)}</span> · <BoardLink task={task} />
                  </p>
                </div>
                <TaskStatusBadge status={task.status} />
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
                <dt className="text-slate-600">{t.colArrivedOfClaimed}</dt>
                <dd className="tabular-nums">{arrivedOfClaimed(task)}</dd>
                <dt className="text-slate-600">{t.buyIn}</dt>
                <dd className="tabular-nums">{formatMoney(task.buyIn)}</dd>
                <dt className="text-slate-600">{t.askedBonus}</dt>
                <dd className="tabular-nums">{bonusText(task.askedBonus)}</dd>
                <dt className="text-slate-600">{t.agreedBonus}</dt>
                <dd className="tabular-nums">{bonusText(task.agreedBonus)}</dd>
              </dl>
              <TrackingArrivals task={task} />
              <RowActions task={task} />
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center justify-end gap-4 text-sm text-slate-600">
        {result.totalElements !== undefined && <span>{UI_TEXT.total(result.totalElements)}</span>}
        <Pager page={search.page} totalPages={result.totalPages} onChange={(page) => onSearch({ ...search, page })} />
      </div>
    </div>
  );
}

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
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  const [pasting, setPasting] = useState(false);

  const exportExcel = () => download(() => userTaskExcelUrl(api, search));
  const reload = () => void router.invalidate();
  const list = wide ? (
    <PagedTable columns={columns} search={search} result={result} onSearch={onSearch} loading={loading} caption={t.caption} />
  ) : (
    <TaskCards search={search} result={result} loading={loading} onSearch={onSearch} />
  );

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={zh.titles.userMyTask}
        actions={
          <>
            <Button variant="secondary" onClick={() => setPasting(true)}>
              {t.bulk.open}
            </Button>
            <Button variant="secondary" loading={exporting} onClick={() => void exportExcel()}>
              {t.exportExcel}
            </Button>
          </>
        }
      />
      <TaskFilters search={search} onApply={(filters) => onSearch({ ...filters, page: 0, size: search.size })} />
      <MemberTaskActionsScope onChanged={reload}>
        {rowExtra ? <RowExtraCell.Provider value={rowExtra.cell}>{rowExtra.scope(result.content, reload, list)}</RowExtraCell.Provider> : list}
      </MemberTaskActionsScope>
      <BulkRecordsDialog open={pasting} onClose={() => setPasting(false)} onSaved={reload} />
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
  // The home's 已购买（已填单号） tile leads here with it on: shown, and kept with the other filters.
  recorded: v.boolean(),
  // The home's 已认领 tile leads here with it on: its figure leaves deleted tasks out.
  claimed: v.boolean(),
});
type FilterValues = v.InferOutput<typeof filterSchema>;

const EMPTY_FILTERS: FilterValues = { status: 'all', itemName: '', trackingId: '', taskId: '', recorded: false, claimed: false };

function toFilters(values: FilterValues): MyTaskFilters {
  return {
    status: values.status,
    itemName: values.itemName || undefined,
    trackingId: values.trackingId || undefined,
    taskId: parseTaskIdSearch(values.taskId),
    recorded: values.recorded || undefined,
    claimed: values.claimed || undefined,
  };
}

function TaskFilters({ search, onApply }: { search: MyTaskSearch; onApply: (filters: MyTaskFilters) => void }): JSX.Element {
  // `values` follows the URL (back / forward, a sidebar click) without remounting the form.
  const form = useValibotForm(filterSchema, {
    values: {
      status: search.status,
      itemName: search.itemName ?? '',
      trackingId: search.trackingId ?? '',
      taskId: search.taskId === undefined ? '' : String(search.taskId),
      recorded: search.recorded ?? false,
      claimed: search.claimed ?? false,
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
      layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-[9rem_minmax(10rem,1fr)_minmax(10rem,1fr)_10rem_auto_auto_auto]"
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
      <Checkbox<FilterValues, 'recorded'> name="recorded" label={t.recordedOnly} className="sm:pt-7" />
      <Checkbox<FilterValues, 'claimed'> name="claimed" label={t.claimedOnly} className="sm:pt-7" />
    </FilterBar>
  );
}
