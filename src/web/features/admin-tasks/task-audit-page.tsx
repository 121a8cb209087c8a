// /admin/task-audit, the user log (SPEC §2, §3 Audit entries, §4 admin audit filter): every change
// to members' tasks and purchased records from GET /api/audit/task/list, with the filters the
// contract offers (status: open, closed, locked, processing, finished, deleted, unmatch - the
// task's status after the change, also for a purchased-record entry; user (the task's owner);
// task (mainId: a claim and its split siblings); task record id; item name; sort). Each row
// expands to the change itself, before -> after (audit-diff.tsx).
// Filters, sort, page and size live in the URL; the route's loader fetches the page they describe.
import { useRouterState } from '@tanstack/react-router';
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { AuditDiff } from '../../components/audit/audit-diff';
import { auditActionLabel, auditEntityLabel, auditOperatorLabel, auditTaskLabel } from '../../components/audit/audit-entry';
import type { AppUser, AuditEntry, AuditPage, AuditStatus } from './admin-tasks-api';
import { idText, toId, userLabel, userOptions } from '../../lib/filter-fields';
import { ADMIN_TASK_SIZE_OPTIONS, AUDIT_STATUSES, type TaskAuditSearch } from './admin-tasks-search';

const t = zh.adminTasks;
const A = t.audit;

export interface TaskAuditData {
  audits: AuditPage;
  users: AppUser[];
}

export interface TaskAuditPageProps {
  search: TaskAuditSearch;
  data: TaskAuditData;
  onSearch: (next: TaskAuditSearch) => void;
}

const col = columnHelper<AuditEntry>();
const renderDiff = (entry: AuditEntry) => <AuditDiff entry={entry} fieldLabels={t.task} />;

export function TaskAuditPage({ search, data, onSearch }: TaskAuditPageProps): JSX.Element {
  const loading = useRouterState({ select: (state) => state.isLoading });

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('id', { header: A.id, meta: { className: 'tabular-nums' } }),
        col.accessor('createdAt', { header: A.time, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
        col.display({ id: 'operator', header: A.operator, cell: ({ row }) => auditOperatorLabel(row.original), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('entity', { header: A.entity, cell: ({ getValue }) => auditEntityLabel(getValue()), meta: { className: 'whitespace-nowrap' } }),
        col.display({ id: 'user', header: A.user, cell: ({ row }) => userLabel(data.users, row.original.userId), meta: { className: 'whitespace-nowrap' } }),
        col.display({ id: 'task', header: A.task, cell: ({ row }) => auditTaskLabel(row.original), meta: { className: 'tabular-nums' } }),
        col.accessor('action', { header: A.action, cell: ({ getValue }) => auditActionLabel(getValue()) }),
        col.accessor('trackingId', { header: A.trackingId, meta: { className: 'text-xs break-all' } }),
        col.accessor('upc', { header: A.upc }),
        col.accessor('count', { header: A.count, meta: { align: 'right', className: 'tabular-nums' } }),
        col.accessor('itemName', { header: A.itemName, meta: { className: 'min-w-32' } }),
        col.accessor('status', {
          header: A.statusCol,
          cell: ({ getValue }) => {
            const status = getValue();
            return status ? <TaskStatusBadge status={status} /> : null;
          },
        }),
        col.accessor('taskId', { header: A.taskId, meta: { className: 'tabular-nums' } }),
      ]),
    [data.users],
  );

  const filterKey = JSON.stringify({ ...search, page: undefined, size: undefined });

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminTaskAudit} />
      <AuditFilters
        key={filterKey}
        search={search}
        users={data.users}
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
        sizeOptions={ADMIN_TASK_SIZE_OPTIONS}
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
  status: v.union([v.literal(''), v.picklist(AUDIT_STATUSES)]),
  userId: v.union([v.literal(''), v.number()]),
  mainId: idText(A.idInvalid),
  taskId: idText(A.idInvalid),
  itemName: v.pipe(v.string(), v.trim()),
  sort: v.picklist(SORTS),
});
type FilterInput = v.InferInput<typeof filterSchema>;
type FilterValues = v.InferOutput<typeof filterSchema>;
type Filters = Omit<TaskAuditSearch, 'page' | 'size'>;

const STATUS_OPTIONS = AUDIT_STATUSES.map((status) => ({ value: status, label: zh.status.task[status] }));

function AuditFilters({
  search,
  users,
  onApply,
  onReset,
}: {
  search: TaskAuditSearch;
  users: AppUser[];
  onApply: (filters: Filters) => void;
  onReset: () => void;
}): JSX.Element {
  const form = useValibotForm(filterSchema, {
    defaultValues: {
      status: search.status ?? '',
      userId: search.userId ?? '',
      mainId: search.mainId === undefined ? '' : String(search.mainId),
      taskId: search.taskId === undefined ? '' : String(search.taskId),
      itemName: search.itemName ?? '',
      sort: search.isDesc ? 'desc' : 'asc',
    },
  });

  function apply(values: FilterValues) {
    onApply({
      status: values.status === '' ? undefined : values.status,
      userId: values.userId === '' ? undefined : values.userId,
      mainId: toId(values.mainId),
      taskId: toId(values.taskId),
      itemName: values.itemName || undefined,
      isDesc: values.sort === 'desc',
    });
  }

  return (
    <FilterBar form={form} onSubmit={apply} onReset={onReset} layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-4">
      <SelectField<FilterInput, 'status', AuditStatus> name="status" label={A.status} options={STATUS_OPTIONS} placeholder={A.allStatuses} />
      <SelectField<FilterInput, 'userId', number> name="userId" label={A.userId} options={userOptions(users)} placeholder={A.allUsers} />
      <TextField<FilterInput, 'mainId'> name="mainId" label={A.mainId} inputMode="numeric" hint={A.mainIdHint} />
      <TextField<FilterInput, 'taskId'> name="taskId" label={A.taskIdFilter} inputMode="numeric" />
      <TextField<FilterInput, 'itemName'> name="itemName" label={A.itemNameFilter} type="search" />
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
