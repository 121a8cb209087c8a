// The Excel export of a board (SPEC §7 "download links /ext/excel/... (... board ...)"; the
// contract's exportBoardExcel: "its board tasks and their user tasks"; DECISIONS "Files"). Two
// sheets: the board's tasks as the admin edits them (amounts in the currency, not cents), and every
// member task claimed on them (deleted ones included, so the file accounts for every claim), times in
// the caller's offset. The board is fixed in the download token; the link's boardId must name the
// same board.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { boards, boardTasks } from '../db/schema/boards.ts';
import { tasks } from '../db/schema/tasks.ts';
import { formatTime } from '../dates.ts';
import { fromCents } from '../money/cents.ts';
import { taskDisplayId } from '../../../machines/task.machine.ts';
import { TASK_STATUS_TEXT } from './user-task-export.ts';
import { writeWorkbook, type OutCell } from './xlsx-write.ts';
import { DELETED_TASK_STATUS } from '../../../machines/task.machine.ts';

/** The words of the admin board task page (src/web/i18n). */
const BOARD_TASK_STATUS_TEXT: Record<(typeof boardTasks.$inferSelect)['status'], string> = {
  normal: '正常',
  urgent: '紧急',
  full: '已满',
  deleted: '已删除',
  closed: '已关闭',
};

export const BOARD_TASK_HEADER = [
  '看板任务ID',
  '商品ID',
  '商品名称',
  '链接',
  '价格',
  '回收价',
  '需求数量',
  '实际需求',
  '已认领',
  '状态',
  '地址',
  '备注',
] as const;
export const BOARD_USER_TASK_HEADER = ['任务ID', '看板任务ID', '用户ID', '用户', '商品名称', '认领数量', '到货数量', '状态', '认领时间'] as const;

const money = (cents: number | null) => (cents === null ? '' : fromCents(cents));

/** Whether the board exists (checked before a token for its export is issued). */
export async function boardExists(db: Db, boardId: number): Promise<boolean> {
  const [board] = await db.select({ id: boards.id }).from(boards).where(eq(boards.id, boardId));
  return board !== undefined;
}

/** The board, or null when it does not exist. */
export async function boardForExport(db: Db, boardId: number) {
  const [board] = await db.select().from(boards).where(eq(boards.id, boardId));
  if (!board) return null;
  const taskRows = await db.select().from(boardTasks).where(eq(boardTasks.boardId, boardId)).orderBy(asc(boardTasks.id));
  const userTasks = await db
    .select({ task: tasks, nickName: users.nickName })
    .from(tasks)
    .leftJoin(users, eq(users.id, tasks.userId))
    .where(eq(tasks.boardId, boardId))
    .orderBy(asc(tasks.boardTaskId), asc(tasks.mainId), asc(tasks.subId));
  return { board, taskRows, userTasks };
}

export function boardWorkbook(data: NonNullable<Awaited<ReturnType<typeof boardForExport>>>, timezone: number): Buffer {
  const claimed = new Map<number, number>();
  for (const { task } of data.userTasks) {
    if (task.status !== DELETED_TASK_STATUS) claimed.set(task.boardTaskId, (claimed.get(task.boardTaskId) ?? 0) + task.count);
  }
  const boardRows: OutCell[][] = data.taskRows.map((t) => [
    t.id,
    t.itemId,
    t.itemName,
    t.url,
    money(t.price),
    money(t.buyIn),
    t.show,
    t.need,
    claimed.get(t.id) ?? 0,
    BOARD_TASK_STATUS_TEXT[t.status],
    t.address,
    t.note,
  ]);
  const userRows: OutCell[][] = data.userTasks.map(({ task, nickName }) => [
    taskDisplayId(task),
    task.boardTaskId,
    task.userId,
    nickName ?? '',
    task.itemName,
    task.count,
    task.productCount,
    TASK_STATUS_TEXT[task.status],
    formatTime(task.createdAt.getTime(), timezone),
  ]);
  return writeWorkbook([
    { name: '看板任务', header: BOARD_TASK_HEADER, rows: boardRows, widths: [10, 8, 32, 30, 9, 9, 9, 9, 8, 8, 12, 20] },
    // Task ids such as 12-1 stay text (not dates).
    { name: '用户任务', header: BOARD_USER_TASK_HEADER, rows: userRows, widths: [10, 10, 8, 14, 32, 9, 8, 8, 17], textColumns: [0] },
  ]);
}
