// Unknown parcels (decision 169; DECISIONS "Receiving and matching"): a tracking id seen at the
// warehouse that no member recorded - it has an unmatch scan row and no record of a task not deleted
// (the scan stations' 没有会员记录此快递单号). Members see them masked to the last 6 characters with
// their products, and claim one by typing its full id on a task of theirs (tasks/parcel-claims.ts):
// a record made on an unknown parcel, by any path, is a claim (purchased_records.claimed_at).
// The list and the admin home's count read the unmatch rows of the last UNKNOWN_PARCEL_DAYS through
// scan_trackings_status_created_idx (status, created_at), each asked for a live record through
// purchased_records_tracking_idx: the cost of the parcels set aside lately, not of every year kept.
// A claim asks by its key alone, whatever the parcel's age.
import { sql, type SQL } from 'drizzle-orm';
import { sameProductCode } from '../../../machines/product-code.ts';
import { UNKNOWN_PARCEL_DAYS, UNMATCHED_SCAN_STATUS } from '../../../machines/scan-record.machine.ts';
import { DELETED_TASK_STATUS, MEMBER_RECORDABLE_STATUSES, taskDisplayId } from '../../../machines/task.machine.ts';
import { carrierOf } from '../../../machines/carrier.ts';
import { maskTrackingId } from '../../../machines/tracking-id.ts';
import type { components } from '../../api/schema';
import { executePrepared, rowsOf, type Tx } from '../db/client.ts';
import { pageOf, totalPagesOf } from '../paging.ts';

type UnknownParcelPage = components['schemas']['UnknownParcelPage'];

/** The statuses as SQL literals: the partial and status indexes keep one plan. */
const UNMATCHED = sql.raw(`'${UNMATCHED_SCAN_STATUS}'`);
const DELETED = sql.raw(`'${DELETED_TASK_STATUS}'`);

/** The unmatch rows (aliased us) scanned within UNKNOWN_PARCEL_DAYS: the listed and counted ones. */
const recentUnmatched = sql`us.status = ${UNMATCHED} and us.created_at > now() - make_interval(days => ${sql.raw(String(UNKNOWN_PARCEL_DAYS))})`;

/** No record of a live task names the tracking id `key` (an SQL expression). */
export const noLiveRecord = (key: SQL) =>
  sql`not exists (select 1 from purchased_records ulr join tasks ult on ult.id = ulr.task_id where ulr.tracking_id = ${key} and ult.status <> ${DELETED})`;

/** The canonical keys among `keys` that are unknown parcels now (the caller holds matching's locks on them). */
export async function unknownParcelKeys(tx: Tx, keys: readonly string[]): Promise<Set<string>> {
  const distinct = [...new Set(keys)];
  if (!distinct.length) return new Set();
  const rows = await rowsOf<{ key: string }>(
    executePrepared(
      tx,
      sql`
      select q.key from unnest(${sql.param(distinct)}::text[]) as q(key)
      where exists (select 1 from scan_trackings us where us.tracking_id = q.key and us.status = ${UNMATCHED})
        and ${noLiveRecord(sql`q.key`)}`,
    ),
  );
  return new Set(rows.map((r) => r.key));
}

/** The products of an unknown parcel: its unmatch rows. */
export interface UnknownProduct {
  itemName: string;
  upc: string;
  count: number;
}

/** The unmatch rows of the unknown parcel `key` (none: it is not one), read in the caller's transaction. */
export async function unknownParcelProducts(tx: Tx, key: string): Promise<UnknownProduct[]> {
  return rowsOf<UnknownProduct>(
    tx.execute(sql`
      select us.item_name as "itemName", us.upc, us.count from scan_trackings us
      where us.tracking_id = ${key} and us.status = ${UNMATCHED} and ${noLiveRecord(sql`us.tracking_id`)}
      order by us.id`),
  );
}

/** How many unknown parcels scanned lately wait for their owner (the admin home), as a scalar subquery. */
export const unknownParcelCount = sql<number>`(select count(distinct us.tracking_id)::int from scan_trackings us
  where ${recentUnmatched} and ${noLiveRecord(sql`us.tracking_id`)})`;

/** A member's task that could take a parcel's units: its product, and the units it has not recorded. */
interface OpenTask {
  id: number;
  mainId: number;
  subId: number;
  itemName: string;
  upc: string | null;
  room: number;
}

/**
 * A page of the unknown parcels scanned in the last UNKNOWN_PARCEL_DAYS, newest scan first, masked; each with member `userId`'s tasks that could
 * claim it (records allowed by the task machine, units left, the parcel holds their product).
 */
export async function memberUnknownParcels(tx: Tx, userId: number, q: { page?: number; size?: number }): Promise<UnknownParcelPage> {
  const p = pageOf(q);
  const rows = await rowsOf<{ key: string; seenAt: string | Date; products: UnknownProduct[]; total: number }>(
    tx.execute(sql`
      select us.tracking_id as key, max(us.created_at) as "seenAt",
        json_agg(json_build_object('itemName', us.item_name, 'upc', us.upc, 'count', us.count) order by us.id) as products,
        count(*) over () as total
      from scan_trackings us
      where ${recentUnmatched} and ${noLiveRecord(sql`us.tracking_id`)}
      group by us.tracking_id
      order by max(us.created_at) desc, us.tracking_id
      limit ${p.size} offset ${p.offset}`),
  );
  const open = rows.length
    ? await rowsOf<OpenTask>(
        tx.execute(sql`
          select t.id, t.main_id as "mainId", t.sub_id as "subId", t.item_name as "itemName", t.upc,
            t.count - coalesce((select sum(r.product_count) from purchased_records r where r.task_id = t.id), 0)::int as room
          from tasks t
          where t.user_id = ${userId} and t.status = any(${sql.param([...MEMBER_RECORDABLE_STATUSES])}::text[]::task_status[])
          order by t.id`),
      )
    : [];
  const usable = open.filter((t) => Number(t.room) > 0);
  const totalElements = Number(rows[0]?.total ?? 0);
  return {
    content: rows.map((r) => ({
      maskedTrackingId: maskTrackingId(r.key),
      carrier: carrierOf(r.key)?.name ?? null,
      seenAt: new Date(r.seenAt).getTime(),
      products: r.products.map((x) => ({ itemName: x.itemName, upc: x.upc, count: Number(x.count) })),
      myTasks: usable
        .filter((t) => t.upc !== null && r.products.some((x) => sameProductCode(x.upc, t.upc!)))
        .map((t) => ({ id: Number(t.id), taskDisplayId: taskDisplayId(t), itemName: t.itemName, room: Number(t.room) })),
    })),
    totalPages: totalPagesOf(totalElements, p.size),
    totalElements,
  };
}
