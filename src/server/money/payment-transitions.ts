// The one way a payment application changes status (machines/payment.machine.ts; DECISIONS "Money"):
// every caller - the payment calls (payment-service.ts) and the withdraw code - moves applications
// through movePayments, which locks, lets the payment machine decide every row, writes the new
// statuses with their time stamps, sends the events that follow a payment to its task (task.pay) and
// parcels (record.pay, moveTaskScans: the scan-record machine answers their status), and audits it
// all in the caller's transaction. A refusal of any row throws (A00001 with the machine's message)
// before anything is written, so the caller's transaction changes all the rows or none. All money
// code follows one GLOBAL LOCK ORDER (listed at movePayments), so two money calls, or a money call
// and a scan or a matching, never wait on each other in a cycle.
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { explainPaymentRefusal, paymentMachine, paymentMessages, type PaymentEvent, type PaymentStatus } from '../../../machines/payment.machine.ts';
import { decide } from '../../../machines/stored-state.ts';
import type { TaskEvent } from '../../../machines/task.machine.ts';
import { decideScanRecord, isFrozen, type ScanRecordEvent } from '../../../machines/scan-record.machine.ts';
import { writeAudit, type AuditEntry } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { paymentApplies } from '../db/schema/money.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { tasks } from '../db/schema/tasks.ts';
import { badRequest, notFound } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { lockForMatching, trackingIdsOfTasks } from '../db/matching-store.ts';
import { scanAudit } from '../matching/plan.ts';
import type { ScanRow } from '../receiving/scan-rows.ts';
import { applyTaskEvent, type TaskRow } from '../tasks/apply-event.ts';
import { applicationChanged, publishLive } from '../live/publish.ts';

export type PaymentRow = typeof paymentApplies.$inferSelect;
/** Column changes written together with a status change. */
export type PaymentSet = Partial<Omit<typeof paymentApplies.$inferInsert, 'id' | 'status' | 'taskId' | 'userId'>>;

export const anyInt = (column: AnyPgColumn, values: number[]): SQL => sql`${column} = any(${sql.param(values)}::int[])`;

const sortedIds = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** The task event a payment event brings with it. */
const TASK_EVENT: Partial<Record<PaymentEvent['type'], TaskEvent>> = {
  'pay.paid': { type: 'task.pay' },
  'pay.confirm': { type: 'task.pay' },
};

/** The event a payment event sends to its task's parcels (the scan-record machine's record.pay). */
const SCAN_EVENT: Partial<Record<PaymentEvent['type'], { type: 'record.pay' }>> = {
  'pay.paid': { type: 'record.pay' },
  'pay.confirm': { type: 'record.pay' },
};

/** The time stamp a payment event sets. */
const STAMP: Partial<Record<PaymentEvent['type'], 'agreedAt' | 'paidAt' | 'collectedAt'>> = {
  'pay.agree': 'agreedAt',
  'pay.paid': 'paidAt',
  'pay.confirm': 'paidAt',
  'pay.collect': 'collectedAt',
};

/** Locks the given applications (FOR UPDATE, id order: step 4 of the lock order, movePayments). Missing ids are absent from the map. */
export async function lockPayments(tx: Tx, ids: number[]): Promise<Map<number, PaymentRow>> {
  const list = sortedIds(ids);
  if (!list.length) return new Map();
  const rows = await tx.select().from(paymentApplies).where(anyInt(paymentApplies.id, list)).orderBy(asc(paymentApplies.id)).for('update');
  return new Map(rows.map((r) => [r.id, r]));
}

/** The audit entry of an application change (entity 'payment'). */
export const paymentAudit = (actor: SessionUser | null, action: string, before: PaymentRow | null, after: PaymentRow): AuditEntry => ({
  entity: 'payment',
  entityId: after.id,
  action,
  opUid: actor?.id ?? null,
  userId: after.userId,
  mainId: after.mainId,
  subId: after.subId,
  taskId: after.taskId,
  count: after.count,
  itemName: after.itemName,
  status: after.status,
  before,
  after,
});

/**
 * Which of a task's parcels (scan rows tied to it) an event concerns: record.apply the ones not yet
 * frozen (matching ties only matched rows to a task), record.pay the ones its apply froze. A row
 * matched to the task after its apply (an admin raised a record of the processing task) is not part
 * of the payment: it stays as it is, as the application's count does.
 */
const CONCERNS: Record<'record.apply' | 'record.pay', (row: ScanRow) => boolean> = {
  'record.apply': (row) => !isFrozen(row),
  'record.pay': isFrozen,
};

/**
 * Sends `event` (record.apply, record.pay) to the parcels of `taskIds` it concerns and writes the
 * status the scan-record machine answers, audited with `action` (entity 'tracking'). The caller
 * holds the tracking locks of those tasks (lockForMatching). A row the machine refuses is a bug (a
 * locked task's tied rows are all matched, its applied ones all wait2pay), so it throws (answered
 * 500 and logged by the app's error handler) and the transaction changes nothing.
 */
export async function moveTaskScans(
  tx: Tx,
  actor: SessionUser | null,
  taskIds: number[],
  event: Extract<ScanRecordEvent, { type: 'record.apply' | 'record.pay' }>,
  action: string,
): Promise<ScanRow[]> {
  if (!taskIds.length) return [];
  const tied = await tx.select().from(scanTrackings).where(anyInt(scanTrackings.taskId, taskIds)).orderBy(asc(scanTrackings.id)).for('update');
  const before = tied.filter(CONCERNS[event.type]);
  if (!before.length) return [];
  const next = before.map((row) => {
    const d = decideScanRecord(row.status, event);
    if (!d.ok) throw new Error(`moveTaskScans: scan row ${row.id} (${row.status}) refuses ${event.type}: ${d.msg}`);
    return d.next;
  });
  const now = new Date();
  const after: ScanRow[] = [];
  // One update per status the machine answered (one, for these events).
  for (const status of new Set(next)) {
    const ids = before.filter((_, i) => next[i] === status).map((r) => r.id);
    after.push(...(await tx.update(scanTrackings).set({ status, updatedAt: now }).where(anyInt(scanTrackings.id, ids)).returning()));
  }
  const byId = new Map(after.map((r) => [r.id, r]));
  await writeAudit(
    tx,
    before.map((b) => scanAudit(actor, action, b, byId.get(b.id)!)),
  );
  return before.map((b) => byId.get(b.id)!);
}

export interface MoveOptions {
  /** Other column changes, the same for every row or computed from the locked row (e.g. the income on agree). */
  set?: PaymentSet | ((row: PaymentRow) => PaymentSet);
}

/**
 * Applies `event` to the applications `ids`, all or nothing: locks (lock order
 * steps 2-4), decides every row with the payment machine (the first refusal throws A00001 with its
 * message; a missing or, for a member, foreign id throws A00004), writes, moves tasks and parcels,
 * audits. Returns the rows after, in id order.
 *
 * GLOBAL LOCK ORDER of all money code:
 *   1. withdraw order lines (withdraw_requests), by order id, then line id; then the member's cards
 *      a request or a change of card pays to (bank_cards, FOR SHARE / unbind FOR UPDATE, id order;
 *      cards.ts lockOwnCards);
 *   2. tracking ids (the matching locks, lockTrackings: advisory, sorted);
 *   3. tasks (FOR UPDATE, id order; lockForMatching takes 2 and 3 together);
 *   4. payment applications (FOR UPDATE, id order; lockPayments);
 *   5. a member's agreed-income lock (advisory; only agree takes it, after its application:
 *      payment-service.ts checkAgreedTotal).
 * A caller takes what it needs in this order and nothing out of it: e.g. the admin's confirm locks
 * the lines of the application's live withdraw order before calling movePayments, which takes 2-4.
 *
 * What follows a payment event:
 * - pay.paid and pay.confirm (-> paid) pay the task: task.pay (processing -> finished) through
 *   applyTaskEvent, and the task's parcels (scan rows tied to it, status wait2pay) -> payed.
 * - pay.agree stamps agreedAt, -> paid stamps paidAt, pay.collect stamps collectedAt. pay.release
 *   (a cancelled withdraw, withdrawing -> agreed) keeps agreedAt: the day an application was agreed
 *   does not move (statistics.ts counts amounts on it).
 * - A member (actor with role user) moves only their own applications: another's id answers A00004
 *   '付款申请不存在', as if it did not exist (DECISIONS "Roles"); so does an id that does not exist.
 */
export async function movePayments(tx: Tx, actor: SessionUser | null, ids: number[], event: PaymentEvent, opts: MoveOptions = {}): Promise<PaymentRow[]> {
  const list = sortedIds(ids);
  if (!list.length) return [];
  const taskEvent = TASK_EVENT[event.type];
  let taskIds: number[] = [];
  if (taskEvent) {
    // An application's task never changes, so it may be read before the application is locked.
    const rows = await tx.select({ taskId: paymentApplies.taskId }).from(paymentApplies).where(anyInt(paymentApplies.id, list));
    taskIds = sortedIds(rows.map((r) => r.taskId));
    await lockForMatching(tx, await trackingIdsOfTasks(tx, taskIds), taskIds);
  }
  const locked = await lockPayments(tx, list);
  const planned: { row: PaymentRow; next: PaymentStatus }[] = [];
  for (const id of list) {
    const row = locked.get(id);
    if (!row || (actor?.roleType === 'user' && row.userId !== actor.id)) throw notFound(paymentMessages.notFound);
    const d = decide(paymentMachine, row.status, {}, event, explainPaymentRefusal);
    if (!d.ok) throw badRequest(d.msg);
    planned.push({ row, next: d.next });
  }
  const now = new Date();
  const stamp = STAMP[event.type];
  const action = event.type.replace(/^pay\./, '');
  const out: PaymentRow[] = [];
  for (const { row, next } of planned) {
    const extra = typeof opts.set === 'function' ? opts.set(row) : opts.set;
    const [after] = await tx
      .update(paymentApplies)
      .set({ ...extra, ...(stamp ? { [stamp]: now } : {}), status: next, updatedAt: now })
      .where(eq(paymentApplies.id, row.id))
      .returning();
    out.push(after!);
  }
  if (taskEvent) {
    const taskRows: TaskRow[] = await tx.select().from(tasks).where(anyInt(tasks.id, taskIds)).orderBy(asc(tasks.id)).for('update');
    for (const task of taskRows) await applyTaskEvent(tx, actor, task, taskEvent);
    await moveTaskScans(tx, actor, taskIds, SCAN_EVENT[event.type]!, action);
  }
  await writeAudit(
    tx,
    planned.map((p, i) => paymentAudit(actor, action, p.row, out[i]!)),
  );
  await publishLive(tx, out.map(applicationChanged)); // live: the members' applications
  return out;
}
