// A PostgreSQL session-level advisory lock held for as long as a worker lives, so other processes
// can tell from pg_locks whether that worker is still alive: the lock goes when its session ends,
// and a session ends when its process does (or its connection breaks). On PostgreSQL the session is
// a connection of its own beside the pool; PGlite has one session, its process's, which the data
// folder's lock makes the only one.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from './client.ts';

export interface SessionLock {
  /** The lock's key within its namespace: the worker's instance id. */
  key: number;
  /** False once the session that held it is gone (its connection broke). */
  held(): boolean;
  release(): Promise<void>;
}

interface PgPoolLike {
  options: import('pg').ClientConfig;
  totalCount: number;
}
interface PgliteLike {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

const randomKey = () => 1 + Math.floor(Math.random() * 0x7ffffffe);

/** Takes a free key of `namespace` (keys held by live sessions are skipped) and holds it. */
export async function holdSessionLock(db: Db, namespace: number): Promise<SessionLock> {
  const client = (db as unknown as { $client: PgPoolLike | PgliteLike }).$client;
  if ('totalCount' in client) {
    const { default: pg } = await import('pg');
    const conn = new pg.Client(client.options);
    let alive = true;
    conn.on('error', () => (alive = false));
    conn.on('end', () => (alive = false));
    await conn.connect();
    try {
      for (;;) {
        const key = randomKey();
        const r = await conn.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [namespace, key]);
        if (r.rows[0]?.ok) {
          return {
            key,
            held: () => alive,
            release: async () => {
              alive = false;
              await conn.end().catch(() => undefined);
            },
          };
        }
      }
    } catch (err) {
      await conn.end().catch(() => undefined);
      throw err;
    }
  }
  for (;;) {
    const key = randomKey();
    const r = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [namespace, key]);
    if (r.rows[0]?.ok) {
      let alive = true;
      return {
        key,
        held: () => alive,
        release: async () => {
          alive = false;
          await client.query('select pg_advisory_unlock($1, $2)', [namespace, key]).catch(() => undefined);
        },
      };
    }
  }
}

/** SQL true when a live session of this database holds lock `key` (a column or value) of `namespace`. */
export function sessionLockHeld(namespace: number, key: SQLWrapper | number): SQL {
  return sql`exists (select 1 from pg_locks l where l.locktype = 'advisory' and l.granted
    and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ${namespace}::int8::oid and l.objid::int8 = ${key} and l.objsubid = 2)`;
}
