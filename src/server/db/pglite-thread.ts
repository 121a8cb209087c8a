// PGlite in a worker thread of its own, behind a message port (decision 173; a prototype, off unless
// PGLITE_THREAD=worker): the thread that answers requests sends each statement to the worker and
// awaits its answer, instead of running the engine's WebAssembly itself (a matched scan spent 5-6 ms
// of that thread in it, and a 50,000-row upload's statements held it for up to a second).
//
// The client below is what drizzle-orm/pglite drives: query(), transaction() and exec(), plus the
// listen() of pgliteListener. A transaction holds PGlite's transaction lock inside the worker from
// BEGIN to COMMIT, so a statement sent meanwhile from outside the transaction waits for it, as it does
// in-process. Parsers are functions and cannot cross threads: the worker's PGlite is built with the
// client's text parsers (client.ts textParsers), and a statement that asks for other parsers fails.
import { Worker } from 'node:worker_threads';
import { runFile } from '../run-files.ts';

/** What the main thread asks the worker. `tx`: the transaction the statement runs in (its BEGIN's answer). */
export type ThreadRequest =
  | { id: number; kind: 'query'; sql: string; params: unknown[]; rowMode?: 'array' | 'object'; tx?: number }
  | { id: number; kind: 'exec'; sql: string; tx?: number }
  | { id: number; kind: 'begin' }
  | { id: number; kind: 'end'; tx: number; commit: boolean }
  | { id: number; kind: 'listen' | 'unlisten'; channel: string }
  | { id: number; kind: 'shutdown' };

/** What the worker answers: one message per request, by its id; a notification has no id. */
export type ThreadAnswer = { id: number; result: unknown } | { id: number; error: ThreadError } | { notify: string; payload: string } | { ready: true };

/** A PostgreSQL error as it crosses: its message and its string fields (code, constraint, detail…), which postgresError() and the callers read. */
export type ThreadError = { message: string; fields: Record<string, string> };

/** The options the worker builds its PGlite with. */
export interface ThreadOptions {
  dataDir?: string;
  startParams?: string[];
  /** The types whose text the client keeps as text (client.ts DRIZZLE_TEXT_TYPES). */
  textTypes: number[];
}

type Rows = { rows: unknown[]; fields: { name: string; dataTypeID: number }[]; affectedRows?: number };
type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, unknown> };

export interface PgliteThreadClient {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Rows & { rows: T[] }>;
  exec(sql: string): Promise<Rows[]>;
  transaction<T>(callback: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** The worker, for tests and diagnostics (its threadId). */
  readonly worker: Worker;
}
export interface PgliteThreadTransaction {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Rows & { rows: T[] }>;
  exec(sql: string): Promise<Rows[]>;
  /** Rolls the transaction back now; it ends (its callback's answer is kept). */
  rollback(): Promise<void>;
  readonly closed: boolean;
}

// Built (scripts/build.mjs), the worker is JavaScript of its own in dist-server/; from the sources it
// is TypeScript, loaded through worker-boot.mjs, which registers tsx first.
const WORKER_BOOT = runFile('./worker-boot.mjs', './pglite-thread-worker.js');
const WORKER_ENTRY = new URL('./pglite-thread-worker.ts', import.meta.url);

function fromThread(e: ThreadError): Error {
  return Object.assign(new Error(e.message), e.fields);
}

/** The worker and its requests in flight: each request is answered by id; notifications go to the listeners of their channel. */
class ThreadPort {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  readonly listeners = new Map<string, Set<(payload: string) => void>>();
  failed: Error | null = null;
  readonly ready: Promise<void>;

  constructor(readonly worker: Worker) {
    let isReady!: () => void;
    this.ready = new Promise<void>((resolve, reject) => {
      isReady = resolve;
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the PGlite worker ended while opening (exit code ${code})`)));
    });
    worker.on('message', (a: ThreadAnswer) => {
      if ('ready' in a) return isReady();
      if ('notify' in a) {
        for (const cb of this.listeners.get(a.notify) ?? []) cb(a.payload);
        return;
      }
      const p = this.pending.get(a.id);
      this.pending.delete(a.id);
      if (!this.pending.size) worker.unref();
      if ('error' in a) p?.reject(fromThread(a.error));
      else p?.resolve(a.result);
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the PGlite worker ended (exit code ${code})`)));
  }

  private fail(err: Error) {
    this.failed ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.worker.unref();
  }

  ask<T>(request: DistributiveOmit<ThreadRequest, 'id'>): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    // The worker keeps the process alive only while a request waits for it, as an in-process PGlite
    // holds nothing: a process whose other work is done may end with the database open.
    if (!this.pending.size) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
  }
}

/** Runs `callback` in a transaction of the worker: BEGIN, its statements, then COMMIT, or ROLLBACK when it throws. */
async function inTransaction<T>(
  port: ThreadPort,
  statements: (tx: number) => Pick<PgliteThreadTransaction, 'query' | 'exec'>,
  callback: (tx: PgliteThreadTransaction) => Promise<T>,
): Promise<T> {
  const id = await port.ask<number>({ kind: 'begin' });
  let closed = false;
  const end = async (commit: boolean) => {
    if (closed) return;
    closed = true;
    await port.ask({ kind: 'end', tx: id, commit });
  };
  const tx: PgliteThreadTransaction = {
    ...statements(id),
    rollback: () => end(false),
    get closed() {
      return closed;
    },
  };
  let out: T;
  try {
    out = await callback(tx);
  } catch (err) {
    await end(false).catch(() => undefined);
    throw err;
  }
  await end(true);
  return out;
}

/** Starts the worker, which opens PGlite with `options`; resolves once it is ready. */
export async function openPgliteThread(options: ThreadOptions): Promise<PgliteThreadClient> {
  const port = new ThreadPort(new Worker(WORKER_BOOT, { workerData: { entry: WORKER_ENTRY.href, options } }));
  const textTypes = new Set(options.textTypes);
  /** The statement's parsers must be the worker's own (the text types), or none. */
  const checkParsers = (opts?: QueryOptions) => {
    for (const key in opts?.parsers ?? {})
      if (!textTypes.has(Number(key))) throw new Error(`PGlite in a worker: a parser for type ${key} cannot cross threads`);
  };
  const statements = (tx?: number) => ({
    query: <T>(sql: string, params: unknown[] = [], opts?: QueryOptions): Promise<Rows & { rows: T[] }> => {
      checkParsers(opts);
      return port.ask({ kind: 'query', sql, params, rowMode: opts?.rowMode, tx });
    },
    exec: (sql: string) => port.ask<Rows[]>({ kind: 'exec', sql, tx }),
  });
  await port.ready;
  return {
    worker: port.worker,
    ...statements(),
    transaction: (callback) => inTransaction(port, statements, callback),
    async listen(channel, callback) {
      let set = port.listeners.get(channel);
      if (!set) {
        port.listeners.set(channel, (set = new Set()));
        await port.ask({ kind: 'listen', channel });
      }
      set.add(callback);
      return async () => {
        if (!set.delete(callback) || set.size) return;
        port.listeners.delete(channel);
        await port.ask({ kind: 'unlisten', channel }).catch(() => undefined);
      };
    },
    async close() {
      if (!port.failed) await port.ask({ kind: 'shutdown' }).catch(() => undefined);
      await port.worker.terminate();
    },
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
