// What the board page offers: the board machine (machines/board.machine.ts) decides, from the
// board's status and its context {taskCount, groupCount}, which of publish / publish to users /
// backup publish / close / reopen may happen; a button is shown exactly when its event is allowed.
// The server applies the same machine, so a hidden button and a refused call say the same thing.
import { boardMachine, explainBoardRefusal, type BoardContext, type BoardEvent, type BoardStatus } from '../../../../machines/board.machine';
import { DELETED_BOARD_TASK_STATUS } from '../../../../machines/claim.machine';
import { allowedEvents, decide } from '../../../../machines/stored-state';
import type { BoardTask } from './boards-api';

export type BoardAction = 'publish' | 'publishToUsers' | 'backupPublish' | 'close' | 'reopen';

export const BOARD_ACTIONS: readonly BoardAction[] = ['publish', 'publishToUsers', 'backupPublish', 'close', 'reopen'];

/**
 * The event each button sends. Publish-to-users opens a chooser first; whether a (non-empty) choice
 * would be accepted is asked with a stand-in id, and the chooser asks again with the real ids.
 */
const ACTION_EVENTS: Record<BoardAction, BoardEvent> = {
  publish: { type: 'board.publish', mode: 'all' },
  publishToUsers: { type: 'board.publish', mode: 'users', userIds: [1] },
  backupPublish: { type: 'board.publish', mode: 'backup' },
  close: { type: 'board.close' },
  reopen: { type: 'board.reopen' },
};

/** The machine's context for a board: its board tasks that are not deleted, and its bound groups. */
export function boardContextOf(tasks: ReadonlyArray<Pick<BoardTask, 'status'>>, groups: readonly unknown[]): BoardContext {
  return { taskCount: tasks.filter((task) => task.status !== DELETED_BOARD_TASK_STATUS).length, groupCount: groups.length };
}

/** The buttons to offer, in display order. */
export function offeredBoardActions(status: BoardStatus, context: BoardContext): BoardAction[] {
  const allowed = new Set(
    allowedEvents(
      boardMachine,
      status,
      context,
      BOARD_ACTIONS.map((action) => ACTION_EVENTS[action]),
    ),
  );
  return BOARD_ACTIONS.filter((action) => allowed.has(ACTION_EVENTS[action]));
}

/** Why publishing to all is not offered now (shown beside the buttons), or null when it is. */
export function publishRefusal(status: BoardStatus, context: BoardContext): string | null {
  if (status === 'close') return null; // the reopen button says what to do
  const decision = decide(boardMachine, status, context, ACTION_EVENTS.publish, explainBoardRefusal);
  return decision.ok ? null : decision.msg;
}

/** The machine's verdict on publishing to exactly these users: null when allowed, else its message. */
export function publishToUsersRefusal(status: BoardStatus, context: BoardContext, userIds: number[]): string | null {
  const decision = decide(boardMachine, status, context, { type: 'board.publish', mode: 'users', userIds }, explainBoardRefusal);
  return decision.ok ? null : decision.msg;
}
