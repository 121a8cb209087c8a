// A PostgreSQL connection ended under the server (a restart, pg_terminate_backend, a network cut)
// must not end the server: the pool drops it and the next request gets a fresh one.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/server/db/client.ts';
import { call, dbDriver, useTestApp } from '../support/harness.ts';

const t = useTestApp();

describe.skipIf(dbDriver() !== 'pg')('connections PostgreSQL ends', () => {
  it('keeps serving after every idle connection of the server is terminated', async () => {
    const exists = () => call(t().app, { method: 'GET', url: '/ext/login/exist?mailAddr=someone%40x.test' });
    // Several requests at once, so the pool holds several idle connections afterwards.
    for (const r of await Promise.all(Array.from({ length: 6 }, exists))) expect(r.status).toBe(200);
    const [row] = await rowsOf<{ name: string }>(t().database.db.execute(sql`select current_database() as name`));
    const name = row!.name;

    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      expect(ended.rowCount).toBeGreaterThan(0);
      // Until PostgreSQL has closed them: their 'error' events reach the pools meanwhile.
      for (let i = 0; i < 100; i++) {
        const left = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (left.rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await admin.end();
    }
    for (const r of await Promise.all(Array.from({ length: 3 }, exists))) expect(r.body).toMatchObject({ code: 'A00000', data: { status: 'succ' } });
  });
});
