/**
 * A member's task (a claim) from claim to payment (SPEC §4 "Task status"; DECISIONS "Task
 * lifecycle"). The one place these rules live (listed at taskMachine): the buttons a member or
 * admin sees come from `allowedEvents`/`can`, and the server applies every task change through
 * `decide` with the same machine, refusing what it refuses with the message the UI would show.
 */
import { emit, setup } from 'xstate';
import { decide, statesAllowing, type Decision } from './stored-state';
import { TASK_STATUSES, type TaskStatus } from './task.statuses';

export { TASK_STATUSES, type TaskStatus };
/** A deleted task is gone: its claim, records and units count for nothing (lists, matching, claims). */
export const DELETED_TASK_STATUS = 'deleted' satisfies TaskStatus;
/** A claim waiting for the admin's accept or reject (the admin home's first count, /admin/tasks?taskStatus=). */
export const CLAIM_PENDING_STATUS = 'pending' satisfies TaskStatus;
/** The member's claims that count in their totals (the member home's 已认领): every task but a deleted one. */
export const CLAIMED_TASK_STATUSES: readonly TaskStatus[] = TASK_STATUSES.filter((s) => s !== DELETED_TASK_STATUS);
export type Actor = 'user' | 'admin';
export type MatchOutcome = 'locked' | 'unmatch' | 'open';

export interface TaskContext {
  productCount: number;
  canSplit: boolean;
}

export type TaskEvent =
  | { type: 'task.accept' }
  | { type: 'task.reject' }
  | { type: 'task.edit'; by: Actor }
  | { type: 'task.records'; by: Actor }
  | { type: 'task.delete'; by: Actor }
  | { type: 'task.match'; outcome: MatchOutcome }
  | { type: 'task.split' }
  | { type: 'task.apply' }
  /** cause: the payment event that paid the task (pay.paid, pay.confirm); its parcels' audit action. */
  | { type: 'task.pay'; cause?: string }
  | { type: 'task.close' }
  /** An admin undoes a member's claim of an unknown parcel (decision 169): matching judges the task again. */
  | { type: 'task.unclaim' };

export const taskMessages = {
  notPending: '只有待审核的任务可以审核',
  editOpenOnly: '只有进行中的任务可以修改',
  editNotPending: '待审核或已删除的任务不能修改',
  recordsOpenOrUnmatch: '只有进行中或不匹配的任务可以修改记录',
  deleteRule: '只有进行中或不匹配且未到货的任务可以删除',
  matchLocked: '已锁定的任务不能再匹配',
  matchNotAllowed: '该任务当前不能匹配',
  splitRule: '只有部分到货的任务可以拆分',
  applyLockedOnly: '只有已锁定的任务可以申请付款',
  payProcessingOnly: '只有付款处理中的任务可以完成付款',
  closeRule: '该任务不能关闭',
  applyArrivedPartialOnly: '只有部分到货的任务可以申请已到货部分的付款',
  applyArrivedUseApply: '该任务已全部到货，请直接申请付款',
  unclaimRule: '已申请付款、已完成或已关闭的任务不能撤销认领',
} as const;

const matchTargets = {
  'task.match': [{ guard: 'outcomeLocked', target: 'locked' }, { guard: 'outcomeUnmatch', target: 'unmatch' }, { target: 'open' }],
} as const;

/**
 * - pending (claimed on a closed board task or an expired board): an admin accepts (-> open) or
 *   rejects (-> deleted). Pending tasks offer the member no upload or records actions.
 * - edit: a member edits only an open task; an admin edits any task that is not pending (nor
 *   deleted). Editing never changes the status.
 * - records (create, edit, remove a purchased record; `canChangeRecords`): a member changes the
 *   records of an open or unmatch task - an unmatch task is exactly the one whose records may need
 *   fixing (decision 090); an admin those of any task that is not pending (nor deleted). A record
 *   whose rows are matched stays frozen (the record's own rule, purchased-service.ts). Never changes
 *   the status: only the matching that follows may.
 * - delete: open or unmatch, and nothing has arrived yet (productCount 0) -> deleted.
 * - match: offered unless locked (in open and unmatch). Matching compares the parcels scanned for
 *   the task's tracking ids with its purchased records; its outcome decides the next state: every
 *   unit arrived -> locked; otherwise -> open (unmatch only for more units than the
 *   count, which matching never ties since decision 090)
 *   (productCount and canSplit set by matching). `matchVerdict` is that outcome, from the units
 *   matching tied to the task's records (decision 090).
 * - split: open or unmatch with canSplit -> the arrived units become a locked sibling (same
 *   mainId, next subId) and this task keeps the rest (stays open).
 * - apply (for payment): locked only -> processing, emitting record.apply to the task's parcels;
 *   paid -> finished (task.pay, emitted by the payment machine), emitting record.pay to them.
 * - close (admin): open, unmatch or locked -> closed.
 * - unclaim (admin, decision 169): a member's claim of an unknown parcel undone while its units are
 *   not in a payment: open, unmatch or locked -> open, and matching judges the task again without
 *   the claimed record (a locked task had every unit only because of it). Not once applied for.
 */
/** What a task's change sends its parcels (scan rows tied to it): the scan-record machine's events. */
export type TaskParcelEvent = { type: 'record.apply' } | { type: 'record.pay'; cause?: string };

export const taskMachine = setup({
  types: {
    context: {} as TaskContext,
    events: {} as TaskEvent,
    input: {} as TaskContext,
    emitted: {} as TaskParcelEvent,
  },
  actions: {
    // The task's parcels follow it (src/server/entities/task.ts delivers these to the rows they concern).
    applyParcels: emit({ type: 'record.apply' }),
    payParcels: emit(
      ({ event }) => (event.type === 'task.pay' && event.cause ? { type: 'record.pay', cause: event.cause } : { type: 'record.pay' }) as TaskParcelEvent,
    ),
  },
  guards: {
    byAdmin: ({ event }) => 'by' in event && event.by === 'admin',
    nothingArrived: ({ context }) => context.productCount === 0,
    canSplit: ({ context }) => context.canSplit,
    outcomeLocked: ({ event }) => event.type === 'task.match' && event.outcome === 'locked',
    outcomeUnmatch: ({ event }) => event.type === 'task.match' && event.outcome === 'unmatch',
  },
}).createMachine({
  id: 'task',
  context: ({ input }) => input,
  initial: 'open',
  states: {
    pending: { on: { 'task.accept': 'open', 'task.reject': 'deleted' } },
    open: {
      on: {
        'task.edit': { target: 'open' },
        'task.records': { target: 'open' },
        'task.delete': { guard: 'nothingArrived', target: 'deleted' },
        ...matchTargets,
        'task.split': { guard: 'canSplit', target: 'open', reenter: true },
        'task.close': 'closed',
        'task.unclaim': 'open',
      },
    },
    unmatch: {
      on: {
        'task.edit': { guard: 'byAdmin', target: 'unmatch' },
        'task.records': { target: 'unmatch' },
        'task.delete': { guard: 'nothingArrived', target: 'deleted' },
        ...matchTargets,
        'task.split': { guard: 'canSplit', target: 'open' },
        'task.close': 'closed',
        'task.unclaim': 'open',
      },
    },
    locked: {
      on: {
        'task.edit': { guard: 'byAdmin', target: 'locked' },
        'task.records': { guard: 'byAdmin', target: 'locked' },
        'task.apply': { target: 'processing', actions: 'applyParcels' },
        'task.close': 'closed',
        'task.unclaim': 'open',
      },
    },
    processing: {
      on: {
        'task.edit': { guard: 'byAdmin', target: 'processing' },
        'task.records': { guard: 'byAdmin', target: 'processing' },
        'task.pay': { target: 'finished', actions: 'payParcels' },
      },
    },
    finished: { on: { 'task.edit': { guard: 'byAdmin', target: 'finished' }, 'task.records': { guard: 'byAdmin', target: 'finished' } } },
    closed: { on: { 'task.edit': { guard: 'byAdmin', target: 'closed' }, 'task.records': { guard: 'byAdmin', target: 'closed' } } },
    deleted: {},
  },
});

/** The message for a refused task event (the machine said no). */
export function explainTaskRefusal(status: TaskStatus, _context: TaskContext, event: TaskEvent): string {
  switch (event.type) {
    case 'task.accept':
    case 'task.reject':
      return taskMessages.notPending;
    case 'task.edit':
      return event.by === 'user' ? taskMessages.editOpenOnly : taskMessages.editNotPending;
    case 'task.records':
      return event.by === 'user' ? taskMessages.recordsOpenOrUnmatch : taskMessages.editNotPending;
    case 'task.delete':
      return taskMessages.deleteRule;
    case 'task.match':
      return status === 'locked' ? taskMessages.matchLocked : taskMessages.matchNotAllowed;
    case 'task.split':
      return taskMessages.splitRule;
    case 'task.apply':
      return taskMessages.applyLockedOnly;
    case 'task.pay':
      return taskMessages.payProcessingOnly;
    case 'task.close':
      return taskMessages.closeRule;
    case 'task.unclaim':
      return taskMessages.unclaimRule;
  }
}

/**
 * The event of an admin's status change on the task edit form: it may ask for closed or deleted
 * only (null: a status it cannot ask for).
 */
export const adminStatusEvent = (status: TaskStatus): TaskEvent | null =>
  status === 'closed' ? { type: 'task.close' } : status === DELETED_TASK_STATUS ? { type: 'task.delete', by: 'admin' } : null;

/**
 * Are a task's purchased records shown to `by` (the records dialog, read only beyond task.records)?
 * Not while the claim waits for an admin (SPEC section 4); a member's deleted task has nothing left
 * to record, while the admin still reads what it had.
 */
export const recordsShown = (status: TaskStatus, by: Actor): boolean => status !== CLAIM_PENDING_STATUS && (by === 'admin' || status !== DELETED_TASK_STATUS);

/** The question of a purchased record change: may `by` create, edit or remove the records of a task in `status`? */
export const recordsEvent = (by: Actor): TaskEvent => ({ type: 'task.records', by });

/**
 * The statuses in which a member may add records to a task (task.records by the member: open and
 * unmatch): where the member home's 'waiting for tracking numbers' and the paste box look.
 */
export const MEMBER_RECORDABLE_STATUSES: readonly TaskStatus[] = statesAllowing(
  taskMachine,
  TASK_STATUSES,
  { productCount: 0, canSplit: false },
  recordsEvent('user'),
);

/** The event of an admin's undo of a claimed unknown parcel (decision 169): a claim is undone where the machine takes it. */
export const UNCLAIM_EVENT: TaskEvent = { type: 'task.unclaim' };

/** Can an admin undo a claim on a task in `status` (the 撤销认领 button; the server asks decide)? Not once its units are in a payment or it is closed. */
export const canUndoClaim = (status: TaskStatus): boolean =>
  decide(taskMachine, status, { productCount: 0, canSplit: false }, UNCLAIM_EVENT, explainTaskRefusal).ok;

/** SPEC §3 purchased record status: matching's verdict on the record (the database enum and the contract's PurchasedStatus). */
export const PURCHASED_STATUSES = ['init', 'match', 'unmatch'] as const;
export type PurchasedStatus = (typeof PURCHASED_STATUSES)[number];
/**
 * A record no unit of whose tracking id has been seen yet (matching's verdict, allocate.ts: nothing
 * of the tracking id seen -> init). The candidates of "not arrived" (tasks/not-arrived.ts).
 */
export const UNSEEN_PURCHASED_STATUS = 'init' satisfies PurchasedStatus;
/** A record whose tracking id's parcel disagrees with it (matching's verdict, allocate.ts: a problem -> unmatch, its msg says how). */
export const DISAGREED_PURCHASED_STATUS = 'unmatch' satisfies PurchasedStatus;

/**
 * What a record of a contested parcel says (decision 096): several members recorded the product on
 * one tracking id and fewer units arrived than they record, so none is credited until an admin
 * assigns the units. Neutral words: nothing of the other members or of what the parcel holds.
 * Matching writes it as the record's msg; the admin home's conflict list is the records saying it.
 */
export const CONTESTED_MESSAGE = '该包裹正在核对中，请等待管理员处理';

/** The record waits for an admin's assignment of a contested parcel (matching wrote CONTESTED_MESSAGE): not the member's mistake. */
export const isRecordContested = (record: { msg?: string | null }) => record.msg === CONTESTED_MESSAGE;

/**
 * Where a tracking id of a task stands, at a glance (/user/my-task): its record's status read as
 * arrival. init: nothing of the parcel has been seen yet (still expected); match: every unit
 * arrived and agrees (arrived); unmatch: the parcel was seen and disagrees with the record (fewer
 * or other units), the record's msg says how (disagreed) - unless the parcel is contested and waits
 * for an admin (checking, decision 096): nothing the member did wrong, so not shown as an error.
 */
export type RecordArrival = 'expected' | 'arrived' | 'disagreed' | 'checking';
export const RECORD_ARRIVAL = { init: 'expected', match: 'arrived', unmatch: 'disagreed' } as const satisfies Record<PurchasedStatus, RecordArrival>;
export const recordArrivalOf = (record: { status: PurchasedStatus; msg?: string | null }): RecordArrival =>
  record.status === DISAGREED_PURCHASED_STATUS && isRecordContested(record) ? 'checking' : RECORD_ARRIVAL[record.status];

/** The state a split puts the arrived units in: a sibling task holding exactly them, locked (task.split). */
export const SPLIT_OFF_STATUS = 'locked' satisfies TaskStatus;

/** The task facts the pay-for-arrived question reads. */
export type ArrivedFacts = TaskContext & { status: TaskStatus; count: number };

/**
 * May the member apply for payment of the units that arrived, in one step (split them off, then
 * apply for the split-off part)? Only when the task machine accepts task.split now (open or unmatch,
 * canSplit: some but not all arrived) and the locked sibling the split makes would accept
 * task.apply. A task whose units all arrived (locked) is applied for as it is (task.apply); the
 * answer then says so. Read by the server before it splits and by /user/my-task for its button.
 */
export function decideApplyForArrived(task: ArrivedFacts): Decision<TaskStatus> {
  const context = { productCount: task.productCount, canSplit: task.canSplit };
  const whole = decide(taskMachine, task.status, context, { type: 'task.apply' }, explainTaskRefusal);
  if (whole.ok) return { ok: false, msg: taskMessages.applyArrivedUseApply };
  const split = decide(taskMachine, task.status, context, { type: 'task.split' }, explainTaskRefusal);
  if (!split.ok || task.productCount < 1 || task.productCount >= task.count) return { ok: false, msg: taskMessages.applyArrivedPartialOnly };
  const siblingContext = { productCount: task.productCount, canSplit: false };
  return decide(taskMachine, SPLIT_OFF_STATUS, siblingContext, { type: 'task.apply' }, explainTaskRefusal);
}

/** The question /user/my-task asks for its '申请付款' of the arrived units. */
export const canApplyForArrived = (task: ArrivedFacts): boolean => decideApplyForArrived(task).ok;

/**
 * What matching concludes for a task (decision 090), from the units tied to each of its records
 * over all its tracking ids. Only the task's own units count: units of another product, or more of
 * its product than its records hold, are tied to no task and judge nobody.
 * - locked: every unit arrived (arrived = count > 0); productCount = count.
 * - unmatch: more units are tied than the count. Matching never ties more (records never total more
 *   than the count, and each record takes at most what the count leaves it), so only units frozen
 *   to the task by a payment before its count was lowered reach it.
 * - open otherwise. productCount = units arrived, canSplit = some but not all arrived.
 */
export function matchVerdict(count: number, perRecord: readonly { arrived: number }[]): { outcome: MatchOutcome; productCount: number; canSplit: boolean } {
  const arrived = perRecord.reduce((n, r) => n + r.arrived, 0);
  if (arrived > count) return { outcome: 'unmatch', productCount: arrived, canSplit: false };
  if (arrived === count && count > 0) return { outcome: 'locked', productCount: count, canSplit: false };
  return { outcome: 'open', productCount: arrived, canSplit: arrived > 0 };
}

/** SPEC §2: a task is shown as mainId, plus '-subId' when subId is not 0. */
export const taskDisplayId = (task: { mainId: number; subId: number }): string => (task.subId === 0 ? String(task.mainId) : `${task.mainId}-${task.subId}`);

/** A new task's status (the machine's first state): a claim that needs no approval starts open. */
export const OPEN_TASK_STATUS = taskMachine.config.initial as TaskStatus;

/**
 * The question "may matching judge this task now?": task.match is taken in the same states
 * whatever its outcome, so asking with one outcome answers for all (the match calls, the planner).
 */
export const MATCH_QUESTION: TaskEvent = { type: 'task.match', outcome: 'open' };

/** The status each outcome of matching leads a task to (the machine's task.match targets): what the match call's message reads. */
export const MATCH_OUTCOME_STATUS: Readonly<Record<MatchOutcome, TaskStatus>> = (() => {
  const outcomes: MatchOutcome[] = ['locked', 'unmatch', 'open'];
  const context = { productCount: 0, canSplit: false };
  return Object.fromEntries(
    outcomes.map((outcome) => {
      const d = decide(taskMachine, OPEN_TASK_STATUS, context, { type: 'task.match', outcome }, explainTaskRefusal);
      if (!d.ok) throw new Error(`the task machine has no state for the match outcome ${outcome}`);
      return [outcome, d.next];
    }),
  ) as Record<MatchOutcome, TaskStatus>;
})();
