// Board status and expiry (SPEC §4) as coloured badges. Task and board-task status badges are shared
// (components/task-status-badges.tsx).
import type { JSX } from 'react';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { BoardStatus } from './boards-api';

const t = zh.boards;

const BOARD_TONE: Record<BoardStatus, BadgeTone> = { unpublish: 'neutral', open: 'success', close: 'danger' };

export function BoardStatusBadge({ status }: { status: BoardStatus }): JSX.Element {
  return <StatusBadge tone={BOARD_TONE[status] ?? 'neutral'}>{t.boardStatus[status] ?? status}</StatusBadge>;
}

export function ExpiredBadge({ expired }: { expired: boolean }): JSX.Element {
  return expired ? <StatusBadge tone="warning">{t.expired}</StatusBadge> : <StatusBadge tone="neutral">{t.notExpired}</StatusBadge>;
}
