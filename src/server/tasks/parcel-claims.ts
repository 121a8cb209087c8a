// Claims of unknown parcels (decision 169): a member types the full tracking id of a parcel the
// warehouse set aside (receiving/unknown-parcels.ts) on a task of theirs; it is recorded there with
// the units of the task's product the parcel holds (at most what the task has left) and matched at
// once, as if recorded before the parcel arrived. The record is made by savePurchasedRecord, the one
// place records are made, which marks every record made on an unknown parcel a claim (claimed_at),
// whatever path made it. The admins list the claims and an admin may undo one while its task's units
// are not in a payment (the task machine's task.unclaim): the record goes, the task is judged again,
// the parcel is unknown once more. Both steps are audited (record.claim, record.unclaim).
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { sameProductCode } from '../../../machines/product-code.ts';
import { RECENT_CLAIM_DAYS } from '../../../machines/scan-record.machine.ts';
import { canonicalTrackingId } from '../../../machines/tracking-id.ts';
import { canUndoClaim, taskDisplayId, UNCLAIM_EVENT } from '../../../machines/task.machine.ts';
import type { components } from '../../api/schema';
import type { SessionUser } from '../auth/session-user.ts';
import { writeAudit } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { lockForMatching } from '../db/matching-store.ts';
import { users } from '../db/schema/accounts.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { PURCHASED_NOT_FOUND, purchasedAuditEntry } from '../entities/purchased-record.ts';
import { badRequest, Code, notFound } from '../errors.ts';
import { matchTracking } from '../matching/match.ts';
import { pageOf, totalPagesOf } from '../paging.ts';
import { unknownParcelProducts } from '../receiving/unknown-parcels.ts';
import { applyTaskEvent, lockTask, requireTransition } from './apply-event.ts';
import { purchasedInputError, recordedUnits, refreshTaskTrackingIds, savePurchasedRecord, type PurchasedResult } from './purchased-service.ts';

type ParcelClaim = components['schemas']['ParcelClaim'];
type ParcelClaimPage = components['schemas']['ParcelClaimPage'];

export const claimMessages = {
  /** No unknown parcel has this id: never scanned, recorded by someone, or mistyped. Says nothing of which. */
  notUnknown: '没有此快递单号的无主包裹，请核对完整的快递单号',
  otherProduct: '此包裹中没有该任务的商品',
  claimed: (units: number) => `认领成功，已记录${units}件`,
  notClaim: '该记录不是认领的包裹',
  undone: '已撤销认领，包裹重新成为无主包裹',
} as const;

export interface ClaimInput {
  taskId: number;
  trackingId: string;
}

/**
 * Member `actor` claims the unknown parcel `input.trackingId` (any written form) on their task
 * `input.taskId`. Refusals (A00001, nothing written): the id's input rules, not an unknown parcel
 * now, no unit of the task's product in it, the task's own rules (records allowed, units left);
 * another member's task is A00004.
 */
export async function claimUnknownParcel(tx: Tx, actor: SessionUser, input: ClaimInput): Promise<PurchasedResult> {
  const invalid = purchasedInputError({ trackingId: input.trackingId, productCount: 1 });
  if (invalid) throw badRequest(invalid);
  const key = canonicalTrackingId(input.trackingId);
  // Matching's locks first (savePurchasedRecord takes the same again), so the parcel stays unknown
  // from this read to the record that claims it.
  await lockForMatching(tx, [key], [input.taskId]);
  const task = await lockTask(tx, actor, input.taskId);
  const products = await unknownParcelProducts(tx, key);
  if (!products.length) throw badRequest(claimMessages.notUnknown);
  const units = products.filter((p) => task.upc !== null && sameProductCode(p.upc, task.upc)).reduce((n, p) => n + p.count, 0);
  if (!units) throw badRequest(claimMessages.otherProduct);
  const room = task.count - (await recordedUnits(tx, [task.id])).get(task.id)!;
  const result = await savePurchasedRecord(
    tx,
    actor,
    { taskId: task.id, trackingId: input.trackingId, productCount: Math.max(1, Math.min(units, room)) },
    'insert',
  );
  if (result.opStatus === 'error') throw result.code === Code.notFound ? notFound(result.msg) : badRequest(result.msg);
  return { ...result, msg: claimMessages.claimed(result.record!.productCount) };
}

const claimColumns = {
  id: purchasedRecords.id,
  taskId: purchasedRecords.taskId,
  mainId: tasks.mainId,
  subId: tasks.subId,
  taskStatus: tasks.status,
  itemName: tasks.itemName,
  userId: purchasedRecords.userId,
  nickName: users.nickName,
  mailAddr: users.mailAddr,
  trackingId: purchasedRecords.trackingId,
  typedTrackingId: purchasedRecords.typedTrackingId,
  productCount: purchasedRecords.productCount,
  status: purchasedRecords.status,
  claimedAt: purchasedRecords.claimedAt,
};

type ClaimRow = Awaited<ReturnType<typeof claimsOf>>[number];

function claimOut(r: ClaimRow): ParcelClaim {
  return {
    id: r.id,
    taskId: r.taskId,
    taskDisplayId: taskDisplayId(r),
    taskStatus: r.taskStatus,
    itemName: r.itemName,
    userId: r.userId,
    nickName: r.nickName,
    mailAddr: r.mailAddr,
    trackingId: r.trackingId,
    ...(r.typedTrackingId && r.typedTrackingId !== r.trackingId ? { typedTrackingId: r.typedTrackingId } : {}),
    productCount: r.productCount,
    status: r.status,
    claimedAt: r.claimedAt!.getTime(),
    undoable: canUndoClaim(r.taskStatus),
  };
}

const claimsOf = (tx: Tx, where: SQL | undefined) =>
  tx
    .select(claimColumns)
    .from(purchasedRecords)
    .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
    .innerJoin(users, eq(users.id, purchasedRecords.userId))
    .where(and(sql`${purchasedRecords.claimedAt} is not null`, where));

export interface ClaimFilters {
  page?: number;
  size?: number;
  userId?: number;
  trackingId?: string;
}

/** A page of the claims, newest first (through purchased_records_claimed_idx). */
export async function listParcelClaims(tx: Tx, q: ClaimFilters): Promise<ParcelClaimPage> {
  const p = pageOf(q);
  const tracking = q.trackingId ? canonicalTrackingId(q.trackingId) : '';
  const where = and(
    q.userId !== undefined ? eq(purchasedRecords.userId, q.userId) : undefined,
    tracking ? sql`strpos(${purchasedRecords.trackingId}, ${tracking}) > 0` : undefined,
  );
  const [rows, [count]] = await Promise.all([
    claimsOf(tx, where).orderBy(desc(purchasedRecords.claimedAt), desc(purchasedRecords.id)).limit(p.size).offset(p.offset),
    tx
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(purchasedRecords)
      .where(and(sql`${purchasedRecords.claimedAt} is not null`, where)),
  ]);
  const totalElements = count?.n ?? 0;
  return { content: rows.map(claimOut), totalPages: totalPagesOf(totalElements, p.size), totalElements };
}

/** Claims made in the last RECENT_CLAIM_DAYS days (the admin home), as a scalar subquery. */
export const recentClaimCount = sql<number>`(select count(*)::int from purchased_records rc
  where rc.claimed_at is not null and rc.claimed_at > now() - make_interval(days => ${sql.raw(String(RECENT_CLAIM_DAYS))}))`;

/**
 * Admin `actor` undoes the claim `id`: the record goes (matched or not: its units were the member's
 * only by the claim), the task takes task.unclaim (refused once applied for payment or closed), and
 * matching judges the tracking id and the task again, so the parcel's rows are unmatch and unknown
 * once more. Audited as record.unclaim (the record before), with the task's own entries.
 */
export async function undoParcelClaim(tx: Tx, actor: SessionUser, id: number): Promise<ParcelClaim> {
  const [first] = await tx.select().from(purchasedRecords).where(eq(purchasedRecords.id, id));
  if (!first) throw notFound(PURCHASED_NOT_FOUND);
  await lockForMatching(tx, [first.trackingId], [first.taskId]);
  const task = await lockTask(tx, actor, first.taskId);
  const [before] = await tx.select().from(purchasedRecords).where(eq(purchasedRecords.id, id)).for('update');
  if (!before || before.taskId !== task.id || before.trackingId !== first.trackingId) throw notFound(PURCHASED_NOT_FOUND);
  if (!before.claimedAt) throw badRequest(claimMessages.notClaim);
  requireTransition(task, UNCLAIM_EVENT);
  const [shown] = await claimsOf(tx, eq(purchasedRecords.id, id));
  await tx.delete(purchasedRecords).where(eq(purchasedRecords.id, id));
  await writeAudit(tx, purchasedAuditEntry(actor, 'record.unclaim', task, before, null));
  await applyTaskEvent(tx, actor, task, UNCLAIM_EVENT, { action: 'unclaim' });
  await refreshTaskTrackingIds(tx, [task.id]);
  // The task too: it has no record on the tracking id any more (decision 095).
  await matchTracking(tx, before.trackingId, actor, [task.id]);
  return claimOut(shown!);
}
