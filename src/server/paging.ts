// List paging (DECISIONS "Wire contract"): page is 0-based, size capped at 1000, newest first by
// default. The lists over tables that grow without end (scan records, the audit log) count their
// total only up to a bound (countUpTo): their pages cost the same at a million rows as at ten thousand.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './db/client.ts';

export const MAX_PAGE_SIZE = 1000;

export function pageOf(query: { page?: number; size?: number; isDesc?: boolean }, defaultSize = 20) {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, query.size ?? defaultSize));
  const page = Math.max(0, query.page ?? 0);
  return { page, size, offset: page * size, isDesc: query.isDesc ?? true };
}

export const totalPagesOf = (total: number, size: number) => Math.ceil(total / size);

/**
 * Rows counted beyond the current page for a bounded total.
 *
 * The total is the expensive part: an exact count(*) over a filter matching hundreds of thousands
 * of rows costs two orders of magnitude more than the page. The count is therefore bounded: it counts
 * at most the rows up to the end of the current page plus COUNT_AHEAD (2,000; 100 pages of 20), and
 * says when it stopped (totalCapped). The pager can show every page up to there and that more follow;
 * paging on raises the bound with the page. The bound grows with the offset, as the page read itself
 * does (OFFSET reads the rows it skips).
 */
export const COUNT_AHEAD = 2_000;

/** The most rows a list's total counts: the current page's end plus COUNT_AHEAD. */
export const countBoundOf = (p: { offset: number; size: number }) => p.offset + p.size + COUNT_AHEAD;

/** A count taken up to `bound` + 1 as countUpTo answers it: at most the bound, and whether it stopped there. */
export const boundedCount = (n: number, bound: number) => ({ counted: Math.min(n, bound), totalCapped: n > bound });

/**
 * How many rows of `table` match `where`, counting at most `bound` (+1, so "more" is known):
 * `counted` (at most the bound) and whether it stopped there (totalCapped).
 *
 * The count reads the rows in the list's `order`, so it walks the same index as the page (without the
 * ORDER BY the planner may choose to scan the table, guessing the matching rows are spread evenly)
 * and stays an index-only scan once the table's visibility map is current (autovacuum).
 */
export async function countUpTo(
  db: Db | Tx,
  table: PgTable,
  where: SQL | undefined,
  order: (SQL | PgColumn)[],
  bound: number,
): Promise<{ counted: number; totalCapped: boolean }> {
  const inner = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .orderBy(...order)
    .limit(bound + 1)
    .as('c');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner);
  return boundedCount(Number(row?.n ?? 0), bound);
}
