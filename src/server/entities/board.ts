// The board as the lifecycle store knows it (entities/store.ts): machines/board.machine.ts decides,
// with the board's non-deleted tasks and bound groups as its context (boardContext, read under the
// board's lock: publishing needs something to claim and an audience). The audit trail shows a
// board's status; boards have no live kind (a member's board list is read when shown).
import { and, count, eq, ne } from 'drizzle-orm';
import { boardMachine, explainBoardRefusal, type BoardContext, type BoardEvent, type BoardStatus } from '../../../machines/board.machine.ts';
import { DELETED_BOARD_TASK_STATUS } from '../../../machines/claim.machine.ts';
import { decide, type Decision } from '../../../machines/stored-state.ts';
import { BOARD_NOT_FOUND, type BoardRow } from '../boards/visibility.ts';
import type { Tx } from '../db/client.ts';
import { boardGroups, boards, boardTasks } from '../db/schema/boards.ts';
import type { Entity } from './store.ts';

/** The context of a board that has nothing yet (a board being created). */
export const EMPTY_BOARD_CONTEXT: BoardContext = { taskCount: 0, groupCount: 0 };

/** What the board machine's guards read: non-deleted board tasks and bound groups. */
export async function boardContext(tx: Tx, boardId: number): Promise<BoardContext> {
  const [tasksRow] = await tx
    .select({ n: count() })
    .from(boardTasks)
    .where(and(eq(boardTasks.boardId, boardId), ne(boardTasks.status, DELETED_BOARD_TASK_STATUS)));
  const [groupsRow] = await tx.select({ n: count() }).from(boardGroups).where(eq(boardGroups.boardId, boardId));
  return { taskCount: tasksRow?.n ?? 0, groupCount: groupsRow?.n ?? 0 };
}

/** The board machine's decision on `event` for a board in `status` with `context` (stored-state decide). */
export const decideBoard = (status: BoardStatus, context: BoardContext, event: BoardEvent): Decision<BoardStatus> =>
  decide(boardMachine, status, context, event, explainBoardRefusal);

export const boardEntity: Entity<BoardRow, BoardStatus, BoardEvent> = {
  name: 'board',
  table: boards,
  id: boards.id,
  updatedAt: boards.updatedAt,
  notFound: BOARD_NOT_FOUND,
  async contextOf(tx, rows) {
    const out: BoardContext[] = [];
    for (const row of rows) out.push(await boardContext(tx, row.id));
    return out;
  },
  decide(row, event, context?: BoardContext) {
    if (!context) throw new Error('board: decided without its context (the store reads it through contextOf)');
    return decideBoard(row.status, context, event);
  },
  // publish.all / publish.users / publish.backup: the audit names the variant.
  actionOf: (event) => (event.type === 'board.publish' ? `publish.${event.mode}` : event.type.replace(/^board\./, '')),
  describe: (row) => ({ status: row.status }),
  live: () => [],
};
