// The Excel export of /admin/tracking-list (SPEC §2 "filters, table, edit dialog, Excel export"; §7
// "download links /ext/excel/... carry the token in the path (... admin tracking ...)"; DECISIONS
// "Files"): the scan records matching the list's filters when the download token was issued (fixed
// in the token: the link carries nothing but the token), in the list's order, with the list's
// columns and times in the caller's offset. At most MAX_TRACKING_EXPORT_ROWS: a token for more is
// refused when it is asked for (narrower filters, please), and a file never holds more (rows
// scanned between the token and the download are cut at the limit, newest first by default).
import { scanStatusLabels } from '../../../machines/scan-record.machine.ts';
import { formatTime } from '../dates.ts';
import type { ScanRow } from '../matching/match.ts';
import { taskDisplayId } from '../../../machines/task.machine.ts';
import { writeWorkbook, type OutCell } from './xlsx-write.ts';

export const MAX_TRACKING_EXPORT_ROWS = 50_000;

export const trackingExportMessages = {
  tooMany: `导出的记录超过${MAX_TRACKING_EXPORT_ROWS}条，请缩小筛选范围后再导出`,
} as const;

/** The scan record statuses in words, as the list shows them. */
export const SCAN_STATUS_TEXT: Record<ScanRow['status'], string> = scanStatusLabels;

export const TRACKING_EXPORT_HEADER = [
  'ID',
  '快递单号',
  'UPC',
  '数量',
  '商品ID',
  '商品名称',
  '状态',
  '匹配用户',
  '用户ID',
  '任务ID',
  '操作人ID',
  '创建时间',
  '更新时间',
] as const;

export function trackingWorkbook(rows: ScanRow[], timezone: number): Buffer {
  const out: OutCell[][] = rows.map((r) => [
    r.id,
    r.trackingId,
    r.upc,
    r.count,
    r.itemId,
    r.itemName,
    SCAN_STATUS_TEXT[r.status],
    r.matchedUser ?? '',
    r.userId,
    r.mainId !== null ? taskDisplayId({ mainId: r.mainId, subId: r.subId ?? 0 }) : '',
    r.opUid,
    formatTime(r.createdAt.getTime(), timezone),
    formatTime(r.updatedAt.getTime(), timezone),
  ]);
  return writeWorkbook([
    {
      name: '扫描记录',
      header: TRACKING_EXPORT_HEADER,
      rows: out,
      widths: [9, 28, 16, 7, 8, 32, 8, 14, 8, 10, 9, 17, 17],
      // Tracking ids, UPCs and task ids such as 12-1 stay text (not rounded numbers or dates).
      textColumns: [1, 2, 9],
    },
  ]);
}
