// Status labels and tones of the member's board screens (SPEC §4: board unpublish/open/close, board
// task normal/urgent/full/deleted/closed, task pending/open/.../unmatch).
import type { JSX } from 'react';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { Board, BoardTask, MemberTask } from './member-boards-api';

const BOARD_TONE: Record<Board['status'], BadgeTone> = { unpublish: 'neutral', open: 'success', close: 'neutral' };
const BOARD_TASK_TONE: Record<BoardTask['status'], BadgeTone> = {
  normal: 'success',
  urgent: 'warning',
  full: 'info',
  deleted: 'neutral',
  closed: 'neutral',
};
const TASK_TONE: Record<MemberTask['status'], BadgeTone> = {
  pending: 'warning',
  open: 'info',
  closed: 'neutral',
  locked: 'info',
  processing: 'info',
  finished: 'success',
  deleted: 'neutral',
  unmatch: 'danger',
};

export function BoardStatusBadge({ status }: { status: Board['status'] }): JSX.Element {
  return <StatusBadge tone={BOARD_TONE[status]}>{zh.memberBoards.boardStatus[status] ?? status}</StatusBadge>;
}

export function BoardTaskStatusBadge({ status }: { status: BoardTask['status'] }): JSX.Element {
  return <StatusBadge tone={BOARD_TASK_TONE[status]}>{zh.memberBoards.boardTaskStatus[status] ?? status}</StatusBadge>;
}

export function TaskStatusBadge({ status }: { status: MemberTask['status'] }): JSX.Element {
  return <StatusBadge tone={TASK_TONE[status]}>{zh.memberBoards.taskStatus[status] ?? status}</StatusBadge>;
}

export function ExpiredBadge({ expired }: { expired: boolean }): JSX.Element {
  return expired ? (
    <StatusBadge tone="danger">{zh.memberBoards.expired}</StatusBadge>
  ) : (
    <StatusBadge tone="success">{zh.memberBoards.notExpired}</StatusBadge>
  );
}
