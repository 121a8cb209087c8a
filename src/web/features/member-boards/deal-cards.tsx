// /user/board-list's cards view (decision 111): each listed board with its tasks as deal cards - the
// item, its price, what the member earns a unit (buyIn), the units left, the claim progress in
// SPEC §4's colours (ClaimProgress: up to 50 % green, 80 % orange, red above) and the time left to
// the board's deadline - each claimable from the card through the page's one claim dialog (the
// claim machine decides whether the button shows, as on the board page). One column on a phone, a
// grid on a wide screen. While the page loads: skeleton cards; a failed page load: the failure with
// a retry; a board whose tasks failed to load says so in its own group.
import { Link } from '@tanstack/react-router';
import type { JSX } from 'react';
import { LiveBoardStateBadge } from '../../components/board-state-badges';
import { ClaimProgress } from '../../components/claim-progress';
import { Countdown } from '../../components/countdown';
import { Button } from '../../components/ui/button';
import type { TableFailure } from '../../components/ui/data-table';
import { formatMoney } from '../../components/ui/format';
import { UI_TEXT } from '../../components/ui/ui-text';
import { zh } from '../../i18n/zh';
import type { ClaimActor } from './claim-dialog';
import { canClaim, claimTargetOf } from './claim-target';
import type { Board, BoardTask } from './member-boards-api';

const t = zh.memberBoards;

export interface BoardDealsProps {
  boards: readonly Board[];
  boardTasks: Record<number, BoardTask[] | null> | undefined;
  loading: boolean;
  failure: TableFailure | null;
  claim: ClaimActor;
}

export function BoardDeals({ boards, boardTasks, loading, failure, claim }: BoardDealsProps): JSX.Element {
  if (failure)
    return (
      <div role="alert" className="flex flex-wrap items-center justify-center gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-6 text-sm text-red-700">
        <span>{failure.message}</span>
        {failure.onRetry && (
          <Button variant="secondary" size="sm" onClick={failure.onRetry}>
            {UI_TEXT.retry}
          </Button>
        )}
      </div>
    );
  if (loading && !boardTasks) return <SkeletonCards />;
  if (boards.length === 0) return <p className="rounded-xl border border-slate-200 bg-white px-4 py-8 text-center text-sm text-slate-500">{UI_TEXT.empty}</p>;
  return (
    <div className="flex flex-col gap-6" aria-busy={loading || undefined}>
      {boards.map((board) => (
        <BoardGroup key={board.id} board={board} tasks={boardTasks?.[board.id]} claim={claim} />
      ))}
    </div>
  );
}

function BoardGroup({ board, tasks, claim }: { board: Board; tasks: BoardTask[] | null | undefined; claim: ClaimActor }): JSX.Element {
  const headingId = `deals-${board.id}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id={headingId} className="text-base font-semibold break-words text-slate-900">
          {board.boardName}
        </h2>
        <LiveBoardStateBadge board={board} />
        <Countdown expireAt={board.expireAt} className="text-sm" />
        <Link to="/user/board/$uuid" params={{ uuid: board.uuid }} className="ml-auto text-sm font-medium text-blue-600 hover:underline">
          {t.view}
        </Link>
        {board.remark && <p className="w-full text-sm break-words text-slate-600">{board.remark}</p>}
      </header>
      {tasks === null ? (
        <p role="alert" className="text-sm text-red-700">
          {t.dealsFailed}
        </p>
      ) : tasks === undefined || tasks.length === 0 ? (
        <p className="text-sm text-slate-500">{t.dealsEmpty}</p>
      ) : (
        <ul aria-label={t.dealsOf(board.boardName)} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {tasks.map((task) => (
            <DealCard key={task.id} board={board} task={task} claim={claim} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DealCard({ board, task, claim }: { board: Board; task: BoardTask; claim: ClaimActor }): JSX.Element {
  const target = claimTargetOf(board, task);
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <Link
        to="/user/boardtask/$boardId/$taskId"
        params={{ boardId: String(board.id), taskId: String(task.id) }}
        className="font-medium break-words text-slate-900 hover:text-blue-700 hover:underline"
      >
        {task.itemName}
      </Link>
      <dl className="grid grid-cols-3 gap-2 text-sm">
        <Figure label={t.dealPrice} value={formatMoney(task.price)} />
        <Figure label={t.dealEarn} value={formatMoney(task.buyIn)} strong />
        <Figure label={t.dealLeft} value={t.dealUnits(task.remaining)} />
      </dl>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <ClaimProgress label={t.progressOf(task.itemName)} count={task.claimCount} need={task.show} />
        <Countdown expireAt={board.expireAt} />
      </div>
      <div className="mt-auto">
        {canClaim(target) ? (
          <Button className="w-full" aria-label={t.dealClaimOf(task.itemName)} onClick={() => claim.send({ type: 'claim.open', boardTaskId: task.id, target })}>
            {t.claim}
          </Button>
        ) : (
          <p className="text-center text-sm text-slate-500">{t.dealUnavailable}</p>
        )}
      </div>
    </li>
  );
}

function Figure({ label, value, strong = false }: { label: string; value: string; strong?: boolean }): JSX.Element {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={`tabular-nums ${strong ? 'font-semibold text-green-700' : 'text-slate-900'}`}>{value}</dd>
    </div>
  );
}

function SkeletonCards(): JSX.Element {
  return (
    <>
      <span role="status" className="sr-only">
        {UI_TEXT.loading}
      </span>
      <ul aria-hidden="true" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <li key={i} className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4">
            <span className="block h-4 w-3/4 animate-pulse rounded bg-slate-200" />
            <span className="block h-8 w-full animate-pulse rounded bg-slate-200" />
            <span className="block h-9 w-full animate-pulse rounded bg-slate-200" />
          </li>
        ))}
      </ul>
    </>
  );
}
