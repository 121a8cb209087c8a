// A payment application's status (SPEC §4) as a badge, labelled from zh.payments.status; a value the
// contract does not know is shown as written.
import type { JSX } from 'react';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../../machines/payment.machine';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';

const TONE: Record<PaymentStatus, BadgeTone> = {
  applied: 'warning',
  agreed: 'info',
  withdrawing: 'info',
  paid: 'success',
  collected: 'neutral',
};

function isPaymentStatus(status: string): status is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(status);
}

export function PaymentStatusBadge({ status }: { status: PaymentStatus | (string & {}) }): JSX.Element {
  return isPaymentStatus(status) ? <StatusBadge tone={TONE[status]}>{zh.payments.status[status]}</StatusBadge> : <StatusBadge>{status}</StatusBadge>;
}
