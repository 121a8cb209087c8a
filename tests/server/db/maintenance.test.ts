// PGlite maintenance by the app (src/server/db/maintenance.ts, decision 066): a database grown by bulk
// writes gets analysed (the planner's estimates follow the data) and a churned table vacuumed, with
// autovacuum's thresholds; the app checks its tables after an upload on PGlite, not during one. The rows are seeded
// in bulk SQL (tens of thousands: the API would take minutes); what is checked is what the planner
// and pg_stat_user_tables say, on the real database.
import { sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Db } from '../../../src/server/db/client.ts';
import { dueWork, startMaintenance } from '../../../src/server/db/maintenance.ts';
import { seedItem, signIn } from '../support/board-fixtures.ts';
import { call, dbDriver, useTestApp } from '../support/harness.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';

const t = useTestApp();

/** The planner's row estimate for the scan rows matching `where`. */
async function estimate(db: Db, where: SQL): Promise<number> {
  const [row] = await rowsOf<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    db.execute(sql`explain (format json) select * from scan_trackings where ${where}`),
  );
  return row!['QUERY PLAN'][0].Plan['Plan Rows'];
}

/** pg_stat_user_tables' row of `table`, with this backend's latest counters published first. */
async function tableStats(db: Db, table: string) {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const [row] = await rowsOf<{ analyzed: string | null; dead: number }>(
    db.execute(
      sql`select coalesce(last_analyze, last_autoanalyze)::text as analyzed, n_dead_tup::int as dead from pg_stat_user_tables where relname = ${table}`,
    ),
  );
  return row!;
}

/** `total` scan rows of one product, `scanned` of them with status scan, the rest unmatch. */
async function growScans(db: Db, total: number, scanned: number) {
  await db.execute(sql`
    insert into scan_trackings (tracking_id, upc, count, item_name, status)
    select 'G' || g, '194253397168', 1, '', (case when g <= ${scanned} then 'scan' else 'unmatch' end)::scan_status from generate_series(1, ${total}) g`);
}

describe('PGlite maintenance', () => {
  it('follows autovacuum thresholds: 10% of a table changed is analysed, 20% dead is vacuumed', () => {
    expect(dueWork({ name: 't', changed: 1000, dead: 0, rows: 100_000 })).toBeNull();
    expect(dueWork({ name: 't', changed: 20_000, dead: 0, rows: 100_000 })).toBe('analyze');
    expect(dueWork({ name: 't', changed: 30_000, dead: 30_000, rows: 100_000 })).toBe('vacuum analyze');
    // A table never analysed (reltuples -1) and grown from nothing.
    expect(dueWork({ name: 't', changed: 5_000, dead: 0, rows: 5_000 })).toBe('analyze');
  });

  // On PostgreSQL autovacuum does this (and would race with the assertions); the app maintains PGlite only.
  const pgliteOnly = it.skipIf(dbDriver() === 'pg');

  pgliteOnly('analyses a grown table (the estimates follow the data) and vacuums a churned one', async () => {
    const { db } = t().database;
    const maintenance = startMaintenance(db, t().app.log, { intervalMs: 3_600_000 });
    try {
      await growScans(db, 20_000, 1_000);
      // Vacuumed too where earlier tests of this database left dead rows.
      expect(await maintenance.runOnce()).toEqual(expect.arrayContaining([expect.stringMatching(/^(vacuum )?analyze scan_trackings$/)]));
      const scanned = await estimate(db, sql`status = 'scan'`);
      expect(scanned).toBeGreaterThan(500);
      expect(scanned).toBeLessThan(2_000);
      // Half the rows updated: dead rows past the threshold are reclaimed.
      await db.execute(sql`update scan_trackings set count = 2 where id % 2 = 0`);
      expect((await tableStats(db, 'scan_trackings')).dead).toBeGreaterThanOrEqual(10_000);
      expect(await maintenance.runOnce()).toContain('vacuum analyze scan_trackings');
      expect((await tableStats(db, 'scan_trackings')).dead).toBe(0);
      // Nothing changed since: nothing to do.
      expect(await maintenance.runOnce()).not.toContain('analyze scan_trackings');
    } finally {
      await maintenance.stop();
    }
  });

  pgliteOnly('once stopped, waits for the run in progress and runs no more', async () => {
    const { db } = t().database;
    const maintenance = startMaintenance(db, t().app.log, { intervalMs: 3_600_000, delayMs: 0 });
    await growScans(db, 5_000, 100);
    let settled = false;
    void maintenance.runOnce().then(() => (settled = true));
    await maintenance.stop();
    expect(settled).toBe(true);
    await growScans(db, 5_000, 100);
    maintenance.kick();
    expect(await maintenance.runOnce()).toEqual([]);
  });

  pgliteOnly('puts a check off while uploads are in flight (decision 176) and runs it once they end', { timeout: 30_000 }, async () => {
    const { db } = t().database;
    let uploading = true;
    let asked = 0;
    const maintenance = startMaintenance(db, t().app.log, {
      intervalMs: 3_600_000,
      delayMs: 0,
      busy: () => (asked++, uploading),
    });
    try {
      const before = (await tableStats(db, 'scan_trackings')).analyzed;
      await growScans(db, 20_000, 1_000);
      maintenance.kick();
      // The check came due several times while the upload was in flight, and each time was put off.
      while (asked < 5) await new Promise((r) => setTimeout(r, 10));
      expect((await tableStats(db, 'scan_trackings')).analyzed).toBe(before);
      uploading = false;
      const deadline = Date.now() + 20_000;
      while ((await tableStats(db, 'scan_trackings')).analyzed === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect((await tableStats(db, 'scan_trackings')).analyzed).not.toBe(before);
    } finally {
      await maintenance.stop();
    }
  });

  pgliteOnly('the app analyses a database grown by bulk writes after an upload, unasked', { timeout: 30_000 }, async () => {
    const { app, database } = t();
    const { db } = database;
    const before = (await tableStats(db, 'scan_trackings')).analyzed;
    await growScans(db, 20_000, 1_000);
    await seedItem(database);
    const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
    const file = multipart(
      xlsxOf(
        [
          ['快递单号', 'UPC', '商品ID', '商品名称', '快递公司', '数量'],
          ['NEW1', '194253397168', null, null, null, 1],
        ],
        'tracking',
      ),
    );
    const res = await call(app, {
      method: 'POST',
      url: '/api/scan/admin/excel/upload/import',
      headers: { 'x-token': admin.token, ...file.headers },
      payload: file.payload,
    });
    expect(res.body.code).toBe('A00000');
    // The check runs about a second after the upload: waited for generously.
    const deadline = Date.now() + 20_000;
    while ((await tableStats(db, 'scan_trackings')).analyzed === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await tableStats(db, 'scan_trackings')).analyzed).not.toBe(before);
    const scanned = await estimate(db, sql`status = 'scan'`);
    expect(scanned).toBeGreaterThan(500);
    expect(scanned).toBeLessThan(2_000);
  });
});
