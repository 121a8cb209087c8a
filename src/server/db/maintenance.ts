// PGlite maintenance done by the app (decision 066): what PostgreSQL's autovacuum does for a server,
// done between requests for PGlite, which runs no background process. Without it a PGlite folder's
// planner statistics are those of its first ANALYZE (or none) however the tables grow, and the rows
// its updates and deletes leave dead are never reclaimed: the statements whose plan depends on
// statistics got slower as the folder grew. With autovacuum's thresholds, a table is analysed once
// more than 50 rows + 10% of it changed since its last ANALYZE, and vacuumed (and analysed) once more
// than 50 + 20% of it is dead rows. One table per statement: PGlite has one connection, so requests
// queued meanwhile run between two tables (ANALYZE or VACUUM of a 300,000-row table takes ~0.3 s).
// Not while an upload is in flight (`busy`, decision 176): one ANALYZE of the audit log held PGlite
// 0.8-1.2 s beside a confirm, the probe's worst waits; the check waits for the uploads to end (at
// most MAX_DEFER_MS), and matching's plans do not depend on statistics (decision 094).
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rowsOf, type Db } from './client.ts';

/** How often the tables are checked (a read of pg_stat_user_tables: ~1 ms). */
export const MAINTENANCE_INTERVAL_MS = 60_000;
/** After a bulk write (kick), the check waits this long for the writes that follow it (an upload's next slice). */
export const KICK_DELAY_MS = 1_000;

/** While uploads are in flight, a check is put off at most this long (a day of uploads one after another still gets its statistics). */
export const MAX_DEFER_MS = 5 * 60_000;

/** autovacuum's defaults (autovacuum_analyze_threshold and _scale_factor, autovacuum_vacuum_*). */
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;

export interface Maintenance {
  /** Bulk writes were made (an upload): check the tables soon instead of at the next interval. */
  kick(): void;
  /** Checks the tables now and maintains those due; answers what it did ("analyze t", "vacuum analyze t"). */
  runOnce(): Promise<string[]>;
  /** Stops the schedule and waits for a run in progress (before the database closes). */
  stop(): Promise<void>;
}

interface TableStats {
  name: string;
  changed: number;
  dead: number;
  rows: number;
}

/** What a table needs now, by autovacuum's thresholds. */
export function dueWork(t: TableStats): 'vacuum analyze' | 'analyze' | null {
  if (t.dead > VACUUM_BASE + VACUUM_SCALE * t.rows) return 'vacuum analyze';
  if (t.changed > ANALYZE_BASE + ANALYZE_SCALE * t.rows) return 'analyze';
  return null;
}

/**
 * Starts the maintenance of a PGlite database: a check every `intervalMs`, and `delayMs` after a kick.
 * `busy`: uploads are in flight; a scheduled check is then put off (tried again `delayMs` later) for
 * at most MAX_DEFER_MS.
 */
export function startMaintenance(db: Db, log: FastifyBaseLogger, opts: { intervalMs?: number; delayMs?: number; busy?: () => boolean } = {}): Maintenance {
  let stopped = false;
  let running: Promise<string[]> | null = null;
  let kicked: ReturnType<typeof setTimeout> | null = null;
  let deferredSince: number | null = null;

  async function check(): Promise<string[]> {
    // A backend publishes its table counters at most once a second (when idle): this statement has
    // the writes of the last second published before the next one reads them.
    await db.execute(sql`select pg_stat_force_next_flush()`);
    const tables = await rowsOf<TableStats>(
      db.execute(sql`
        select s.relname as name, s.n_mod_since_analyze::float8 as changed, s.n_dead_tup::float8 as dead,
          greatest(c.reltuples, s.n_live_tup, 0)::float8 as rows
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = 'public' order by s.relname`),
    );
    const done: string[] = [];
    for (const t of tables) {
      const work = dueWork(t);
      if (!work || stopped) continue;
      // Requests queued during the last statement go first (PGlite answers in order).
      await new Promise((resolve) => setImmediate(resolve));
      const started = performance.now();
      await db.execute(sql`${sql.raw(work)} ${sql.identifier(t.name)}`);
      log.info({ table: t.name, rows: t.rows, ms: Math.round(performance.now() - started) }, `maintenance: ${work}`);
      done.push(`${work} ${t.name}`);
    }
    return done;
  }

  function runOnce(): Promise<string[]> {
    // One run at a time: a kick during a run waits for it and checks again.
    running ??= check()
      .catch((err: unknown) => {
        log.warn({ err }, 'maintenance failed; tried again at the next check');
        return [];
      })
      .finally(() => (running = null));
    return running;
  }

  /** A scheduled check (the interval's, a kick's): put off while uploads are in flight. */
  function scheduled() {
    if (opts.busy?.() && Date.now() - (deferredSince ??= Date.now()) < MAX_DEFER_MS) return kick();
    deferredSince = null;
    void runOnce();
  }

  function kick() {
    if (stopped || kicked) return;
    kicked = setTimeout(() => {
      kicked = null;
      scheduled();
    }, opts.delayMs ?? KICK_DELAY_MS);
    kicked.unref();
  }

  const timer = setInterval(scheduled, opts.intervalMs ?? MAINTENANCE_INTERVAL_MS);
  timer.unref();

  return {
    kick,
    runOnce: () => (stopped ? Promise.resolve([]) : runOnce()),
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (kicked) clearTimeout(kicked);
      await running;
    },
  };
}
