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
