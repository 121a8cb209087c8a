// The worker thread of pglite-thread.ts (decision 173): it owns the PGlite engine and answers the
// main thread's statements, one message each. A transaction holds PGlite's transaction lock from
// its BEGIN to its end, so statements of other callers wait for it, as they do in-process.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pgliteExtensions } from './pglite-extensions.ts';
import type { ThreadAnswer, ThreadError, ThreadOptions, ThreadRequest } from './pglite-thread.ts';

const port = parentPort;
if (!port) throw new Error('pglite-thread-worker.ts runs as a worker thread');
const options = (workerData as { options: ThreadOptions }).options;
const parsers = Object.fromEntries(options.textTypes.map((t) => [t, (value: string) => value]));
const extensions = await pgliteExtensions();
const pgliteOptions = { parsers, extensions, ...(options.startParams ? { startParams: options.startParams } : {}) };
const db = options.dataDir ? new PGlite(options.dataDir, pgliteOptions) : new PGlite(pgliteOptions);
await db.waitReady;

const post = (a: ThreadAnswer) => port.postMessage(a);

function toThread(err: unknown): ThreadError {
  const e = err as Record<string, unknown> | null;
  const fields: Record<string, string> = {};
  if (e && typeof e === 'object') for (const [k, v] of Object.entries(e)) if (typeof v === 'string') fields[k] = v;
  return { message: typeof e?.message === 'string' ? e.message : String(err), fields };
}

/** The open transactions: PGlite's handle, and how to end it (resolve commits, reject rolls back). */
const open = new Map<number, { tx: Transaction; end(commit: boolean): void; done: Promise<unknown> }>();
let nextTx = 1;
const ROLLBACK = Symbol('rollback');
const unlisteners = new Map<string, () => Promise<void>>();

/** The handle a statement runs on: its transaction's, or the database's. */
const on = (tx: number | undefined) => {
  if (tx === undefined) return db;
  const t = open.get(tx);
  if (!t) throw new Error(`PGlite in a worker: transaction ${tx} is not open`);
  return t.tx;
};

async function answer(r: ThreadRequest): Promise<unknown> {
  switch (r.kind) {
    case 'query':
      return on(r.tx).query(r.sql, r.params, { rowMode: r.rowMode });
    case 'exec':
      return on(r.tx).exec(r.sql);
    case 'begin': {
      const id = nextTx++;
      return new Promise<number>((began, failed) => {
        const done = db
          .transaction(
            (tx) =>
              new Promise((commit, rollback) => {
                open.set(id, { tx, end: (c) => (c ? commit(undefined) : rollback(ROLLBACK)), done });
                began(id);
              }),
          )
          .finally(() => open.delete(id));
        // BEGIN itself failed: the promise above was never settled by began.
        done.catch((err: unknown) => (err === ROLLBACK ? undefined : failed(err)));
      });
    }
    case 'end': {
      const t = open.get(r.tx);
      if (!t) throw new Error(`PGlite in a worker: transaction ${r.tx} is not open`);
      t.end(r.commit);
      await t.done.catch((err: unknown) => {
        if (err !== ROLLBACK) throw err;
      });
      return null;
    }
    case 'listen':
      unlisteners.set(r.channel, await db.listen(r.channel, (payload) => post({ notify: r.channel, payload })));
      return null;
    case 'unlisten':
      await unlisteners.get(r.channel)?.();
      unlisteners.delete(r.channel);
      return null;
    case 'shutdown':
      await db.close();
      return null;
  }
}

port.on('message', (r: ThreadRequest) => {
  answer(r).then(
    (result) => post({ id: r.id, result }),
    (err: unknown) => post({ id: r.id, error: toThread(err) }),
  );
});
post({ ready: true });
