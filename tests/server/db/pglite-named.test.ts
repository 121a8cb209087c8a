// Named statements on PGlite (db/pglite-named.ts, decision 192): executePrepared in a PGlite
// transaction runs its statement named, parsed once per session and planned generically. What
// callers rely on: the same answers as drizzle's own unnamed statement (types, nulls, arrays, json,
// timestamps kept as text), an error that is the statement's own and rolls the transaction back,
// the transaction's plan setting as it was for every other statement, and a session that keeps a bounded
// number of statements however many texts it meets.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { executePrepared, rowsOf } from '../../../src/server/db/client.ts';
import { MAX_NAMED } from '../../../src/server/db/pglite-named.ts';
import { dbDriver, useTestApp } from '../support/harness.ts';

const t = useTestApp();

const keptNames = async () =>
  (await rowsOf<{ n: number }>(t().database.db.execute(sql`select count(*)::int as n from pg_prepared_statements where name ~ '^s[0-9a-f]{20}$'`)))[0]!.n;

describe.skipIf(dbDriver() === 'pg')('named statements on PGlite', () => {
  it("answers as the unnamed statement does, parameters and types alike, and leaves the transaction's plan setting as it found it", async () => {
    const { db } = t().database;
    const query = sql`select ${sql.param([3, 1, 2])}::int[] as ids, ${sql.param(['a', "b'c"])}::text[] as words, ${null}::text as nothing,
      ${JSON.stringify({ k: ['v'] })}::jsonb as doc, ${'2026-11-30 12:00:00+00'}::timestamptz as at, ${7}::int + 1 as eight`;
    const [named, unnamed, mode] = await db.transaction(async (tx) => [
      await rowsOf(executePrepared(tx, query)),
      await rowsOf(tx.execute(query)),
      await rowsOf<{ plan_cache_mode: string }>(tx.execute(sql`show plan_cache_mode`)),
    ]);
    expect(named).toEqual(unnamed);
    expect(named).toEqual([{ ids: [3, 1, 2], words: ['a', "b'c"], nothing: null, doc: { k: ['v'] }, at: expect.any(String), eight: 8 }]);
    expect(mode).toEqual([{ plan_cache_mode: 'auto' }]);
    // A second call runs the statement kept, with other values; a transaction that forced generic
    // plans for itself (the scan batches: lockTrackings) keeps them after it.
    const [again, kept] = await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('plan_cache_mode', 'force_generic_plan', true)`);
      return [
        await rowsOf<{ eight: number }>(executePrepared(tx, sql`select ${41}::int + 1 as eight`)),
        await rowsOf<{ plan_cache_mode: string }>(tx.execute(sql`show plan_cache_mode`)),
      ];
    });
    expect(again).toEqual([{ eight: 42 }]);
    expect(kept).toEqual([{ plan_cache_mode: 'force_generic_plan' }]);
  });

  it("fails with the statement's own error and rolls the transaction back; the next one runs the same statement", async () => {
    const { db } = t().database;
    const insert = (name: string | null) => sql`insert into items (item_name, product_id) values (${name}, 'NAMED')`;
    const failed = await db
      .transaction(async (tx) => {
        await executePrepared(tx, insert('kept?'));
        await executePrepared(tx, insert(null)); // item_name is NOT NULL
      })
      .then(
        () => null,
        (err: unknown) => err as { code?: string; cause?: { code?: string } },
      );
    expect(failed?.code ?? failed?.cause?.code).toBe('23502');
    await db.transaction((tx) => executePrepared(tx, insert('next')));
    const names = await rowsOf<{ item_name: string }>(db.execute(sql`select item_name from items where product_id = 'NAMED' order by id`));
    expect(names).toEqual([{ item_name: 'next' }]);
  });

  it(`keeps at most ${MAX_NAMED} statements, closing the least recently used`, async () => {
    const { db } = t().database;
    await db.transaction(async (tx) => {
      for (let i = 0; i <= MAX_NAMED + 20; i++) await executePrepared(tx, sql`select ${i}::int as n, ${sql.raw(`'text ${i}'`)} as t`);
    });
    expect(await keptNames()).toBeLessThanOrEqual(MAX_NAMED);
    // The first text was closed; asked again, it is parsed again and answers.
    const first = await db.transaction((tx) => rowsOf<{ t: string }>(executePrepared(tx, sql`select ${0}::int as n, ${sql.raw(`'text 0'`)} as t`)));
    expect(first).toEqual([{ n: 0, t: 'text 0' }]);
    expect(await keptNames()).toBeLessThanOrEqual(MAX_NAMED);
  });
});
