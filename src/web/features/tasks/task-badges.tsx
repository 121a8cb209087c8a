// Purchased record status (SPEC §3) as a badge; the task status badge is shared
// (components/task-status-badges.tsx).
import type { JSX } from 'react';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import type { PurchasedStatus } from './tasks-api';

const RECORD_TONE: Record<PurchasedStatus, BadgeTone> = { init: 'neutral', match: 'success', unmatch: 'danger' };

export function PurchasedStatusBadge({ status }: { status: PurchasedStatus }): JSX.Element {
  return <StatusBadge tone={RECORD_TONE[status]}>{zh.tasks.recordStatus[status] ?? status}</StatusBadge>;
}
