// The probes a load balancer calls (GET /healthz, GET /readyz), on the real database: outside the
// envelope, never a 500, never the web app's page, never refused by the anonymous rate limits; and
// readiness says 503 when the database is closed or lacks a migration of this code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { openDatabase, rowsOf, type Database } from '../../../src/server/db/client.ts';
import { dbDriver, openMigratedMemory, useTestApp } from '../support/harness.ts';

const t = useTestApp();
/** No session, and a token that is none (a probe must not read it). */
const WITH_AND_WITHOUT_TOKEN: Record<string, string>[] = [{}, { 'x-token': 'no-such-session' }];

const probe = async (app: Awaited<ReturnType<typeof buildApp>>, url: string, headers: Record<string, string> = {}) => {
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, type: String(res.headers['content-type']), cache: res.headers['cache-control'], body: res.body };
};

/** A second handle on the worker's database (PostgreSQL) or a database of its own (PGlite), closed. */
async function closedDatabase(): Promise<Database> {
  let database: Database;
  if (dbDriver() === 'pg') {
    const [row] = await rowsOf<{ name: string }>(t().database.db.execute(sql`select current_database() as name`));
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${row!.name}`;
    database = await openDatabase({ url: url.toString() });
  } else {
    database = await openMigratedMemory();
  }
  await database.close();
  return database;
}

describe('GET /healthz', () => {
  it('answers 200 {status: ok} as JSON outside the envelope, uncached, with or without a token', async () => {
    const { app } = t();
    for (const headers of WITH_AND_WITHOUT_TOKEN) {
      expect(await probe(app, '/healthz', headers)).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
        cache: 'no-store',
        body: '{"status":"ok"}',
      });
    }
    expect((await app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('GET /readyz', () => {
  it('answers 200 {status: ready} on the migrated database, uncached, with or without a token', async () => {
    const { app } = t();
    for (const headers of WITH_AND_WITHOUT_TOKEN)
      expect(await probe(app, '/readyz', headers)).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
        cache: 'no-store',
        body: '{"status":"ready"}',
      });
  });

  it('answers 503 when the database lacks the newest migration of this code, and 200 once it has it again', async () => {
    const { app, database } = t();
    const [newest] = await rowsOf<{ id: number; hash: string; created_at: string }>(
      database.db.execute(sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`),
    );
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest!.id}`);
    try {
      expect(await probe(app, '/readyz')).toMatchObject({ status: 503, body: '{"status":"unready","reason":"migrations not applied"}' });
      expect((await probe(app, '/healthz')).status).toBe(200);
    } finally {
      await database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`,
      );
    }
    expect((await probe(app, '/readyz')).status).toBe(200);
  });

  it('answers 503 when the database does not answer within 2 s, and 200 once it does', async () => {
    const { app, database } = t();
    // A transaction holds the migrations table (PostgreSQL) or the one connection (PGlite) meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table drizzle.__drizzle_migrations in access exclusive mode`);
      locked();
      await held;
    });
    await isLocked;
    try {
      expect(await probe(app, '/readyz')).toMatchObject({ status: 503, body: '{"status":"unready","reason":"database unreachable"}' });
      expect((await probe(app, '/healthz')).status).toBe(200);
    } finally {
      release();
      await holding;
    }
    expect((await probe(app, '/readyz')).status).toBe(200);
  });

  it('answers 503 from the moment the process starts stopping (SIGTERM), while /healthz still answers 200', async () => {
    const { database, config, mailer, outbox } = t();
    const app = await buildApp({ db: database.db, config, mailer, outbox, logger: pino({ level: 'silent' }) });
    try {
      expect((await probe(app, '/readyz')).status).toBe(200);
      app.appCtx.readiness.markStopping();
      expect(await probe(app, '/readyz')).toMatchObject({ status: 503, body: '{"status":"unready","reason":"stopping"}' });
      expect((await probe(app, '/healthz')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers 503 when the database is closed, while /healthz still answers 200; no 500 with a token either', async () => {
    const { config, mailer, outbox } = t();
    const closed = await closedDatabase();
    const app = await buildApp({ db: closed.db, config, mailer, outbox, logger: pino({ level: 'silent' }) });
    try {
      for (const headers of WITH_AND_WITHOUT_TOKEN) {
        expect(await probe(app, '/readyz', headers)).toMatchObject({
          status: 503,
          cache: 'no-store',
          body: '{"status":"unready","reason":"database unreachable"}',
        });
        expect(await probe(app, '/healthz', headers)).toMatchObject({ status: 200, body: '{"status":"ok"}' });
      }
      // Probes at once share one check: each is answered.
      const many = await Promise.all(Array.from({ length: 5 }, () => probe(app, '/readyz')));
      expect(many.map((r) => r.status)).toEqual([503, 503, 503, 503, 503]);
    } finally {
      await app.close();
    }
  }, 120_000); // PGlite: a second database of its own, opened in memory (initdb) on a busy machine
});

describe('the probes and the rest of the server', () => {
  it('are not refused when the anonymous rate limits refuse the same IP', async () => {
    const { app } = t();
    let refused = 0;
    for (let i = 0; i < 61 && !refused; i++) {
      const res = await app.inject({ method: 'GET', url: `/ext/login/exist?mailAddr=a${i}%40x.test` });
      if (res.statusCode === 429) refused = i;
    }
    expect(refused).toBeGreaterThan(0);
    for (let i = 0; i < 150; i++) {
      expect((await probe(app, '/healthz')).status).toBe(200);
      expect((await probe(app, '/readyz')).status).toBe(200);
    }
  });

  it('are answered by the server, not by the web app: JSON, never index.html', async () => {
    const { database, mailer, outbox, config } = t();
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const app = await buildApp({ db: database.db, config: { ...config, webDir }, mailer, outbox });
    try {
      expect((await probe(app, '/admin/home')).body).toContain('<div id="root">');
      expect(await probe(app, '/healthz')).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', body: '{"status":"ok"}' });
      expect(await probe(app, '/readyz')).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', body: '{"status":"ready"}' });
      // Another method is no probe: the envelope's 404, as for any unknown call.
      const post = await app.inject({ method: 'POST', url: '/healthz' });
      expect({ status: post.statusCode, body: post.json() as unknown }).toMatchObject({ status: 404, body: { code: 'A00004' } });
    } finally {
      await app.close();
    }
  });
});
