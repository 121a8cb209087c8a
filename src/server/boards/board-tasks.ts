// Board tasks' queries and writes (SPEC §2 board detail and /admin/boardtask, §3 BoardTask, §5
// "Admin board task form"; DECISIONS "Boards, claims and tasks"). Members reach a board task only
// through a board visible to them (visibility.ts) and do not see deleted board tasks: deleting
// takes a board task off the board for them. The handler (handlers/board-tasks.ts) shapes the
// answers for the caller's side (boards/shapes.ts).
import { and, eq, inArray, min, ne, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { DELETED_BOARD_TASK_STATUS, NORMAL_BOARD_TASK_STATUS } from '../../../machines/claim.machine.ts';
import { DELETED_TASK_STATUS } from '../../../machines/task.machine.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { writeAudit } from '../audit.ts';
import type { Db, Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { boards, boardTasks, DEFAULT_BOARD_TASK_ADDRESS } from '../db/schema/boards.ts';
import { items } from '../db/schema/catalog.ts';
import { tasks } from '../db/schema/tasks.ts';
import { badRequest, notFound } from '../errors.ts';
import { toCents } from '../money/cents.ts';
import { BOARD_TASK_NOT_FOUND, boardById, boardScope, isAdminSide, selectBoardTasks, visibleToMember, type BoardTaskRow } from './visibility.ts';

export const boardTaskMessages = {
  itemMissing: '商品不存在',
  itemClosed: '商品已关闭，不能添加到看板',
  created: '创建成功',
  saved: '保存成功',
} as const;

/** SPEC §5: "url gets 'http://' prefixed if it does not start with http". */
export const withScheme = (url: string) => {
  const u = url.trim();
  return u === '' || /^http/i.test(u) ? u : `http://${u}`;
};

/** Members do not see deleted board tasks. */
const memberFilter = (user: SessionUser): SQL | undefined => (isAdminSide(user) ? undefined : ne(boardTasks.status, DELETED_BOARD_TASK_STATUS));

/**
 * One board task (on board `boardId` when given) with its UPC and claim count, if `user` may see it
 * (through its board), else A00004.
 */
export async function visibleBoardTask(tx: Tx, user: SessionUser, id: number, boardId?: number) {
  const scope = isAdminSide(user)
    ? undefined
    : and(memberFilter(user), sql`exists (select 1 from ${boards} where ${boards.id} = ${boardTasks.boardId} and ${visibleToMember(user.id)})`);
  const onBoard = boardId === undefined ? undefined : eq(boardTasks.boardId, boardId);
  const [row] = await selectBoardTasks(tx, and(eq(boardTasks.id, id), onBoard, scope)).limit(1);
  if (!row) throw notFound(BOARD_TASK_NOT_FOUND);
  return row;
}

/** The board tasks of a board the caller already sees (the member's view leaves out deleted ones). */
export function boardTasksOf(tx: Tx, user: SessionUser, boardId: number) {
  return selectBoardTasks(tx, and(eq(boardTasks.boardId, boardId), memberFilter(user)));
}

/**
 * The board tasks of several boards at once (the deal cards of a page of /user/board-list), each
 * board as boardTasksOf answers it and only the boards `user` sees (boardScope: every board for the
 * admin side); the others are left out, as if they did not exist. Boards in the order asked, each
 * once. Two statements whatever the count: the visible boards, then their board tasks.
 */
export async function boardTasksOfBoards(tx: Tx, user: SessionUser, boardIds: readonly number[]) {
  const asked = [...new Set(boardIds)];
  const seen = await tx
    .select({ id: boards.id })
    .from(boards)
    .where(and(inArray(boards.id, asked), boardScope(user)));
  const visible = new Set(seen.map((b) => b.id));
  const ids = asked.filter((id) => visible.has(id));
  if (!ids.length) return [];
  const rows = await selectBoardTasks(tx, and(inArray(boardTasks.boardId, ids), memberFilter(user)));
  const byBoard = new Map(ids.map((id) => [id, [] as typeof rows]));
  for (const row of rows) byBoard.get(row.row.boardId)!.push(row);
  return ids.map((boardId) => ({ boardId, rows: byBoard.get(boardId)! }));
}

/** Who claimed a board task: each member with the units of their live tasks, in order of first claim. */
export async function boardTaskClaimers(tx: Tx, boardTaskId: number) {
  const rows = await tx
    .select({ userId: users.id, nickName: users.nickName, mailAddr: users.mailAddr, count: sql<number>`sum(${tasks.count})::int` })
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.userId))
    .where(and(eq(tasks.boardTaskId, boardTaskId), ne(tasks.status, DELETED_TASK_STATUS)))
    .groupBy(users.id, users.nickName, users.mailAddr)
    .orderBy(min(tasks.id));
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

/**
 * Creates (no id) or updates a board task of board `boardId` (A00004 unless the caller sees it; SPEC
 * §5, both form variants). Item name, url and price come from the item: itemName always; url and price when the
 * form leaves them empty (the simpler form). url gets 'http://' when it lacks a scheme. On create,
 * need defaults to show, address to DEFAULT_BOARD_TASK_ADDRESS and status to normal; on update a
 * field the form leaves out keeps its stored value (a form that does not show status cannot reopen
 * a full board task by omission). A closed item cannot be put on a board (it may stay on one it is
 * already on). Written with its audit entry; answers the saved board task as selectBoardTasks reads
 * it and whether it was created.
 */
export async function saveBoardTask(db: Db, user: SessionUser, boardId: number, b: components['schemas']['BoardTaskSaveRequest']) {
  return db.transaction(async (tx) => {
    const board = await boardById(tx, user, boardId);
    let before: BoardTaskRow | undefined;
    if (b.id !== undefined) {
      [before] = await tx
        .select()
        .from(boardTasks)
        .where(and(eq(boardTasks.id, b.id), eq(boardTasks.boardId, board.id)))
        .for('update');
      if (!before) throw notFound(BOARD_TASK_NOT_FOUND);
    }
    const [item] = await tx.select().from(items).where(eq(items.id, b.itemId)).limit(1);
    if (!item) throw badRequest(boardTaskMessages.itemMissing);
    if (item.status === 'close' && before?.itemId !== item.id) throw badRequest(boardTaskMessages.itemClosed);

    const values = {
      itemId: item.id,
      itemName: item.itemName,
      url: withScheme(b.url?.trim() ? b.url : item.url),
      price: b.price === undefined ? item.price : b.price === null ? null : toCents(b.price),
      buyIn: toCents(b.buyIn),
      show: b.show,
      need: b.need ?? before?.need ?? b.show,
      averageCost: b.averageCost === undefined ? (before?.averageCost ?? null) : b.averageCost === null ? null : toCents(b.averageCost),
      address: b.address?.trim() || before?.address || DEFAULT_BOARD_TASK_ADDRESS,
      status: b.status ?? before?.status ?? NORMAL_BOARD_TASK_STATUS,
      note: b.note ?? before?.note ?? '',
      itemSource: b.itemSource ?? before?.itemSource ?? '',
    };
    let saved: BoardTaskRow;
    if (before) {
      [saved] = (await tx
        .update(boardTasks)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(boardTasks.id, before.id))
        .returning()) as [BoardTaskRow];
    } else {
      [saved] = (await tx
        .insert(boardTasks)
        .values({ ...values, boardId: board.id, userId: user.id })
        .returning()) as [BoardTaskRow];
    }
    await writeAudit(tx, {
      entity: 'boardTask',
      entityId: saved.id,
      action: before ? 'edit' : 'create',
      opUid: user.id,
      itemName: saved.itemName,
      upc: item.upc,
      count: saved.show,
      status: saved.status,
      before: before ?? null,
      after: saved,
    });
    const [row] = await selectBoardTasks(tx, eq(boardTasks.id, saved.id));
    return { row: row!, created: !before };
  });
}
