// The claim rules (machines/claim.machine.ts) read a ClaimTarget; this builds it from what the
// member's screens load: the board (status, expire) and the board task (status, show, claimCount).
import { claimOutcome, type ClaimTarget } from '../../../../machines/claim.machine';
import type { Board, BoardTask } from './member-boards-api';

export function claimTargetOf(board: Pick<Board, 'status' | 'expire'>, boardTask: Pick<BoardTask, 'status' | 'show' | 'claimCount'>): ClaimTarget {
  return {
    boardStatus: board.status,
    boardExpired: board.expire,
    boardTaskStatus: boardTask.status,
    show: boardTask.show,
    claimed: boardTask.claimCount,
  };
}

/** Whether the 'claim' button is offered: exactly when the claim machine would open its dialog. */
export function canClaim(target: ClaimTarget): boolean {
  return claimOutcome(target).ok;
}
