// Decision 164's measurement: the outbox part of the bench (bench-outbox.ts) with pg-boss beside our
// outbox, the same mails enqueued in the same transactions and drained through the same mailer to
// the same SMTP sink, 20 jobs a fetch, each mail's outcome recorded after its send (complete/fail one
// job: what ours does per row), and once with complete for the whole fetch (what pg-boss's work()
// does). Run: node --import tsx scripts/bench-outbox-pg-boss.ts [postgres url | pglite].
// Kept in git history only: pg-boss is not a dependency (decision 019).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase, rowsOf, type Database, type Tx } from '../src/server/db/client.ts';
import type { Mailer } from '../src/server/mail/mailer.ts';
import { benchOutbox, ourOutbox, type BenchQueue } from './bench-outbox.ts';

const target = process.argv[2] ?? 'pglite';

/** A statement pg-boss hands over ($1, $2 ... placeholders) as drizzle SQL on the caller's handle. */
function asDrizzle(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql.param(values[Number(part) - 1]))));
}

/** pg-boss's db adapter over a drizzle handle (the caller's transaction): its statements run in it. */
function adapter(tx: Tx, pglite?: PGlite) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      // PGlite parses a statement with parameters alone; pg-boss's multi-statement plans have none.
      if (pglite && values.length === 0) return { rows: (await pglite.exec(text)).flatMap((r) => r.rows) };
      return { rows: await rowsOf<unknown>(tx.execute(asDrizzle(text, values))) };
    },
  };
}

function pgBossQueue(database: Database, url: string | undefined, completeEach: boolean): BenchQueue & { start(): Promise<void>; stop(): Promise<void> } {
  const pglite = url ? undefined : (database.db as unknown as { $client: PGlite }).$client;
  const boss = url
    ? new PgBoss({ connectionString: url, schema: 'pgboss', max: 4 })
    : new PgBoss({ backend: 'pglite', db: adapter(database.db, pglite), schema: 'pgboss' });
  boss.on('error', (err) => console.error('pg-boss:', err));
  let mailer: Mailer;
  return {
    name: completeEach ? 'pg-boss, complete each' : 'pg-boss, complete batch',
    async start() {
      await boss.start();
      await boss.createQueue('mail', { retryLimit: 7, retryDelay: 15, retryBackoff: true, retryDelayMax: 3600 });
    },
    stop: () => boss.stop({ graceful: true, timeout: 5_000 }),
    async enqueue(tx, msgs) {
      await boss.insert(
        'mail',
        msgs.map((m) => ({ data: { kind: 'bench', transport: 'primary', ...m } })),
        { db: adapter(tx, pglite) },
      );
    },
    async prepare(m) {
      mailer = m;
    },
    async drain() {
      let sent = 0;
      for (;;) {
        const jobs = await boss.fetch<{ to: string; subject: string; text: string }>('mail', { batchSize: 20 });
        if (jobs.length === 0) return sent;
        const done: string[] = [];
        for (const job of jobs) {
          try {
            await mailer.send({ to: job.data.to, subject: job.data.subject, text: job.data.text });
            if (completeEach) await boss.complete('mail', job.id);
            else done.push(job.id);
            sent++;
          } catch (err) {
            await boss.fail('mail', job.id, { message: String(err) });
          }
        }
        if (done.length) await boss.complete('mail', done);
      }
    },
    async finish() {
      await database.db.execute(sql`delete from pgboss.job`);
    },
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-bench-pg-boss-'));
const url = target.startsWith('postgres') ? target : undefined;
const database = await openDatabase(url ? { url } : { dataDir: dir });
const each = pgBossQueue(database, url, true);
const batch = pgBossQueue(database, url, false);
const t = performance.now();
await each.start();
console.log(`pg-boss start (schema install): ${(performance.now() - t).toFixed(0)} ms`);
await batch.start();
await benchOutbox(database, [ourOutbox(database), each, batch]);
await each.stop();
await batch.stop();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
