// One database handle for the process: PGlite in DATA_DIR by default (no setup on a fresh machine),
// or a PostgreSQL server when DATABASE_URL is set. The same Drizzle schema and migrations run on both.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
