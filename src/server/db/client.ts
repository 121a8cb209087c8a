// One database handle for the process: PGlite in DATA_DIR by default (no setup on a fresh machine),
// or a PostgreSQL server when DATABASE_URL is set. The same Drizzle schema and migrations run on both.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { lockDataDir, type LockOptions } from './data-dir-lock.ts';
import { pgliteExtensions } from './pglite-extensions.ts';
import { namedQuery, namedQueryOf, type NamedQuery } from './pglite-named.ts';
import { databaseUnavailable } from './unavailable.ts';

/**
 * The database handle. Built without the schema: the server reads and writes through the query
 * builders and sql, never drizzle's relational API (db.query), and a schema-aware handle builds a
 * query builder per table for every transaction it opens (~3% of a scan batch's CPU).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction or the database itself: code that writes takes this so callers choose the unit. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  driver: 'pglite' | 'pg';
  /** Announces that this process is stopping (an on-disk PGlite's lock lets a restart wait for it). */
  markStopping(): void;
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
 * share one. On PGlite, inside a transaction, the same (pglite-named.ts); outside one, unnamed.
 */
export function executePrepared(tx: Tx, query: SQL | BuiltQuery): Promise<unknown> {
  // drizzle has no public call for a named raw statement: its session's prepareQuery (what
  // tx.execute itself uses, without a name) takes one. The one use of drizzle's internals left, so
  // drizzle-orm is pinned to an exact version (decision 038) and tests/server/db/pipelined.test.ts
  // checks the statement is named; a changed internal fails here, loudly, not as a slower query.
  const { session } = tx as unknown as {
    session?: { prepareQuery?(q: BuiltQuery, fields: undefined, name: string, arrayMode: boolean): { execute(): Promise<unknown> } };
  };
  if (typeof session?.prepareQuery !== 'function') {
    throw new Error('drizzle-orm changed: executePrepared needs its session.prepareQuery (decision 038)');
  }
  const built = query instanceof SQL ? buildQuery(query) : query;
  const name = statementNameOf(built.sql);
  const prepared = session.prepareQuery(built, undefined, name, false);
  // A PGlite transaction: drizzle's PGlite statement is sent unnamed; its client is swapped for one
  // that names it (pglite-named.ts), so drizzle still fills its parameters and logs it.
  const named = (session as { client?: { [namedQuery]?: NamedQuery } }).client?.[namedQuery];
  if (named) Object.assign(prepared, { client: { query: (text: string, params: unknown[]) => named(name, text, params) } });
  return prepared.execute();
}
const statementNames = new Map<string, string>();

/** A statement's name: a digest of its text, so two texts never share one (executePrepared, the bench's bare routes). */
export function statementNameOf(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (statementNames.size < 1000) statementNames.set(text, name);
  }
  return name;
}

/** A statement's text and parameters as drizzle writes them: built once, run many times (executePrepared). */
export type BuiltQuery = { sql: string; params: unknown[] };
const dialect = new PgDialect();
/** `query`'s text and parameters (a sql.placeholder stays in its place among the parameters: withValue). */
export const buildQuery = (query: SQL): BuiltQuery => dialect.sqlToQuery(query);
/** `built` with `value` in place of `placeholder`. */
export const withValue = (built: BuiltQuery, placeholder: unknown, value: unknown): BuiltQuery => ({
  sql: built.sql,
  params: built.params.map((p) => (p === placeholder ? value : p)),
});

/**
 * Runs `work` in a transaction whose statements are sent without waiting for the answers of those
 * before them (node-postgres's pipeline mode, on PostgreSQL; elsewhere db.transaction): BEGIN goes
 * with the first statements `work` sends, and statements handed to awaitAtCommit go with COMMIT.
 * PostgreSQL still runs them one after the other, in the order they were sent, each on its own
 * snapshot, so a statement sent behind a lock runs after the lock is taken. For the scan batches
 * (the receiving speed target): begin, the tracking locks and matching's read travel as one round trip, the write
 * and the commit as another, instead of five round trips, each of which waits for the other process
 * to be scheduled on a busy 2-core machine. `work` must not read the answer of a statement it hands
 * to awaitAtCommit; a failed statement fails the transaction (it rolls back and the call rejects).
 * The transaction is drizzle's own, by its public API (drizzle({ client }).transaction() over a
 * connection of a pipelined pool, pipelinedClient): the connection sends drizzle's BEGIN and answers
 * at once, and answers its COMMIT once every statement sent is answered (decision 038).
 */
export function pipelinedTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const run = (db as { [pipelinedRunner]?: PipelineRunner })[pipelinedRunner];
  return run ? (run(work as (tx: Tx) => Promise<unknown>) as Promise<T>) : db.transaction(work);
}

/** True when `tx` is a pipelined transaction (statements may be sent before earlier ones answer). */
export const isPipelined = (tx: Tx) => atCommit.has(tx);

/**
 * `sent`, a statement already sent in `tx`: in a pipelined transaction its answer is awaited with
 * the COMMIT (and the call answers at once); elsewhere now.
 */
export async function awaitAtCommit(tx: Tx, sent: PromiseLike<unknown>): Promise<void> {
  // Its answer taken once: a drizzle query object (tx.execute's) runs again on every `then`.
  const answer = Promise.resolve(sent.then((r) => r));
  const pending = atCommit.get(tx);
  if (!pending) {
    await answer;
    return;
  }
  // Handled here so its failure is not reported as unhandled before the commit awaits it.
  answer.catch(() => undefined);
  pending.push(answer);
}

type PipelineRunner = (work: (tx: Tx) => Promise<unknown>) => Promise<unknown>;
/** The property of a PostgreSQL database's handle that runs pipelined transactions (on the handle itself, so a wrapper that forwards its properties, as a test's does, keeps it). */
export const pipelinedRunner = Symbol('pipelinedTransaction');
/** The statements of each open pipelined transaction whose answers its COMMIT awaits. */
const atCommit = new WeakMap<Tx, Promise<unknown>[]>();

/**
 * The connection a pipelined transaction hands drizzle: `client` (a connection of a pipelined pool),
 * whose drizzle's BEGIN is sent and answered at once (its answer awaited with the COMMIT), and whose
 * COMMIT is sent at once and answers when every statement before it has (the `pending` of
 * awaitAtCommit, and the BEGIN). So BEGIN travels with the first statements of the work and COMMIT
 * with the last, and drizzle's transaction (savepoints for tx.transaction, its rollback) is used as is.
 * Everything else is the connection's own (its prototype).
 */
function pipelinedClient(client: import('pg').PoolClient, pending: Promise<unknown>[]) {
  let begun: Promise<unknown> = Promise.resolve();
  const query = (config: string | { text: string }, ...rest: unknown[]): Promise<unknown> => {
    // drizzle's own words (tx.execute(sql`begin`), …`commit`, …`rollback`; savepoints are other words).
    const text = (typeof config === 'string' ? config : config.text).trim().toLowerCase();
    if (text === 'begin') {
      begun = client.query('begin');
      // Its failure is heard with the COMMIT, or by the runner (beginFailed).
      begun.catch(() => undefined);
      return Promise.resolve({ command: 'BEGIN', rowCount: null, rows: [], fields: [] });
    }
    if (text === 'commit') {
      const committed = client.query('commit');
      return Promise.all([begun, ...pending, committed]).then(() => committed);
    }
    // Everything sent is answered before the rollback (a failed statement aborted the transaction).
    if (text === 'rollback') return Promise.allSettled(pending).then(() => client.query('rollback'));
    return (client.query as (...args: unknown[]) => Promise<unknown>)(config, ...rest);
  };
  const beginFailed = () =>
    begun.then(
      () => undefined,
      (e: unknown) => e,
    );
  return { client: Object.assign(Object.create(client) as import('pg').PoolClient, { query }), beginFailed };
}

async function pipelineRunner(pool: import('pg').Pool): Promise<PipelineRunner> {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const attempt = async (work: (tx: Tx) => Promise<unknown>): Promise<{ out: unknown } | { retry: unknown }> => {
    const connection = await pool.connect();
    const pending: Promise<unknown>[] = [];
    const { client, beginFailed } = pipelinedClient(connection, pending);
    let broken: Error | undefined;
    let workFailed: { error: unknown } | undefined;
    try {
      const out = await drizzle({ client }).transaction(async (tx) => {
        atCommit.set(tx, pending);
        try {
          return await work(tx);
        } catch (error) {
          workFailed = { error };
          throw error;
        } finally {
          atCommit.delete(tx);
        }
      });
      return { out };
    } catch (thrown) {
      const began = await beginFailed();
      if (began !== undefined && databaseUnavailable(began)) {
        // BEGIN went first and failed on a lost connection: nothing after it was answered, so
        // nothing of the work took effect (drizzle ran the work to its end before its rollback);
        // the caller may run it again on a fresh connection.
        broken = began as Error;
        return { retry: began };
      }
      // Not the work's error: the ROLLBACK failed (drizzle answers its error then), or the COMMIT did.
      if (thrown !== workFailed?.error && (workFailed || databaseUnavailable(thrown))) broken = thrown as Error;
      const err = workFailed ? workFailed.error : thrown;
      // Those sent after a failed statement failed only because it aborted the transaction: the
      // first is the cause.
      const failed = (await Promise.allSettled(pending)).flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      throw [err, ...failed].find((e) => !isAbortedTransaction(e)) ?? err;
    } finally {
      connection.release(broken);
    }
  };
  return async (work) => {
    const first = await attempt(work);
    if ('out' in first) return first.out;
    const second = await attempt(work);
    if ('out' in second) return second.out;
    throw second.retry;
  };
}

/**
 * Bounds on a PostgreSQL server that stops answering without closing its connections (a blackholed
 * network: packets dropped, no reset; decision 162), for every connection this process opens. A new
 * connection not open within 3 s fails and its request answers 503, instead of waiting for TCP to
 * give up (minutes). keepAlive has the kernel probe a connection idle for 10 s, so one whose server is
 * gone is found and dropped (after the kernel's probes: net.ipv4.tcp_keepalive_intvl x
 * tcp_keepalive_probes). No statement timeout: uploads and exports run long statements, and a
 * partitioned server's cancellation could not arrive.
 */
const CONNECTION_BOUNDS = { connectionTimeoutMillis: 3_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;

/**
 * How long a request waits for one of a pool's connections. pg-pool bounds that wait and a new
 * connection's opening with one setting; they are set apart (the pools' clients keep the 3 s of
 * CONNECTION_BOUNDS): a burst of writes that queue behind one row's lock on a busy machine (100
 * claims of one board task) waited over 3 s and was refused 503 although the database was well.
 * Only a pool whose every connection hangs waits this long.
 */
const POOL_WAIT_MS = 30_000;

/** pg-pool's options for a pool of `url`: its clients open within CONNECTION_BOUNDS, its waits bounded by POOL_WAIT_MS. */
function poolOptions(pg: { Client: typeof import('pg').Client }, url: string): import('pg').PoolConfig {
  // pg-pool hands its own options, connectionTimeoutMillis included, to each client it makes.
  class BoundedClient extends pg.Client {
    constructor(config?: import('pg').ClientConfig) {
      super({ ...config, connectionTimeoutMillis: CONNECTION_BOUNDS.connectionTimeoutMillis });
    }
  }
  return { connectionString: url, max: 10, ...CONNECTION_BOUNDS, connectionTimeoutMillis: POOL_WAIT_MS, Client: BoundedClient };
}

/**
 * A lost connection must never become an unhandled 'error' event, which ends the process. pg-pool
 * listens for an idle connection's errors only: it drops its listener while a connection is checked
 * out (a transaction's, a pipelined one's), and a connection PostgreSQL ends then (a restart,
 * pg_terminate_backend, a network cut) emits 'error' with nobody to hear it. Each connection gets a
 * listener of its own for its whole life: the statements in flight fail on their own (and their
 * transaction releases the connection as broken), so the listener has nothing left to do. An idle
 * connection's error is reported as the pool's 'error' event; the pool has already dropped it and
 * the next query opens a fresh one.
 */
function hearLostConnections(pool: import('pg').Pool): void {
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
}

/**
 * db.transaction() of the main handle, drizzle's own by its public API (drizzle({ client })
 * .transaction() on a connection taken from `pool` here), with what this code adds around it: a BEGIN
 * that fails because its pooled connection was lost (PostgreSQL ended it while it sat idle, and the
 * pool had not heard yet) runs the whole transaction once more on a fresh connection, as nothing was
 * done yet; and a connection that failed goes back to the pool as broken, so the pool discards it
 * (drizzle's pooled transaction released a connection whose BEGIN failed never, and one whose ROLLBACK
 * failed as sound). The work's error stays the answer (drizzle answers the ROLLBACK's when that fails
 * too). Decisions 038 and 162.
 */
async function retryingTransactions(pool: import('pg').Pool): Promise<Db['transaction']> {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  type Work = Parameters<Db['transaction']>[0];
  type Config = Parameters<Db['transaction']>[1];
  const once = async (work: Work, config: Config): Promise<{ out: unknown } | { retry: unknown }> => {
    const client = await pool.connect();
    let began = false;
    let workFailed: { error: unknown } | undefined;
    let broken: Error | undefined;
    try {
      const out = await drizzle({ client }).transaction(async (tx) => {
        began = true;
        try {
          return await work(tx as Parameters<Work>[0]);
        } catch (error) {
          workFailed = { error };
          throw error;
        }
      }, config);
      return { out };
    } catch (err) {
      if (!began) {
        broken = err as Error;
        if (databaseUnavailable(err)) return { retry: err };
        throw err;
      }
      // Not the work's error: its ROLLBACK failed (the connection is gone), or its COMMIT did.
      if (err !== workFailed?.error && (workFailed || databaseUnavailable(err))) broken = err as Error;
      throw workFailed ? workFailed.error : err;
    } finally {
      client.release(broken);
    }
  };
  return (async (work: Work, config?: Config) => {
    const first = await once(work, config);
    if ('out' in first) return first.out;
    const second = await once(work, config);
    if ('out' in second) return second.out;
    throw second.retry;
  }) as Db['transaction'];
}

/**
 * LISTEN on this database: `onPayload` gets the payload of each NOTIFY on `channel` (delivered when
 * the notifying transaction commits, from any process on the database); `onLost` is called when the
 * listening connection is lost (notifications from then on are lost until `onResumed`), `onResumed`
 * when it listens again. Resolves once listening; answers the function that stops. PostgreSQL: one
 * connection per process shared by every channel, outside the pools (a pooled one would be handed
 * to queries); PGlite: its in-process listen, which is never lost.
 */
export type Listen = (channel: string, handlers: ListenHandlers) => Promise<() => Promise<void>>;
export interface ListenHandlers {
  onPayload(payload: string): void;
  onResumed(): void;
  onLost?(): void;
}
/** The property of a database's handle that listens (on the handle, like pipelinedRunner). */
const listener = Symbol('listen');
/** How to LISTEN on `db`'s database (openDatabase's handles have one). */
export const listenerOf = (db: Db): Listen | undefined => (db as { [listener]?: Listen })[listener];

type PgClient = import('pg').Client;

/** A new connection listening on every channel of `channels` (their handlers hear its notifications); ended again when that fails. */
async function openListenClient(
  pg: { Client: typeof import('pg').Client },
  url: string,
  channels: ReadonlyMap<string, ReadonlySet<ListenHandlers>>,
): Promise<PgClient> {
  const client = new pg.Client({ connectionString: url, ...CONNECTION_BOUNDS, application_name: LISTEN_APPLICATION_NAME });
  client.on('notification', (n) => {
    if (n.payload === undefined) return;
    for (const h of channels.get(n.channel) ?? []) h.onPayload(n.payload);
  });
  // An error ends the connection ('end' follows); without a listener it would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    for (const channel of [...channels.keys()]) await client.query(`listen ${escapeIdentifier(channel)}`);
    if (!channels.size) throw new Error('nobody listens any more');
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  return client;
}

/**
 * Listen for a PostgreSQL server: one connection for every channel of the process (live updates,
 * session revocations), opened on the first listen, opened again after a pause whenever it is lost,
 * and closed when the last listener stops.
 */
function pgListener(pg: { Client: typeof import('pg').Client }, url: string): Listen {
  const channels = new Map<string, Set<ListenHandlers>>();
  let current: PgClient | null = null;
  let connecting: Promise<PgClient> | null = null;
  /** The connection was lost and the listeners told so (onLost): they hear onResumed once it is back. */
  let lost = false;
  let retry: NodeJS.Timeout | undefined;
  let wait = LISTEN_RETRY_MS;
  const everyone = () => [...channels.values()].flatMap((s) => [...s]);

  const connect = async (): Promise<PgClient> => {
    const client = await openListenClient(pg, url, channels);
    client.on('end', () => {
      if (current !== client) return;
      current = null;
      if (!channels.size) return;
      lost = true;
      for (const h of everyone()) h.onLost?.();
      wait = LISTEN_RETRY_MS;
      schedule();
    });
    current = client;
    return client;
  };
  /** The listening connection: the one open, the one being opened, or a new one. */
  const open = (): Promise<PgClient> => {
    if (current) return Promise.resolve(current);
    if (!connecting) {
      clearTimeout(retry);
      connecting = connect().then(
        (client) => {
          connecting = null;
          wait = LISTEN_RETRY_MS;
          if (lost) {
            lost = false;
            for (const h of everyone()) h.onResumed();
          }
          return client;
        },
        (err: unknown) => {
          connecting = null;
          if (lost && channels.size) schedule();
          throw err;
        },
      );
    }
    return connecting;
  };
  const schedule = () => {
    clearTimeout(retry);
    retry = setTimeout(() => void open().catch(() => undefined), wait);
    retry.unref();
    wait = Math.min(wait * 2, LISTEN_RETRY_MAX_MS);
  };
  const stop = async (channel: string, handlers: ListenHandlers) => {
    const set = channels.get(channel);
    if (!set?.delete(handlers) || set.size) return;
    channels.delete(channel);
    if (channels.size) {
      await current?.query(`unlisten ${escapeIdentifier(channel)}`).catch(() => undefined);
      return;
    }
    clearTimeout(retry);
    lost = false;
    const client = current;
    current = null;
    await client?.end().catch(() => undefined);
  };

  return async (channel, handlers) => {
    let set = channels.get(channel);
    const fresh = !set;
    if (!set) channels.set(channel, (set = new Set()));
    set.add(handlers);
    try {
      const client = await open();
      // A connection opened before this channel was added does not listen to it yet (twice is harmless).
      if (fresh) await client.query(`listen ${escapeIdentifier(channel)}`);
    } catch (err) {
      await stop(channel, handlers);
      throw err;
    }
    return () => stop(channel, handlers);
  };
}
/** How the listening connection names itself to PostgreSQL (pg_stat_activity.application_name). */
export const LISTEN_APPLICATION_NAME = 'purchase-hub listen';
const LISTEN_RETRY_MS = 500;
/** At most 2 s between tries: live updates come back within ~2 s of the database, as /readyz does (decision 162). */
const LISTEN_RETRY_MAX_MS = 2_000;
const escapeIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Listen for PGlite: notifications are delivered in this process when the notifying transaction commits. */
const pgliteListener =
  (client: { listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>> }): Listen =>
  async (channel, handlers) => {
    const unlisten = await client.listen(channel, (payload) => handlers.onPayload(payload));
    return () => unlisten();
  };

/** One connection pool of a PostgreSQL database: its connections, the idle ones, the queries waiting for one. */
export interface PoolUse {
  pool: 'main' | 'pipelined' | 'keyLookups';
  total: number;
  idle: number;
  waiting: number;
}
/** The PostgreSQL server a handle connects to (undefined for PGlite, which lives in this thread): another thread opens its own handle on it (files/upload-jobs.ts). */
export const databaseUrlOf = (db: Db): string | undefined => (db as { [databaseUrl]?: string })[databaseUrl];

/** The property of a PostgreSQL database's handle that runs a named statement on its main pool (namedRows). */
const namedRunner = Symbol('namedRows');
type NamedRunner = (name: string, text: string, values: unknown[]) => Promise<unknown[][]>;

/**
 * A read's statement run by node-postgres itself, named (parsed and planned once per connection), its
 * rows as arrays that `decode` turns into the caller's objects; undefined on PGlite (the caller runs
 * drizzle's prepared query instead). For the hottest read (the tracking id lookup, decision 177):
 * what drizzle's prepared query does, without its per-call layers (tracing spans, the cache wrapper,
 * three async closures, each row mapped through column paths), which cost a lookup ~8 KB of garbage
 * and their CPU. Timestamps arrive as text, as drizzle's own statements receive them, so a
 * column's mapFromDriverValue decodes them as drizzle does. The text is drizzle's (getQuery()).
 */
export function namedRows<T>(db: Db, name: string, text: string, decode: (row: unknown[]) => T): ((values: unknown[]) => Promise<T[]>) | undefined {
  const run = (db as { [namedRunner]?: NamedRunner })[namedRunner];
  if (!run) return undefined;
  return async (values) => (await run(name, text, values)).map(decode);
}

/** node-postgres's parsers, but the types drizzle's prepared queries keep as text (DRIZZLE_TEXT_TYPES) kept so. */
function textTimestamps(pg: { types: typeof import('pg').types }): { getTypeParser: (oid: number, format?: string) => unknown } {
  const kept = new Set(DRIZZLE_TEXT_TYPES);
  const asText = (value: string) => value;
  return { getTypeParser: (oid, format) => (kept.has(oid) ? asText : pg.types.getTypeParser(oid, format as 'text')) };
}
/**
 * The planner settings of reads by key (decision 094): each statement reads a bounded set of rows
 * by key, so the planner may not choose a sequential scan, a hash join or a merge join (each reads a
 * whole table) whatever its statistics say. Set transaction-locally by matching's lock statement
 * and withKeyLookupsOnly, and for the whole session on the key-lookups pool's connections.
 */
export const KEY_LOOKUP_SETTINGS = ['enable_seqscan', 'enable_hashjoin', 'enable_mergejoin'] as const;
/** KEY_LOOKUP_SETTINGS as a connection's startup options (node-postgres's `options`): for the session. */
export const KEY_LOOKUP_OPTIONS = KEY_LOOKUP_SETTINGS.map((setting) => `-c ${setting}=off`).join(' ');
/**
 * Connections of the key-lookups pool (keyLookupsDbOf): its reads are single indexed statements of
 * a millisecond or less (the near misses of a scan), so a few serve every request of a process.
 */
const KEY_LOOKUPS_POOL_MAX = 4;
const keyLookups = Symbol('keyLookups');
/**
 * On PostgreSQL, for the database's own handle (not a transaction): a handle whose connections keep
 * KEY_LOOKUP_SETTINGS for their whole session (decision 186), so a read by key is one statement
 * instead of a transaction of four (begin, the settings, the read, commit). Undefined on PGlite (one
 * session, shared by every request) and for a transaction, whose reads stay in it.
 */
export const keyLookupsDbOf = (tx: Tx): Db | undefined => (tx as { [keyLookups]?: Db })[keyLookups];
const databaseUrl = Symbol('databaseUrl');
/** The property of a PostgreSQL database's handle that reports its pools (like pipelinedRunner). */
const poolUse = Symbol('poolUse');
/** How busy `db`'s connection pools are (PostgreSQL); undefined on PGlite, which has one connection and no pool. */
export const poolUseOf = (db: Db): (() => PoolUse[]) | undefined => (db as { [poolUse]?: () => PoolUse[] })[poolUse];
const useOf = (pool: PoolUse['pool'], p: import('pg').Pool): PoolUse => ({ pool, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount });

/**
 * The PostgreSQL error inside `err` (the first in its chain of causes with a SQLSTATE `code`: the
 * driver's error, which Drizzle wraps), or null.
 */
export function postgresError(err: unknown): { code: string; constraint?: string; constraint_name?: string; message?: string } | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof (e as { code?: unknown }).code === 'string') return e as { code: string };
  }
  return null;
}

/** PostgreSQL's 25P02: a statement refused because an earlier one failed the transaction. */
const isAbortedTransaction = (err: unknown) => postgresError(err)?.code === '25P02';

/**
 * PGlite's buffer cache. Its memory is the process's (WebAssembly memory, which never shrinks), and
 * the default 128 MB filled up during a 50,000-row upload: 100 MB of the 640 MB the server reached.
 * The files stay in the OS page cache, so a page not in these buffers is a copy, not a disk read.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * ANALYZE's sample on PGlite: 300 x this many rows (PostgreSQL's default is 100). Maintenance's
 * ANALYZE holds the one connection, and at 100 the audit log's (174,000 entries) took 270-430 ms,
 * a wait for every request, and grows with the table up to 30,000 pages read; at 25, 70-75 ms
 * (decision 180). The PostgreSQL server analyses in the background and keeps its default.
 */
const PGLITE_STATISTICS_TARGET = 25;

/**
 * The types drizzle's PGlite session keeps as text (timestamps, dates, intervals, numeric[] and their
 * arrays): it passes them as parsers with every statement, and PGlite merged them into a copy of its
 * whole parser table for every statement (parseResults' `{...parsers, ...options.parsers}`: 5-6% of
 * the thread in a matched scan, docs/performance.md). The client is built with them once instead,
 * and a statement's own parsers are dropped when they are exactly these (another set is kept).
 */
const DRIZZLE_TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
const textParsers = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((t) => [t, (value: string) => value]));

type PgliteQuery = (query: string, params?: unknown[], options?: { parsers?: Record<number, unknown> }) => Promise<unknown>;
const onlyTextTypes = (parsers: Record<number, unknown>) => {
  let n = 0;
  for (const key in parsers) {
    if (!DRIZZLE_TEXT_TYPES.includes(Number(key))) return false;
    n++;
  }
  return n === DRIZZLE_TEXT_TYPES.length;
};
const withSharedParsers =
  (query: PgliteQuery): PgliteQuery =>
  (q, params, options) =>
    query(q, params, options?.parsers && onlyTextTypes(options.parsers) ? { ...options, parsers: undefined } : options);

/**
 * A PGlite client whose statements, in and out of transactions, use the parsers it was built with
 * (textParsers), and whose transactions run executePrepared's statements named (pglite-named.ts).
 */
function sharingParsers(client: PgliteClient, lib: typeof import('@electric-sql/pglite')): PgliteClient {
  const query = withSharedParsers((client.query as PgliteQuery).bind(client));
  type Transaction = (callback: (tx: { query: unknown }) => Promise<unknown>) => Promise<unknown>;
  const transaction = (client.transaction as unknown as Transaction).bind(client);
  const named = namedQueryOf(client, lib);
  Object.assign(client, {
    query,
    transaction: (callback: (tx: { query: unknown }) => Promise<unknown>) =>
      transaction((tx) => callback(Object.assign(tx, { query: withSharedParsers((tx.query as PgliteQuery).bind(tx)), [namedQuery]: named }))),
  });
  return client;
}

/** The advisory lock ('migr') processes starting at once on one PostgreSQL database take in turns to migrate it. */
const MIGRATION_LOCK = 0x6d696772;

/**
 * Runs `migrate` while holding a session advisory lock on a connection of its own: processes that
 * start at once on one database (a deploy to several instances) migrate one after the other, and
 * those after the first find nothing left to do, instead of applying the same migration twice.
 */
async function migrateAlone(pg: { Client: typeof import('pg').Client }, url: string, migrate: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url, ...CONNECTION_BOUNDS });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate();
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => undefined);
  }
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

type PgliteClient = import('@electric-sql/pglite').PGlite;
/**
 * A PGlite client in `dir` (in memory without one). `inWorker` (PGLITE_THREAD=worker): the engine in a
 * worker thread behind a message port (decision 173, a prototype); its client answers what drizzle
 * and pgliteListener call (query, transaction, listen, close).
 */
async function openPgliteClient(inWorker: boolean, dir?: string, startParams?: string[], loadDataDir?: Blob): Promise<PgliteClient> {
  if (inWorker) {
    if (loadDataDir) throw new Error('loadDataDir is not supported with PGLITE_THREAD=worker');
    const { openPgliteThread } = await import('./pglite-thread.ts');
    return (await openPgliteThread({ dataDir: dir, startParams, textTypes: DRIZZLE_TEXT_TYPES })) as unknown as PgliteClient;
  }
  const lib = await import('@electric-sql/pglite');
  const { PGlite } = lib;
  const options = {
    parsers: textParsers,
    extensions: await pgliteExtensions(),
    ...(startParams ? { startParams } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
  };
  const client = sharingParsers(dir ? new PGlite(dir, options) : new PGlite(options), lib);
  await client.waitReady;
  return client;
}

/**
 * A database in dataDir, the folder locked while it is open (data-dir-lock.ts: one process a
 * folder). `open` makes it, registering with `undo` what to stop should a later step fail; the lock
 * is released once the database has closed, or at once when opening failed.
 */
async function lockedDatabase(
  dataDir: string,
  lockOptions: LockOptions | undefined,
  open: (undo: (stop: () => Promise<unknown>) => void) => Promise<Omit<Database, 'markStopping'>>,
): Promise<Database> {
  const lock = await lockDataDir(dataDir, lockOptions);
  const undos: (() => Promise<unknown>)[] = [];
  try {
    const database = await open((stop) => undos.unshift(stop));
    return {
      ...database,
      markStopping: () => lock.markStopping(),
      close: async () => {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    for (const stop of undos) await stop().catch(() => undefined);
    lock.release();
    throw err;
  }
}

/** openDatabase on a PostgreSQL server of dataDir's own (embedded-postgres.ts), stopped when the database is closed; the folder is locked as PGlite's is. */
async function openEmbeddedPostgres(opts: Parameters<typeof openDatabase>[0]): Promise<Database> {
  if (!opts.dataDir) throw new Error('dataDir is required for an embedded PostgreSQL server');
  const { startEmbeddedPostgres } = await import('./embedded-postgres.ts');
  const dataDir = opts.dataDir;
  return lockedDatabase(dataDir, opts.lock, async (undo) => {
    const server = await startEmbeddedPostgres(dataDir);
    undo(() => server.stop());
    const database = await openDatabase({ ...opts, url: server.url });
    return {
      ...database,
      close: async () => {
        await database.close();
        await server.stop();
      },
    };
  });
}

/**
 * `lock`: for an on-disk PGlite, how to wait for a process that is stopping on the same folder (the
 * folder is always locked; see data-dir-lock.ts). PostgreSQL is shared by design and takes no lock.
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  memory?: boolean;
  lock?: LockOptions;
  migrated?: boolean;
  /**
   * With `memory`: start from this dump of a PGlite folder (PGlite's dumpDataDir) instead of an empty
   * cluster; the tests' migrated template, which spares each test worker PGlite's initdb and the migrations.
   */
  loadDataDir?: Blob;
  /** PGlite only: 'worker' runs its engine in a worker thread (decision 173, a prototype); default PGLITE_THREAD, else this thread. */
  thread?: string;
  /** Without a url: 'postgres' starts a PostgreSQL server in dataDir (decision 173, a prototype); default EMBEDDED_DB, else PGlite. */
  embedded?: string;
}): Promise<Database> {
  if (!opts.url && !opts.memory && (opts.embedded ?? process.env.EMBEDDED_DB) === 'postgres') return openEmbeddedPostgres({ ...opts, embedded: 'no' });
  if (opts.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool(poolOptions(pg, opts.url));
    hearLostConnections(pool);
    const db = drizzle(pool);
    // The instance's own transaction() replaced by one with the same contract (retryingTransactions).
    Object.assign(db, { transaction: await retryingTransactions(pool) });
    // `migrated`: a second handle of this process (the upload worker's), opened after the first migrated.
    if (!opts.migrated) await migrateAlone(pg, opts.url, () => migrate(db, { migrationsFolder }));
    // Scan batches and uploads take their connections here: as many as the main pool, so a few long
    // uploads at once never leave a scan batch waiting for a connection.
    const pipelinePool = new pg.Pool({ ...poolOptions(pg, opts.url), pipeline: true } as import('pg').PoolConfig);
    hearLostConnections(pipelinePool);
    Object.assign(db, { [pipelinedRunner]: await pipelineRunner(pipelinePool) });
    const keyPool = new pg.Pool({
      ...poolOptions(pg, opts.url),
      max: KEY_LOOKUPS_POOL_MAX,
      options: KEY_LOOKUP_OPTIONS,
    });
    hearLostConnections(keyPool);
    Object.assign(db, { [keyLookups]: drizzle(keyPool) });
    Object.assign(db, { [listener]: pgListener(pg, opts.url) });
    Object.assign(db, { [poolUse]: () => [useOf('main', pool), useOf('pipelined', pipelinePool), useOf('keyLookups', keyPool)] });
    Object.assign(db, { [databaseUrl]: opts.url });
    const types = textTimestamps(pg);
    const named: NamedRunner = async (name, text, values) =>
      (await pool.query({ name, text, values, rowMode: 'array', types } as import('pg').QueryConfig)).rows as unknown[][];
    Object.assign(db, { [namedRunner]: named });
    return {
      db: db as unknown as Db,
      driver: 'pg',
      markStopping: () => undefined,
      close: async () => void (await Promise.all([pool.end(), pipelinePool.end(), keyPool.end()])),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const openClient = (dir?: string, startParams?: string[], loadDataDir?: Blob) =>
    openPgliteClient((opts.thread ?? process.env.PGLITE_THREAD) === 'worker', dir, startParams, loadDataDir);
  if (opts.memory) {
    const client = await openClient(undefined, undefined, opts.loadDataDir);
    const db = drizzle(client);
    await migrate(db, { migrationsFolder });
    Object.assign(db, { [listener]: pgliteListener(client) });
    return { db: db as unknown as Db, driver: 'pglite', markStopping: () => undefined, close: () => client.close() };
  }
  if (!opts.dataDir) throw new Error('dataDir is required for an on-disk PGlite database');
  const dir = path.join(opts.dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  // The folder is released only once PGlite has closed it (or when the process is gone).
  return lockedDatabase(opts.dataDir, opts.lock, async (undo) => {
    const client = await openClient(dir, [
      ...PGlite.defaultStartParams,
      ...['-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`, '-c', `default_statistics_target=${PGLITE_STATISTICS_TARGET}`, '-c', 'wal_init_zero=off'],
    ]);
    undo(() => client.close());
    const db = drizzle(client);
    await migrate(db, { migrationsFolder });
    Object.assign(db, { [listener]: pgliteListener(client) });
    return { db: db as unknown as Db, driver: 'pglite', close: () => client.close() };
  });
}
