// Purchased records (SPEC §3 "Purchased record", §4 "A task-record row with status match cannot be
// deleted or edited", §5 task record dialog): what a member says they bought for a task, per
// tracking id. The one place a record is created, changed or removed - the record dialog's calls
// (handlers/purchased.ts) and the Excel upload of purchased records go through here, so both apply
// the same rules with the same words, inside the caller's transaction:
//
// - trackingId is trimmed and required ('请填写trackingId'), at most 64 characters; productCount is
//   a whole number from 1 to 1000000 ('请填写数目').
// - The task must be the actor's own (a member) or any task (lowerAdmin, admin); another member's
//   task or record is reported as not existing (code A00004, DECISIONS "Roles").
// - The task must accept an edit by the actor per the task machine (task.edit by user: open tasks
//   only; by admin: every task that is not pending or deleted); a refusal carries the machine's
//   message. The record edit is not itself a task event: the task's status does not change here,
//   only matching (below) may move it.
// - One record per (task, tracking id): inserting the same pair again is 'skip' (already recorded,
//   oldQty = its count); updating changes the count (oldQty = previous), or the tracking id (when
//   the task has no record with the new one). An update that changes nothing is 'skip'.
// - A record in status match cannot be changed ('已匹配的记录不能修改') or removed
//   ('已匹配的记录不能删除'). A changed record starts again as init and is matched at once.
// - Every change writes an audit entry (entity 'purchased': taskId, trackingId, count, before and
//   after, status = the task's status) in the same transaction, then runs matching for the tracking
//   id(s) concerned (matching/match.ts), which may move the task (task.match via applyTaskEvent).
// - Refusals are returned as opStatus 'error' (with `code`) BEFORE anything is written, so an upload
//   can report the row and go on with the next one in the same transaction; unexpected failures
//   throw. Locks: the tracking id(s) and the tasks matching will touch first (lockForMatching), then
//   the task row (lockTask, already held), the order matching uses, so a record change and a scan
//   of the same parcel, or two members sharing parcels, never deadlock.
import { and, asc, desc, eq } from 'drizzle-orm';
import { writeAudit } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { AppError, Code } from '../errors.ts';
import type { SessionUser } from '../handlers/types.ts';
import { lockForMatching, matchTracking } from '../matching/match.ts';
import { lockTask, requireTransition, type TaskRow } from './apply-event.ts';

export type PurchasedRow = typeof purchasedRecords.$inferSelect;

export const purchasedMessages = {
  trackingIdRequired: '请填写trackingId',
  trackingIdTooLong: 'trackingId不能超过64个字符',
  countRequired: '请填写数目',
  matchedNoEdit: '已匹配的记录不能修改',
  matchedNoRemove: '已匹配的记录不能删除',
  alreadyRecorded: '该trackingId已记录',
  notFound: '记录不存在',
  noRecordForTracking: '该任务没有此trackingId的记录',
  unchanged: '没有变化',
  created: '创建成功',
  saved: '保存成功',
  removed: '删除成功',
} as const;

export const MAX_TRACKING_ID = 64;
export const MAX_PRODUCT_COUNT = 1_000_000;

export interface PurchasedInput {
  taskId: number;
  trackingId: string;
  productCount: number;
  /** The record to update (update mode); without it the record is found by (taskId, trackingId). */
  id?: number;
}

export interface PurchasedResult {
  opStatus: 'succ' | 'skip' | 'error';
  msg: string;
  /** The record after the change (after matching), the existing one for a skip; the removed one for remove. */
  record?: PurchasedRow;
  /** The count before the change (update), or the recorded count (insert skip). */
  oldQty?: number;
  /** For 'error': A00004 when the task or record does not exist for the actor, else A00001. */
  code?: typeof Code.badParam | typeof Code.notFound;
}

const isResult = (x: TaskRow | PurchasedResult): x is PurchasedResult => 'opStatus' in x;

const refuse = (msg: string, code: PurchasedResult['code'] = Code.badParam): PurchasedResult => ({ opStatus: 'error', msg, code });

/** The record's checks of one input; null when it is valid. */
export function purchasedInputError(input: { trackingId?: unknown; productCount?: unknown }): string | null {
  const t = typeof input.trackingId === 'string' ? input.trackingId.trim() : '';
  if (!t) return purchasedMessages.trackingIdRequired;
  if (t.length > MAX_TRACKING_ID) return purchasedMessages.trackingIdTooLong;
  const n = input.productCount;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_PRODUCT_COUNT) return purchasedMessages.countRequired;
  return null;
}

const isAdminSide = (actor: SessionUser) => actor.roleType !== 'user';

/**
 * Locks the task for a record change by `actor`, or explains why not (as a result, before any
 * write). lockTask and requireTransition throw AppErrors; nothing has been written yet, so turning
 * them into a result leaves the transaction usable.
 */
async function taskForEdit(tx: Tx, actor: SessionUser, taskId: number): Promise<TaskRow | PurchasedResult> {
  try {
    const task = await lockTask(tx, actor, taskId);
    requireTransition(task, { type: 'task.edit', by: isAdminSide(actor) ? 'admin' : 'user' });
    return task;
  } catch (e) {
    if (e instanceof AppError && (e.code === Code.notFound || e.code === Code.badParam)) return refuse(e.message, e.code);
    throw e;
  }
}

async function audit(tx: Tx, actor: SessionUser, action: string, task: TaskRow, before: PurchasedRow | null, after: PurchasedRow | null) {
  const row = (after ?? before)!;
  await writeAudit(tx, {
    entity: 'purchased',
    entityId: row.id,
    action,
    opUid: actor.id,
    userId: task.userId,
    mainId: task.mainId,
    subId: task.subId,
    taskId: task.id,
    upc: task.upc,
    count: after?.productCount ?? before?.productCount ?? null,
    itemName: task.itemName,
    // The task's status (the task audit's status column is a task status); the record's own
    // status is in before/after.
    status: task.status,
    trackingId: row.trackingId,
    before,
    after,
  });
}

/** Keeps tasks.tracking_id ("latest tracking id recorded") in step with the records. */
async function refreshTaskTrackingId(tx: Tx, taskId: number) {
  const [latest] = await tx
    .select({ t: purchasedRecords.trackingId })
    .from(purchasedRecords)
    .where(eq(purchasedRecords.taskId, taskId))
    .orderBy(desc(purchasedRecords.updatedAt), desc(purchasedRecords.id))
    .limit(1);
  await tx
    .update(tasks)
    .set({ trackingId: latest?.t ?? null })
    .where(eq(tasks.id, taskId));
}

const reread = async (tx: Tx, id: number) => (await tx.select().from(purchasedRecords).where(eq(purchasedRecords.id, id)))[0];

/**
 * Records (mode 'insert') or changes (mode 'update') a purchase of `input.taskId` for `actor`, in
 * the caller's transaction; see the header for the rules. Returns opStatus succ (changed), skip
 * (insert of a tracking id the task already has; update that changes nothing) or error (refused,
 * nothing written; `code` A00004 for a task/record the actor may not see, else A00001).
 */
export async function savePurchasedRecord(tx: Tx, actor: SessionUser, input: PurchasedInput, mode: 'insert' | 'update'): Promise<PurchasedResult> {
  const invalid = purchasedInputError(input);
  if (invalid) return refuse(invalid);
  const trackingId = input.trackingId.trim();
  const productCount = input.productCount;

  // The record being updated, read first (unlocked) only to know which tracking ids to lock.
  let target: PurchasedRow | undefined;
  if (mode === 'update' && input.id !== undefined) {
    target = await reread(tx, input.id);
    if (!target || target.taskId !== input.taskId) return refuse(purchasedMessages.notFound, Code.notFound);
  }
  await lockForMatching(tx, target ? [target.trackingId, trackingId] : [trackingId], [input.taskId]);
  const task = await taskForEdit(tx, actor, input.taskId);
  // Another member's record reads as a missing record, not as a missing task.
  if (isResult(task)) return target && task.code === Code.notFound ? refuse(purchasedMessages.notFound, Code.notFound) : task;

  const [existing] = await tx
    .select()
    .from(purchasedRecords)
    .where(and(eq(purchasedRecords.taskId, task.id), eq(purchasedRecords.trackingId, trackingId)))
    .for('update');

  if (mode === 'insert') {
    if (existing) return { opStatus: 'skip', msg: purchasedMessages.alreadyRecorded, record: existing, oldQty: existing.productCount };
    const [created] = await tx.insert(purchasedRecords).values({ taskId: task.id, userId: task.userId, trackingId, productCount }).returning();
    await audit(tx, actor, 'create', task, null, created!);
    await refreshTaskTrackingId(tx, task.id);
    await matchTracking(tx, trackingId, actor);
    return { opStatus: 'succ', msg: purchasedMessages.created, record: await reread(tx, created!.id) };
  }

  // update
  const [before] = target
    ? await tx.select().from(purchasedRecords).where(eq(purchasedRecords.id, target.id)).for('update')
    : existing
      ? [existing]
      : [];
  if (!before || before.taskId !== task.id) {
    return target ? refuse(purchasedMessages.notFound, Code.notFound) : refuse(purchasedMessages.noRecordForTracking);
  }
  if (target && before.trackingId !== target.trackingId) {
    // Changed between the first read and the lock: the lock taken may not be this record's.
    return refuse(purchasedMessages.notFound, Code.notFound);
  }
  // Unchanged first, so re-uploading the same file skips its matched rows instead of failing them.
  if (before.trackingId === trackingId && before.productCount === productCount) {
    return { opStatus: 'skip', msg: purchasedMessages.unchanged, record: before, oldQty: before.productCount };
  }
  if (before.status === 'match') return refuse(purchasedMessages.matchedNoEdit);
  if (existing && existing.id !== before.id) return refuse(purchasedMessages.alreadyRecorded);
  const [after] = await tx
    .update(purchasedRecords)
    .set({ trackingId, productCount, status: 'init', msg: '', updatedAt: new Date() })
    .where(eq(purchasedRecords.id, before.id))
    .returning();
  await audit(tx, actor, 'update', task, before, after!);
  await refreshTaskTrackingId(tx, task.id);
  if (before.trackingId !== trackingId) await matchTracking(tx, before.trackingId, actor);
  await matchTracking(tx, trackingId, actor);
  return { opStatus: 'succ', msg: purchasedMessages.saved, record: await reread(tx, before.id), oldQty: before.productCount };
}

/**
 * Removes record `id` for `actor` (same rules: own task or admin side, the task accepts an edit,
 * not in status match), audits it and re-matches its tracking id. Errors as for savePurchasedRecord.
 */
export async function removePurchasedRecord(tx: Tx, actor: SessionUser, id: number): Promise<PurchasedResult> {
  const first = await reread(tx, id);
  if (!first) return refuse(purchasedMessages.notFound, Code.notFound);
  await lockForMatching(tx, [first.trackingId], [first.taskId]);
  const task = await taskForEdit(tx, actor, first.taskId);
  if (isResult(task)) return task.code === Code.notFound ? refuse(purchasedMessages.notFound, Code.notFound) : task;
  const [before] = await tx.select().from(purchasedRecords).where(eq(purchasedRecords.id, id)).for('update');
  if (!before || before.trackingId !== first.trackingId || before.taskId !== task.id) return refuse(purchasedMessages.notFound, Code.notFound);
  if (before.status === 'match') return refuse(purchasedMessages.matchedNoRemove);
  await tx.delete(purchasedRecords).where(eq(purchasedRecords.id, id));
  await audit(tx, actor, 'remove', task, before, null);
  await refreshTaskTrackingId(tx, task.id);
  await matchTracking(tx, before.trackingId, actor);
  return { opStatus: 'succ', msg: purchasedMessages.removed, record: before };
}

/** The records of one task, oldest first (the task record dialog). */
export function listPurchasedRecords(tx: Tx, taskId: number): Promise<PurchasedRow[]> {
  return tx.select().from(purchasedRecords).where(eq(purchasedRecords.taskId, taskId)).orderBy(asc(purchasedRecords.id));
}
