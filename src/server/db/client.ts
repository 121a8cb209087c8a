// One database handle for the process: PGlite in DATA_DIR by default (no setup on a fresh machine),
// or a PostgreSQL server when DATABASE_URL is set. The same Drizzle schema and migrations run on both.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: code that writes takes this so callers choose the unit. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  driver: 'pglite' | 'pg';
  close(): Promise<void>;
}

/** The rows of db.execute(): node-postgres and PGlite answer { rows } (typed loosely by drizzle). */
export async function rowsOf<T>(result: Promise<unknown>): Promise<T[]> {
  const r = (await result) as { rows?: T[] } | T[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}

/**
 * tx.execute(query) as a named statement: PostgreSQL parses it once per connection and keeps its
 * plan (a generic one once it is as good), instead of parsing and planning it on every call. For
 * the hot statements whose text is the same on every call (array parameters, not a parameter per
 * value): matching's read and its writes, the tracking locks. On PostgreSQL a statement of a
 * matching run took as long to plan as to run. The name is a digest of the text, so two texts never
 * share one. PGlite runs in this process and answers the same either way.
 */
export function executePrepared(tx: Tx, query: SQL): Promise<unknown> {
  // drizzle has no public call for a named raw statement: its session's prepareQuery (what
  // tx.execute itself uses, without a name) takes one.
  const { session, dialect } = tx as unknown as {
    session: { prepareQuery(q: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: boolean): { execute(): Promise<unknown> } };
    dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } };
  };
  const built = dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (!name) {
    name = `s${createHash('sha1').update(built.sql).digest('hex').slice(0, 20)}`;
    if (statementNames.size < 1000) statementNames.set(built.sql, name);
  }
  return session.prepareQuery(built, undefined, name, false).execute();
}
const statementNames = new Map<string, string>();

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openDatabase(opts: { url?: string; dataDir?: string; memory?: boolean }): Promise<Database> {
  if (opts.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, driver: 'pg', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dir: string | undefined;
  if (!opts.memory) {
    if (!opts.dataDir) throw new Error('dataDir is required for an on-disk PGlite database');
    dir = path.join(opts.dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
  }
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, driver: 'pglite', close: () => client.close() };
}
