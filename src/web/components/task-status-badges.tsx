// The task, board-task, scan-record and purchased-record status badges every feature shows (SPEC §4). Shared, not part
// of the UI kit in components/ui/: they know the domain's status values and read their labels from
// the i18n catalog (zh.status), while the kit stays free of both.
import type { JSX } from 'react';
import { recordArrivalOf, type PurchasedStatus, type TaskStatus } from '../../../machines/task.machine';
import type { BoardTaskStatus } from '../../../machines/claim.machine';
import type { ScanStatus } from '../../../machines/scan-record.machine';
import { StatusBadge, type BadgeTone } from './ui/status-badge';
import { zh } from '../i18n/zh';

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

const BOARD_TASK_TONE: Record<BoardTaskStatus, BadgeTone> = {
  normal: 'success',
  urgent: 'danger',
  full: 'warning',
  deleted: 'neutral',
  closed: 'neutral',
};

const SCAN_TONE: Record<ScanStatus, BadgeTone> = {
  init: 'neutral',
  scan: 'info',
  match: 'success',
  unmatch: 'danger',
  wait2pay: 'warning',
  payed: 'success',
};

function isTaskStatus(status: string): status is TaskStatus {
  return Object.hasOwn(TASK_TONE, status);
}

/**
 * A task status. Takes any string because some rows carry another entity's status (the audit log):
 * a value that is not a task status is shown as written, in the neutral tone.
 */
export function TaskStatusBadge({ status }: { status: TaskStatus | (string & {}) }): JSX.Element {
  return isTaskStatus(status) ? <StatusBadge tone={TASK_TONE[status]}>{zh.status.task[status]}</StatusBadge> : <StatusBadge>{status}</StatusBadge>;
}

export function BoardTaskStatusBadge({ status }: { status: BoardTaskStatus }): JSX.Element {
  return <StatusBadge tone={BOARD_TASK_TONE[status] ?? 'neutral'}>{zh.status.boardTask[status] ?? status}</StatusBadge>;
}

/** A scan record status; a value the contract does not know is shown as written. */
export function ScanStatusBadge({ status }: { status: ScanStatus | (string & {}) }): JSX.Element {
  return Object.hasOwn(SCAN_TONE, status) ? (
    <StatusBadge tone={SCAN_TONE[status as ScanStatus]}>{zh.status.scan[status as ScanStatus]}</StatusBadge>
  ) : (
    <StatusBadge>{status}</StatusBadge>
  );
}

const RECORD_TONE: Record<PurchasedStatus, BadgeTone> = { init: 'neutral', match: 'success', unmatch: 'danger' };

/**
 * A purchased record's status (SPEC §3): the task record dialog's and the claim list's. A record
 * waiting on a contested parcel (decision 096) reads 核对中 in amber, not a red 不匹配: the member
 * did nothing wrong.
 */
export function PurchasedStatusBadge({ record }: { record: { status: PurchasedStatus; msg?: string | null } }): JSX.Element {
  if (recordArrivalOf(record) === 'checking') return <StatusBadge tone="warning">{zh.tasks.arrival.checking}</StatusBadge>;
  return <StatusBadge tone={RECORD_TONE[record.status]}>{zh.tasks.recordStatus[record.status] ?? record.status}</StatusBadge>;
}
