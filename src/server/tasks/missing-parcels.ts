// Missing parcels (decision 077): a tracking id a member recorded that no scan has seen after the
// MISSING_PARCEL_DAYS setting's days (tasks/not-arrived.ts, the predicate the admin home counts with).
// The member lists their own and may write a note on one or report it lost (or not lost after all);
// the admins list everybody's with its age and carrier. "Lost" is the member's report, not a status:
// matching ignores it, so a parcel that turns up after all is matched as any other and leaves the list.
// One statement a page: the member's through purchased_records_user_created_idx (user_id, created_at),
// the admins' through the partial purchased_records_unseen_created_idx (created_at where status init),
// both walking created_at up to now - days in the list's order; the total is count(*) over () of the
// same rows, which at a million records are the few unseen ones.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { carrierOf } from '../../../machines/carrier.ts';
import { canonicalTrackingId } from '../../../machines/tracking-id.ts';
import type { components } from '../../api/schema';
import type { SessionUser } from '../auth/session-user.ts';
import { writeAudit } from '../audit.ts';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { PURCHASED_NOT_FOUND, purchasedAuditEntry } from '../entities/purchased-record.ts';
import { badRequest, notFound } from '../errors.ts';
import { memberTaskChanged, publishLive } from '../live/publish.ts';
import { pageOf, totalPagesOf } from '../paging.ts';
import { notArrivedRecord } from './not-arrived.ts';

type MissingParcel = components['schemas']['MissingParcel'];
type MissingParcelPage = components['schemas']['MissingParcelPage'];

/** The words of the report call. */
export const missingMessages = {
  /** A record that is not (or no longer) a missing parcel: it arrived, or is too recent. */
  notMissing: '该快递单号不是未到货的包裹',
  noted: '备注已保存',
  lost: '已标记为丢件',
  notLost: '已取消丢件标记',
} as const;

/**
 * Whole days since the record aliased `alias` was recorded when it is a missing parcel after `days`
 * days, else null (the member's task list flags its row with it).
 */
export const missingAge = (days: number, alias: string): SQL<number | null> =>
  sql<number | null>`case when ${notArrivedRecord(days, alias)}
    then floor(extract(epoch from now() - ${sql.raw(alias)}.created_at) / 86400)::int end`;

const total = sql<number>`count(*) over ()`.mapWith(Number);

/** The columns of a missing parcel, records aliased `nar` (not-arrived.ts's alias). */
const columns = {
  id: sql<number>`nar.id`,
  taskId: sql<number>`nar.task_id`,
  mainId: tasks.mainId,
  subId: tasks.subId,
  itemName: tasks.itemName,
  userId: sql<number>`nar.user_id`,
  trackingId: sql<string>`nar.tracking_id`,
  typedTrackingId: sql<string | null>`nar.typed_tracking_id`,
  productCount: sql<number>`nar.product_count`,
  createdAt: sql<Date>`nar.created_at`.mapWith((v: string | Date) => new Date(v)),
  ageDays: sql<number>`floor(extract(epoch from now() - nar.created_at) / 86400)::int`.mapWith(Number),
  note: sql<string>`nar.missing_note`,
  lostAt: sql<Date | null>`nar.lost_at`.mapWith((v: string | Date) => new Date(v)),
};
const nar = sql`${purchasedRecords} nar`;
const byAge = [sql`nar.created_at`, sql`nar.id`];

/** One row as answered: the carrier read from the id (carrierOf), the typed id only when it differs. */
function parcelOut(r: Record<string, unknown>): MissingParcel {
  const trackingId = r.trackingId as string;
  const typed = r.typedTrackingId as string | null;
  const lostAt = r.lostAt as Date | null;
  return {
    id: Number(r.id),
    taskId: Number(r.taskId),
    mainId: r.mainId as number,
    subId: r.subId as number,
    itemName: r.itemName as string,
    userId: Number(r.userId),
    ...(r.nickName !== undefined ? { nickName: r.nickName as string, mailAddr: r.mailAddr as string } : {}),
    trackingId,
    ...(typed && typed !== trackingId ? { typedTrackingId: typed } : {}),
    productCount: Number(r.productCount),
    createdAt: (r.createdAt as Date).getTime(),
    ageDays: Number(r.ageDays),
    carrier: carrierOf(trackingId)?.name ?? null,
    note: r.note as string,
    lostAt: lostAt ? lostAt.getTime() : null,
  };
}

const pageOut = (rows: (Record<string, unknown> & { total: number })[], size: number, days: number): MissingParcelPage => {
  const totalElements = rows[0]?.total ?? 0;
  return { content: rows.map(parcelOut), totalPages: totalPagesOf(totalElements, size), totalElements, days };
};

/** A page of member `userId`'s missing parcels, oldest first. */
export async function memberMissingParcels(tx: Tx, userId: number, days: number, q: { page?: number; size?: number }): Promise<MissingParcelPage> {
  const p = pageOf(q);
  const rows = await tx
    .select({ ...columns, total })
    .from(nar)
    .innerJoin(tasks, sql`${tasks.id} = nar.task_id`)
    .where(and(sql`nar.user_id = ${userId}`, notArrivedRecord(days)))
    .orderBy(...byAge.map((c) => asc(c)))
    .limit(p.size)
    .offset(p.offset);
  return pageOut(rows, p.size, days);
}

export interface MissingFilters {
  page?: number;
  size?: number;
  userId?: number;
  state?: 'missing' | 'lost';
  trackingId?: string;
}

/** A page of every member's missing parcels (the admins' list), oldest first, with the member. */
export async function allMissingParcels(tx: Tx, days: number, q: MissingFilters): Promise<MissingParcelPage> {
  const p = pageOf(q);
  const tracking = q.trackingId ? canonicalTrackingId(q.trackingId) : '';
  const where = and(
    notArrivedRecord(days),
    q.userId !== undefined ? sql`nar.user_id = ${q.userId}` : undefined,
    q.state === 'lost' ? sql`nar.lost_at is not null` : q.state === 'missing' ? sql`nar.lost_at is null` : undefined,
    // strpos: the text taken literally (no pattern characters), on the canonical key.
    tracking ? sql`strpos(nar.tracking_id, ${tracking}) > 0` : undefined,
  );
  const rows = await tx
    .select({ ...columns, nickName: users.nickName, mailAddr: users.mailAddr, total })
    .from(nar)
    .innerJoin(tasks, sql`${tasks.id} = nar.task_id`)
    .innerJoin(users, sql`${users.id} = nar.user_id`)
    .where(where)
    .orderBy(...byAge.map((c) => asc(c)))
    .limit(p.size)
    .offset(p.offset);
  return pageOut(rows, p.size, days);
}

/** The member home's part: how many of the member's parcels are missing, and how many of them they reported lost. */
export async function missingCounts(tx: Tx, userId: number, days: number) {
  const [row] = await tx
    .select({ total: sql<number>`count(*)::int`.mapWith(Number), lost: sql<number>`count(nar.lost_at)::int`.mapWith(Number) })
    .from(nar)
    .where(and(sql`nar.user_id = ${userId}`, notArrivedRecord(days)));
  return { total: row?.total ?? 0, lost: row?.lost ?? 0, days };
}

export interface MissingReport {
  id: number;
  note?: string;
  lost?: boolean;
}

/**
 * The member's note on their missing parcel and/or its report lost (true) or not (false), audited
 * (action 'record.missing', before and after). Another member's record, or none, is not found; a
 * record that is not a missing parcel (arrived, too recent, its task deleted) is refused.
 */
export async function reportMissingParcel(tx: Tx, actor: SessionUser, days: number, report: MissingReport): Promise<{ parcel: MissingParcel; msg: string }> {
  const [before] = await tx
    .select()
    .from(purchasedRecords)
    .where(and(eq(purchasedRecords.id, report.id), eq(purchasedRecords.userId, actor.id)))
    .for('update');
  if (!before) throw notFound(PURCHASED_NOT_FOUND);
  const [missing] = await tx
    .select({ id: sql`nar.id` })
    .from(nar)
    .where(and(sql`nar.id = ${before.id}`, notArrivedRecord(days)));
  if (!missing) throw badRequest(missingMessages.notMissing);
  const note = report.note === undefined ? before.missingNote : report.note.trim();
  const lostAt = report.lost === undefined ? before.lostAt : report.lost ? (before.lostAt ?? new Date()) : null;
  const [after] = await tx.update(purchasedRecords).set({ missingNote: note, lostAt }).where(eq(purchasedRecords.id, before.id)).returning();
  const [task] = await tx.select().from(tasks).where(eq(tasks.id, before.taskId));
  await writeAudit(tx, purchasedAuditEntry(actor, 'record.missing', task!, before, after!));
  await publishLive(tx, [memberTaskChanged({ id: before.taskId, userId: before.userId })]);
  const [row] = await tx
    .select({ ...columns })
    .from(nar)
    .innerJoin(tasks, sql`${tasks.id} = nar.task_id`)
    .where(sql`nar.id = ${before.id}`);
  const msg =
    report.lost === undefined || report.lost === (before.lostAt !== null)
      ? missingMessages.noted
      : report.lost
        ? missingMessages.lost
        : missingMessages.notLost;
  return { parcel: parcelOut(row!), msg };
}
