// /user/board/{uuid} (SPEC §2): the board's info (its state: 已过期 rather than 开放 past the
// deadline, and the time left), its board tasks with the quantity shown, the quantity still
// claimable (remaining, which falls as claims come in), claim progress and the 'claim' button
// (offered exactly when the claim machine would open its dialog), the claim dialog, and the member's
// own tasks on this board with their actions (the tasks feature's table, handed in by the route as
// `myTasksTable`). On a phone each board task is a card: item, state, price, buyIn, remaining,
// deadline, link, note and the claim button.
import { Link } from '@tanstack/react-router';
import { useMemo, type JSX, type ReactNode } from 'react';
import { BoardTaskStatusBadge } from '../../components/task-status-badges';
import { Button } from '../../components/ui/button';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { PageHeader, Panel } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { ClaimProgress } from '../../components/claim-progress';
import { ClaimDialog, useClaimActor, type ClaimActor } from './claim-dialog';
import { ExternalLink } from './external-link';
import { canClaim, claimTargetOf } from './claim-target';
import { formatDateTime, formatMoney } from '../../components/ui/format';
import { Countdown } from '../../components/countdown';
import type { Board, BoardTask, MemberBoardData } from './member-boards-api';
import { LiveBoardStateBadge } from '../../components/board-state-badges';
import { boardTaskAddressText } from '../../components/board-task-address';

const t = zh.memberBoards;

export interface MemberBoardPageProps {
  data: MemberBoardData;
  loading?: boolean;
  /** The member's own tasks on this board, with their actions. */
  myTasksTable: ReactNode;
}

export function MemberBoardPage({ data, loading = false, myTasksTable }: MemberBoardPageProps): JSX.Element {
  const { board } = data;
  if (!board) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader title={zh.titles.userBoard} />
        <Panel>
          <p className="text-sm text-slate-600">{t.boardNotFound}</p>
          <Link to="/user/board-list" className="mt-3 inline-block text-sm text-blue-600 hover:underline">
            {t.backToList}
          </Link>
        </Panel>
      </div>
    );
  }
  return <BoardView board={board} boardTasks={data.boardTasks} myTasksTable={myTasksTable} loading={loading} />;
}

function BoardView({ board, boardTasks, myTasksTable, loading }: { board: Board; boardTasks: BoardTask[]; myTasksTable: ReactNode; loading: boolean }) {
  const claim = useClaimActor();
  const columns = useMemo(() => boardTaskColumns(board, claim), [board, claim]);
  const itemNames = useMemo(() => new Map(boardTasks.map((bt) => [bt.id, bt.itemName])), [boardTasks]);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title={board.boardName}
        actions={
          <Link to="/user/board-list" className="text-sm text-blue-600 hover:underline">
            {t.backToList}
          </Link>
        }
      />
      <Panel title={t.boardInfo}>
        <BoardInfo board={board} />
      </Panel>
      <Panel title={t.boardTasks}>
        <DataTable
          columns={columns}
          data={boardTasks}
          page={0}
          size={Math.max(boardTasks.length, 1)}
          totalPages={1}
          onPageChange={() => {}}
          loading={loading}
          caption={t.boardTasks}
          cards
        />
      </Panel>
      <Panel title={t.myTasks}>{myTasksTable}</Panel>
      <ClaimDialog actor={claim} itemNameOf={(id) => itemNames.get(id)} />
    </div>
  );
}

function BoardInfo({ board }: { board: Board }): JSX.Element {
  const rows: Array<[string, JSX.Element | string]> = [
    [t.boardName, board.boardName],
    [t.remark, board.remark],
    [t.publishAt, formatDateTime(board.publishAt)],
    [t.expireAt, formatDateTime(board.expireAt)],
    [t.status, <LiveBoardStateBadge board={board} />],
    [t.timeLeft, <Countdown expireAt={board.expireAt} />],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {rows.map(([label, value]) => (
        <div key={label} className="flex gap-3">
          <dt className="w-16 shrink-0 text-slate-500">{label}</dt>
          <dd className="min-w-0 break-all text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function boardTaskColumns(board: Board, claim: ClaimActor) {
  const col = columnHelper<BoardTask>();
  return col.columns([
    col.accessor('id', {
      header: t.colId,
      cell: ({ getValue }) => (
        <Link
          to="/user/boardtask/$boardId/$taskId"
          params={{ boardId: String(board.id), taskId: String(getValue()) }}
          aria-label={t.boardTaskLink(getValue())}
          className="text-blue-600 hover:underline"
        >
          {getValue()}
        </Link>
      ),
    }),
    col.accessor('itemName', { header: t.colItemName, meta: { className: 'min-w-40', card: 'title' } }),
    col.accessor('upc', { header: t.colUpc, meta: { card: 'hidden' } }),
    col.accessor('price', { header: t.colPrice, cell: ({ getValue }) => formatMoney(getValue()), meta: { align: 'right' } }),
    col.accessor('buyIn', { header: t.colBuyIn, cell: ({ getValue }) => formatMoney(getValue()), meta: { align: 'right' } }),
    col.accessor('show', { header: t.colShow, meta: { align: 'right', card: 'hidden' } }),
    col.accessor('remaining', { header: t.colRemaining, meta: { align: 'right' } }),
    col.display({ id: 'deadline', header: t.colDeadline, cell: () => <Countdown expireAt={board.expireAt} />, meta: { cardOnly: true } }),
    col.accessor('url', { header: t.colLink, cell: ({ getValue }) => <ExternalLink url={getValue()} /> }),
    col.accessor('address', { header: t.colAddress, cell: ({ getValue }) => boardTaskAddressText(getValue()), meta: { card: 'hidden' } }),
    col.accessor('status', { header: t.status, cell: ({ getValue }) => <BoardTaskStatusBadge status={getValue()} />, meta: { card: 'badge' } }),
    col.display({
      id: 'progress',
      header: t.colProgress,
      cell: ({ row }) => <ClaimProgress label={t.progressOf(row.original.itemName)} count={row.original.claimCount} need={row.original.show} />,
      meta: { card: 'hidden' },
    }),
    col.accessor('note', { header: t.colNote, meta: { className: 'min-w-32' } }),
    col.display({
      id: 'actions',
      header: t.colActions,
      meta: { card: 'actions' },
      cell: ({ row }) => {
        const target = claimTargetOf(board, row.original);
        if (!canClaim(target)) return null;
        return (
          <Button size="sm" onClick={() => claim.send({ type: 'claim.open', boardTaskId: row.original.id, target })}>
            {t.claim}
          </Button>
        );
      },
    }),
  ]);
}
