// Where a purchased or tracking upload runs (docs/decisions/065-uploads-run-in-a-worker-on-postgresql.md). On
// PostgreSQL, in one worker thread of this process (upload-worker.ts) with database connections of
// its own: the thread that answers every request only hands over the file and sends back the
// answer's bytes. Paced and sliced (slices.ts, upload-rows.ts), an upload still took this thread for
// ~250 pieces of 20 ms and more, plus the garbage it made, and other requests waited behind them
// (notice p99 117-205 ms beside a confirm and a purchase upload; with the uploads in another process
// 37-52 ms). On PGlite the database lives in this thread, so uploads run here, paced as before.
// Every upload of the process goes through the one worker, so what is per process stays so: one
// upload in flight per member (upload-gate.ts), the parse queue (parse-sheet.ts), two slices in
// flight only while one upload applies (upload-rows.ts).
import { Worker } from 'node:worker_threads';
import type { SessionUser } from '../auth/session-user.ts';
import { databaseUrlOf, type Db } from '../db/client.ts';
import { AppError, badRequest, type Code } from '../errors.ts';
import { parseQueueState, SHEET_MESSAGES } from './parse-sheet.ts';
import { uploadPurchased, type PurchasedUploadMode } from './purchased-upload.ts';
import { uploadTrackings, type TrackingUploadMode } from './tracking-upload.ts';
import { uploadAnswer } from './upload-rows.ts';
import { runFile } from '../run-files.ts';

/** Which upload: the purchased records' (SPEC §7 purchased/user/excel) or the tracking upload's. */
export type UploadAction = { kind: 'purchased'; mode: PurchasedUploadMode } | { kind: 'tracking'; mode: TrackingUploadMode };
export type UploadJob = UploadAction & { actor: SessionUser; bytes: Buffer | null };

export type ParseQueueState = ReturnType<typeof parseQueueState>;

export interface UploadRunner {
  /** Runs the upload; answers the bytes of its answer's body (upload-rows.ts uploadAnswer). */
  run(job: UploadJob): Promise<Buffer>;
  /** The parse queue where the uploads run (the tests of the queue read it). */
  queueState(): Promise<ParseQueueState>;
  /** Ends the worker, once the requests in flight have been answered. */
  close(): Promise<void>;
}

/** Runs `job` on `db` in this thread: what the worker does with each job it gets. */
export async function runUploadJob(db: Db, job: UploadJob): Promise<Buffer> {
  const result =
    job.kind === 'purchased' ? await uploadPurchased(db, job.actor, job.bytes, job.mode) : await uploadTrackings(db, job.actor, job.bytes, job.mode);
  return uploadAnswer(db, result, job.actor.id);
}

/** The uploads of `db`'s app: in a worker on PostgreSQL, in this thread on PGlite. `heapMb`: the worker's heap. */
export function uploadRunner(db: Db, opts: { heapMb?: number } = {}): UploadRunner {
  const url = databaseUrlOf(db);
  if (url) return new WorkerRunner(url, opts.heapMb ?? WORKER_HEAP_MB);
  return {
    run: (job) => runUploadJob(db, job),
    queueState: async () => parseQueueState(),
    close: async () => undefined,
  };
}

/** An error as it crosses between the threads: an AppError keeps its code and status, another its message and PostgreSQL's fields. */
export type WireError =
  { app: true; code: Code; httpStatus: number; message: string } | { app: false; message: string; stack?: string; code?: string; constraint?: string };

export function toWire(err: unknown): WireError {
  if (err instanceof AppError) return { app: true, code: err.code, httpStatus: err.httpStatus, message: err.message };
  const e = err as { message?: unknown; stack?: unknown; code?: unknown; constraint?: unknown } | null;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { app: false, message: text(e?.message) ?? String(err), stack: text(e?.stack), code: text(e?.code), constraint: text(e?.constraint) };
}

function fromWire(w: WireError): Error {
  if (w.app) return new AppError(w.code, w.httpStatus, w.message);
  return Object.assign(new Error(w.message), { stack: w.stack, code: w.code, constraint: w.constraint });
}

/** What the worker answers: one message per request, by its id. */
export type WorkerAnswer =
  { id: number; body: Uint8Array } | { id: number; state: ParseQueueState } | { id: number; error: WireError } | { id: number; closed: true };
/** What the worker is asked. */
export type WorkerRequest =
  { id: number; run: UploadAction & { actor: SessionUser; bytes: Uint8Array | null } } | { id: number; state: true } | { id: number; close: true };

// Built (scripts/build.mjs), the worker is JavaScript of its own in dist-server/; from the sources it
// is TypeScript, loaded through worker-boot.mjs, which registers tsx first.
const WORKER_BOOT = runFile('./worker-boot.mjs', './upload-worker.js');
const WORKER_ENTRY = new URL('./upload-worker.ts', import.meta.url);
/** The worker's heap, as the server's own (scripts/start.sh: --max-old-space-size). */
const WORKER_HEAP_MB = 384;
/**
 * The worker's young generation: 4 MB semi-spaces (V8's young generation is three of them), as
 * before decision 190 gave the server's thread V8's own 16 MB on PostgreSQL (the only database this
 * worker runs on): its parse gained nothing from 16 (scavenges halved, the upload no faster), and
 * its memory counts at every upload's peak.
 */
const WORKER_YOUNG_MB = 12;

/**
 * The worker, started with the first upload and kept; one that ended (out of memory, a crash)
 * fails the jobs it had (out of memory: 400 A00001, the file too big to process) and is started
 * again for the next.
 */
class WorkerRunner implements UploadRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (a: WorkerAnswer) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly url: string,
    private readonly heapMb: number,
  ) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_BOOT, {
      workerData: { entry: WORKER_ENTRY.href, url: this.url },
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    worker.on('message', (a: WorkerAnswer) => {
      const p = this.pending.get(a.id);
      this.pending.delete(a.id);
      p?.resolve(a);
    });
    const ended = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    // Out of memory: the file was more than an upload can hold, as the sheet worker says of its own.
    worker.on('error', (err: Error & { code?: string }) => ended(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? badRequest(SHEET_MESSAGES.tooBig) : err));
    worker.on('exit', (code) => ended(new Error(`the upload worker ended (exit code ${code})`)));
    // The server's sockets keep the process alive; an idle worker never does.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private ask(request: Omit<WorkerRequest, 'id'>, transfer: ArrayBuffer[] = []): Promise<WorkerAnswer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<WorkerAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id }, transfer);
    }).then((a) => {
      if ('error' in a) throw fromWire(a.error);
      return a;
    });
  }

  async run(job: UploadJob): Promise<Buffer> {
    // A copy of the file that the worker takes over (the request's Buffer may share its memory).
    const bytes = job.bytes ? new Uint8Array(job.bytes) : null;
    const answer = await this.ask({ run: { ...job, bytes } }, bytes ? [bytes.buffer as ArrayBuffer] : []);
    if (!('body' in answer)) throw new Error('the upload worker answered without a body');
    return Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
  }

  async queueState(): Promise<ParseQueueState> {
    if (!this.worker) return parseQueueState();
    const answer = await this.ask({ state: true });
    if (!('state' in answer)) throw new Error('the upload worker answered without its state');
    return answer.state;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    // Its database connections closed first; then the thread.
    await this.ask({ close: true }).catch(() => undefined);
    this.worker = null;
    await worker.terminate();
  }
}
