// Board status and expiry badges of the member's board screens (SPEC §4: board
// unpublish/open/close). A board is shown as open (green 开放) only while the board machine says it
// shows open: published and not past its deadline; an open board past it is 已过期 (it still takes
// claims, which then wait for approval). Task and board-task status badges are shared
// (components/task-status-badges.tsx).
import type { JSX } from 'react';
import { shownBoardState } from '../../../../machines/board.machine';
import { useNow } from '../../components/countdown';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { Board } from './member-boards-api';

const BOARD_TONE: Record<Board['status'], BadgeTone> = { unpublish: 'neutral', open: 'success', close: 'neutral' };

export function BoardStatusBadge({ status }: { status: Board['status'] }): JSX.Element {
  return <StatusBadge tone={BOARD_TONE[status]}>{zh.memberBoards.boardStatus[status] ?? status}</StatusBadge>;
}

/** The board's state at `now`: 开放 while it shows open, 已过期 when an open board's deadline has passed, else its status. */
export function BoardStateBadge({ board, now }: { board: Pick<Board, 'status' | 'expireAt'>; now: number }): JSX.Element {
  const state = shownBoardState(board, now);
  return state === 'expired' ? <ExpiredBadge expired /> : <BoardStatusBadge status={state} />;
}

/** BoardStateBadge at the current time, turning to 已过期 the moment the deadline passes. */
export function LiveBoardStateBadge({ board }: { board: Pick<Board, 'status' | 'expireAt'> }): JSX.Element {
  return <BoardStateBadge board={board} now={useNow()} />;
}

export function ExpiredBadge({ expired }: { expired: boolean }): JSX.Element {
  return expired ? <StatusBadge tone="warning">{zh.memberBoards.expired}</StatusBadge> : <StatusBadge tone="success">{zh.memberBoards.notExpired}</StatusBadge>;
}
