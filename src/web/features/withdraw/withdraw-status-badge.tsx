// A withdraw line's status (SPEC §4) as a badge, labelled from zh.withdraw.status; a value the
// contract does not know is shown as written.
import type { JSX } from 'react';
import { WITHDRAW_STATUSES, type WithdrawStatus } from '../../../../machines/withdraw.machine';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';

const TONE: Record<WithdrawStatus, BadgeTone> = {
  waited: 'warning',
  requestedCancel: 'danger',
  paid: 'success',
  canceled: 'neutral',
};

function isWithdrawStatus(status: string): status is WithdrawStatus {
  return (WITHDRAW_STATUSES as readonly string[]).includes(status);
}

export function WithdrawStatusBadge({ status }: { status: WithdrawStatus | (string & {}) }): JSX.Element {
  return isWithdrawStatus(status) ? <StatusBadge tone={TONE[status]}>{zh.withdraw.status[status]}</StatusBadge> : <StatusBadge>{status}</StatusBadge>;
}
