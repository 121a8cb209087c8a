// Task status (SPEC §4) as a coloured badge on the admin task screens.
import type { JSX } from 'react';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { TaskStatus } from './admin-tasks-api';

const TONE: Record<TaskStatus, BadgeTone> = {
  pending: 'warning',
  open: 'info',
  closed: 'neutral',
  locked: 'info',
  processing: 'info',
  finished: 'success',
  deleted: 'neutral',
  unmatch: 'danger',
};

function isTaskStatus(status: string): status is TaskStatus {
  return status in TONE;
}

/** A task status; any other status value (an audit row of another entity) is shown as written. */
export function TaskStatusBadge({ status }: { status: string }): JSX.Element {
  return isTaskStatus(status) ? (
    <StatusBadge tone={TONE[status]}>{zh.adminTasks.taskStatus[status]}</StatusBadge>
  ) : (
    <StatusBadge>{status}</StatusBadge>
  );
}
