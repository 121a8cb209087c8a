/**
 * Board lifecycle (SPEC §4 "Board status", "Board publication"; DECISIONS "Boards, claims and
 * tasks"). A board is created `unpublish` (admins only), `board.publish` opens it, `board.close`
 * and `board.reopen` end and resume claiming; the rules are listed at boardMachine.
 */
import { assertEvent, setup } from 'xstate';

export const BOARD_STATUSES = ['unpublish', 'open', 'close'] as const;
export type BoardStatus = (typeof BOARD_STATUSES)[number];
export type PublishMode = 'all' | 'users' | 'backup';

export interface BoardContext {
  /** Board tasks that are not deleted. */
  taskCount: number;
  /** Groups bound to the board. */
  groupCount: number;
}

export type BoardEvent = { type: 'board.publish'; mode: PublishMode; userIds?: number[] } | { type: 'board.close' } | { type: 'board.reopen' };

export const boardMessages = {
  noTasks: '看板还没有任务，无法发布',
  noGroups: '请先绑定用户组再发布',
  noUsers: '请选择要发布的用户',
  closed: '看板已关闭，请先重新开启',
  notOpen: '只有已发布的看板可以关闭',
  notClosed: '只有已关闭的看板可以重新开启',
} as const;

/** The status in which members see a board (published to them) and claim from it. */
export const OPEN_BOARD_STATUS = 'open' satisfies BoardStatus;

/** A closed board: members no longer claim from it (board.close; board.reopen resumes). */
export const CLOSED_BOARD_STATUS = 'close' satisfies BoardStatus;

/** Expiry is not a state: a board is expired once its expireAt (epoch ms) has passed. */
export const isBoardExpired = (board: { expireAt: number }, now: number) => board.expireAt < now;

/**
 * Whether a board is shown as open: published and not expired. An expired open board still takes
 * claims (they wait for approval), but it is never shown as open: the home leaves it out and the
 * board list says 已过期.
 */
export const showsOpen = (board: { status: BoardStatus; expireAt: number }, now: number) => board.status === OPEN_BOARD_STATUS && !isBoardExpired(board, now);

/** A board's one state as every screen shows it: its status, or `expired` for an open board past its deadline. */
export type ShownBoardState = BoardStatus | 'expired';

/**
 * What a member and an admin are shown of a board's state, one state per board: its status, or
 * `expired` for an open board past its deadline (so an expired board never reads as open).
 */
export const shownBoardState = (board: { status: BoardStatus; expireAt: number }, now: number): ShownBoardState =>
  board.status === OPEN_BOARD_STATUS && isBoardExpired(board, now) ? 'expired' : board.status;

/** Why `board.publish` cannot happen with this context, or null. */
export function publishProblem(context: BoardContext, event: Extract<BoardEvent, { type: 'board.publish' }>): string | null {
  if (context.taskCount < 1) return boardMessages.noTasks;
  if (event.mode === 'users') return (event.userIds?.length ?? 0) > 0 ? null : boardMessages.noUsers;
  return context.groupCount > 0 ? null : boardMessages.noGroups;
}

/**
 * - A board is created `unpublish`: only admins see it; members cannot see or claim it.
 * - `board.publish` opens it. Three variants: to all members of its bound groups (`all`), to
 *   chosen users (`users`, userIds), or like `all` through the backup mail server (`backup`).
 *   Publishing needs at least one board task (a board with nothing to claim is not announced)
 *   and an audience: a bound group for `all`/`backup`, at least one user for `users`.
 * - An `open` board may be published again, e.g. to more users; each publish mails its audience.
 * - `board.close` ends claiming (open -> close); `board.reopen` opens a closed board again. A
 *   closed board cannot be published until it is reopened.
 * - Expiry (expireAt passed) is not a state: an expired open board still accepts claims, which
 *   then wait for admin approval (see claim.machine.ts).
 */
export const boardMachine = setup({
  // Stryker disable next-line ObjectLiteral: types only, erased at run time
  types: {
    context: {} as BoardContext,
    events: {} as BoardEvent,
    input: {} as BoardContext,
  },
  guards: {
    // Only board.publish names this guard; another event is a chart bug and throws.
    canBePublished: ({ context, event }) => {
      assertEvent(event, 'board.publish');
      return publishProblem(context, event) === null;
    },
  },
}).createMachine({
  id: 'board',
  context: ({ input }) => input,
  initial: 'unpublish',
  states: {
    unpublish: { on: { 'board.publish': { target: 'open', guard: 'canBePublished' } } },
    open: {
      on: {
        'board.publish': { target: 'open', guard: 'canBePublished' },
        'board.close': { target: 'close' },
      },
    },
    close: { on: { 'board.reopen': { target: 'open' } } },
  },
});

/** The message for a refused board event (the machine said no). */
export function explainBoardRefusal(status: BoardStatus, context: BoardContext, event: BoardEvent): string {
  switch (event.type) {
    case 'board.publish':
      return status === 'close' ? boardMessages.closed : (publishProblem(context, event) ?? boardMessages.closed);
    case 'board.close':
      return boardMessages.notOpen;
    case 'board.reopen':
      return boardMessages.notClosed;
  }
}

/** A new board's status (the machine's first state): unpublished, seen by admins only. */
export const NEW_BOARD_STATUS = boardMachine.config.initial as BoardStatus;
