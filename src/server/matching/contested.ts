// Contested parcels (decision 096): a UPC of a tracking id that records of two or more members want
// and whose arrived units do not cover them all credits none of them by itself. Matching decides it
// (allocate.ts contestedUpcs) and writes each waiting record's msg CONTESTED_MESSAGE, so the
// conflict list is derived from those records, not stored: it empties itself when the parcel's rest
// arrives or a record goes. The admin assigns the units in one step (assignContested): the
// assignments are written under matching's tracking lock, audited, and the tracking id matched again
// in the same transaction, so what the members see follows at once.
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { productCodeKey } from '../../../machines/product-code.ts';
import { isSeen } from '../../../machines/scan-record.machine.ts';
import { CONTESTED_MESSAGE, DELETED_TASK_STATUS, taskDisplayId } from '../../../machines/task.machine.ts';
import { writeAudit, type AuditEntry } from '../audit.ts';
import { purchasedAuditEntry } from '../entities/purchased-record.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { rowsOf, type Tx } from '../db/client.ts';
import { lockTrackings } from '../db/matching-store.ts';
import { users } from '../db/schema/accounts.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { badRequest } from '../errors.ts';
import { matchTracking } from './match.ts';
import { acceptsMatch } from './plan.ts';

export const contestedMessages = {
  trackingIdRequired: '参数错误：请填写快递单号（trackingId）',
  upcRequired: '参数错误：请填写UPC（upc）',
  notContested: '该快递单号的这个商品没有多位会员的记录',
  unknownRecord: (id: number) => `参数错误：记录${id}不属于该包裹的这个商品（records.recordId）`,
  badCount: (id: number) => `参数错误：记录${id}的分配数量须为0到记录数量之间的整数（records.count）`,
  missing: (id: number) => `参数错误：请为记录${id}填写分配数量（records）`,
  tooMany: (left: number) => `参数错误：分配合计超过包裹中可分配的${left}件（records.count）`,
  done: '分配完成',
} as const;

/** How many tracking ids have a contested record of a live task: the admin home's count (over the partial index on such records). */
export const contestedTrackingCount = sql`(select count(distinct p.tracking_id)::int from ${purchasedRecords} p join ${tasks} t on t.id = p.task_id
  where p.msg = ${CONTESTED_MESSAGE} and t.status <> ${DELETED_TASK_STATUS})`;

/** One contested parcel's UPC as the admin sees it: every record that wants it, and what arrived (the contract's shape). */
export type ContestedParcel = components['schemas']['ContestedParcel'];

/** The records of these tracking ids (live tasks), with their tasks and members, in record order. */
async function recordsOn(tx: Tx, trackingIds: string[]) {
  return tx
    .select({ record: purchasedRecords, task: tasks, nickName: users.nickName })
    .from(purchasedRecords)
    .innerJoin(tasks, eq(tasks.id, purchasedRecords.taskId))
    .innerJoin(users, eq(users.id, tasks.userId))
    .where(and(inArray(purchasedRecords.trackingId, trackingIds), ne(tasks.status, DELETED_TASK_STATUS)))
    .orderBy(asc(purchasedRecords.id));
}

/** The contested parcels of these tracking ids, one per (tracking id, UPC) with a waiting record. */
async function parcelsOf(tx: Tx, trackingIds: string[], only?: { upc: string }): Promise<ContestedParcel[]> {
  if (!trackingIds.length) return [];
  const recs = await recordsOn(tx, trackingIds);
  const scans = await tx.select().from(scanTrackings).where(inArray(scanTrackings.trackingId, trackingIds)).orderBy(asc(scanTrackings.id));
  const out: ContestedParcel[] = [];
  for (const trackingId of trackingIds) {
    // One parcel per product however its UPC is written (productCodeKey, decision 075), as matching groups them.
    const here = recs.flatMap((r) => (r.record.trackingId === trackingId && r.task.upc ? [{ ...r, key: productCodeKey(r.task.upc) }] : []));
    const keys = [...new Set(here.filter((r) => (only ? r.key === productCodeKey(only.upc) : r.record.msg === CONTESTED_MESSAGE)).map((r) => r.key))];
    for (const key of keys) {
      const group = here.filter((r) => r.key === key);
      if (new Set(group.map((r) => r.task.userId)).size < 2) continue;
      // The UPC as the first record's task writes it.
      const upc = group[0]!.task.upc!;
      const seen = scans.filter((s) => s.trackingId === trackingId && isSeen(s) && productCodeKey(s.upc) === key);
      const settledTasks = new Set(group.filter((r) => !acceptsMatch(r.task)).map((r) => r.task.id));
      out.push({
        trackingId,
        upc,
        itemName: group[0]!.task.itemName,
        scanned: seen.reduce((n, s) => n + s.count, 0),
        held: seen.filter((s) => s.taskId !== null && settledTasks.has(s.taskId)).reduce((n, s) => n + s.count, 0),
        records: group.map(({ record, task, nickName }) => ({
          recordId: record.id,
          taskId: task.id,
          taskDisplayId: taskDisplayId(task),
          userId: task.userId,
          nickName,
          productCount: record.productCount,
          assignedCount: record.assignedCount,
          settled: settledTasks.has(task.id),
        })),
      });
    }
  }
  return out;
}

/** Every contested parcel (the admin home's list), oldest tracking id first; at most `limit`. */
export async function listContested(tx: Tx, limit = 100): Promise<ContestedParcel[]> {
  const ids = await rowsOf<{ tracking_id: string }>(
    tx.execute(sql`select p.tracking_id from ${purchasedRecords} p join ${tasks} t on t.id = p.task_id
      where p.msg = ${CONTESTED_MESSAGE} and t.status <> ${DELETED_TASK_STATUS}
      group by p.tracking_id order by min(p.id) limit ${limit}`),
  );
  return parcelsOf(
    tx,
    ids.map((r) => r.tracking_id),
  );
}

export interface AssignInput {
  trackingId: string;
  upc: string;
  records: { recordId: number; count: number }[];
}

/**
 * The admin's one step: the units of a contested parcel's UPC, per record of a task that may still
 * match (every such record named once; settled tasks keep what they hold). Written under matching's
 * tracking lock, each record's change audited ('contest.assign'), then the tracking id matched again.
 */
export async function assignContested(tx: Tx, actor: SessionUser, input: AssignInput): Promise<ContestedParcel> {
  const trackingId = input.trackingId.trim();
  const upc = input.upc.trim();
  if (!trackingId) throw badRequest(contestedMessages.trackingIdRequired);
  if (!upc) throw badRequest(contestedMessages.upcRequired);
  await lockTrackings(tx, [trackingId]);
  const [parcel] = await parcelsOf(tx, [trackingId], { upc });
  if (!parcel) throw badRequest(contestedMessages.notContested);
  const open = parcel.records.filter((r) => !r.settled);
  const given = new Map<number, number>();
  for (const { recordId, count } of input.records) {
    const rec = open.find((r) => r.recordId === recordId);
    if (!rec || given.has(recordId)) throw badRequest(contestedMessages.unknownRecord(recordId));
    if (!Number.isInteger(count) || count < 0 || count > rec.productCount) throw badRequest(contestedMessages.badCount(recordId));
    given.set(recordId, count);
  }
  const missing = open.find((r) => !given.has(r.recordId));
  if (missing) throw badRequest(contestedMessages.missing(missing.recordId));
  const left = Math.max(0, parcel.scanned - parcel.held);
  if ([...given.values()].reduce((n, c) => n + c, 0) > left) throw badRequest(contestedMessages.tooMany(left));

  const now = new Date();
  const audits: AuditEntry[] = [];
  const recs = await recordsOn(tx, [trackingId]);
  for (const r of open) {
    const count = given.get(r.recordId)!;
    const { record, task } = recs.find((x) => x.record.id === r.recordId)!;
    if (record.assignedCount === count) continue;
    await tx.update(purchasedRecords).set({ assignedCount: count, updatedAt: now }).where(eq(purchasedRecords.id, record.id));
    audits.push(purchasedAuditEntry(actor, 'contest.assign', task, record, { ...record, assignedCount: count, updatedAt: now }, count));
  }
  if (audits.length) await writeAudit(tx, audits);
  await matchTracking(tx, trackingId, actor);
  const [after] = await parcelsOf(tx, [trackingId], { upc });
  return after!;
}
