// /admin/tasks (SPEC §2, §7 Tasks): every member's tasks through GET /api/task/list/page with all
// of its filters (user, status incl. pending, item, item name, board, board task, task id, tracking
// id, not arrived: the admin home's link, shown as a checkbox so the filter can be seen and cleared)
// and the sort; a paged table of the tasks with the per-row actions the task machine allows
// (task-row-actions.tsx) and the purchased records in the admin form of the record dialog (the
// tasks feature's dialog, which the route hands in as `renderRecords`). On a phone each task is a
// card (item name, status, fields, then its actions: decision 006) and the filters fold (FilterBar).
// Filters, sort, page and size live in the URL: this page reads them from `search` and changes
// them through `onSearch`; the route's loader fetches the page they describe.
import { Link, useRouter, useRouterState } from '@tanstack/react-router';
import { useCallback, useMemo, useState, type JSX, type ReactNode } from 'react';
import * as v from 'valibot';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { TrackingIds } from '../../components/tracking-ids';
import { columnHelper } from '../../components/ui/data-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { Checkbox, SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime, formatMoney } from '../../components/ui/format';
import { textLinkClass } from '../../components/ui/link-classes';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { zh } from '../../i18n/zh';
import { TASK_STATUSES, taskDisplayId, type TaskStatus } from '../../../../machines/task.machine';
import { ItemFilterField } from '../../components/item-filter-field';
import type { AppUser, Task, TaskPage } from './admin-tasks-api';
import { ADMIN_TASK_SIZE_OPTIONS, type TaskListSearch } from './admin-tasks-search';
import { TaskRowActions } from './task-row-actions';
import { idText, toId, userLabel, userOptions } from '../../lib/filter-fields';
import { filterForm } from '../../lib/list-search';
import { useReloading } from '../../navigation/use-reloading';

const t = zh.adminTasks;
const L = t.list;
const F = t.task;

export interface TaskListData {
  tasks: TaskPage;
  users: AppUser[];
}

export interface TaskListPageProps {
  search: TaskListSearch;
  data: TaskListData;
  onSearch: (next: TaskListSearch) => void;
  /** The records dialog of one task, read-only (open while `taskId` is not null). */
  renderRecords: (dialog: TaskRecordsDialog) => ReactNode;
}

export interface TaskRecordsDialog {
  taskId: number | null;
  open: boolean;
  onClose: () => void;
  onChanged: () => void;
}

const col = columnHelper<Task>();

const yesNo = (value: boolean) => (value ? t.yes : t.no);

/** The tasks' columns; the row's actions come back to `here` from the edit page. */
function taskColumns(users: readonly AppUser[], here: string, reload: () => Promise<void>, onRecords: (task: Task) => void) {
  return col.columns([
    col.display({ id: 'id', header: F.id, cell: ({ row }) => <span className="tabular-nums">{taskDisplayId(row.original)}</span> }),
    col.display({
      id: 'user',
      header: F.user,
      cell: ({ row }) => row.original.nickName ?? userLabel(users, row.original.userId),
      meta: { className: 'whitespace-nowrap' },
    }),
    col.display({
      id: 'board',
      header: F.board,
      meta: { className: 'min-w-32' },
      cell: ({ row }) => (
        <div className="flex flex-col">
          <Link to="/admin/board/$id" params={{ id: String(row.original.boardId) }} className={textLinkClass}>
            {row.original.boardName ?? `#${row.original.boardId}`}
          </Link>
          <span className="text-xs text-slate-500">
            {F.boardTask} #{row.original.boardTaskId}
          </span>
        </div>
      ),
    }),
    col.accessor('itemName', { header: F.itemName, meta: { className: 'min-w-40', card: 'title' } }),
    col.accessor('upc', { header: F.upc, meta: { className: 'tabular-nums' } }),
    col.accessor('count', { header: F.count, meta: { align: 'right', className: 'tabular-nums' } }),
    col.accessor('productCount', { header: F.productCount, meta: { align: 'right', className: 'tabular-nums' } }),
    col.accessor('price', { header: F.price, cell: ({ getValue }) => formatMoney(getValue()), meta: { align: 'right', className: 'tabular-nums' } }),
    col.accessor('buyIn', { header: F.buyIn, cell: ({ getValue }) => formatMoney(getValue()), meta: { align: 'right', className: 'tabular-nums' } }),
    col.accessor('bonus', { header: F.bonus, cell: ({ getValue }) => formatMoney(getValue()), meta: { align: 'right', className: 'tabular-nums' } }),
    col.accessor('punish', { header: F.punish, cell: ({ getValue }) => formatMoney(getValue()), meta: { align: 'right', className: 'tabular-nums' } }),
    col.accessor('status', { header: F.status, cell: ({ getValue }) => <TaskStatusBadge status={getValue()} />, meta: { card: 'badge' } }),
    col.accessor('trackingId', { header: F.trackingId, cell: ({ getValue }) => <TrackingIds value={getValue()} /> }),
    col.display({
      id: 'delivery',
      header: F.delivery,
      meta: { className: 'whitespace-nowrap text-xs' },
      cell: ({ row }) => <Delivery task={row.original} />,
    }),
    col.accessor('createdAt', { header: F.createdAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
    col.display({
      id: 'actions',
      header: F.actions,
      meta: { className: 'min-w-32', card: 'actions' },
      cell: ({ row }) => <TaskRowActions task={row.original} back={here} onChanged={reload} onRecords={onRecords} />,
    }),
  ]);
}

export function TaskListPage({ search, data, onSearch, renderRecords }: TaskListPageProps): JSX.Element {
  const router = useRouter();
  const loading = useReloading();
  // The list's own address (filters, page and all), where the edit page comes back to.
  const here = useRouterState({ select: (state) => state.location.href });
  const [records, setRecords] = useState<Task | null>(null);
  const reload = useCallback(() => router.invalidate(), [router]);

  const columns = useMemo(() => taskColumns(data.users, here, reload, setRecords), [data.users, here, reload]);

  const filters = filterForm(search, onSearch);
  const filterKey = filters.key;

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminTasks} />
      <TaskFilters
        key={filterKey}
        search={search}
        users={data.users}
        notArrivedDays={data.tasks.notArrivedDays}
        onApply={filters.onApply}
        onReset={filters.onReset}
      />
      <PagedTable
        columns={columns}
        search={search}
        result={data.tasks}
        onSearch={onSearch}
        sizeOptions={ADMIN_TASK_SIZE_OPTIONS}
        loading={loading}
        emptyText={L.empty}
        caption={L.caption}
        cards
      />
      {renderRecords({ taskId: records?.id ?? null, open: records !== null, onClose: () => setRecords(null), onChanged: () => void reload() })}
    </div>
  );
}

function Delivery({ task }: { task: Task }): JSX.Element {
  return (
    <dl className="grid grid-cols-[auto_auto] gap-x-2 text-slate-600">
      <dt>{F.isHome}</dt>
      <dd className="text-slate-800">{yesNo(task.isHome)}</dd>
      {task.isHome && (
        <>
          <dt>{F.state}</dt>
          <dd className="text-slate-800">{task.state}</dd>
          <dt>{F.zipCode}</dt>
          <dd className="text-slate-800">{task.zipCode}</dd>
        </>
      )}
      <dt>{F.labelCount}</dt>
      <dd className="text-slate-800 tabular-nums">{task.labelCount}</dd>
    </dl>
  );
}

// ---------------------------------------------------------------- filters

const SORTS = ['desc', 'asc'] as const;

const filterSchema = v.object({
  userId: v.union([v.literal(''), v.number()]),
  taskStatus: v.union([v.literal(''), v.picklist(TASK_STATUSES)]),
  itemId: v.nullable(v.number()),
  itemName: v.pipe(v.string(), v.trim()),
  boardId: idText(L.idInvalid),
  boardTaskId: idText(L.idInvalid),
  taskId: idText(L.idInvalid),
  trackingId: v.pipe(v.string(), v.trim()),
  notArrived: v.boolean(),
  sort: v.picklist(SORTS),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
type Filters = Omit<TaskListSearch, 'page' | 'size'>;

const STATUS_OPTIONS = TASK_STATUSES.map((status) => ({ value: status, label: zh.status.task[status] }));

function TaskFilters({
  search,
  users,
  notArrivedDays,
  onApply,
  onReset,
}: {
  search: TaskListSearch;
  users: AppUser[];
  /** The server's MISSING_PARCEL_DAYS (the answer's notArrivedDays); unknown when the list failed. */
  notArrivedDays: number | undefined;
  onApply: (filters: Filters) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      userId: search.userId ?? '',
      taskStatus: search.taskStatus ?? '',
      itemId: search.itemId ?? null,
      itemName: search.itemName ?? '',
      boardId: search.boardId === undefined ? '' : String(search.boardId),
      boardTaskId: search.boardTaskId === undefined ? '' : String(search.boardTaskId),
      taskId: search.taskId === undefined ? '' : String(search.taskId),
      trackingId: search.trackingId ?? '',
      notArrived: search.notArrived ?? false,
      sort: search.isDesc ? 'desc' : 'asc',
    },
  });

  function apply(values: FilterValues) {
    onApply({
      userId: values.userId === '' ? undefined : values.userId,
      taskStatus: values.taskStatus === '' ? undefined : values.taskStatus,
      itemId: values.itemId ?? undefined,
      itemName: values.itemName || undefined,
      boardId: toId(values.boardId),
      boardTaskId: toId(values.boardTaskId),
      taskId: toId(values.taskId),
      trackingId: values.trackingId || undefined,
      notArrived: values.notArrived || undefined,
      isDesc: values.sort === 'desc',
    });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-6">
      <SelectField<FilterInput, 'userId', number> name="userId" label={L.userId} options={userOptions(users)} placeholder={L.allUsers} />
      <SelectField<FilterInput, 'taskStatus', TaskStatus> name="taskStatus" label={L.taskStatus} options={STATUS_OPTIONS} placeholder={L.allStatuses} />
      <ItemFilterField<FilterInput, 'itemId'> name="itemId" label={L.itemId} className="sm:col-span-2" />
      <TextField<FilterInput, 'itemName'> name="itemName" label={L.itemName} type="search" className="sm:col-span-2" />
      <TextField<FilterInput, 'boardId'> name="boardId" label={L.boardId} inputMode="numeric" />
      <TextField<FilterInput, 'boardTaskId'> name="boardTaskId" label={L.boardTaskId} inputMode="numeric" />
      <TextField<FilterInput, 'taskId'> name="taskId" label={L.taskId} inputMode="numeric" />
      <TextField<FilterInput, 'trackingId'> name="trackingId" label={L.trackingId} type="search" />
      <SelectField<FilterInput, 'sort', (typeof SORTS)[number]>
        name="sort"
        label={L.sort}
        placeholder={false}
        options={[
          { value: 'desc', label: L.sortDesc },
          { value: 'asc', label: L.sortAsc },
        ]}
      />
      <Checkbox<FilterInput, 'notArrived'>
        name="notArrived"
        label={notArrivedDays === undefined ? L.notArrivedAny : L.notArrived(notArrivedDays)}
        className="sm:pt-7"
      />
    </FilterBar>
  );
}
