// A PostgreSQL connection ended under the server (a restart, pg_terminate_backend, a network cut)
// must not end the server: the pool drops it and the next request gets a fresh one; a BEGIN sent on
// a connection that was ended while idle is sent again on a fresh one, and a connection ended in the
// middle of a transaction fails that transaction only (decision 162).
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrlOf, openDatabase, pipelinedTransaction, poolUseOf, rowsOf, type Database, type Tx } from '../../../src/server/db/client.ts';
import { databaseUnavailable } from '../../../src/server/db/unavailable.ts';
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

describe.skipIf(dbDriver() !== 'pg')('transactions whose connection PostgreSQL ends', () => {
  // A handle of the test's own: its connections are the only ones the tests end.
  let database: Database;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await openDatabase({ url: databaseUrlOf(t().database.db)!, migrated: true });
    admin = new pg.Client({ connectionString: databaseUrlOf(t().database.db) });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.close();
  });

  type Run = (work: (tx: Tx) => Promise<unknown>) => Promise<unknown>;
  type PooledClient = { connection: { stream: { pause(): void; resume(): void } } };
  const pidOf = async (tx: Tx) => (await rowsOf<{ pid: number }>(tx.execute(sql`select pg_backend_pid() as pid`)))[0]!.pid;
  const ended = async (pid: number) => {
    await admin.query('select pg_terminate_backend($1)', [pid]);
    while ((await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount) await new Promise((r) => setTimeout(r, 20));
  };

  /**
   * Leaves `run`'s pool with one idle connection that PostgreSQL has ended while this process has not
   * read so yet (its socket paused, as on a busy event loop): the next transaction takes it. Answers
   * the function that lets the process read it.
   */
  async function deadIdleConnection(run: Run): Promise<() => void> {
    let client: PooledClient | undefined;
    let pid = 0;
    await run(async (tx) => {
      client = (tx as unknown as { session: { client: PooledClient } }).session.client;
      pid = await pidOf(tx);
    });
    client!.connection.stream.pause();
    await ended(pid);
    return () => client!.connection.stream.resume();
  }

  const runners: [string, () => Run][] = [
    ['drizzle transaction', () => (work) => database.db.transaction(work)],
    ['pipelined transaction', () => (work) => pipelinedTransaction(database.db, work)],
  ];
  for (const [name, runner] of runners) {
    it(`${name}: a BEGIN on a connection ended while idle is sent again on a fresh connection, and the work runs once there`, async () => {
      const run = runner();
      const resume = await deadIdleConnection(run);
      const pids: number[] = [];
      const done = run(async (tx) => void pids.push(await pidOf(tx)));
      // The BEGIN is sent on the dead connection first; then the process reads its end.
      setTimeout(resume, 50);
      await done;
      expect(pids).toHaveLength(1);
      expect((await admin.query('select 1 from pg_stat_activity where pid = $1', [pids[0]])).rowCount).toBe(1);
    });

    it(`${name}: a connection ended in the middle fails that transaction as unavailable, and the pool serves again`, async () => {
      const run = runner();
      const failed = await run(async (tx) => {
        await ended(await pidOf(tx));
        await tx.execute(sql`select 1`);
      }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(databaseUnavailable(failed)).toBe('unreachable');
      expect(await run(async (tx) => pidOf(tx))).toEqual(expect.any(Number));
      // The ended connection was dropped, none leaked: every connection of the pools is idle again.
      for (const use of poolUseOf(database.db)!()) expect(use.total - use.idle).toBe(0);
    });
  }
});
