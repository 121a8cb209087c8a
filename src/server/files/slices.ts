// An upload shares the server with every other request: the event loop (one thread answers all of
// them) and, on PGlite, the one database connection that a transaction holds exclusively. So an
// upload never works for long without giving way (docs/decisions/060-uploads-in-slices.md):
// - its JavaScript (checking rows, planning, building statements, serializing the answer) runs in
//   pieces of at most ~YIELD_EVERY_MS, each followed by a turn of the event loop (Pacer);
// - its database work runs in slices (upload-rows.ts applyInSlices), each its own transaction of a
//   bounded duration, and other requests are served between two slices.
// On PostgreSQL uploads run in a worker thread of their own (upload-jobs.ts, decision 065), where
// the pacing costs little; on PGlite they share the request thread, and it is what keeps it free.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work between two turns of the event loop: well under the 100 ms p99 other requests are promised. */
export const YIELD_EVERY_MS = 10;

/** Gives the event loop a turn whenever the work since the last one took longer than `everyMs`. */
export class Pacer {
  private since = performance.now();
  constructor(private readonly everyMs = YIELD_EVERY_MS) {}
  /** A turn of the event loop if this call's work since the last one ran for everyMs. */
  async pace(): Promise<void> {
    if (performance.now() - this.since >= this.everyMs) await this.turn();
  }
  /** A turn of the event loop now. */
  async turn(): Promise<void> {
    await nextTurn();
    this.since = performance.now();
  }
}

/** Rows handled between two looks at the clock (performance.now is cheap, not free). */
const CHECK_EVERY = 64;

/** list.map(f), giving the event loop a turn every ~YIELD_EVERY_MS. */
export async function mapPaced<T, U>(list: readonly T[], f: (item: T, index: number) => U, pacer = new Pacer()): Promise<U[]> {
  const out = new Array<U>(list.length);
  for (let i = 0; i < list.length; i++) {
    out[i] = f(list[i]!, i);
    if (i % CHECK_EVERY === CHECK_EVERY - 1) await pacer.pace();
  }
  return out;
}

/** for (const item of list) f(item), giving the event loop a turn every ~YIELD_EVERY_MS. */
export async function forEachPaced<T>(list: Iterable<T>, f: (item: T) => void, pacer = new Pacer()): Promise<void> {
  let i = 0;
  for (const item of list) {
    f(item);
    if (++i % CHECK_EVERY === 0) await pacer.pace();
  }
}

/**
 * The JSON array of `rows` as UTF-8 pieces, serialized a chunk at a time between turns of the event
 * loop: JSON.stringify of 50,000 upload result rows takes ~0.3 s in one piece, and Fastify's schema
 * serializer ~1 s, on this machine.
 */
export async function jsonArrayPaced(rows: readonly unknown[], pacer = new Pacer()): Promise<Buffer[]> {
  const CHUNK = 500;
  const parts: Buffer[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const piece = JSON.stringify(rows.slice(i, i + CHUNK));
    // Each piece without its brackets, joined by commas.
    parts.push(Buffer.from(`${i === 0 ? '[' : ','}${piece.slice(1, -1)}`));
    await pacer.pace();
  }
  parts.push(Buffer.from(rows.length ? ']' : '[]'));
  return parts;
}

/** How an upload's rows are cut into transactions (upload-rows.ts applyInSlices). */
export interface Slicing {
  /** The duration aimed at for one slice (its transaction, from begin to commit). */
  targetMs: number;
  /** The duration aimed at while other uploads apply slices too (targetMs when absent). */
  sharedTargetMs?: number;
  /** Rows of the first slice, before any has been timed. */
  firstRows: number;
  /** Rows of a slice at most (a tracking id's rows are never cut, so one group may exceed it). */
  maxRows: number;
}

/**
 * How slices are cut on each database. PGlite: 40 ms a slice (40 rows to start with, at most 400:
 * a first slice of 200 took 130-220 ms, its code not yet optimised), because every other
 * request waits for the slice in progress (one connection, held by the transaction): a request's
 * p99 beside uploads is about the p99 of a slice's duration, and at 150 ms (1,000 rows) it was
 * 150-220 ms, at 40 ms 74-85 ms (decision 180). While two uploads apply slices, 30 ms each: their
 * slices and the JavaScript between them alternate, and at 40 ms a request's p99 beside a confirm
 * and a purchase upload was 105-112 ms on a loaded host (decision 192). One upload alone keeps 40:
 * at 30 the 50,000-row import took 17 s, past its 15 s target. PostgreSQL serves other requests beside
 * a transaction, and a slice costs a few round trips whatever its size (each one a wait for the other
 * process on a busy machine): 400 ms a slice, during which it holds the row locks of its parcels and
 * tasks. At most 1,000 rows on PGlite and 400 on PostgreSQL: a slice's matching is planned and its
 * read parsed in one piece of the thread, and 1,000-row slices (which PostgreSQL reached in ~180 ms,
 * always at the cap) made pieces that kept the notice p99 at 117-160 ms during a confirm, when
 * uploads still ran on the request thread (400 rows: as fast; decision 065 then moved them to a
 * worker on PostgreSQL). Its tracking ids stay
 * within matching's per-id locks (BULK_LOCK_THRESHOLD), so scans of other parcels go on beside it.
 * A slice's time is counted from its turn (SliceTurns), not from when it asked for it: counted with
 * the other upload's slice it waited for, two uploads at once shrank each other's slices to a few
 * rows (decision 176 saw 31% of a 50,000-row confirm applied in its budget at 50 ms).
 */
export const SLICING: Record<'pglite' | 'pg', Slicing> = {
  pglite: { targetMs: 40, sharedTargetMs: 30, firstRows: 40, maxRows: 400 },
  pg: { targetMs: 400, firstRows: 200, maxRows: 400 },
};

/**
 * PGlite runs each statement on this thread and a transaction holds its only connection, and a
 * transaction's statements follow one another in microtasks: when one upload's slice ended, another
 * upload's slice that waited for the connection ran at once, before the event loop read the requests
 * that had arrived meanwhile (the bench saw the server silent for two slices, 300-600 ms). So on
 * PGlite the slices of all uploads take turns, and between two of them the event loop goes once
 * through its I/O (two turns of setImmediate: the first ends this loop's check phase, the second runs
 * after the next poll), whose requests queue their statements ahead of the next slice.
 */
export class SliceTurns {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(slice: () => Promise<T>): Promise<T> {
    const result = this.tail.then(slice);
    this.tail = result.then(throughPoll, throughPoll);
    return result;
  }
}
/** Two turns of the event loop: the first ends this loop's check phase, the second runs after the next poll (SliceTurns). */
export const throughPoll = async () => {
  await nextTurn();
  await nextTurn();
};

/** The share of an upload's time left that its rows left are to fit in at their pace so far (budgetedTargetMs). */
const BUDGET_SHARE = 0.9;
/** The longest slice budgetedTargetMs aims at: 150 ms, PGlite's slices before decision 180. */
const BUDGETED_MAX_MS = 150;

/**
 * The duration a slice aims at: `targetMs`, or longer when the rows left would not be applied within
 * BUDGET_SHARE of the upload's time left at the pace of those done so far. The budget is a promise
 * to the uploader (rows past it are not processed), the slice's duration only a bound on what other
 * requests wait; longer slices pay a slice's fixed cost (its transaction, its reads, the turns
 * between slices) less often. On a loaded host two uploads at once came within 15 s of their 120 s
 * (decision 192).
 */
export function budgetedTargetMs(targetMs: number, p: { rowsDone: number; rowsLeft: number; elapsedMs: number; remainingMs: number }): number {
  if (p.rowsDone <= 0 || p.rowsLeft <= 0) return targetMs;
  const projectedMs = (p.rowsLeft * p.elapsedMs) / p.rowsDone;
  const roomMs = Math.max(1, BUDGET_SHARE * p.remainingMs);
  return projectedMs <= roomMs ? targetMs : Math.min(Math.max(targetMs, BUDGETED_MAX_MS), (targetMs * projectedMs) / roomMs);
}

/** The next slice's rows: halfway (geometrically) between this slice's and those that would have taken targetMs. */
export const nextSliceSize = (size: number, rows: number, ms: number, s: Pick<Slicing, 'targetMs' | 'maxRows'>) =>
  Math.max(1, Math.min(s.maxRows, Math.round(Math.sqrt(size * ((rows * s.targetMs) / Math.max(1, ms))))));

/**
 * The next slice of `groups` from index `from`: whole groups while their rows fit in `size` (at least
 * one group, however large). Answers the slice, its rows, and the index after it.
 */
export function cutSlice<G>(groups: readonly G[], from: number, size: number, rowsOf: (group: G) => number): { slice: G[]; rows: number; next: number } {
  const slice: G[] = [];
  let rows = 0;
  let i = from;
  while (i < groups.length && (!slice.length || rows + rowsOf(groups[i]!) <= size)) {
    rows += rowsOf(groups[i]!);
    slice.push(groups[i++]!);
  }
  return { slice, rows, next: i };
}
