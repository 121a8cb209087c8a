// What the admin does with the waited lines chosen on /admin/withdraw-list: how many and their
// total (summed in cents), 批量标记已付款, 导出付款文件 and 取消选择; and, after a bulk pay the server
// refused (all or nothing), which lines it refused and why. The page runs the calls.
import type { JSX } from 'react';
import { Button } from '../../components/ui/button';
import { zh } from '../../i18n/zh';
import type { BatchPayRow } from './withdraw-api';

const A = zh.withdraw.admin;

/** The contract's bound on ids in one bulk pay or payment file (IdsRequest, PaymentFileRequest). */
export const MAX_CHOSEN_LINES = 500;

export interface PaySelectionBarProps {
  count: number;
  /** The chosen lines' total, formatted. */
  total: string;
  paying: boolean;
  exporting: boolean;
  onPay: () => void;
  onExport: () => void;
  onClear: () => void;
}

export function PaySelectionBar({ count, total, paying, exporting, onPay, onExport, onClear }: PaySelectionBarProps): JSX.Element {
  const tooMany = count > MAX_CHOSEN_LINES;
  return (
    <section
      aria-label={A.selection.chosen(count, total)}
      className="sticky top-16 z-10 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-blue-200 bg-blue-50 px-4 py-3 shadow-sm"
    >
      <p className="text-sm text-blue-900">
        <span className="font-medium tabular-nums">{A.selection.chosen(count, total)}</span>
        {tooMany && <span className="ml-2 text-red-700">{A.selection.tooMany(MAX_CHOSEN_LINES)}</span>}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button loading={paying} disabled={tooMany || exporting} onClick={onPay}>
          {A.batchPay.button}
        </Button>
        <Button variant="secondary" loading={exporting} disabled={tooMany || paying} onClick={onExport}>
          {A.paymentFile.button}
        </Button>
        <Button variant="secondary" disabled={paying} onClick={onClear}>
          {A.selection.clear}
        </Button>
      </div>
    </section>
  );
}

export function RefusedLines({ rows, onDismiss }: { rows: readonly BatchPayRow[]; onDismiss: () => void }): JSX.Element {
  return (
    <div role="alert" className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <div>
        <p className="font-medium">{A.batchPay.refusedTitle}</p>
        <ul className="mt-1 list-disc pl-5">
          {rows.map((row) => (
            <li key={row.id}>{A.batchPay.refusedLine(row.id, row.msg)}</li>
          ))}
        </ul>
      </div>
      <Button variant="secondary" size="sm" onClick={onDismiss}>
        {A.batchPay.dismiss}
      </Button>
    </div>
  );
}
