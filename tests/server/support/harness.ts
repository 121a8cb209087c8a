// The server test harness: a real database per test worker (PGlite in memory, or a PostgreSQL
// database of its own when TEST_DB=pg), emptied before each test, and the real app on top of it.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { openDatabase, type Database } from '../../../src/server/db/client.ts';
import { migratedDump } from './data-template.ts';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig, type Config } from '../../../src/server/config.ts';
import { createMailer, type Mailer } from '../../../src/server/mail/mailer.ts';
import { startOutboxWorker, type OutboxWorker } from '../../../src/server/mail/outbox.ts';
import { hashPassword } from '../../../src/server/auth/secrets.ts';
import { users } from '../../../src/server/db/schema/accounts.ts';
import { userGroupMembers, userGroups } from '../../../src/server/db/schema/groups.ts';

let shared: Promise<Database> | undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Each test run gets databases of its own, named by the vitest process and the worker
 * (ph_test_<pid>_w<n>), so two runs on one PostgreSQL server never empty each other's tables.
 * Databases of runs whose process has ended are dropped on the way.
 */
async function openPgDatabase(): Promise<Database> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=pg needs TEST_DATABASE_URL');
  const { default: pg } = await import('pg');
  const name = `ph_test_${process.ppid}_w${process.env.VITEST_POOL_ID ?? '0'}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const existing = await admin.query<{ datname: string }>("select datname from pg_database where datname like 'ph_test_%'");
  for (const { datname } of existing.rows) {
    const pid = Number(/^ph_test_(\d+)_w/.exec(datname)?.[1]);
    if (datname === name || !pid || !alive(pid)) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return openDatabase({ url: url.toString() });
}

/** A PGlite database in memory, loaded from the migrated template's dump (support/data-template.ts). */
export async function openMigratedMemory(): Promise<Database> {
  const dump = await migratedDump();
  return openDatabase({ memory: true, loadDataDir: new Blob([fs.readFileSync(dump)]) });
}

/** The worker's database, opened and migrated once. */
export function testDatabase(): Promise<Database> {
  shared ??= process.env.TEST_DB === 'pg' ? openPgDatabase() : openMigratedMemory();
  return shared;
}

export const dbDriver = () => (process.env.TEST_DB === 'pg' ? 'pg' : 'pglite');

/**
 * `it.skipIf(pgliteOnly)` for a test that opens no database of the pass's (TEST_DB): the PostgreSQL
 * pass would run it again unchanged, so only the PGlite pass runs it (whole files: PGLITE_PASS_ONLY in vitest.config.ts).
 */
export const pgliteOnly = dbDriver() === 'pg';

/**
 * Empties every table and restarts every sequence, as TRUNCATE ... RESTART IDENTITY would. DELETE,
 * not TRUNCATE: a test's tables hold a few rows, and TRUNCATE gives each of ~25 tables new files, which
 * on PostgreSQL took 130-500 ms per test against ~10 ms (foreign keys are not checked meanwhile:
 * session_replication_role, for this transaction only). One statement, so both drivers run it alike.
 */
export async function resetDatabase(database: Database) {
  await database.db.execute(
    sql.raw(`do $$ declare r record; begin
    perform set_config('session_replication_role', 'replica', true);
    for r in select tablename from pg_tables where schemaname = 'public' loop execute format('delete from %I', r.tablename); end loop;
    for r in select sequencename from pg_sequences where schemaname = 'public' loop perform setval(format('%I', r.sequencename)::regclass, 1, false); end loop;
  end $$`),
  );
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  mailer: Mailer;
  outbox: OutboxWorker;
  mailDir: string;
}

const silent = pino({ level: process.env.TEST_LOG ?? 'silent' });

/**
 * The real app, built once per test file on the worker's database; the database is emptied and the
 * login counters cleared before each test. smtpUrl / smtpBackupUrl point the primary and backup mail
 * transports at SMTP sinks (without them mail is written as .eml files).
 */
export function useTestApp(opts: { smtpUrl?: () => string | undefined; smtpBackupUrl?: () => string | undefined } = {}): () => TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    const database = await testDatabase();
    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-mail-'));
    const config = { ...loadConfig({ DATA_DIR: mailDir, APP_URL: 'http://app.test' }), webDir: path.join(mailDir, 'no-web') };
    const mailer = createMailer({ smtpUrl: opts.smtpUrl?.(), smtpBackupUrl: opts.smtpBackupUrl?.(), from: config.mailFrom, dataDir: mailDir, log: silent });
    const outbox = startOutboxWorker(database.db, mailer, silent, { pollMs: 3_600_000 });
    const app = await buildApp({ db: database.db, config, mailer, outbox, logger: silent });
    await app.ready();
    current = { app, database, config, mailer, outbox, mailDir };
  });
  beforeEach(async () => {
    if (!current) return;
    await resetDatabase(current.database);
    await current.app.appCtx.rateLimits.clear();
    current.app.appCtx.sessions.clear();
  });
  afterAll(async () => {
    if (!current) return;
    await current.app.close();
    await current.outbox.stop();
    current.mailer.close();
  });
  return () => {
    if (!current) throw new Error('useTestApp: used outside a test');
    return current;
  };
}

export interface Envelope<T = unknown> {
  code: string;
  msg?: string;
  data?: T;
}

/** app.inject that parses the envelope. */
export async function call<T = Record<string, unknown>>(app: FastifyInstance, opts: InjectOptions) {
  const res = await app.inject(opts);
  let body: Envelope<T>;
  try {
    body = res.json() as Envelope<T>;
  } catch {
    body = { code: '(not json)', msg: res.body };
  }
  return { status: res.statusCode, body, headers: res.headers, raw: res };
}

export const TEST_PASSWORD = 'secret-pass-1';

/**
 * scrypt hashes of the test passwords, computed once per worker: a hash costs ~100 ms (N=2^15 on
 * purpose), and every fixture user has the same password. The stored hash is a real one.
 */
const hashes = new Map<string, Promise<string>>();
const passwordHashOf = (password: string) => {
  let h = hashes.get(password);
  if (!h) hashes.set(password, (h = hashPassword(password)));
  return h;
};

/** Creates a user directly in the database (optionally in a new group) and returns it. */
export async function createUser(
  database: Database,
  u: { mailAddr: string; roleType?: 'admin' | 'lowerAdmin' | 'user'; nickName?: string; password?: string; inGroup?: boolean },
) {
  const [row] = await database.db
    .insert(users)
    .values({
      mailAddr: u.mailAddr,
      nickName: u.nickName ?? u.mailAddr.split('@')[0]!,
      roleType: u.roleType ?? 'user',
      passwordHash: await passwordHashOf(u.password ?? TEST_PASSWORD),
    })
    .returning();
  if (!row) throw new Error('user not created');
  if (u.inGroup) {
    const [g] = await database.db
      .insert(userGroups)
      .values({ groupName: `g-${row.id}`, remark: '' })
      .returning();
    await database.db.insert(userGroupMembers).values({ groupId: g!.id, userId: row.id });
  }
  return row;
}

/** Logs in through the API and returns the session token. */
export async function login(app: FastifyInstance, mailAddr: string, password = TEST_PASSWORD, keepflag = false) {
  const res = await call<{ status: string; token: string }>(app, {
    method: 'POST',
    url: `/ext/login/login?mailAddr=${encodeURIComponent(mailAddr)}&pwd=${encodeURIComponent(password)}&keepflag=${keepflag}`,
  });
  if (res.body.data?.status !== 'succ') throw new Error(`login of ${mailAddr} failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}
