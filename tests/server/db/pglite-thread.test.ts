// PGlite in a worker thread (decision 173: PGLITE_THREAD=worker, a prototype, off by default): the
// real app runs on it, the thread that answers requests keeps running while a statement runs in the
// worker, and transactions, errors, savepoints and LISTEN behave as they do in-process. PGlite only.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerOf, openDatabase, postgresError, rowsOf, type Database } from '../../../src/server/db/client.ts';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { createMailer, type Mailer } from '../../../src/server/mail/mailer.ts';
import { startOutboxWorker, type OutboxWorker } from '../../../src/server/mail/outbox.ts';
import { call, createUser, dbDriver, login } from '../support/harness.ts';

describe.skipIf(dbDriver() !== 'pglite')('PGlite in a worker thread (PGLITE_THREAD=worker)', () => {
  let database: Database;
  let app: FastifyInstance;
  let mailer: Mailer;
  let outbox: OutboxWorker;
  const count = async (table: string) => (await rowsOf<{ n: number }>(database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))))[0]!.n;

  beforeAll(async () => {
    database = await openDatabase({ memory: true, thread: 'worker' });
    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-mail-'));
    const config = { ...loadConfig({ DATA_DIR: mailDir, APP_URL: 'http://app.test' }), webDir: path.join(mailDir, 'no-web') };
    const log = pino({ level: 'silent' });
    mailer = createMailer({ from: config.mailFrom, dataDir: mailDir, log });
    outbox = startOutboxWorker(database.db, mailer, log, { pollMs: 3_600_000 });
    app = await buildApp({ db: database.db, config, mailer, outbox, logger: log });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await outbox?.stop();
    mailer?.close();
    await database?.close();
  });

  it('serves the app: a member signs in and reads the notice an admin saved', async () => {
    await createUser(database, { mailAddr: 'admin@x.test', roleType: 'admin' });
    await createUser(database, { mailAddr: 'u1@x.test', inGroup: true });
    const admin = await login(app, 'admin@x.test');
    const user = await login(app, 'u1@x.test');
    const saved = await call(app, {
      method: 'POST',
      url: '/api/notice/save',
      headers: { 'x-token': admin },
      payload: { content: '本周五停止收货', isMail: false },
    });
    expect(saved.body).toMatchObject({ code: 'A00000', data: { content: '本周五停止收货' } });
    expect((await call(app, { method: 'GET', url: '/api/notice/get', headers: { 'x-token': user } })).body.data).toEqual({ content: '本周五停止收货' });
  });

  it('runs a statement in the worker: this thread’s timers fire while it runs', async () => {
    const client = (database.db as unknown as { $client: { worker?: { threadId: number } } }).$client;
    expect(client.worker?.threadId).toBeGreaterThan(0);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      // Hundreds of milliseconds of one statement; in-process, no timer could fire until it ended.
      await database.db.execute(sql`select count(*) from generate_series(1, 3000000)`);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it('keeps transactions whole: a failure rolls back, a savepoint alone, an error keeps its SQLSTATE, a statement outside waits', async () => {
    await database.db.execute(sql`create table thread_t (id int primary key, v text)`);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_t values (1, 'a')`);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await count('thread_t')).toBe(0);

    await database.db.execute(sql`insert into thread_t values (1, 'a')`);
    const dup = await database.db.execute(sql`insert into thread_t values (1, 'b')`).catch((e: unknown) => e);
    expect(postgresError(dup)).toMatchObject({ code: '23505', constraint: 'thread_t_pkey' });

    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_t values (2, 'kept')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into thread_t values (3, 'undone')`);
          inner.rollback();
        })
        .catch(() => undefined);
    });
    expect(await rowsOf<{ id: number }>(database.db.execute(sql`select id from thread_t order by id`))).toEqual([{ id: 1 }, { id: 2 }]);

    // A read sent while a transaction is open is answered after its commit, and sees it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const didInsert = new Promise<void>((r) => (inserted = r));
    const tx = database.db.transaction(async (t) => {
      await t.execute(sql`insert into thread_t values (4, 'late')`);
      inserted();
      await held;
    });
    await didInsert;
    let answered = false;
    const outside = count('thread_t').then((n) => ((answered = true), n));
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    release();
    await tx;
    expect(await outside).toBe(3);
  });

  it('delivers a NOTIFY to a listener of this thread', async () => {
    const listen = listenerOf(database.db)!;
    const heard: string[] = [];
    const stop = await listen('thread_channel', { onPayload: (p) => heard.push(p), onResumed: () => undefined });
    await database.db.execute(sql`select pg_notify('thread_channel', 'hello')`);
    await expect.poll(() => heard).toEqual(['hello']);
    await stop();
  });
});
