// User tasks (claims) on the board page: the expanded row of a board task lists its claims
// (GET /api/task/info/admin/list/{id}), and the "pending claims" panel lists the board's claims
// waiting for approval (GET /api/task/list/page?boardId=&taskStatus=pending). A pending claim (on
// a closed board task or an expired board, SPEC §4) can be accepted (-> open) or rejected
// (-> deleted) by an admin, after a confirmation; the answer is '操作成功' or the server's msg /
// '操作失败'.
import { taskDisplayId } from '../../../../machines/task.machine';
import { useMemo, useState, type JSX } from 'react';
import { TaskStatusBadge } from '../../components/task-status-badges';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { formatDateTime } from '../../components/ui/format';
import { loadBoardTaskClaims, loadPendingClaims, showOutcome, type UserTask } from './boards-api';
import { decideClaim, type ClaimDecision } from '../../lib/task-calls';
import { useRemote } from '../../lib/use-remote';

const t = zh.boards;

const userOf = (task: UserTask) => task.nickName ?? `#${task.userId}`;
const yesNo = (value: boolean) => (value ? t.task.yes : t.task.no);

export function ClaimDecisionButtons({ task, onDecided }: { task: UserTask; onDecided: () => void }): JSX.Element | null {
  const { api } = useAppContext();
  const [busy, setBusy] = useState<ClaimDecision | null>(null);
  if (task.status !== 'pending') return null;

  async function decide(decision: ClaimDecision) {
    const label = taskDisplayId(task);
    const ok = await confirmDialog(decision === 'accept' ? t.task.confirmAccept(label) : t.task.confirmReject(label), { danger: decision === 'reject' });
    if (!ok) return;
    setBusy(decision);
    try {
      showOutcome(await decideClaim(api, decision, task.id));
    } finally {
      setBusy(null);
    }
    onDecided();
  }

  return (
    <div className="flex gap-2">
      <Button size="sm" loading={busy === 'accept'} disabled={busy !== null} onClick={() => void decide('accept')}>
        {t.task.accept}
      </Button>
      <Button size="sm" variant="danger" loading={busy === 'reject'} disabled={busy !== null} onClick={() => void decide('reject')}>
        {t.task.reject}
      </Button>
    </div>
  );
}

export interface BoardTaskClaimsProps {
  boardTaskId: number;
  /** Changes whenever a claim of the board was decided: reloads. */
  revision: number;
  onDecided: () => void;
}

/** The expanded row of a board task: its user tasks. */
export function BoardTaskClaims({ boardTaskId, revision, onDecided }: BoardTaskClaimsProps): JSX.Element {
  const { api } = useAppContext();
  const claims = useRemote(`${boardTaskId}:${revision}`, () => loadBoardTaskClaims(api, boardTaskId));
  const tasks = claims.data ?? [];
  if (claims.data === undefined) return <p className="text-sm text-slate-500">{t.task.loading}</p>;
  if (tasks.length === 0) return <p className="text-sm text-slate-500">{t.task.none}</p>;
  const head = [
    t.task.id,
    t.task.user,
    t.task.count,
    t.task.status,
    t.task.isHome,
    t.task.state,
    t.task.zipCode,
    t.task.labelCount,
    t.task.createdAt,
    t.task.actions,
  ];
  return (
    <table className="min-w-full text-xs">
      <caption className="sr-only">{t.task.caption}</caption>
      <thead>
        <tr className="text-left text-slate-500">
          {head.map((label) => (
            <th key={label} scope="col" className="px-2 py-1 font-medium whitespace-nowrap">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200">
        {tasks.map((task) => (
          <tr key={task.id}>
            <td className="px-2 py-1.5 tabular-nums">{taskDisplayId(task)}</td>
            <td className="px-2 py-1.5">{userOf(task)}</td>
            <td className="px-2 py-1.5 tabular-nums">{task.count}</td>
            <td className="px-2 py-1.5">
              <TaskStatusBadge status={task.status} />
            </td>
            <td className="px-2 py-1.5">{yesNo(task.isHome)}</td>
            <td className="px-2 py-1.5">{task.state}</td>
            <td className="px-2 py-1.5">{task.zipCode}</td>
            <td className="px-2 py-1.5 tabular-nums">{task.labelCount}</td>
            <td className="px-2 py-1.5 whitespace-nowrap">{formatDateTime(task.createdAt)}</td>
            <td className="px-2 py-1.5">
              <ClaimDecisionButtons task={task} onDecided={onDecided} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const col = columnHelper<UserTask>();
const NO_TASKS: UserTask[] = [];

function pendingColumns(onDecided: () => void) {
  return col.columns([
    col.display({ id: 'id', header: t.task.id, cell: ({ row }) => taskDisplayId(row.original) }),
    col.accessor('boardTaskId', { header: t.task.boardTask }),
    col.accessor('itemName', { header: t.task.itemName }),
    col.display({ id: 'user', header: t.task.user, cell: ({ row }) => userOf(row.original) }),
    col.accessor('count', { header: t.task.count }),
    col.accessor('isHome', { header: t.task.isHome, cell: ({ getValue }) => yesNo(getValue()) }),
    col.accessor('state', { header: t.task.state }),
    col.accessor('zipCode', { header: t.task.zipCode }),
    col.accessor('labelCount', { header: t.task.labelCount }),
    col.accessor('createdAt', { header: t.task.createdAt, cell: ({ getValue }) => formatDateTime(getValue()), meta: { className: 'whitespace-nowrap' } }),
    col.display({ id: 'actions', header: t.task.actions, cell: ({ row }) => <ClaimDecisionButtons task={row.original} onDecided={onDecided} /> }),
  ]);
}

export interface PendingClaimsProps {
  boardId: number;
  revision: number;
  onDecided: () => void;
}

/** The board's claims waiting for approval, paged by the server. */
export function PendingClaims({ boardId, revision, onDecided }: PendingClaimsProps): JSX.Element {
  const { api } = useAppContext();
  const [paging, setPaging] = useState({ page: 0, size: DEFAULT_PAGE_SIZE });
  const pending = useRemote(`${boardId}:${paging.page}:${paging.size}:${revision}`, () => loadPendingClaims(api, boardId, paging.page, paging.size));

  const columns = useMemo(() => pendingColumns(onDecided), [onDecided]);

  return (
    <DataTable
      columns={columns}
      data={pending.data?.tasks ?? NO_TASKS}
      page={paging.page}
      size={paging.size}
      totalPages={pending.data?.totalPages ?? 0}
      totalElements={pending.data?.totalElements}
      onPageChange={(page) => setPaging((p) => ({ ...p, page }))}
      loading={pending.loading}
      emptyText={t.pending.none}
      caption={t.pending.caption}
    />
  );
}
