// Reading the rows of many tracking ids, and inserting scan rows: the one way every writer of new scan rows does it (a scan, matching's
// divided rows, a tracking import). One statement for any number of rows, with one array parameter
// per column (unnest), so its cost does not grow with a parameter per cell; each new row's id is
// taken from the sequence in the same statement and answered with the row's position, so the rows
// are known without reading them back and without relying on the order of RETURNING.
import { asc, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../db/client.ts';
import { scanTrackings } from '../db/schema/receiving.ts';

export type ScanRow = typeof scanTrackings.$inferSelect;
export type NewScanRow = Omit<ScanRow, 'id'>;

/** Rows per statement. */
const INSERT_CHUNK = 5000;

/** Inserts the rows as given (every column but id) and answers them with their ids, in order. */
export async function insertScanRows(tx: Tx, rows: NewScanRow[]): Promise<ScanRow[]> {
  const out: ScanRow[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const part = rows.slice(i, i + INSERT_CHUNK);
    const col = <T>(f: (r: NewScanRow) => T) => sql.param(part.map(f));
    // The sequence is read once per row in the materialized CTE (nextval is volatile), so the ids
    // answered are the ids inserted.
    const ids = await rowsOf<{ id: number; n: number }>(
      tx.execute(sql`
        with v as materialized (
          select nextval(pg_get_serial_sequence('scan_trackings', 'id'))::int as id, u.*
          from unnest(${col((r) => r.trackingId)}::text[], ${col((r) => r.upc)}::text[], ${col((r) => r.count)}::int[], ${col((r) => r.itemId)}::int[],
            ${col((r) => r.itemName)}::text[], ${col((r) => r.status)}::text[], ${col((r) => r.matchedUser)}::text[], ${col((r) => r.userId)}::int[],
            ${col((r) => r.mainId)}::int[], ${col((r) => r.subId)}::int[], ${col((r) => r.taskId)}::int[], ${col((r) => r.opUid)}::int[],
            ${col((r) => r.createdAt.toISOString())}::timestamptz[], ${col((r) => r.updatedAt.toISOString())}::timestamptz[])
            with ordinality as u(tracking_id, upc, count, item_id, item_name, status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at, n)
        ), inserted as (
          insert into scan_trackings (id, tracking_id, upc, count, item_id, item_name, status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at)
          select id, tracking_id, upc, count, item_id, item_name, status::scan_status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at from v
        )
        select id, n::int as n from v`),
    );
    const idAt = new Map(ids.map((r) => [Number(r.n), Number(r.id)]));
    part.forEach((r, k) => out.push({ id: idAt.get(k + 1)!, ...r }));
  }
  return out;
}

/** Tracking ids per read (one array parameter). */
const READ_CHUNK = 5000;

/** Every row of these tracking ids, grouped by tracking id, oldest first (a query per 5,000 tracking ids). */
export async function rowsOfTrackings(tx: Tx, trackingIds: string[]): Promise<Map<string, ScanRow[]>> {
  const out = new Map<string, ScanRow[]>();
  for (let i = 0; i < trackingIds.length; i += READ_CHUNK) {
    const part = trackingIds.slice(i, i + READ_CHUNK);
    const rows = await tx.select().from(scanTrackings).where(sql`${scanTrackings.trackingId} = any(${sql.param(part)}::text[])`).orderBy(asc(scanTrackings.id));
    for (const r of rows) {
      const list = out.get(r.trackingId);
      if (list) list.push(r);
      else out.set(r.trackingId, [r]);
    }
  }
  return out;
}
