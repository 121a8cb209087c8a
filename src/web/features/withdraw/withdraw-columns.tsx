// The columns the withdraw tables share (SPEC §2, §3 withdraw request): each page picks its own
// list and order from these. Card fields come masked from the server; amounts show two decimals. As
// cards (a phone) the amount heads a line's card with its status beside it.
import { paymentTypeLabel } from '../../../../machines/bank-card';
import { columnHelper } from '../../components/ui/data-table';
import { formatDateTime, formatMoney } from '../../components/ui/format';
import { zh } from '../../i18n/zh';
import type { WithdrawRequest } from './withdraw-api';
import { WithdrawStatusBadge } from './withdraw-status-badge';

const C = zh.withdraw.col;

export const withdrawCol = columnHelper<WithdrawRequest>();

const mono = ({ getValue }: { getValue: () => string | undefined }) => <span className="font-mono text-xs whitespace-nowrap">{getValue() ?? ''}</span>;

export const withdrawColumn = {
  id: withdrawCol.accessor('id', { header: C.id, meta: { className: 'tabular-nums' } }),
  orderId: withdrawCol.accessor('orderId', { header: C.orderId, meta: { className: 'tabular-nums' } }),
  paymentType: withdrawCol.accessor('paymentType', {
    header: C.paymentType,
    cell: ({ getValue }) => paymentTypeLabel(getValue()),
    meta: { className: 'whitespace-nowrap' },
  }),
  /** The request list's names (SPEC §3 accountNameEncrypt, cardNoEncrypt: masked, never cipher text). */
  accountNameEncrypt: withdrawCol.accessor('accountNameEncrypt', { header: C.accountName, cell: mono }),
  cardNoEncrypt: withdrawCol.accessor('cardNoEncrypt', { header: C.cardNo, cell: mono }),
  /** The orders list's names for the same masks (SPEC §2 accountName, cardNo). */
  accountName: withdrawCol.display({
    id: 'accountName',
    header: C.accountName,
    cell: ({ row }) => mono({ getValue: () => row.original.accountName ?? row.original.accountNameEncrypt }),
  }),
  cardNo: withdrawCol.display({
    id: 'cardNo',
    header: C.cardNo,
    cell: ({ row }) => mono({ getValue: () => row.original.cardNo ?? row.original.cardNoEncrypt }),
  }),
  address: withdrawCol.accessor('address', { header: C.address, meta: { className: 'min-w-40' } }),
  withdrawAmount: withdrawCol.accessor('withdrawAmount', {
    header: C.withdrawAmount,
    cell: ({ getValue }) => formatMoney(getValue()),
    meta: { align: 'right', className: 'tabular-nums whitespace-nowrap', card: 'title' },
  }),
  userNote: withdrawCol.accessor('userNote', { header: C.userNote, meta: { className: 'min-w-32' } }),
  status: withdrawCol.accessor('status', { header: C.status, cell: ({ getValue }) => <WithdrawStatusBadge status={getValue()} />, meta: { card: 'badge' } }),
  adminNote: withdrawCol.accessor('adminNote', { header: C.adminNote, meta: { className: 'min-w-32' } }),
  adminNote2: withdrawCol.accessor('adminNote2', { header: C.adminNote2, meta: { className: 'min-w-32' } }),
  createdAt: withdrawCol.accessor('createdAt', {
    header: C.createdAt,
    cell: ({ getValue }) => formatDateTime(getValue()),
    meta: { className: 'whitespace-nowrap' },
  }),
};
