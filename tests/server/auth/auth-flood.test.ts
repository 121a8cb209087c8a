// The server keeps answering while anonymous clients flood the password calls: bogus resets cost
// no password hash, and password hashing (bounded in src/server/auth/secrets.ts) never makes a
// static file wait. Asserted by counts and by the order of answers, not by milliseconds: the CI
// machine is a busy 2-core one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { AppError } from '../../../src/server/errors.ts';
import { createMailer, type Mailer } from '../../../src/server/mail/mailer.ts';
import { startOutboxWorker, type OutboxWorker } from '../../../src/server/mail/outbox.ts';
import { Gate, HASH_CONCURRENCY, hashesComputed, hashPassword } from '../../../src/server/auth/secrets.ts';
import { call, createUser, resetDatabase, TEST_PASSWORD, testDatabase } from '../support/harness.ts';
import type { Database } from '../../../src/server/db/client.ts';

// A built web app of two files: the server serves static files only when index.html exists.
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-web-'));
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(256 * 1024))});\n`;
fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><script src="/app.js"></script>');
fs.writeFileSync(path.join(webDir, 'app.js'), SCRIPT);

const silent = pino({ level: 'silent' });
let app: FastifyInstance;
let database: Database;
let mailer: Mailer;
let outbox: OutboxWorker;

beforeAll(async () => {
  database = await testDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-flood-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, APP_URL: 'http://app.test' }), webDir };
  mailer = createMailer({ from: config.mailFrom, dataDir, log: silent });
  outbox = startOutboxWorker(database.db, mailer, silent, { pollMs: 3_600_000 });
  app = await buildApp({ db: database.db, config, mailer, outbox, logger: silent });
  await app.ready();
});
beforeEach(async () => {
  await resetDatabase(database);
  await app.appCtx.rateLimits.clear();
});
afterAll(async () => {
  await app?.close();
  await outbox?.stop();
  mailer?.close();
});

// Each of the two hashing tests computes real scrypt hashes (N=2^15 on purpose), seconds of CPU on a
// busy machine: they get a minute rather than the project's 20 s.
const HASHING_TEST_MS = 60_000;
const loginUrl = `/ext/login/login?mailAddr=m%40x.test&pwd=${encodeURIComponent(TEST_PASSWORD)}&keepflag=false`;

describe('a flood of bogus password resets', () => {
  it(
    'costs no password hash, and a login and a static file are answered while it runs',
    async () => {
      await createUser(database, { mailAddr: 'm@x.test', inGroup: true });
      const hashes = hashesComputed();
      let stop = false;
      let answered = 0;
      const outcomes = new Map<string, number>();
      // 64 clients, each from its own address (so most answers are the check itself, not the rate
      // limit), each sending its next reset as soon as the last one is answered.
      const CAP = 20_000;
      const flood = Array.from({ length: 64 }, async (_, i) => {
        while (!stop && answered < CAP) {
          const res = await call<{ status: string }>(app, {
            method: 'POST',
            url: '/ext/login/reset',
            remoteAddress: `203.0.113.${i}`,
            payload: { pwd: 'abcdefgh', token: 'bogus', mailAddr: 'x@y.z' },
          });
          answered++;
          const outcome = res.status === 429 ? '429' : `${res.status} ${res.body.data?.status}`;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
      });
      // Let the flood fill up before the two requests a user would notice.
      while (answered < 64) await new Promise((r) => setImmediate(r));

      const [loginRes, scriptRes] = await Promise.all([
        call<{ status: string }>(app, { method: 'POST', url: loginUrl }),
        app.inject({ method: 'GET', url: '/app.js' }),
      ]);
      const answeredMeanwhile = answered;
      stop = true;
      await Promise.all(flood);

      expect(loginRes.body.data).toMatchObject({ status: 'succ' });
      expect(scriptRes.statusCode).toBe(200);
      expect(scriptRes.body).toBe(SCRIPT);
      // The flood was still running (never reached its cap) when both were answered.
      expect(answeredMeanwhile).toBeLessThan(CAP);
      // Every bogus reset was refused by its token check or the rate limit, none hashed a password:
      // the only hash of the whole test is the login's.
      expect([...outcomes.keys()].every((k) => k === '200 failed' || k === '429')).toBe(true);
      expect(hashesComputed() - hashes).toBe(1);
    },
    HASHING_TEST_MS,
  );
});

describe('password hashing', () => {
  it(
    'never makes a static file wait: it is answered before half of a queue of hashes is done',
    async () => {
      // Hashes as a burst of real logins would queue them (the reason N=2^15 is slow on purpose).
      const QUEUED = 8 * HASH_CONCURRENCY;
      let done = 0;
      const hashing = Array.from({ length: QUEUED }, () => hashPassword('pass-word-1').then(() => done++));
      const script = await app.inject({ method: 'GET', url: '/app.js' });
      const doneWhenServed = done;
      await Promise.all(hashing);
      expect(script.statusCode).toBe(200);
      expect(script.body).toBe(SCRIPT);
      // Without the bound every file read queued behind the hashes in libuv's pool and came back
      // after nearly all of them; with it the file needs only the pool's free threads.
      expect(doneWhenServed).toBeLessThan(QUEUED / 2);
    },
    HASHING_TEST_MS,
  );

  it('a file without a content hash and index.html are revalidated; API answers are no-store', async () => {
    const script = await app.inject({ method: 'GET', url: '/app.js' });
    expect(script.headers['cache-control']).toBe('no-cache');
    const page = await app.inject({ method: 'GET', url: '/me' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ method: 'GET', url: '/ext/login/exist?mailAddr=a%40x.test' })).headers['cache-control']).toBe('no-store');
  });

  it('runs at most its limit at once, in arrival order, and refuses beyond its queue with 429 A00004', async () => {
    const gate = new Gate(2, 3);
    const started: number[] = [];
    const release: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const task = (i: number) => () =>
      new Promise<number>((resolve) => {
        started.push(i);
        most = Math.max(most, ++running);
        release.push(() => {
          running--;
          resolve(i);
        });
      });
    const runs = [0, 1, 2, 3, 4].map((i) => gate.run(task(i)));
    await expect(gate.run(task(5))).rejects.toMatchObject({ code: 'A00004', httpStatus: 429, message: '服务器繁忙，请稍后再试' });
    await expect(gate.run(task(5))).rejects.toBeInstanceOf(AppError);
    while (started.length < 5 || release.length) {
      await new Promise((r) => setImmediate(r));
      release.shift()?.();
    }
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(gate.queued).toBe(0);
  });
});
