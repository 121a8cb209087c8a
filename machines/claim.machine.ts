/**
 * Claiming units of a board task (SPEC §2 claim dialog, §4, §5 "Claim"; DECISIONS "Boards, claims
 * and tasks"). The dialog's flow (claimMachine) and every rule it and the server apply: what may be
 * claimed (`claimOutcome`) and the fields (`claimFieldErrors`). The server calls the same
 * `claimOutcome` and `claimFieldErrors`, so the dialog and the API refuse the same claims with the
 * same words.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';

/** A board task's statuses (SPEC section 4), in the order the admin's form offers them. */
export const BOARD_TASK_STATUSES = ['normal', 'urgent', 'full', 'deleted', 'closed'] as const;
export type BoardTaskStatus = (typeof BOARD_TASK_STATUSES)[number];
/** A deleted board task: members no longer see it, nor find its board by it; nobody claims it. */
export const DELETED_BOARD_TASK_STATUS = 'deleted' satisfies BoardTaskStatus;
/** A new board task's status unless the admin chooses another (urgent, full, closed). */
export const NORMAL_BOARD_TASK_STATUS = 'normal' satisfies BoardTaskStatus;

export interface ClaimTarget {
  boardStatus: 'unpublish' | 'open' | 'close';
  boardExpired: boolean;
  boardTaskStatus: BoardTaskStatus;
  /** Displayed demand of the board task. */
  show: number;
  /** Units held by the board task's tasks that are not deleted. */
  claimed: number;
}

export interface ClaimValues {
  count: number | string;
  isHome: boolean;
  state?: string;
  zipCode?: string;
  labelCount?: number | string | null;
}

export type ClaimField = 'count' | 'state' | 'zipCode' | 'labelCount';
export type ClaimErrors = Partial<Record<ClaimField, string>>;

export const claimMessages = {
  notNumber: '请输入数字',
  atLeastOne: '认领数量至少为1件',
  tooMany: (n: number) => `不能认领超过${n}件`,
  stateRequired: '请填写州',
  zipCodeRequired: '请填写邮编',
  labelCountRequired: '请填写标签数量',
  boardNotOpen: '看板未开放，无法认领',
  full: '该任务已满，无法认领',
  deleted: '该任务已删除，无法认领',
  needsApproval: '该任务已关闭或看板已过期，认领后需管理员审核通过',
  failed: '操作失败',
} as const;

/** Units still claimable: what the board task shows less what is claimed (pending claims too), never below 0. */
export const remainingOf = (t: Pick<ClaimTarget, 'show' | 'claimed'>) => Math.max(0, t.show - t.claimed);

export type ClaimOutcome = { ok: true; taskStatus: 'open' | 'pending' } | { ok: false; msg: string };

/**
 * The board must be open and the board task not full or deleted. On a normal or urgent board task
 * of a board that has not expired the new task is `open`; on a closed board task or an expired
 * board it is `pending` until an admin accepts it (the dialog warns about that beforehand).
 */
export function claimOutcome(t: ClaimTarget): ClaimOutcome {
  if (t.boardStatus !== 'open') return { ok: false, msg: claimMessages.boardNotOpen };
  if (t.boardTaskStatus === 'full') return { ok: false, msg: claimMessages.full };
  if (t.boardTaskStatus === DELETED_BOARD_TASK_STATUS) return { ok: false, msg: claimMessages.deleted };
  return { ok: true, taskStatus: t.boardTaskStatus === 'closed' || t.boardExpired ? 'pending' : 'open' };
}

/** True when the dialog must warn that the claim waits for admin approval. */
export const needsApproval = (t: ClaimTarget) => {
  const o = claimOutcome(t);
  return o.ok && o.taskStatus === 'pending';
};

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
const wholeNumber = (v: unknown) => !blank(v) && /^\d+$/.test(String(v).trim());

/**
 * Field errors of a claim (mode 'create') or of a count edit (mode 'edit', where `ownCount` units
 * are the task's own and count as remaining).
 *
 * count is a whole number ('请输入数字'), at least 1, and not above the remaining shown quantity
 * ('不能认领超过N件'; remaining = show minus the units of the board task's tasks that are not
 * deleted; when editing, the task's own units count as remaining). With isHome on, state, zipCode
 * and labelCount are all required. isHome, state and zipCode are fixed once claimed: editing changes
 * only count (and labelCount).
 */
export function claimFieldErrors(values: ClaimValues, target: ClaimTarget, mode?: 'create' | 'edit', ownCount = 0): ClaimErrors {
  const errors: ClaimErrors = {};
  const limit = remainingOf(target) + (mode === 'edit' ? ownCount : 0);
  if (!wholeNumber(values.count)) errors.count = claimMessages.notNumber;
  else if (Number(values.count) < 1) errors.count = claimMessages.atLeastOne;
  else if (Number(values.count) > limit) errors.count = claimMessages.tooMany(limit);
  if (values.isHome) {
    if (blank(values.state)) errors.state = claimMessages.stateRequired;
    if (blank(values.zipCode)) errors.zipCode = claimMessages.zipCodeRequired;
    if (blank(values.labelCount)) errors.labelCount = claimMessages.labelCountRequired;
    else if (!wholeNumber(values.labelCount) || Number(values.labelCount) < 1) errors.labelCount = claimMessages.notNumber;
  }
  return errors;
}

export const hasErrors = (e: ClaimErrors) => Object.keys(e).length > 0;

export interface ClaimRequest {
  boardTaskId: number;
  count: number;
  isHome: boolean;
  state: string;
  zipCode: string;
  labelCount: number | null;
}

export interface ClaimContext {
  boardTaskId: number;
  target: ClaimTarget | null;
  serverMessage: string | null;
  claimedTaskId: number | null;
}

/** No board task opened: the dialog's context before claim.open, and what claim.open starts from. */
const NO_CLAIM: ClaimContext = { boardTaskId: 0, target: null, serverMessage: null, claimedTaskId: null };

export type ClaimEvent =
  { type: 'claim.open'; boardTaskId: number; target: ClaimTarget } | { type: 'claim.submit'; values: ClaimValues } | { type: 'claim.cancel' };

/**
 * The flow: `claim.open` (with the board task) -> editing; `claim.submit` with valid values ->
 * submitting (the `submitClaim` actor, provided by the app) -> done, or back to editing with the
 * server's message ('操作失败' when it gives none); `claim.cancel` closes the dialog.
 */
export const claimMachine = setup({
  // Stryker disable next-line ObjectLiteral: types only, erased at run time
  types: {
    context: {} as ClaimContext,
    events: {} as ClaimEvent,
  },
  actors: {
    /** Sends the claim; resolves with the new task id, rejects with the server's message. */
    submitClaim: fromPromise<{ taskId: number | null }, ClaimRequest>(async () => {
      throw new Error('submitClaim not provided');
    }),
  },
  guards: {
    // Each guard is named by one event only; another is a chart bug and throws.
    isClaimable: ({ event }) => {
      assertEvent(event, 'claim.open');
      return claimOutcome(event.target).ok;
    },
    // Submitted only from editing, which claim.open entered with its target.
    areValuesValid: ({ context, event }) => {
      assertEvent(event, 'claim.submit');
      return !hasErrors(claimFieldErrors(event.values, context.target!));
    },
  },
}).createMachine({
  id: 'claim',
  context: NO_CLAIM,
  initial: 'closed',
  states: {
    closed: {
      on: {
        'claim.open': {
          guard: 'isClaimable',
          target: 'editing',
          actions: assign(({ event }) => ({ ...NO_CLAIM, boardTaskId: event.boardTaskId, target: event.target })),
        },
      },
    },
    editing: {
      on: {
        'claim.submit': { guard: 'areValuesValid', target: 'submitting' },
        'claim.cancel': { target: 'closed' },
      },
    },
    submitting: {
      invoke: {
        src: 'submitClaim',
        input: ({ context, event }) => {
          const v = (event as Extract<ClaimEvent, { type: 'claim.submit' }>).values;
          return {
            boardTaskId: context.boardTaskId,
            count: Number(v.count),
            isHome: v.isHome,
            // areValuesValid let isHome through only with a state and a zip code.
            state: v.isHome ? String(v.state).trim() : '',
            zipCode: v.isHome ? String(v.zipCode).trim() : '',
            labelCount: v.isHome ? Number(v.labelCount) : null,
          };
        },
        onDone: { target: 'done', actions: assign({ claimedTaskId: ({ event }) => event.output.taskId }) },
        onError: {
          target: 'editing',
          actions: assign({ serverMessage: ({ event }) => (event.error instanceof Error && event.error.message) || claimMessages.failed }),
        },
      },
    },
    done: {
      on: {
        'claim.open': {
          guard: 'isClaimable',
          target: 'editing',
          actions: assign(({ event }) => ({ ...NO_CLAIM, boardTaskId: event.boardTaskId, target: event.target })),
        },
        'claim.cancel': { target: 'closed' },
      },
    },
  },
});
