// Pipelined transactions (db/client.ts pipelinedTransaction): on PostgreSQL the scan batches and the
// uploads send statements without waiting for the answers of those before them, and the writes
// handed to awaitAtCommit are answered with the COMMIT. What callers rely on: statements run in the
// order they were sent, a write is seen by what is sent after it, the call answers once everything
// is committed, and a write that fails rolls the whole transaction back and is the error the caller
// gets (not the "transaction is aborted" of the statements sent behind it). On PGlite the same calls
// run as an ordinary transaction, and the same expectations hold.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { awaitAtCommit, executePrepared, isPipelined, pipelinedTransaction, rowsOf } from '../../../src/server/db/client.ts';
import { dbDriver, useTestApp } from '../support/harness.ts';

const t = useTestApp();

const names = async () =>
  (await rowsOf<{ item_name: string }>(t().database.db.execute(sql`select item_name from items where product_id = 'PIPE' order by id`))).map(
    (r) => r.item_name,
  );

/** The SQLSTATE of an error, looking through drizzle's wrapper. */
function sqlState(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

describe('pipelined transactions', () => {
  it('pipelines on PostgreSQL only, and commits what was sent before answering', async () => {
    const { db } = t().database;
    const seen = await pipelinedTransaction(db, async (tx) => {
      expect(isPipelined(tx)).toBe(dbDriver() === 'pg');
      // Sent one behind the other without waiting: the second sees the first, the read sees both.
      await awaitAtCommit(tx, tx.execute(sql`insert into items (item_name, product_id) values ('a', 'PIPE')`));
      await awaitAtCommit(tx, tx.execute(sql`insert into items (item_name, product_id) select item_name || 'b', 'PIPE' from items where product_id = 'PIPE'`));
      const read = await rowsOf<{ n: number }>(tx.execute(sql`select count(*)::int as n from items where product_id = 'PIPE'`));
      return read[0]!.n;
    });
    expect(seen).toBe(2);
    // Committed by the time the call answers: another connection sees both rows.
    expect(await names()).toEqual(['a', 'ab']);
  });

  it('rolls back everything when a write handed to the commit fails, and rejects with the error of that write itself', async () => {
    const { db } = t().database;
    const failed = await pipelinedTransaction(db, async (tx) => {
      await awaitAtCommit(tx, tx.execute(sql`insert into items (item_name, product_id) values ('kept?', 'PIPE')`));
      // item_name is NOT NULL (23502). On PostgreSQL the read below is sent behind it and refused
      // only because the transaction is aborted (25P02); the caller must see the cause.
      await awaitAtCommit(tx, tx.execute(sql`insert into items (item_name, product_id) values (null, 'PIPE')`));
      await tx.execute(sql`select 1`);
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(sqlState(failed)).toBe('23502');
    expect(await names()).toEqual([]);
    // The connection went back to the pool usable: the next transaction works.
    await pipelinedTransaction(db, (tx) => awaitAtCommit(tx, tx.execute(sql`insert into items (item_name, product_id) values ('next', 'PIPE')`)));
    expect(await names()).toEqual(['next']);
  });

  it("names the statements executePrepared sends (drizzle's one internal the server uses, decision 038: a changed drizzle fails here)", async () => {
    const { db } = t().database;
    const named = await db.transaction(async (tx) => {
      const [row] = await rowsOf<{ one: number }>(executePrepared(tx, sql`select 1::int as one, 'executePrepared check' as why`));
      expect(row?.one).toBe(1);
      // Listed per connection on PostgreSQL, per session on PGlite (db/pglite-named.ts).
      return rowsOf<{ name: string }>(tx.execute(sql`select name from pg_prepared_statements where statement like '%executePrepared check%'`));
    });
    expect(named).toEqual([{ name: expect.stringMatching(/^s[0-9a-f]{20}$/) }]);
  });
});
