// Readiness (GET /readyz): the database answers, and it holds every migration this code was built
// with (a process whose database is gone, or older than its code, would fail each request; it is
// taken out of the load balancer instead). Bounded in time: a database that does not answer within
// READY_TIMEOUT_MS is not ready. Probes that arrive while a check runs share it, so a flood of them
// costs the database one small query at a time. A stopping process is not ready either, nor one
// whose writes failed for a full disk (PGlite's data folder; decision 162): its reads still answer,
// so only the free space of that folder's file system, measured, makes it ready again.
import fs from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrationsFolder, postgresError, rowsOf, type Db } from '../db/client.ts';
import { clearDiskFull, diskFullSince } from '../db/unavailable.ts';

export const READY_TIMEOUT_MS = 2_000;

export type Readiness = { ready: true } | { ready: false; reason: 'database unreachable' | 'migrations not applied' | 'stopping' | 'disk full' };

/**
 * The free space a data folder that was full needs to be ready again: one WAL segment (16 MB, the
 * file PostgreSQL adds when it fills the one it writes) and room for the tables to grow.
 */
export const DISK_FREE_TO_RECOVER = 32 * 1024 * 1024;
/** Where the data folder's free space cannot be measured (a PostgreSQL server's disk): ready again once no write failed for this long. */
export const DISK_FULL_HOLD_MS = 10_000;

/** The newest migration of this code (drizzle's folderMillis, what its migrator records as created_at). */
let newestMigration: number | undefined;
const newestMigrationOfCode = () => (newestMigration ??= Math.max(...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis)));

/** PostgreSQL's undefined_table and invalid_schema_name: drizzle's migrations table is not there. */
const NO_MIGRATIONS_TABLE = new Set(['42P01', '3F000']);

export class ReadinessCheck {
  private running: Promise<Readiness> | null = null;
  private stopping = false;

  /** `dataDir`: the PGlite data folder, whose free space says when a full disk has room again. */
  constructor(
    private readonly db: Db,
    private readonly timeoutMs = READY_TIMEOUT_MS,
    private readonly dataDir?: string,
  ) {}

  /** From SIGTERM on: the requests still arriving on open connections are told to go elsewhere. */
  markStopping() {
    this.stopping = true;
  }

  /** Never rejects. */
  check(): Promise<Readiness> {
    if (this.stopping) return Promise.resolve({ ready: false, reason: 'stopping' });
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<Readiness> {
    if (await this.diskStillFull()) return { ready: false, reason: 'disk full' };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.timeoutMs)));
    const applied = this.newestApplied();
    // Its failure after the timeout has answered is nobody's to hear.
    applied.catch(() => undefined);
    try {
      const newest = await Promise.race([applied, timedOut]);
      if (newest === 'timeout') return { ready: false, reason: 'database unreachable' };
      return newest >= newestMigrationOfCode() ? { ready: true } : { ready: false, reason: 'migrations not applied' };
    } catch (err) {
      return { ready: false, reason: NO_MIGRATIONS_TABLE.has(postgresError(err)?.code ?? '') ? 'migrations not applied' : 'database unreachable' };
    } finally {
      clearTimeout(timer);
    }
  }

  /** A write failed for a full disk (app.ts marks it), and the disk has not had room since. */
  private async diskStillFull(): Promise<boolean> {
    const since = diskFullSince(this.db);
    if (since === undefined) return false;
    const room = this.dataDir
      ? await fs.statfs(this.dataDir).then(
          (s) => s.bavail * s.bsize >= DISK_FREE_TO_RECOVER,
          () => Date.now() - since >= DISK_FULL_HOLD_MS,
        )
      : Date.now() - since >= DISK_FULL_HOLD_MS;
    // Only the mark measured is cleared: a write that failed meanwhile marked it anew.
    if (room && diskFullSince(this.db) === since) clearDiskFull(this.db);
    return !room;
  }

  /** The newest migration the database has applied (drizzle's own table; 0 when it has none). */
  private async newestApplied(): Promise<number> {
    const [row] = await rowsOf<{ newest: string | number | null }>(this.db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`));
    return Number(row?.newest ?? 0);
  }
}
