// The member's own tasks on a board (GET /api/task/info/user/board/list?boardUuid=). SPEC §2 gives
// this table the actions upload, records, edit and delete (split, match and the label PDF are on
// /user/my-task); the task machine decides which of them a row shows (task-actions.ts) and
// member-task-actions.tsx runs them, as on /user/my-task. The board page (member-boards) gets this
// table from its route. After a change the page reloads. On a phone each task is a card whose item
// name wraps in full (the table clipped it at 390 px; decision 006).
import { useRouter } from '@tanstack/react-router';
import type { JSX } from 'react';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { formatDateTime } from '../../components/ui/format';
import { zh } from '../../i18n/zh';
import { ACTION_COLUMN_CLASS, MemberTaskActionCell, MemberTaskActionsScope } from './member-task-actions';
import { taskDisplayId, type MemberTaskAction } from './task-actions';
import type { Task } from './tasks-api';

const t = zh.memberBoards;

/** SPEC §2 /user/board/{id}: the 'my tasks' table's actions. */
export const BOARD_PAGE_TASK_ACTIONS: readonly MemberTaskAction[] = ['upload', 'records', 'edit', 'delete'];

export function MyTasksTable({ tasks, loading = false }: { tasks: Task[]; loading?: boolean }): JSX.Element {
  const router = useRouter();
  return (
    <MemberTaskActionsScope onChanged={() => void router.invalidate()}>
      <DataTable
        columns={columns}
        data={tasks}
        page={0}
        size={Math.max(tasks.length, 1)}
        totalPages={1}
        onPageChange={() => {}}
        loading={loading}
        caption={t.myTasks}
        cards
      />
    </MemberTaskActionsScope>
  );
}

const col = columnHelper<Task>();
const columns = col.columns([
  col.display({ id: 'taskId', header: t.colTaskId, cell: ({ row }) => taskDisplayId(row.original) }),
  col.accessor('itemName', { header: t.colItemName, meta: { className: 'min-w-40', card: 'title' } }),
  col.accessor('count', { header: t.colCount, meta: { align: 'right' } }),
  col.accessor('productCount', { header: t.colProductCount, meta: { align: 'right' } }),
  col.accessor('status', { header: t.status, cell: ({ getValue }) => <TaskStatusBadge status={getValue()} />, meta: { card: 'badge' } }),
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
    cell: ({ row }) => <MemberTaskActionCell task={row.original} only={BOARD_PAGE_TASK_ACTIONS} />,
    meta: { className: ACTION_COLUMN_CLASS, card: 'actions' },
  }),
]);
