// Rows the migrations re-keyed that an admin should look at, listed in tracking_id_rekeys instead of
// failing the migration; the start-up log says how many. Migration 0012 (decision 097): two stored
// tracking ids that now share one key, or a record left as it was because its task already had the
// key. Migration 0013 (decision 075): a UPC given its leading zero back whose tracking id has another
// row of that product (table_name 'scan_trackings.upc', note 'same product').
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';

/** The start-up line about re-keyed rows that collided, or null when there are none. */
export async function rekeyCollisionsLine(db: Db): Promise<string | null> {
  const [row] = await rowsOf<{ collides: number; kept: number; sameProduct: number }>(
    db.execute(
      sql`select count(*) filter (where note = 'collides')::int as collides, count(*) filter (where note like 'kept%')::int as kept,
        count(*) filter (where note = 'same product')::int as "sameProduct" from tracking_id_rekeys`,
    ),
  );
  if (!row) return null;
  const lines: string[] = [];
  if (row.collides > 0 || row.kept > 0)
    lines.push(
      `Tracking ids in canonical form (decision 097): ${row.collides} re-keyed rows share a key with another stored id, ${row.kept} records were kept as they were because their task already had the key; see table tracking_id_rekeys.`,
    );
  if (row.sameProduct > 0)
    lines.push(
      `UPCs given their leading zero back (decision 075): ${row.sameProduct} scan rows have another row of the same product on their tracking id; see table tracking_id_rekeys (table_name scan_trackings.upc).`,
    );
  return lines.length ? lines.join(' ') : null;
}
