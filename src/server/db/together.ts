// Writing several statements in one round trip. A matching run or a batch of scans writes scan
// rows, records, tasks and audit entries; as separate statements each is a round trip to
// PostgreSQL, and on a 2-core machine the wake-ups of a round trip cost more than the rows it
// carries (the receiving speed target: a scan create p95 <= 15 ms). PostgreSQL runs data-modifying statements
// given as WITH queries of one statement exactly once each and to completion, all on the same
// snapshot: so they must write different rows and must not need to see each other's writes
// (the callers here write each row at most once and take every id they insert beforehand).
import { sql, type SQL } from 'drizzle-orm';
import { Pacer } from '../files/slices.ts';
import { awaitAtCommit, executePrepared, isPipelined, type Tx } from './client.ts';

/** Above this many rows written, the statements run one at a time (see executeTogether). */
export const TOGETHER_MAX_ROWS = 1000;

/**
 * Runs INSERT/UPDATE/DELETE statements (no result wanted) as one statement; nothing when there are
 * none. `rows`: how many rows they write. A large write (an upload's matching, a tracking import)
 * runs them one at a time instead: one statement holds every parameter of all of them at once
 * (a 50,000-row import took ~30 MB more that way, against the server's 500 MB budget), and a round
 * trip saved is nothing beside the work of such a write. `last`: a SELECT run with them, as the
 * statement's main query (its answer unread), or after them (live/publish.ts's NOTIFY).
 */
export async function executeTogether(tx: Tx, statements: Iterable<SQL>, rows: number, last: SQL | null = null): Promise<void> {
  if (rows > TOGETHER_MAX_ROWS) {
    // In turn, each built as it is taken (auditInserts, scanRowsInsert are generators). In a
    // pipelined transaction the next one is built and sent while PostgreSQL runs the one before (two
    // in flight at most, for memory), so this process and PostgreSQL work at the same time.
    if (!isPipelined(tx)) {
      for (const statement of statements) await executePrepared(tx, statement);
      if (last) await executePrepared(tx, last);
      return;
    }
    let running: Promise<unknown> | null = null;
    for (const statement of statements) {
      const sent = executePrepared(tx, statement);
      sent.catch(() => undefined);
      if (running) await running;
      running = sent;
    }
    if (last) {
      const sent = executePrepared(tx, last);
      sent.catch(() => undefined);
      if (running) await running;
      running = sent;
    }
    if (running) await awaitAtCommit(tx, running);
    return;
  }
  // Built a piece at a time (Pacer): a slice of an upload writes up to TOGETHER_MAX_ROWS rows with
  // their audit entries, whose JSON took 50-150 ms of the server's thread in one piece.
  const list: SQL[] = [];
  const pacer = new Pacer();
  for (const statement of statements) {
    list.push(statement);
    await pacer.pace();
  }
  if (!list.length) return last ? awaitAtCommit(tx, executePrepared(tx, last)) : undefined;
  // In a pipelined transaction (client.ts pipelinedTransaction) the statement goes with the COMMIT.
  if (list.length === 1 && !last) return awaitAtCommit(tx, executePrepared(tx, list[0]!));
  const parts = list.map((s, i) => sql`${sql.raw(`w${i}`)} as (${s})`);
  return awaitAtCommit(tx, executePrepared(tx, sql`with ${sql.join(parts, sql`, `)} ${last ?? sql`select 1`}`));
}
