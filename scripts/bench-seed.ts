// Seeding for `npm run bench`: large amounts of data written with set-based SQL (generate_series),
// so seeding 100,000s of rows takes seconds. Only the bench uses it; tests build their data through
// the API (tests/server/*-fixtures.ts).
import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client.ts';

/** The rows of a raw statement (both drivers answer { rows }). */
async function rowsOf<T>(q: Promise<unknown>): Promise<T[]> {
  return ((await q) as { rows: T[] }).rows;
}

export interface SeededTasks {
  boardId: number;
  itemId: number;
  upc: string;
  /** The seeded tasks' ids, in id order. */
  taskIds: number[];
}

/**
 * One item (with `upc`), one open board with one board task, and `count` open tasks of `userId`,
 * each claiming `units` units (main tasks: mainId = id, subId 0).
 */
export async function seedOpenTasks(db: Db, opts: { userId: number; count: number; units: number; upc: string }): Promise<SeededTasks> {
  const one = async (q: ReturnType<typeof sql>) => (await rowsOf<{ id: number }>(db.execute(q)))[0]!.id;
  const itemId = await one(sql`insert into items (item_name, upc, product_id, price) values ('Bench item', ${opts.upc}, 'B-1', 1000) returning id`);
  const boardId = await one(
    sql`insert into boards (board_name, publish_at, expire_at, status) values ('Bench board', now() - interval '1 day', now() + interval '30 days', 'open') returning id`,
  );
  const boardTaskId = await one(
    sql`insert into board_tasks (board_id, item_id, item_name, buy_in, show, need) values (${boardId}, ${itemId}, 'Bench item', 1200, 1000000, 1000000) returning id`,
  );
  const ids = await rowsOf<{ id: number }>(
    db.execute(sql`
      with ids as (select nextval(pg_get_serial_sequence('tasks', 'id'))::int as id from generate_series(1, ${opts.count}))
      insert into tasks (id, main_id, sub_id, board_id, board_task_id, user_id, item_id, item_name, buy_in, count, status, upc, label_count)
      select id, id, 0, ${boardId}, ${boardTaskId}, ${opts.userId}, ${itemId}, 'Bench item', 1200, ${opts.units}, 'open', ${opts.upc}, 0 from ids
      returning id`),
  );
  return {
    boardId,
    itemId,
    upc: opts.upc,
    taskIds: ids.map((r) => r.id).sort((x, y) => x - y),
  };
}

/** Scan rows (status scan, not yet matched): one per (tracking id, count) given. */
export async function seedScans(db: Db, rows: { trackingId: string; upc: string; count: number }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    await db.execute(sql`
      insert into scan_trackings (tracking_id, upc, count, item_name, status)
      select t, u, c, '', 'scan' from unnest(${sql.param(chunk.map((r) => r.trackingId))}::text[], ${sql.param(chunk.map((r) => r.upc))}::text[], ${sql.param(chunk.map((r) => r.count))}::int[]) as x(t, u, c)`);
  }
}
