// The Excel export of /admin/withdraw-list (SPEC §7 "download links /ext/excel/... carry the token in
// the path (withdraw, ...)"; DECISIONS "Files", "Money"): the withdraw lines matching the admin
// list's filters, in its order. The contract (exportWithdrawExcel) takes those filters on the link
// itself (orderId, status, userId, cardId, isDesc); the download token (kind withdraw, admin only)
// fixes only the caller and the timezone of the times in the file, given when the token is asked
// for (getExcelDownloadToken has no withdraw filters). At most MAX_WITHDRAW_EXPORT_ROWS lines: more
// is refused (A00001, narrower filters please).
//
// Card fields are masked like every response (DECISIONS: "masked in every response"): holder name
// and card number as '****' + last characters. The first columns (提现ID, 订单号, 金额) are the
// confirm upload's (withdraw-confirm-upload.ts), so this file, reduced to the lines paid, is the
// confirm file.
import { CARD_LABELS, paymentTypeLabel } from '../../../machines/bank-card.ts';
import type { WithdrawStatus } from '../../../machines/withdraw.machine.ts';
import { WITHDRAW_STATUSES } from '../../../machines/withdraw.machine.ts';
import { formatTime } from '../dates.ts';
import type { Tx } from '../db/client.ts';
import { fromCents } from '../money/cents.ts';
import { linesForExport, type LineWithUser, type WithdrawFilters } from '../money/withdraw-service.ts';
import { lineOut } from '../money/withdraw-shapes.ts';
import type { DownloadParams } from './download-tokens.ts';
import { CONFIRM_HEADERS } from './withdraw-confirm-upload.ts';
import { writeWorkbook, type OutCell } from './xlsx-write.ts';
import { badRequest } from '../errors.ts';

export const MAX_WITHDRAW_EXPORT_ROWS = 50_000;

export const withdrawExportMessages = {
  tooMany: `导出的记录超过${MAX_WITHDRAW_EXPORT_ROWS}条，请缩小筛选范围后再导出`,
} as const;

/** The withdraw statuses in words (SPEC §4). */
export const WITHDRAW_STATUS_TEXT: Record<WithdrawStatus, string> = {
  waited: '待付款',
  paid: '已付款',
  requestedCancel: '申请取消',
  canceled: '已取消',
};

export const WITHDRAW_EXPORT_HEADER = [
  CONFIRM_HEADERS.id,
  CONFIRM_HEADERS.orderId,
  CONFIRM_HEADERS.amount,
  '用户ID',
  '用户',
  '邮箱',
  '银行卡ID',
  CARD_LABELS.paymentType,
  CARD_LABELS.accountName,
  CARD_LABELS.cardNo,
  CARD_LABELS.address,
  '用户备注',
  '状态',
  '可申请取消',
  '账户备注',
  '日期备注',
  '创建时间',
  '更新时间',
] as const;

/** The token's params: the timezone of the file's times. */
export function withdrawExportParams(q: { timezone?: number }): DownloadParams {
  return { timezone: q.timezone ?? 0 };
}

export function withdrawExportTimezone(p: DownloadParams): number {
  const tz = p.timezone;
  return typeof tz === 'number' && tz >= -12 && tz <= 14 ? tz : 0;
}

/** The link's filters (exportWithdrawExcel's query) as the list's filters. */
export function withdrawExportFilters(q: { isDesc?: boolean; orderId?: number; status?: string; userId?: number; cardId?: number }): WithdrawFilters {
  return {
    isDesc: q.isDesc ?? true,
    orderId: q.orderId,
    status: WITHDRAW_STATUSES.find((s) => s === q.status),
    userId: q.userId,
    cardId: q.cardId,
  };
}

export async function withdrawLinesForExport(tx: Tx, filters: WithdrawFilters): Promise<LineWithUser[]> {
  const rows = await linesForExport(tx, filters, MAX_WITHDRAW_EXPORT_ROWS);
  if (rows.length > MAX_WITHDRAW_EXPORT_ROWS) throw badRequest(withdrawExportMessages.tooMany);
  return rows;
}

export function withdrawWorkbook(rows: LineWithUser[], timezone: number): Buffer {
  const out: OutCell[][] = rows.map(({ line, nickName, mailAddr }) => {
    const w = lineOut(line);
    return [
      w.id,
      w.orderId,
      fromCents(line.withdrawAmount),
      w.userId,
      nickName,
      mailAddr,
      w.cardId,
      paymentTypeLabel(w.paymentType),
      w.accountName,
      w.cardNo,
      w.address,
      w.userNote,
      WITHDRAW_STATUS_TEXT[line.status],
      w.cancelFlag ? '是' : '否',
      w.adminNote,
      w.adminNote2,
      formatTime(line.createdAt.getTime(), timezone),
      formatTime(line.updatedAt.getTime(), timezone),
    ];
  });
  return writeWorkbook([
    {
      name: '提现记录',
      header: WITHDRAW_EXPORT_HEADER,
      rows: out,
      widths: [9, 9, 12, 8, 14, 24, 9, 12, 20, 22, 36, 24, 10, 10, 20, 14, 17, 17],
    },
  ]);
}
