// The member's own tasks on a board (GET /api/task/info/user/board/list?boardUuid=). Which actions a
// row offers is decided in task-actions.ts; the actions themselves come with the task-lifecycle
// issue, so for now each opens an honest "not yet available" dialog.
import { useMemo, useState, type JSX } from 'react';
import { Button } from '../../components/ui/button';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { Modal } from '../../components/ui/dialog';
import { NotYetAvailable } from '../../components/ui/not-available';
import { zh } from '../../i18n/zh';
import { formatDateTime } from '../../components/ui/format';
import type { MemberTask } from './member-boards-api';
import { TaskStatusBadge } from './status-badges';
import { memberTaskActions, taskDisplayId, type MemberTaskAction } from './task-actions';

const t = zh.memberBoards;

const ACTION_LABEL: Record<MemberTaskAction, string> = {
  upload: t.actionUpload,
  records: t.actionRecords,
  edit: t.actionEdit,
  delete: t.actionDelete,
};

export function MyTasksTable({ tasks, loading = false }: { tasks: MemberTask[]; loading?: boolean }): JSX.Element {
  const [pending, setPending] = useState<{ action: MemberTaskAction; task: MemberTask } | null>(null);
  const columns = useMemo(() => myTaskColumns((action, task) => setPending({ action, task })), []);
  return (
    <>
      <DataTable
        columns={columns}
        data={tasks}
        page={0}
        size={Math.max(tasks.length, 1)}
        totalPages={1}
        onPageChange={() => {}}
        loading={loading}
        caption={t.myTasks}
      />
      <Modal
        open={pending !== null}
        onClose={() => setPending(null)}
        title={pending ? `${ACTION_LABEL[pending.action]} · ${taskDisplayId(pending.task)}` : ''}
        footer={
          <Button variant="secondary" onClick={() => setPending(null)}>
            {t.close}
          </Button>
        }
      >
        {pending && <NotYetAvailable feature={ACTION_LABEL[pending.action]} deliveredBy={t.taskLifecycle} />}
      </Modal>
    </>
  );
}

function myTaskColumns(onAction: (action: MemberTaskAction, task: MemberTask) => void) {
  const col = columnHelper<MemberTask>();
  return col.columns([
    col.display({ id: 'taskId', header: t.colTaskId, cell: ({ row }) => taskDisplayId(row.original) }),
    col.accessor('itemName', { header: t.colItemName, meta: { className: 'min-w-40' } }),
    col.accessor('count', { header: t.colCount, meta: { align: 'right' } }),
    col.accessor('productCount', { header: t.colProductCount, meta: { align: 'right' } }),
    col.accessor('status', { header: t.status, cell: ({ getValue }) => <TaskStatusBadge status={getValue()} /> }),
    col.accessor('isHome', { header: t.colIsHome, cell: ({ getValue }) => (getValue() ? t.yes : t.no) }),
    col.accessor('state', { header: t.colState, cell: ({ row, getValue }) => (row.original.isHome ? getValue() : '') }),
    col.accessor('zipCode', { header: t.colZipCode, cell: ({ row, getValue }) => (row.original.isHome ? getValue() : '') }),
    col.accessor('labelCount', {
      header: t.colLabelCount,
      cell: ({ row, getValue }) => (row.original.isHome ? getValue() : ''),
      meta: { align: 'right' },
    }),
    col.accessor('createdAt', { header: t.colCreatedAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
    col.display({
      id: 'actions',
      header: t.colActions,
      cell: ({ row }) => (
        <div className="flex gap-3">
          {memberTaskActions(row.original).map((action) => (
            <Button key={action} variant="link" onClick={() => onAction(action, row.original)}>
              {ACTION_LABEL[action]}
            </Button>
          ))}
        </div>
      ),
    }),
  ]);
}
