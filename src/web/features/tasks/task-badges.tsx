// Status labels and tones of the task screens (SPEC §4 task status; §3 purchased record status).
import type { JSX } from 'react';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { PurchasedStatus, TaskStatus } from './tasks-api';

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

const RECORD_TONE: Record<PurchasedStatus, BadgeTone> = { init: 'neutral', match: 'success', unmatch: 'danger' };

export function TaskStatusBadge({ status }: { status: TaskStatus }): JSX.Element {
  return <StatusBadge tone={TASK_TONE[status]}>{zh.tasks.taskStatus[status] ?? status}</StatusBadge>;
}

export function PurchasedStatusBadge({ status }: { status: PurchasedStatus }): JSX.Element {
  return <StatusBadge tone={RECORD_TONE[status]}>{zh.tasks.recordStatus[status] ?? status}</StatusBadge>;
}
