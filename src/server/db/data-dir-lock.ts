// One server process per PGlite folder: two processes on one folder each acknowledge writes the
// other never sees, and an overlapping restart left the folder unopenable (PGlite does not enforce
// its postmaster.pid). Each process writes an entry named by its pid and start time into
// DATA_DIR/pglite.lock/ and opens the database only if no other live process has one; a dead
// process's entry (or a reused pid's, told apart by its start time) is ignored and removed. See
// docs/decisions/010-data-dir-lock.md for why a directory of entries rather than one lock file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type LockState = 'starting' | 'open' | 'stopping';

export interface LockHolder {
  pid: number;
  /** When the holder took the folder (ISO time). */
  since: string;
  state: LockState;
  host: string;
}

export interface DataDirLock {
  /** Tells a process starting on the folder that this one is stopping (it then waits for it). */
  markStopping(): void;
  release(): void;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another Purchase Hub server process (pid ${holder.pid}` +
        `${holder.host !== os.hostname() ? ` on ${holder.host}` : ''}, since ${holder.since}` +
        `${holder.state === 'stopping' ? ', still stopping' : ''}). Two processes on one embedded database destroy it: ` +
        'stop that process first, or give this one another DATA_DIR (or DATABASE_URL).',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface LockOptions {
  /** How long to wait for a holder that has announced it is stopping (it exits within 10 s). */
  waitForStoppingMs?: number;
  /** Called once when this process starts waiting for a stopping holder. */
  onWait?: (holder: LockHolder) => void;
}

const ENTRY = /^(\d+)-(\d+|x)\.json$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or null when the
 * process does not exist or has exited (a zombie), or 'unknown' without /proc (not Linux).
 */
function startTicks(pid: number): string | null | 'unknown' {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (fs.existsSync('/proc/self/stat')) return null;
    try {
      process.kill(pid, 0);
      return 'unknown';
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM' ? 'unknown' : null;
    }
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  return fields[19] ?? null;
}

const ownTicks = () => {
  const t = startTicks(process.pid);
  return t === null || t === 'unknown' ? 'x' : t;
};

/** True when the entry's process is alive and is the process that wrote it (not a reused pid). */
function entryAlive(pid: number, ticks: string): boolean {
  const now = startTicks(pid);
  if (now === null) return false;
  return now === 'unknown' || ticks === 'x' || now === ticks;
}

function readHolder(file: string, pid: number): LockHolder {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockHolder>;
    return { pid, since: String(r.since ?? '?'), state: r.state ?? 'open', host: String(r.host ?? os.hostname()) };
  } catch {
    // Removed meanwhile, or cut short: the name alone says who.
    return { pid, since: '?', state: 'open', host: os.hostname() };
  }
}

/** Writes `file` whole or not at all: readers never see a half-written entry. */
function writeAtomically(dir: string, file: string, content: string) {
  const tmp = path.join(dir, `.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

/**
 * Takes `dataDir` for this process. A live holder makes it throw DataDirInUseError, after waiting
 * up to `waitForStoppingMs` if the holder has announced it is stopping.
 *
 * Mutual exclusion without an atomic "replace if stale": each process first writes its own entry,
 * then lists the others. Of two processes that both list after writing, at least one sees the
 * other's entry, so two never both go on. Two that start at the same instant may both see each
 * other while 'starting': both withdraw and try again after a random pause.
 */
export async function lockDataDir(dataDir: string, opts: LockOptions = {}): Promise<DataDirLock> {
  const dir = path.join(dataDir, 'pglite.lock');
  fs.mkdirSync(dir, { recursive: true });
  const name = `${process.pid}-${ownTicks()}.json`;
  const own = path.join(dir, name);
  const since = new Date().toISOString();
  const write = (state: LockState) => writeAtomically(dir, own, JSON.stringify({ pid: process.pid, since, state, host: os.hostname() }));
  const waitUntil = Date.now() + (opts.waitForStoppingMs ?? 15_000);
  let waited = false;
  let contended = 0;

  for (;;) {
    write('starting');
    const others: LockHolder[] = [];
    for (const entry of fs.readdirSync(dir)) {
      const m = ENTRY.exec(entry);
      if (!m || entry === name) continue;
      const file = path.join(dir, entry);
      const pid = Number(m[1]);
      if (!entryAlive(pid, m[2]!)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      const holder = readHolder(file, pid);
      // An entry of this very pid is a former process's whose pid was given to this one.
      if (pid !== process.pid) others.push(holder);
    }
    if (others.length === 0) {
      write('open');
      return {
        markStopping: () => {
          if (fs.existsSync(own)) write('stopping');
        },
        release: () => fs.rmSync(own, { force: true }),
      };
    }
    fs.rmSync(own, { force: true });
    const settled = others.find((h) => h.state !== 'starting');
    if (!settled && contended++ < 20) {
      await sleep(20 + Math.random() * 200);
      continue;
    }
    const holder = settled ?? others[0]!;
    if (others.every((h) => h.state !== 'open') && Date.now() < waitUntil) {
      if (!waited) opts.onWait?.(holder);
      waited = true;
      await sleep(100);
      continue;
    }
    throw new DataDirInUseError(dataDir, holder);
  }
}
