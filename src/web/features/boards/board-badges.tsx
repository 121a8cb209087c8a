// Status values of boards, board tasks and user tasks (SPEC §4) as coloured badges.
import type { JSX } from 'react';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { BoardStatus, BoardTaskStatus, TaskStatus } from './boards-api';

const t = zh.boards;

const BOARD_TONE: Record<BoardStatus, BadgeTone> = { unpublish: 'neutral', open: 'success', close: 'danger' };

export function BoardStatusBadge({ status }: { status: BoardStatus }): JSX.Element {
  return <StatusBadge tone={BOARD_TONE[status] ?? 'neutral'}>{t.boardStatus[status] ?? status}</StatusBadge>;
}

export function ExpiredBadge({ expired }: { expired: boolean }): JSX.Element {
  return expired ? <StatusBadge tone="warning">{t.expired}</StatusBadge> : <StatusBadge tone="neutral">{t.notExpired}</StatusBadge>;
}

const BOARD_TASK_TONE: Record<BoardTaskStatus, BadgeTone> = {
  normal: 'success',
  urgent: 'danger',
  full: 'warning',
  deleted: 'neutral',
  closed: 'neutral',
};

export function BoardTaskStatusBadge({ status }: { status: BoardTaskStatus }): JSX.Element {
  return <StatusBadge tone={BOARD_TASK_TONE[status] ?? 'neutral'}>{t.boardTaskStatus[status] ?? status}</StatusBadge>;
}

const TASK_TONE: Record<TaskStatus, BadgeTone> = {
  pending: 'warning',
  open: 'info',
  closed: 'neutral',
  locked: 'info',
  processing: 'info',
  finished: 'success',
  deleted: 'neutral',
  unmatch: 'danger',
};

export function TaskStatusBadge({ status }: { status: TaskStatus }): JSX.Element {
  return <StatusBadge tone={TASK_TONE[status] ?? 'neutral'}>{t.taskStatus[status] ?? status}</StatusBadge>;
}
