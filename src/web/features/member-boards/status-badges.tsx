// Board status and expiry badges of the member's board screens (SPEC §4: board
// unpublish/open/close). Task and board-task status badges are shared (components/task-status-badges.tsx).
import type { JSX } from 'react';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { Board } from './member-boards-api';

const BOARD_TONE: Record<Board['status'], BadgeTone> = { unpublish: 'neutral', open: 'success', close: 'neutral' };

export function BoardStatusBadge({ status }: { status: Board['status'] }): JSX.Element {
  return <StatusBadge tone={BOARD_TONE[status]}>{zh.memberBoards.boardStatus[status] ?? status}</StatusBadge>;
}

export function ExpiredBadge({ expired }: { expired: boolean }): JSX.Element {
  return expired ? <StatusBadge tone="danger">{zh.memberBoards.expired}</StatusBadge> : <StatusBadge tone="success">{zh.memberBoards.notExpired}</StatusBadge>;
}
