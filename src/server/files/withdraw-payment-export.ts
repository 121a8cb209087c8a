// The payment file of waited withdraw lines (exportWithdrawPayments; DECISIONS "Money"; decision
// 052): what the admin needs to pay each line, in full (money/payout-details.ts decrypts, audits
// and selects). Its first columns are the confirm upload's (提现ID, 订单号, 金额:
// withdraw-confirm-upload.ts CONFIRM_HEADERS), so the file, once paid, is the confirm file. Headers
// and payment and card types in the screens' words (machines/bank-card.ts); numbers and routing
// numbers are text cells, so leading zeros stay.
import { CARD_LABELS, cardTypeLabel, paymentTypeLabel } from '../../../machines/bank-card.ts';
import { fromCents } from '../money/cents.ts';
import type { PaymentLine } from '../money/payout-details.ts';
import { publicOrderId } from '../money/withdraw-shapes.ts';
import { CONFIRM_HEADERS } from './withdraw-confirm-upload.ts';
import { writeWorkbook } from './xlsx-write.ts';

export const PAYMENT_FILE_HEADER = [
  CONFIRM_HEADERS.id,
  CONFIRM_HEADERS.orderId,
  CONFIRM_HEADERS.amount,
  '用户',
  '邮箱',
  CARD_LABELS.paymentType,
  CARD_LABELS.accountName,
  CARD_LABELS.cardNo,
  CARD_LABELS.routingNumber,
  CARD_LABELS.bankInfo,
  CARD_LABELS.cardType,
  CARD_LABELS.address,
] as const;

export function paymentWorkbook(rows: readonly PaymentLine[]): Buffer {
  return writeWorkbook([
    {
      name: '待付款',
      header: PAYMENT_FILE_HEADER,
      rows: rows.map(({ line, nickName, mailAddr, details: d }) => [
        d.requestId,
        publicOrderId(line.orderId),
        fromCents(line.withdrawAmount),
        nickName,
        mailAddr,
        paymentTypeLabel(d.paymentType),
        d.accountName,
        d.cardNo,
        d.routingNumber,
        d.bankInfo,
        cardTypeLabel(d.cardType),
        d.address,
      ]),
      widths: [9, 9, 12, 14, 24, 10, 22, 24, 14, 18, 16, 36],
      textColumns: [6, 7, 8],
    },
  ]);
}
