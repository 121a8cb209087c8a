// A board's state as every screen shows it, member's and admin's alike: one badge per board, its
// status, or 已过期 once an open board's deadline has passed (the board machine's shownBoardState), so
// an expired board never reads as open (green 已发布). An expired open board still takes claims,
// which then wait for approval. Shared like the task status badges (task-status-badges.tsx).
import type { JSX } from 'react';
import { shownBoardState, type BoardStatus, type ShownBoardState } from '../../../machines/board.machine';
import { useNow } from './countdown';
import { StatusBadge, type BadgeTone } from './ui/status-badge';
import { zh } from '../i18n/zh';

const BOARD_TONE: Record<ShownBoardState, BadgeTone> = { unpublish: 'neutral', open: 'success', close: 'neutral', expired: 'warning' };

/** The board's state at `now`. */
export function BoardStateBadge({ board, now }: { board: { status: BoardStatus; expireAt: number }; now: number }): JSX.Element {
  const state = shownBoardState(board, now);
  return <StatusBadge tone={BOARD_TONE[state]}>{zh.status.board[state]}</StatusBadge>;
}

/** BoardStateBadge at the current time, turning to 已过期 the moment the deadline passes. */
export function LiveBoardStateBadge({ board }: { board: { status: BoardStatus; expireAt: number } }): JSX.Element {
  return <BoardStateBadge board={board} now={useNow()} />;
}

/** 已过期 alone, where the page says only whether the deadline has passed. */
export function ExpiredBadge(): JSX.Element {
  return <StatusBadge tone={BOARD_TONE.expired}>{zh.status.board.expired}</StatusBadge>;
}
