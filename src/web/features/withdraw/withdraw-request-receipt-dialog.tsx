// 确认收款 from /user/withdraw-request: a paid line's order has paid its applications (once every
// line of the order is paid, machines/withdraw.machine.ts), and the member confirms the money
// arrived without going to /user/apply-list. The dialog lists the order's applications
// (listPaymentApplies?orderId=) with their status and confirms receipt of those the payment machine
// allows pay.collect for (canCollect), one call each (POST /api/trade/user/collect/confirm, as the
// apply list's button), then says how many went through or the server's words, and the page reloads.
import { useCallback, useState, type JSX } from 'react';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../../machines/payment.machine';
import { errorText } from '../../../api/client';
import { useAppContext } from '../../app/app-context';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { StatusBadge } from '../../components/ui/status-badge';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useRemote } from '../../lib/use-remote';
import { loadOrderApplies, type PaymentApply, type WithdrawRequest } from './withdraw-api';
import { confirmCollect } from '../../lib/task-calls';
import { formatCents, toCents } from '../../../../machines/cents';
import { canCollect } from './withdraw-rules';
import { ApplicationsTable } from './applications-table';

const t = zh.withdraw.receipt;

const statusText = (status: string) => ((PAYMENT_STATUSES as readonly string[]).includes(status) ? zh.payments.status[status as PaymentStatus] : status);

export interface ReceiptDialogProps {
  line: WithdrawRequest;
  onClose: () => void;
  /** Called after receipts were confirmed (some or all). */
  onDone: () => void;
}

export function ReceiptDialog({ line, onClose, onDone }: ReceiptDialogProps): JSX.Element {
  const { api } = useAppContext();
  const [saving, setSaving] = useState(false);
  const load = useCallback(() => loadOrderApplies(api, line.orderId), [api, line.orderId]);
  const remote = useRemote(`receipt-${line.orderId}`, load);
  const outcome = remote.data;
  const applies = outcome?.ok ? outcome.data : [];
  const collectable = applies.filter(canCollect);
  const totalCents = collectable.reduce((sum, apply) => sum + toCents(apply.income), 0);

  async function confirm() {
    setSaving(true);
    let done = 0;
    try {
      for (const apply of collectable) {
        const result = await confirmCollect(api, apply.id);
        if (!result.ok) {
          toast.error(result.msg || zh.withdraw.failed);
          break;
        }
        done++;
      }
      if (done > 0) toast.success(t.done(done));
    } finally {
      setSaving(false);
      if (done > 0) onDone();
      else remote.reload();
    }
  }

  return (
    <Modal
      open
      size="lg"
      onClose={() => {
        if (!saving) onClose();
      }}
      title={t.title(line.orderId)}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {t.cancel}
          </Button>
          <Button loading={saving} disabled={collectable.length === 0} onClick={() => void confirm()}>
            {t.confirm(collectable.length)}
          </Button>
        </>
      }
    >
      {outcome === undefined || remote.loading ? (
        <p role="status" className="text-slate-500">
          {t.loading}
        </p>
      ) : !outcome.ok ? (
        <p role="alert" className="text-sm text-red-700">
          {t.loadFailed}：{outcome.code === null && !outcome.msg ? zh.common.networkError : errorText(outcome.code, outcome.msg)}
        </p>
      ) : (
        <OrderApplies applies={applies} collectable={collectable.length} totalCents={totalCents} />
      )}
    </Modal>
  );
}

/** The order's applications with their status, and the income 确认收款 would confirm (or that none can be). */
function OrderApplies({ applies, collectable, totalCents }: { applies: PaymentApply[]; collectable: number; totalCents: number }): JSX.Element {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p className="text-slate-600">{t.intro}</p>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <ApplicationsTable
          applies={applies}
          caption={t.caption}
          after={{
            header: t.colStatus,
            cell: (apply) => <StatusBadge tone={canCollect(apply) ? 'success' : 'neutral'}>{statusText(apply.status)}</StatusBadge>,
          }}
        />
      </div>
      {collectable > 0 ? (
        <p className="font-medium text-slate-800 tabular-nums">{t.total(formatCents(totalCents))}</p>
      ) : (
        <p className="text-slate-600">{t.nothing}</p>
      )}
    </div>
  );
}
