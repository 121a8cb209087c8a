// Tracking ids re-keyed by migration 0012 (decision 097) that an admin should look at: two stored
// ids that now share one key, or a record left as it was because its task already had the key. The
// migration lists them in tracking_id_rekeys instead of failing; the start-up log says how many.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';

/** The start-up line about re-keyed tracking ids that collided, or null when there are none. */
export async function rekeyCollisionsLine(db: Db): Promise<string | null> {
  const [row] = await rowsOf<{ collides: number; kept: number }>(
    db.execute(
      sql`select count(*) filter (where note = 'collides')::int as collides, count(*) filter (where note like 'kept%')::int as kept from tracking_id_rekeys`,
    ),
  );
  if (!row || (row.collides === 0 && row.kept === 0)) return null;
  return `Tracking ids in canonical form (decision 097): ${row.collides} re-keyed rows share a key with another stored id, ${row.kept} records were kept as they were because their task already had the key; see table tracking_id_rekeys.`;
}
