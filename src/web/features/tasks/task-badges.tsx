// Purchased record status (SPEC §3) as a badge; the task status badge is shared
// (components/task-status-badges.tsx). A record waiting on a contested parcel (decision 096) reads
// 核对中 in amber, not a red 不匹配: the member did nothing wrong.
import type { JSX } from 'react';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import { recordArrivalOf } from '../../../../machines/task.machine';
import type { PurchasedStatus } from './tasks-api';

const RECORD_TONE: Record<PurchasedStatus, BadgeTone> = { init: 'neutral', match: 'success', unmatch: 'danger' };

export function PurchasedStatusBadge({ record }: { record: { status: PurchasedStatus; msg?: string | null } }): JSX.Element {
  if (recordArrivalOf(record) === 'checking') return <StatusBadge tone="warning">{zh.tasks.arrival.checking}</StatusBadge>;
  return <StatusBadge tone={RECORD_TONE[record.status]}>{zh.tasks.recordStatus[record.status] ?? record.status}</StatusBadge>;
}
