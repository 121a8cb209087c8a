// Reading the rows of many tracking ids, and inserting scan rows: the one way every writer of new
// scan rows does it (a scan, matching's divided rows, a tracking import). A new row's id is taken
// from the sequence beforehand (newScanIds, or scanIdsSql inside a statement the caller runs
// anyway), so the rows are known without reading them back and their INSERT can go with the
// caller's other writes in one statement (db/together.ts). One INSERT for any number of rows, with
// one array parameter per column (unnest), so its cost does not grow with a parameter per cell.
import { asc, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Tx } from '../db/client.ts';
import { executeTogether } from '../db/together.ts';
import type { items } from '../db/schema/catalog.ts';
import { scanTrackings } from '../db/schema/receiving.ts';

export type ScanRow = typeof scanTrackings.$inferSelect;
/** What a scan row takes of the item it names (its id and name; the upc when a scan gives none). */
export type ItemBrief = Pick<typeof items.$inferSelect, 'id' | 'itemName' | 'upc'>;

/** Rows per statement. */
const INSERT_CHUNK = 5000;

/** An expression answering `n` new ids of scan rows (int[]), taken from the sequence (gaps are harmless: unused ids are never reused). */
export const scanIdsSql = (n: number): SQL =>
  sql`array(select nextval(pg_get_serial_sequence('scan_trackings', 'id'))::int from generate_series(1, ${n}::int))`;

/** `n` new ids of scan rows. */
export async function newScanIds(tx: Tx, n: number): Promise<number[]> {
  if (n <= 0) return [];
  const [row] = await rowsOf<{ ids: number[] }>(tx.execute(sql`select ${scanIdsSql(n)} as ids`));
  return row!.ids.map(Number);
}

/** A Date's ISO text, made once for each Date object in a row (a write's rows share one `now`). */
function isoOfShared(): (date: Date) => string {
  let last: Date | undefined;
  let text = '';
  return (date) => (date === last ? text : ((last = date), (text = date.toISOString())));
}

/** The INSERT statements of these rows (ids taken beforehand), for the caller to run (with its other writes); built as they are taken. */
export function* scanRowsInsert(rows: ScanRow[]): Generator<SQL> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const part = rows.slice(i, i + INSERT_CHUNK);
    const col = <T>(f: (r: ScanRow) => T) => sql.param(part.map(f));
    const iso = isoOfShared();
    yield sql`
      insert into scan_trackings (id, tracking_id, upc, count, item_id, item_name, status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at)
      select id, tracking_id, upc, count, item_id, item_name, status::scan_status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at
      from unnest(${col((r) => r.id)}::int[], ${col((r) => r.trackingId)}::text[], ${col((r) => r.upc)}::text[], ${col((r) => r.count)}::int[], ${col((r) => r.itemId)}::int[],
        ${col((r) => r.itemName)}::text[], ${col((r) => r.status)}::text[], ${col((r) => r.matchedUser)}::text[], ${col((r) => r.userId)}::int[],
        ${col((r) => r.mainId)}::int[], ${col((r) => r.subId)}::int[], ${col((r) => r.taskId)}::int[], ${col((r) => r.opUid)}::int[],
        ${col((r) => iso(r.createdAt))}::timestamptz[], ${col((r) => iso(r.updatedAt))}::timestamptz[])
        as u(id, tracking_id, upc, count, item_id, item_name, status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at)`;
  }
}

/** Inserts the rows as given, their ids taken beforehand (newScanIds). */
export async function insertScanRows(tx: Tx, rows: ScanRow[]): Promise<void> {
  await executeTogether(tx, scanRowsInsert(rows), rows.length);
}

/** Tracking ids per read (one array parameter). */
const READ_CHUNK = 5000;

/** Every row of these tracking ids, grouped by tracking id, oldest first (a query per 5,000 tracking ids). */
export async function rowsOfTrackings(tx: Tx, trackingIds: string[]): Promise<Map<string, ScanRow[]>> {
  const out = new Map<string, ScanRow[]>();
  for (let i = 0; i < trackingIds.length; i += READ_CHUNK) {
    const part = trackingIds.slice(i, i + READ_CHUNK);
    const rows = await tx
      .select()
      .from(scanTrackings)
      .where(sql`${scanTrackings.trackingId} = any(${sql.param(part)}::text[])`)
      .orderBy(asc(scanTrackings.id));
    for (const r of rows) {
      const list = out.get(r.trackingId);
      if (list) list.push(r);
      else out.set(r.trackingId, [r]);
    }
  }
  return out;
}
