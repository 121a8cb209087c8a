// Stopping on SIGTERM/SIGINT, on either database, within 10 s whatever happens: the port is freed
// at once, requests in flight get their answers (with `Connection: close`, so no client reuses the
// socket), idle keep-alive sockets are closed instead of being kept until their 72 s timeout, then
// the outbox, mail and database close, and the log is written out. A deadline ends whatever is left: a timer on this thread, and
// a watchdog thread in case this one is stuck in a long PGlite statement (killing is safe:
// acknowledged data is committed, and the data folder's lock of a dead process is taken over).
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { flushLog } from './logger.ts';

/** When the main thread gives up waiting and exits; the watchdog kills the process 0.7 s later. */
export const STOP_DEADLINE_MS = 9_000;
const WATCHDOG_GRACE_MS = 700;
const IDLE_SWEEP_MS = 100;

export interface StopOptions {
  log: FastifyBaseLogger;
  /** Called first: tells a process starting on the same data folder that this one is stopping. */
  announce(): void;
  /** Closes what the requests used (outbox, mail, database), after the last request has answered. */
  closeRest(): Promise<void>;
  deadlineMs?: number;
}

/**
 * Installs what stopping needs on `app` (before it listens) and returns the function that stops
 * the process; it exits the process itself.
 */
export function prepareGracefulStop(app: FastifyInstance, opts: StopOptions): (signal: string) => void {
  let stopping = false;
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (stopping) reply.header('connection', 'close');
    done(null, payload);
  });

  return (signal) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const deadlineMs = opts.deadlineMs ?? STOP_DEADLINE_MS;
    armWatchdog(deadlineMs + WATCHDOG_GRACE_MS);
    // The log is buffered (logger.ts logDestination): process.exit writes what is left of it
    // synchronously (pino's exit handler), and the stop writes it out as it goes.
    setTimeout(() => {
      opts.log.warn({ signal }, `still stopping after ${deadlineMs} ms: closing the remaining connections and exiting`);
      app.server.closeAllConnections();
      process.exit(1);
    }, deadlineMs);
    opts.log.info({ signal }, 'stopping: no new connections; finishing the requests in flight');
    void flushLog(opts.log);
    opts.announce();
    // A socket whose request ends after the answers above were sent (a streamed download) becomes
    // idle later: swept until the server has closed.
    const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    void (async () => {
      await app.close();
      clearInterval(sweep);
      await opts.closeRest();
      opts.log.info(`stopped in ${Date.now() - started} ms`);
      await flushLog(opts.log);
      process.exit(0);
    })().catch((err: unknown) => {
      opts.log.error({ err }, 'stopping failed');
      process.exit(1);
    });
  };
}

/**
 * A thread of its own that kills the process after `ms`: this thread's timers do not run while a
 * synchronous task (a PGlite statement runs in WebAssembly on this thread) holds it.
 */
function armWatchdog(ms: number) {
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);`,
    { eval: true, workerData: { pid: process.pid, ms } },
  );
  worker.unref();
}
