// /admin/task-audit, the user log (SPEC §2, §3 Audit entries, §4 admin audit filter): every change
// to members' tasks and purchased records from GET /api/audit/task/list, with the filters the
// contract offers (status: open, closed, locked, processing, finished, deleted, unmatch - the
// task's status after the change, also for a purchased-record entry; user (the task's owner);
// task (mainId: a claim and its split siblings); task record id; item name; sort). Each row
// expands to the change itself, before -> after (components/audit/, shared with the admin log).
// Filters, sort, page and size live in the URL; the route's loader fetches the page they describe.
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { auditColumn, auditColumns } from '../../components/audit/audit-columns';
import { auditFilterSchema, AuditTable, type AuditFilterForm } from '../../components/audit/audit-table';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { SelectField, TextField } from '../../components/ui/form';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { idText, toId, userOptions } from '../../lib/filter-fields';
import type { AppUser, AuditPage, AuditStatus } from './admin-tasks-api';
import { ADMIN_TASK_SIZE_OPTIONS, AUDIT_STATUSES, type TaskAuditSearch } from './admin-tasks-search';
import { useReloading } from '../../navigation/use-reloading';

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

export function TaskAuditPage({ search, data, onSearch }: TaskAuditPageProps): JSX.Element {
  const loading = useReloading();

  const columns = useMemo(() => {
    const c = auditColumns(data.users);
    return [
      c.id,
      c.time,
      c.operator,
      c.entity,
      c.user,
      c.task,
      c.action,
      c.trackingId,
      c.upc,
      c.count,
      c.itemName,
      auditColumn.accessor('status', {
        header: zh.audit.column.status,
        cell: ({ getValue }) => {
          const status = getValue();
          return status ? <TaskStatusBadge status={status} /> : null;
        },
      }),
      auditColumn.accessor('taskId', { header: A.taskId, meta: { className: 'tabular-nums' } }),
    ];
  }, [data.users]);

  const filters = useMemo(() => taskAuditFilters(data.users), [data.users]);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.adminTaskAudit} />
      <AuditTable
        search={search}
        onSearch={onSearch}
        audits={data.audits}
        columns={columns}
        fieldLabels={t.task}
        filters={filters}
        sizeOptions={ADMIN_TASK_SIZE_OPTIONS}
        loading={loading}
        emptyText={A.empty}
        caption={A.caption}
      />
    </div>
  );
}

// ---------------------------------------------------------------- filters

const filterSchema = auditFilterSchema({
  status: v.union([v.literal(''), v.picklist(AUDIT_STATUSES)]),
  userId: v.union([v.literal(''), v.number()]),
  mainId: idText(A.idInvalid),
  taskId: idText(A.idInvalid),
  itemName: v.pipe(v.string(), v.trim()),
});
type FilterInput = v.InferInput<typeof filterSchema>;

const STATUS_OPTIONS = AUDIT_STATUSES.map((status) => ({ value: status, label: zh.status.task[status] }));

function taskAuditFilters(users: AppUser[]): AuditFilterForm<TaskAuditSearch, typeof filterSchema> {
  return {
    schema: filterSchema,
    values: (search) => ({
      status: search.status ?? '',
      userId: search.userId ?? '',
      mainId: search.mainId === undefined ? '' : String(search.mainId),
      taskId: search.taskId === undefined ? '' : String(search.taskId),
      itemName: search.itemName ?? '',
    }),
    toSearch: (values) => ({
      status: values.status === '' ? undefined : values.status,
      userId: values.userId === '' ? undefined : values.userId,
      mainId: toId(values.mainId),
      taskId: toId(values.taskId),
      itemName: values.itemName || undefined,
    }),
    layout: 'grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-4',
    fields: (
      <>
        <SelectField<FilterInput, 'status', AuditStatus> name="status" label={A.status} options={STATUS_OPTIONS} placeholder={A.allStatuses} />
        <SelectField<FilterInput, 'userId', number> name="userId" label={A.userId} options={userOptions(users)} placeholder={A.allUsers} />
        <TextField<FilterInput, 'mainId'> name="mainId" label={A.mainId} inputMode="numeric" hint={A.mainIdHint} />
        <TextField<FilterInput, 'taskId'> name="taskId" label={A.taskIdFilter} inputMode="numeric" />
        <TextField<FilterInput, 'itemName'> name="itemName" label={A.itemNameFilter} type="search" />
      </>
    ),
  };
}
