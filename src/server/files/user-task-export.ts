// The Excel export of /user/my-task (SPEC §2; DECISIONS "Files"): the member's own tasks with the
// filters the page had when the download token was issued (they are fixed in the token: the link
// carries nothing but the token), in the page's order and with the page's columns. The filters are
// those of listUserTasks (tasks/task-lists.ts), applied the same way. One row per purchased record
// (its tracking id and 数量), so the file goes back in through the member's upload as it is, also after
// an office program re-saves it (docs/decisions/068-spreadsheets-as-offices-send-them.md); a task
// without records is one row with both cells empty, which the upload skips.
import { eq } from 'drizzle-orm';
import { containsText } from '../db/contains.ts';
import type { components } from '../../api/schema';
import { allOf, hasPurchasedRecord, hasTrackingId, idOrMainId, isClaimed, pageTasks } from '../boards/task-queries.ts';
import type { Tx } from '../db/client.ts';
import { formatTime } from '../dates.ts';
import { tasks } from '../db/schema/tasks.ts';
import type { DownloadParams } from './download-tokens.ts';
import { taskDisplayId } from '../../../machines/task.machine.ts';
import { writeWorkbook, type OutCell } from './xlsx-write.ts';
import { withMemberDetails } from '../tasks/member-task-list.ts';
import { TASK_STATUSES } from '../../../machines/task.machine.ts';

type Task = components['schemas']['Task'];
type TaskStatus = components['schemas']['TaskStatus'];

/** An export holds at most this many tasks (a member's own tasks stay far below it). */
export const MAX_EXPORT_ROWS = 20_000;

export interface UserTaskFilters {
  isDesc: boolean;
  taskStatus?: TaskStatus;
  itemName?: string;
  taskId?: number;
  trackingId?: string;
  boardId?: number;
  /** Only tasks with a purchased record (listUserTasks' `recorded`). */
  recorded?: boolean;
  /** Only tasks not deleted (listUserTasks' `claimed`). */
  claimed?: boolean;
  /** Offset from UTC in hours; times in the file are written in it. */
  timezone: number;
}

/** The same words as the web's task status badges (src/web/i18n/zh-tasks.ts taskStatus). */
export const TASK_STATUS_TEXT: Record<TaskStatus, string> = {
  pending: '待审核',
  open: '进行中',
  closed: '已关闭',
  locked: '已锁定',
  processing: '付款中',
  finished: '已完成',
  deleted: '已删除',
  unmatch: '不匹配',
};

/** The filters as stored in the token (only the ones given). */
export function userTaskParams(q: Partial<UserTaskFilters>): DownloadParams {
  const p: DownloadParams = { isDesc: q.isDesc ?? true, timezone: q.timezone ?? 0 };
  if (q.taskStatus !== undefined) p.taskStatus = q.taskStatus;
  if (q.itemName?.trim()) p.itemName = q.itemName.trim();
  if (q.taskId !== undefined) p.taskId = q.taskId;
  if (q.trackingId?.trim()) p.trackingId = q.trackingId.trim();
  if (q.boardId !== undefined) p.boardId = q.boardId;
  if (q.recorded) p.recorded = true;
  if (q.claimed) p.claimed = true;
  return p;
}

/** The stored filters read back; anything not of the expected type is ignored. */
export function userTaskFilters(p: DownloadParams): UserTaskFilters {
  const int = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined);
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const tz = p.timezone;
  return {
    isDesc: p.isDesc !== false,
    taskStatus: TASK_STATUSES.find((s) => s === p.taskStatus),
    itemName: str(p.itemName),
    taskId: int(p.taskId),
    trackingId: str(p.trackingId),
    boardId: int(p.boardId),
    recorded: p.recorded === true || undefined,
    claimed: p.claimed === true || undefined,
    timezone: typeof tz === 'number' && tz >= -12 && tz <= 14 ? tz : 0,
  };
}

/** `like` pattern for a substring, with the pattern characters of the input taken literally. */

export async function userTasksForExport(tx: Tx, userId: number, f: UserTaskFilters): Promise<Task[]> {
  const where = allOf(
    eq(tasks.userId, userId),
    f.taskStatus !== undefined ? eq(tasks.status, f.taskStatus) : undefined,
    f.itemName ? containsText(tasks.itemName, f.itemName) : undefined,
    f.taskId !== undefined ? idOrMainId(f.taskId) : undefined,
    f.trackingId ? hasTrackingId(f.trackingId) : undefined,
    f.boardId !== undefined ? eq(tasks.boardId, f.boardId) : undefined,
    f.recorded ? hasPurchasedRecord() : undefined,
    f.claimed ? isClaimed() : undefined,
  );
  const page = await pageTasks(tx, where, { size: MAX_EXPORT_ROWS, offset: 0, isDesc: f.isDesc });
  return (await withMemberDetails(tx, page)).content;
}

export const USER_TASK_HEADER = [
  '任务ID',
  '看板',
  '商品名称',
  'UPC',
  '认领数量',
  '到货数量',
  '价格',
  '回收价',
  '奖励',
  '折扣',
  '状态',
  '快递单号',
  '数量',
  '认领时间',
] as const;

export function userTaskWorkbook(list: Task[], timezone: number): Buffer {
  const rows: OutCell[][] = list.flatMap((t) =>
    (t.trackings?.length ? t.trackings : [null]).map((r) => [
      taskDisplayId(t),
      t.boardName ?? '',
      t.itemName,
      t.upc,
      t.count,
      t.productCount,
      t.price,
      t.buyIn,
      t.bonus,
      t.punish,
      TASK_STATUS_TEXT[t.status],
      r?.trackingId ?? '',
      r?.productCount ?? '',
      formatTime(t.createdAt, timezone),
    ]),
  );
  return writeWorkbook([
    {
      name: '我的任务',
      header: USER_TASK_HEADER,
      rows,
      widths: [10, 16, 32, 16, 9, 9, 9, 9, 8, 8, 8, 30, 8, 17],
      // Task ids such as 12-1, UPCs and tracking ids stay text (not dates or rounded numbers).
      textColumns: [0, 3, 11],
    },
  ]);
}
