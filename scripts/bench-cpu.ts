// The PostgreSQL backends' CPU for the benches (bench.ts, bench-outbox.ts): a figure counts the whole
// work, the server process's CPU and the database's, so a ratio compares the same work.
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../src/server/db/client.ts';

/**
 * CPU time (ms) from now of the PostgreSQL backends serving this database (a server on this machine:
 * their /proc entries, 10 ms ticks); the answer reads it. Nothing on PGlite, which runs in the server's thread.
 */
export async function backendsCpu(database: Database): Promise<() => Promise<number>> {
  if (database.driver !== 'pg') return async () => 0;
  const read = async () => {
    const pids = await rowsOf<{ pid: number }>(database.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`));
    const cpu = new Map<number, number>();
    for (const { pid } of pids) {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
      } catch {
        // Not on this machine, or ended.
      }
    }
    return cpu;
  };
  const before = await read();
  return async () => [...(await read())].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
}
