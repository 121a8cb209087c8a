// Who sees which board (DECISIONS "Roles": "A user sees a board only if it is open and published to
// them (through a bound group or by user id), and may claim only from such boards"), and the shared
// queries of the boards / board tasks / claims handlers. Admins and lowerAdmins see every board, in
// every status; a member sees what visibleToMember says. Everything else answers A00004 as if the
// board did not exist, so a member cannot probe for boards that are not theirs.
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { isBoardExpired, OPEN_BOARD_STATUS } from '../../../machines/board.machine.ts';
import { DELETED_TASK_STATUS } from '../../../machines/task.machine.ts';
import type { Tx } from '../db/client.ts';
import { boardGroups, boards, boardTasks, boardUsers } from '../db/schema/boards.ts';
import { items } from '../db/schema/catalog.ts';
import { userGroupMembers } from '../db/schema/groups.ts';
import { tasks } from '../db/schema/tasks.ts';
import { notFound } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';

export type BoardRow = typeof boards.$inferSelect;
export type BoardTaskRow = typeof boardTasks.$inferSelect;

export const isAdminSide = (user: SessionUser) => user.roleType !== 'user';

export const BOARD_NOT_FOUND = '看板不存在';
export const BOARD_TASK_NOT_FOUND = '任务不存在';

/**
 * The condition "this board is visible to member userId" over the boards table.
 *
 * Open AND the member belongs to a group bound to it (board_groups) or it was published to them by
 * id (board_users). Membership is read at request time, so adding or removing a member from a group
 * changes what they see at once. A board's audience is the union of both: publishing to chosen users
 * opens the board, so members of groups already bound to it see it too; an admin who wants a board
 * for chosen users only binds no group to it. publishAt is the date the admin shows on the board,
 * not a schedule: a board becomes visible when it is published (status open), an explicit act of
 * the admin.
 */
export function visibleToMember(userId: number): SQL {
  return sql`(${boards.status} = ${OPEN_BOARD_STATUS} and (exists (select 1 from ${boardGroups} bg join ${userGroupMembers} m on m.group_id = bg.group_id where bg.board_id = ${boards.id} and m.user_id = ${userId}) or exists (select 1 from ${boardUsers} bu where bu.board_id = ${boards.id} and bu.user_id = ${userId})))`;
}

/** The condition restricting boards to those `user` may see (none for the admin side). */
export function boardScope(user: SessionUser): SQL | undefined {
  return isAdminSide(user) ? undefined : visibleToMember(user.id);
}

/** The board matching `where` if `user` may see it, else A00004 '看板不存在'. */
export async function visibleBoard(tx: Tx, user: SessionUser, where: SQL): Promise<BoardRow> {
  const [row] = await tx
    .select()
    .from(boards)
    .where(and(where, boardScope(user)))
    .limit(1);
  if (!row) throw notFound(BOARD_NOT_FOUND);
  return row;
}

export const boardById = (tx: Tx, user: SessionUser, id: number) => visibleBoard(tx, user, eq(boards.id, id));
export const boardByUuid = (tx: Tx, user: SessionUser, uuid: string) => visibleBoard(tx, user, eq(boards.uuid, uuid));

/** Expiry is not stored (schema/boards.ts): a board is expired once expireAt has passed (the board machine's isBoardExpired). */
export const isExpired = (board: Pick<BoardRow, 'expireAt'>, now = new Date()) => isBoardExpired({ expireAt: board.expireAt.getTime() }, now.getTime());

/** Units held by a board task's tasks that are not deleted (what remaining = show - claimed counts). */
export const claimCountSql = sql<number>`coalesce((select sum(t.count) from ${tasks} t where t.board_task_id = ${boardTasks.id} and t.status <> ${DELETED_TASK_STATUS}), 0)::int`;

/** The columns every board-task answer is built from: the row, its item's UPC and its claim count. */
export const boardTaskColumns = {
  row: boardTasks,
  upc: items.upc,
  claimCount: claimCountSql,
};

/** Board tasks with their item's UPC and claim count, filtered by `where`, oldest first. */
export function selectBoardTasks(tx: Tx, where: SQL | undefined) {
  return tx
    .select(boardTaskColumns)
    .from(boardTasks)
    .innerJoin(items, eq(items.id, boardTasks.itemId))
    .where(where)
    .orderBy(boardTasks.createdAt, boardTasks.id);
}

/** Units claimed (non-deleted tasks) of one board task, read inside the caller's transaction. */
export async function claimedUnits(tx: Tx, boardTaskId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${tasks.count}), 0)::int` })
    .from(tasks)
    .where(and(eq(tasks.boardTaskId, boardTaskId), ne(tasks.status, DELETED_TASK_STATUS)));
  return Number(row?.n ?? 0);
}
