// The columns both payment lists show (SPEC §2 /user/apply-list: task id, itemName, price, buyIn,
// count, bonus, punish labelled discount, income, note, status). Money shows with two decimals. As
// cards (a phone, where a list asks for them) the item heads the card with its status beside it,
// the income and the task first among the values, and the actions at the foot.
import { taskDisplayId } from '../../../../machines/task.machine';
import type { ReactNode } from 'react';
import { columnHelper, type DataTableColumn } from '../../components/ui/data-table';
import { formatMoney } from '../../components/ui/format';
import { zh } from '../../i18n/zh';
import { PaymentStatusBadge } from './payment-status-badge';
import type { PaymentApply } from './payments-api';

const C = zh.payments.col;

export const applyCol = columnHelper<PaymentApply>();

const money = { cell: ({ getValue }: { getValue: () => number }) => formatMoney(getValue()), meta: { align: 'right' as const, className: 'tabular-nums' } };

export interface ApplyColumnsOptions {
  /** Columns after the task id (the applicant on the admin side). */
  afterTaskId?: DataTableColumn<PaymentApply>[];
  /** The bonus cell (the admin side adds what the member asked for). */
  bonusCell?: (row: PaymentApply) => ReactNode;
  /** Columns after the status (the time of the application on the admin side). */
  afterStatus?: DataTableColumn<PaymentApply>[];
  /** The action buttons of a row. */
  actions: (row: PaymentApply) => ReactNode;
}

export function applyColumns({ afterTaskId = [], bonusCell, afterStatus = [], actions }: ApplyColumnsOptions): DataTableColumn<PaymentApply>[] {
  return applyCol.columns([
    applyCol.display({
      id: 'taskId',
      header: C.taskId,
      cell: ({ row }) => taskDisplayId(row.original),
      meta: { className: 'whitespace-nowrap tabular-nums' },
    }),
    ...afterTaskId,
    applyCol.accessor('itemName', { header: C.itemName, meta: { className: 'min-w-40', card: 'title' } }),
    applyCol.accessor('price', { header: C.price, ...money }),
    applyCol.accessor('buyIn', { header: C.buyIn, ...money }),
    applyCol.accessor('count', { header: C.count, meta: { align: 'right', className: 'tabular-nums' } }),
    bonusCell
      ? applyCol.display({ id: 'bonus', header: C.bonus, cell: ({ row }) => bonusCell(row.original), meta: money.meta })
      : applyCol.accessor('bonus', { header: C.bonus, ...money }),
    applyCol.accessor('punish', { header: C.discount, ...money }),
    applyCol.accessor('income', { header: C.income, ...money, meta: { ...money.meta, className: 'tabular-nums font-medium' } }),
    applyCol.accessor('note', { header: C.note, meta: { className: 'max-w-60 break-words' } }),
    applyCol.accessor('status', { header: C.status, cell: ({ getValue }) => <PaymentStatusBadge status={getValue()} />, meta: { card: 'badge' } }),
    ...afterStatus,
    applyCol.display({
      id: 'actions',
      header: C.actions,
      cell: ({ row }) => actions(row.original),
      meta: { className: 'whitespace-nowrap', card: 'actions' },
    }),
  ]);
}
