// /user/boardtask/{boardId}/{taskId} (SPEC §2): the member's view of one board task, with the same
// 'claim' button and dialog as the board page.
import { Link } from '@tanstack/react-router';
import type { JSX, ReactNode } from 'react';
import { BoardTaskStatusBadge } from '../../components/task-status-badges';
import { Button } from '../../components/ui/button';
import { PageHeader, Panel } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { ClaimProgress } from '../../components/claim-progress';
import { ExternalLink } from './external-link';
import { ClaimDialog, useClaimActor } from './claim-dialog';
import { canClaim, claimTargetOf } from './claim-target';
import { formatMoney } from '../../components/ui/format';
import type { Board, BoardTask, MemberBoardTaskData } from './member-boards-api';
import { Countdown } from '../../components/countdown';
import { ExpiredBadge } from '../../components/board-state-badges';
import { boardTaskAddressText } from '../../components/board-task-address';

const t = zh.memberBoards;

export function MemberBoardTaskPage({ data }: { data: MemberBoardTaskData }): JSX.Element {
  const { board, boardTask } = data;
  if (!board || !boardTask) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader title={zh.titles.userBoardTask} />
        <Panel>
          <p className="text-sm text-slate-600">{t.boardTaskNotFound}</p>
          <Link to="/user/board-list" className="mt-3 inline-block text-sm text-blue-600 hover:underline">
            {t.backToList}
          </Link>
        </Panel>
      </div>
    );
  }
  return <BoardTaskView board={board} boardTask={boardTask} />;
}

function BoardTaskView({ board, boardTask }: { board: Board; boardTask: BoardTask }): JSX.Element {
  const claim = useClaimActor();
  const target = claimTargetOf(board, boardTask);
  const rows: Array<[string, ReactNode]> = [
    [t.itemName, boardTask.itemName],
    [t.upc, boardTask.upc],
    [t.link, <ExternalLink url={boardTask.url} />],
    [t.price, formatMoney(boardTask.price)],
    [t.buyIn, formatMoney(boardTask.buyIn)],
    [t.show, boardTask.show],
    [t.colRemaining, boardTask.remaining],
    [t.progress, <ClaimProgress label={t.progressOf(boardTask.itemName)} count={boardTask.claimCount} need={boardTask.show} />],
    [t.address, boardTaskAddressText(boardTask.address)],
    [
      t.status,
      <span className="inline-flex gap-2">
        <BoardTaskStatusBadge status={boardTask.status} />
        {board.expire && <ExpiredBadge />}
      </span>,
    ],
    [t.note, boardTask.note],
    [t.timeLeft, <Countdown expireAt={board.expireAt} />],
  ];

  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <PageHeader
        title={`${zh.titles.userBoardTask} #${boardTask.id}`}
        description={board.boardName}
        actions={
          <>
            <Link to="/user/board/$uuid" params={{ uuid: board.uuid }} className="text-sm text-blue-600 hover:underline">
              {t.backToBoard}
            </Link>
            {canClaim(target) && <Button onClick={() => claim.send({ type: 'claim.open', boardTaskId: boardTask.id, target })}>{t.claim}</Button>}
          </>
        }
      />
      <Panel title={t.boardTaskInfo}>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label} className="flex gap-3">
              <dt className="w-20 shrink-0 text-slate-500">{label}</dt>
              <dd className="min-w-0 break-all text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </Panel>
      <ClaimDialog actor={claim} itemNameOf={(id) => (id === boardTask.id ? boardTask.itemName : undefined)} />
    </div>
  );
}
