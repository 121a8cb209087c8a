// Named statements on PGlite (executePrepared, client.ts). PGlite's query() sends every statement
// unnamed: parsed, analysed and planned again on every call, on the thread that answers requests.
// A slice of an upload runs matching's read and write statements, whose planning (Bind) took 2-4 ms
// each against 1-3 ms to run them (decision 192). Named, a statement is parsed once per session and
// its plan kept (a generic one once it is as good), as on the PostgreSQL server.
//
// Only inside a transaction: there PGlite's transaction holds the session, and the statement takes
// the query lock PGlite's own queries take, so no other statement's messages come between its own.
// The statements a session keeps are bounded (MAX_NAMED): a text seen for the first time past it
// closes the least recently used one.
import type { PGlite, Results } from '@electric-sql/pglite';

/** Runs `text` with `params` as the session's statement `name` (parsed the first time). */
export type NamedQuery = (name: string, text: string, params: readonly unknown[]) => Promise<Results>;

/** The property of a PGlite transaction (client.ts sharingParsers) that runs named statements. */
export const namedQuery = Symbol('pglite named query');

/** plan_cache_mode's values (PostgreSQL's enum): what a named statement puts back after its own. */
const PLAN_CACHE_MODES = ['auto', 'force_custom_plan', 'force_generic_plan'] as const;

/** Statements a PGlite session keeps parsed at most; the least recently used is closed past it. */
export const MAX_NAMED = 200;

type Pglite = typeof import('@electric-sql/pglite');
type Internals = PGlite & {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, (value: unknown) => string>;
  parsers: Record<number, (value: string, typeId?: number) => unknown>;
};

/** A NamedQuery for `client`, whose statements it remembers (name -> parameter types, in order of last use). */
export function namedQueryOf(client: PGlite, lib: Pglite): NamedQuery {
  const pg = client as Internals;
  const { serialize } = lib.protocol;
  const kept = new Map<string, number[]>();
  const send = (message: Uint8Array) => pg.execProtocolStream(message, { syncToFs: false });
  // plan_cache_mode forced generic for the statement, answering the transaction's own (the scan
  // batches force it for the whole transaction: matching-store.ts lockTrackings), put back after.
  const GENERIC = serialize.query(`select current_setting('plan_cache_mode') as mode, set_config('plan_cache_mode', 'force_generic_plan', true)`);
  const RESTORE = new Map<string, Uint8Array>(PLAN_CACHE_MODES.map((mode) => [mode, serialize.query(`select set_config('plan_cache_mode', '${mode}', true)`)]));
  return (name, text, params) =>
    pg._runExclusiveQuery(async () => {
      const messages = [];
      try {
        let types = kept.get(name);
        if (types) {
          kept.delete(name);
          kept.set(name, types);
        } else {
          // Every extended-protocol message is followed by a Sync, failed or not: after an error the
          // session ignores everything until one (PGlite's own ROLLBACK too).
          try {
            const oldest = kept.size >= MAX_NAMED ? kept.keys().next().value : undefined;
            if (oldest !== undefined) {
              await send(serialize.close({ type: 'S', name: oldest }));
              kept.delete(oldest);
            }
            await send(serialize.parse({ name, text }));
            types = lib.parse.parseDescribeStatementResults(await send(serialize.describe({ type: 'S', name })));
          } finally {
            await send(serialize.sync());
          }
          kept.set(name, types);
        }
        // As PGlite's query() serializes a parameter: by the type the statement gives it.
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serializer = pg.serializers[types[i]!];
          return serializer ? serializer(value) : String(value);
        });
        // Its generic plan, planned once: left to choose, PostgreSQL went on planning each call
        // afresh, a custom plan for the array's length looking cheaper than a generic one.
        const [mode] = lib.parse.parseResults(await send(GENERIC), pg.parsers)[0]!.rows as { mode: string }[];
        const restore = mode?.mode === 'force_generic_plan' ? undefined : RESTORE.get(mode?.mode ?? '');
        try {
          messages.push(
            ...(await send(serialize.bind({ statement: name, values }))),
            ...(await send(serialize.describe({ type: 'P' }))),
            ...(await send(serialize.execute({}))),
          );
        } finally {
          messages.push(...(await send(serialize.sync())));
          // Fails only in a transaction a failed statement aborted, where the setting ends with it.
          if (restore) await send(restore).catch(() => undefined);
        }
      } catch (err) {
        if (err instanceof Error) Object.assign(err, { query: text, params });
        throw err;
      }
      return lib.parse.parseResults(messages, pg.parsers)[0]!;
    });
}
