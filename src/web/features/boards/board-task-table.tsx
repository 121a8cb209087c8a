// The board's board tasks (SPEC §2 board detail, §3 BoardTask): id, itemName, upc, price, buyIn,
// show, need, claimCount with the claim progress colour, address, status and note; 'edit' opens the
// board task form and comes back here (?back=). Each row expands to the board task's user tasks.
import { Link } from '@tanstack/react-router';
import { useMemo, type JSX } from 'react';
import { BoardTaskStatusBadge } from '../../components/task-status-badges';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { zh } from '../../i18n/zh';
import type { BoardTask } from './boards-api';
import { ClaimProgress } from '../../components/claim-progress';
import { boardTaskAddressText } from '../../components/board-task-address';
import { BoardTaskClaims } from './claims';

const t = zh.boards;

export const money = (value: number | null | undefined) => (value === null || value === undefined ? '' : value.toFixed(2));

/** Where the board task form returns to. */
export const boardPath = (boardId: number) => `/admin/board/${boardId}`;

const col = columnHelper<BoardTask>();

function boardTaskColumns(boardId: number) {
  return col.columns([
    col.accessor('id', { header: t.boardTask.id, meta: { className: 'w-14' } }),
    col.accessor('itemName', { header: t.boardTask.itemName, meta: { className: 'min-w-40' } }),
    col.accessor('upc', { header: t.boardTask.upc }),
    col.accessor('price', { header: t.boardTask.price, cell: ({ getValue }) => money(getValue()), meta: { align: 'right' } }),
    col.accessor('buyIn', { header: t.boardTask.buyIn, cell: ({ getValue }) => money(getValue()), meta: { align: 'right' } }),
    col.accessor('show', { header: t.boardTask.show, meta: { align: 'right' } }),
    col.accessor('need', { header: t.boardTask.need, meta: { align: 'right' } }),
    col.accessor('claimCount', {
      header: t.boardTask.claimCount,
      // Measured against show, the claim limit (as getBoardTaskProgress and the member page do).
      cell: ({ row }) => (
        <span className="inline-flex items-center gap-2 whitespace-nowrap">
          <span className="tabular-nums">{row.original.claimCount}</span>
          <ClaimProgress label={t.boardTask.progressOf(row.original.itemName)} count={row.original.claimCount} need={row.original.show} />
        </span>
      ),
    }),
    col.accessor('address', { header: t.boardTask.address, cell: ({ getValue }) => boardTaskAddressText(getValue()) }),
    col.accessor('status', { header: t.boardTask.status, cell: ({ getValue }) => <BoardTaskStatusBadge status={getValue()} /> }),
    col.accessor('note', { header: t.boardTask.note }),
    col.display({
      id: 'actions',
      header: t.boardTask.actions,
      cell: ({ row }) => (
        <Link
          to="/admin/boardtask/$boardId/$taskId"
          params={{ boardId: String(boardId), taskId: String(row.original.id) }}
          search={{ back: boardPath(boardId) }}
          className="text-sm font-medium text-blue-600 hover:underline"
        >
          {t.boardTask.edit}
        </Link>
      ),
    }),
  ]);
}

export interface BoardTaskTableProps {
  boardId: number;
  tasks: BoardTask[];
  claimsRevision: number;
  onClaimDecided: () => void;
}

export function BoardTaskTable({ boardId, tasks, claimsRevision, onClaimDecided }: BoardTaskTableProps): JSX.Element {
  const columns = useMemo(() => boardTaskColumns(boardId), [boardId]);
  return (
    <DataTable
      columns={columns}
      data={tasks}
      page={0}
      size={Math.max(tasks.length, 1)}
      totalPages={1}
      totalElements={tasks.length}
      onPageChange={() => {}}
      renderSubRow={(task) => <BoardTaskClaims boardTaskId={task.id} revision={claimsRevision} onDecided={onClaimDecided} />}
      caption={t.boardTask.caption}
    />
  );
}
