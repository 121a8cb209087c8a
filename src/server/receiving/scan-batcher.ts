// Group commit of scans (the receiving speed target: a scan create p95 <= 15 ms at the server under 16
// concurrent clients; DECISIONS "Scans"). A scan is a small transaction of five statements (begin,
// lock, read, write, commit), and on a 2-core machine each round trip to PostgreSQL costs more CPU,
// on both sides, than the work it carries. The scans that arrive while others are being written are
// therefore gathered and written together: one transaction and the same five statements for all of
// them (scan-service.ts runScanJobs). When the database is idle a scan is written at once, alone;
// under load a batch forms by itself from the scans that queued while the previous ones were written.
// What a clerk sees does not change: ScanBatcher.
import { pipelinedTransaction, type Db } from '../db/client.ts';
import { runScanJob, runScanJobs, type ScanJob, type ScanOutcome } from './scan-service.ts';

interface Waiting {
  job: ScanJob;
  resolve(outcome: ScanOutcome): void;
  reject(err: unknown): void;
}

export interface ScanBatcherOptions {
  /** Scans per transaction at most. */
  maxBatch?: number;
  /** Transactions in flight at once (each holds a pooled connection). */
  parallel?: number;
  /** Told the size of each batch as it is written (the metrics' scan batch sizes). */
  onBatch?: (size: number) => void;
}

/**
 * What a clerk sees does not change:
 * - Each scan gets its own answer (its outcome, or the error it alone is refused with).
 * - Scans of one tracking id are written in the order they arrived, never in the same batch or in
 *   two batches at once: a repeat of a parcel sees the first scan and is answered as a duplicate.
 * - A batch commits or rolls back as a whole. If it fails (a deadlock, a lost connection), each of
 *   its scans is written again on its own, so one scan's failure is never another's; a scan that
 *   was in fact committed is then answered as the duplicate it has become, never written twice.
 * - Each row, record and task change is audited as the clerk's whose scan caused it.
 */
export class ScanBatcher {
  private queue: Waiting[] = [];
  /** Tracking ids of the batches being written. */
  private busy = new Set<string>();
  private running = 0;
  private readonly maxBatch: number;
  private readonly parallel: number;
  private readonly onBatch: ((size: number) => void) | undefined;

  constructor(
    private db: Db,
    opts: ScanBatcherOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 32;
    this.parallel = opts.parallel ?? 2;
    this.onBatch = opts.onBatch;
  }

  /** Writes the scan (with the others waiting, if any) and answers its outcome. */
  submit(job: ScanJob): Promise<ScanOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  /** Starts batches while a transaction slot is free and some scan can go. */
  private pump() {
    while (this.running < this.parallel && this.queue.length) {
      const batch = this.take();
      if (!batch.length) return;
      this.running++;
      for (const w of batch) this.busy.add(w.job.trackingId);
      void this.write(batch).finally(() => {
        for (const w of batch) this.busy.delete(w.job.trackingId);
        this.running--;
        this.pump();
      });
    }
  }

  /** The oldest waiting scans of distinct tracking ids not being written; the others keep their place. */
  private take(): Waiting[] {
    const batch: Waiting[] = [];
    const ids = new Set<string>();
    const rest: Waiting[] = [];
    for (const w of this.queue) {
      const t = w.job.trackingId;
      if (batch.length < this.maxBatch && !ids.has(t) && !this.busy.has(t)) {
        batch.push(w);
        ids.add(t);
      } else {
        rest.push(w);
        // A later scan of a held-back tracking id must not overtake it.
        ids.add(t);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async write(batch: Waiting[]): Promise<void> {
    this.onBatch?.(batch.length);
    if (batch.length === 1) return this.writeAlone(batch[0]!);
    let results: Awaited<ReturnType<typeof runScanJobs>>;
    try {
      results = await pipelinedTransaction(this.db, (tx) =>
        runScanJobs(
          tx,
          batch.map((w) => w.job),
        ),
      );
    } catch {
      // The batch wrote nothing (or, if its commit was lost, everything: then each scan is a duplicate now).
      await Promise.all(batch.map((w) => this.writeAlone(w)));
      return;
    }
    batch.forEach((w, i) => {
      const r = results[i]!;
      if (r instanceof Error) w.reject(r);
      else w.resolve(r);
    });
  }

  private async writeAlone(w: Waiting): Promise<void> {
    try {
      w.resolve(await pipelinedTransaction(this.db, (tx) => runScanJob(tx, w.job)));
    } catch (err) {
      w.reject(err);
    }
  }
}
