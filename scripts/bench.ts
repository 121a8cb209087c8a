// `npm run bench`: measures the server over real HTTP on this machine (loopback only), with a
// fresh database: PGlite in a temporary folder by default, or BENCH_DATABASE_URL (PostgreSQL).
// Each scenario runs a fixed number of requests at a fixed concurrency and reports throughput and
// latency percentiles. Numbers go in the README; tests never assert timings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openDatabase } from '../src/server/db/client.ts';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { createMailer } from '../src/server/mail/mailer.ts';
import { startOutboxWorker } from '../src/server/mail/outbox.ts';
import { hashPassword } from '../src/server/auth/secrets.ts';
import { users } from '../src/server/db/schema/accounts.ts';
import { userGroupMembers, userGroups } from '../src/server/db/schema/groups.ts';
import { writeWorkbook } from '../src/server/files/xlsx-write.ts';
import { PURCHASED_COLUMNS, PURCHASED_LIMITS } from '../src/server/files/purchased-upload.ts';
import { seedOpenTasks, seedScans } from './bench-seed.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);

interface Scenario {
  name: string;
  requests: number;
  run: (i: number) => Promise<Response>;
}

async function measure(s: Scenario) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= s.requests) return;
        const t0 = performance.now();
        const res = await s.run(i);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!res.ok) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
  console.log(
    `${s.name.padEnd(34)} ${String(s.requests).padStart(6)} req  ${(s.requests / seconds).toFixed(0).padStart(6)} req/s  p50 ${pct(50)} ms  p99 ${pct(99)} ms${failures ? `  (${failures} non-2xx)` : ''}`,
  );
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-bench-'));
  const database = await openDatabase(process.env.BENCH_DATABASE_URL ? { url: process.env.BENCH_DATABASE_URL } : { dataDir: dir });
  const log = pino({ level: 'silent' });
  const config = {
    ...loadConfig({ DATA_DIR: dir }),
    webDir: path.join(dir, 'web'),
  };
  const mailer = createMailer({ from: config.mailFrom, dataDir: dir, log });
  const outbox = startOutboxWorker(database.db, mailer, log);
  const app = await buildApp({
    db: database.db,
    config,
    mailer,
    outbox,
    logger: log,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const hash = await hashPassword('bench-pass-1');
  await database.db.insert(users).values(
    Array.from({ length: 50 }, (_, i) => ({
      mailAddr: `admin${i}@bench.test`,
      nickName: `admin${i}`,
      roleType: 'admin' as const,
      passwordHash: hash,
    })),
  );
  const tokens: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const r = await fetch(`${base}/ext/login/login?mailAddr=admin${i}@bench.test&pwd=bench-pass-1&keepflag=false`, { method: 'POST' });
    tokens.push(((await r.json()) as { data: { token: string } }).data.token);
  }

  console.log(`database: ${database.driver}; concurrency ${CONCURRENCY}`);
  await measure({
    name: 'GET /api/user/info (session lookup)',
    requests: REQUESTS,
    run: (i) =>
      fetch(`${base}/api/user/info`, {
        headers: { 'x-token': tokens[i % tokens.length]! },
      }),
  });
  await measure({
    name: 'GET /api/notice/get',
    requests: REQUESTS,
    run: (i) =>
      fetch(`${base}/api/notice/get`, {
        headers: { 'x-token': tokens[i % tokens.length]! },
      }),
  });
  await measure({
    name: 'POST /ext/login/login (scrypt)',
    requests: 200,
    run: (i) => fetch(`${base}/ext/login/login?mailAddr=admin${i % 50}@bench.test&pwd=bench-pass-1&keepflag=false`, { method: 'POST' }),
  });
  await measure({
    name: 'POST /api/notice/save (bad body)',
    requests: REQUESTS,
    run: (i) =>
      fetch(`${base}/api/notice/save`, {
        method: 'POST',
        headers: {
          'x-token': tokens[i % tokens.length]!,
          'content-type': 'application/json',
        },
        body: '{"content":1}',
      }),
  });

  await benchPurchasedUpload(base, database.db, hash);

  await app.close();
  await outbox.stop();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * A member's purchase upload at the row cap: PURCHASED_LIMITS.maxRows rows over 50 open tasks (many
 * rows per task, the case that was quadratic), half of whose parcels are already scanned, so
 * matching writes scan rows, records and tasks. Reports the wall time of one upload (parse in the
 * worker, checks, every row saved and audited, matching) and the server's memory after it.
 */
async function benchPurchasedUpload(base: string, db: Parameters<typeof seedOpenTasks>[0], hash: string) {
  const [member] = await db
    .insert(users)
    .values({
      mailAddr: 'member@bench.test',
      nickName: 'member',
      roleType: 'user',
      passwordHash: hash,
    })
    .returning();
  // A member signs in only as a member of a group.
  const [group] = await db.insert(userGroups).values({ groupName: 'bench' }).returning();
  await db.insert(userGroupMembers).values({ groupId: group!.id, userId: member!.id });
  const rows = PURCHASED_LIMITS.maxRows;
  const taskCount = 50;
  const perTask = Math.ceil(rows / taskCount);
  const seeded = await seedOpenTasks(db, {
    userId: member!.id,
    count: 200,
    units: perTask * 2,
    upc: '194253397168',
  });
  const lines = Array.from({ length: rows }, (_, i) => {
    const taskId = seeded.taskIds[Math.floor(i / perTask)]!;
    return [taskId, null, null, `BENCH${String(i).padStart(8, '0')}`, null, 1 + (i % 2)];
  });
  await seedScans(
    db,
    lines
      .filter((_, i) => i % 2 === 0)
      .map((l) => ({
        trackingId: String(l[3]),
        upc: seeded.upc,
        count: Number(l[5]),
      })),
  );
  const file = writeWorkbook([
    {
      name: '采购记录',
      header: PURCHASED_COLUMNS.map((c) => c.headers[0]),
      rows: lines,
      textColumns: [0, 3],
    },
  ]);
  const login = await fetch(`${base}/ext/login/login?mailAddr=member@bench.test&pwd=bench-pass-1&keepflag=false`, { method: 'POST' });
  const loginBody = (await login.json()) as { data?: { token: string }; msg: string };
  if (!loginBody.data?.token) throw new Error(`member login failed: ${loginBody.msg}`);
  const token = loginBody.data.token;
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(file)], {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }),
    'bench.xlsx',
  );
  const t0 = performance.now();
  const res = await fetch(`${base}/api/purchased/user/excel/upload/import`, {
    method: 'POST',
    headers: { 'x-token': token },
    body: form,
  });
  const body = (await res.json()) as {
    code: string;
    msg: string;
    data?: { succ: number; skip: number; error: number };
  };
  const ms = performance.now() - t0;
  const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
  const totals = body.data ? `succ ${body.data.succ}, skip ${body.data.skip}, error ${body.data.error}` : `${body.code} ${body.msg}`;
  console.log(
    `${'purchase upload (import)'.padEnd(34)} ${String(rows).padStart(6)} rows ${(ms / 1000).toFixed(1).padStart(6)} s  (${totals}; ${perTask} rows per task; rss ${rss} MB)`,
  );
}
