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
  console.log(`${s.name.padEnd(34)} ${String(s.requests).padStart(6)} req  ${(s.requests / seconds).toFixed(0).padStart(6)} req/s  p50 ${pct(50)} ms  p99 ${pct(99)} ms${failures ? `  (${failures} non-2xx)` : ''}`);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-bench-'));
  const database = await openDatabase(process.env.BENCH_DATABASE_URL ? { url: process.env.BENCH_DATABASE_URL } : { dataDir: dir });
  const log = pino({ level: 'silent' });
  const config = { ...loadConfig({ DATA_DIR: dir }), webDir: path.join(dir, 'web') };
  const mailer = createMailer({ from: config.mailFrom, dataDir: dir, log });
  const outbox = startOutboxWorker(database.db, mailer, log);
  const app = await buildApp({ db: database.db, config, mailer, outbox, logger: log });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const hash = await hashPassword('bench-pass-1');
  await database.db.insert(users).values(Array.from({ length: 50 }, (_, i) => ({ mailAddr: `admin${i}@bench.test`, nickName: `admin${i}`, roleType: 'admin' as const, passwordHash: hash })));
  const tokens: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const r = await fetch(`${base}/ext/login/login?mailAddr=admin${i}@bench.test&pwd=bench-pass-1&keepflag=false`, { method: 'POST' });
    tokens.push(((await r.json()) as { data: { token: string } }).data.token);
  }

  console.log(`database: ${database.driver}; concurrency ${CONCURRENCY}`);
  await measure({ name: 'GET /api/user/info (session lookup)', requests: REQUESTS, run: (i) => fetch(`${base}/api/user/info`, { headers: { 'x-token': tokens[i % tokens.length]! } }) });
  await measure({ name: 'GET /api/notice/get', requests: REQUESTS, run: (i) => fetch(`${base}/api/notice/get`, { headers: { 'x-token': tokens[i % tokens.length]! } }) });
  await measure({ name: 'POST /ext/login/login (scrypt)', requests: 200, run: (i) => fetch(`${base}/ext/login/login?mailAddr=admin${i % 50}@bench.test&pwd=bench-pass-1&keepflag=false`, { method: 'POST' }) });
  await measure({ name: 'POST /api/notice/save (bad body)', requests: REQUESTS, run: (i) => fetch(`${base}/api/notice/save`, { method: 'POST', headers: { 'x-token': tokens[i % tokens.length]!, 'content-type': 'application/json' }, body: '{"content":1}' }) });

  await app.close();
  await outbox.stop();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
