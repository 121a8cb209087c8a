// Servers as `npm start` runs them, in processes of their own, for the tests of what only separate
// processes show (stopping on a signal, one data folder per process, several processes on one
// PostgreSQL database) and for the browser tests (tests/e2e/server.ts starts theirs through here):
// spawned on a free port with a bootstrap admin, waited for until they print their address, and
// killed by the file's afterAll(killServers) if a test leaves one running.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { expect } from 'vitest';

/** Startup times vary a lot on a busy CI machine: waits are generous. */
export const STARTUP_MS = 180_000;
/** The bootstrap admin of every spawned server. */
export const ADMIN = { mail: 'admin@life.test', pwd: 'secret-pass-1' };

export interface Server {
  proc: ChildProcess;
  pid: number;
  port: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

const running = new Set<ChildProcess>();
/** Kills the servers still running (a test file's afterAll: a failed test leaves none behind). */
export function killServers(): void {
  for (const p of running) p.kill('SIGKILL');
}

/** A port free on 127.0.0.1 now: for a server that must keep its port across a restart, or a known URL. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Spawns the server as `npm start` runs it: its launcher, scripts/start.mjs, runs the server built to
 * JavaScript (support/global-setup.ts built it before the tests; a start costs ~2.2 s of CPU against
 * ~3.4 s from the sources through tsx). `args`: another entry; `uid`/`gid`: as another user.
 * Resolves once it prints its address (or rejects with its output).
 */
export function spawnServer(env: Record<string, string>, opts: { args?: string[]; uid?: number; gid?: number } = {}): Server & { ready: Promise<void> } {
  const proc = spawn(process.execPath, opts.args ?? ['scripts/start.mjs'], {
    uid: opts.uid,
    gid: opts.gid,
    env: {
      ...process.env,
      SKIP_WEB_BUILD: '1',
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.mail,
      ADMIN_PASSWORD: ADMIN.pwd,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  // The exit's time is taken at 'exit'; the promise settles at 'close', once its output is all read.
  let exitAt = 0;
  proc.on('exit', () => (exitAt = Date.now()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    proc.on('close', (code, signal) => {
      running.delete(proc);
      resolve({ code, signal, at: exitAt });
    }),
  );
  const server = { proc, pid: proc.pid!, port: 0, output: () => out, exited } as Server & { ready: Promise<void> };
  server.ready = waitFor(server, /Purchase Hub is running: http:\/\/localhost:(\d+)/, STARTUP_MS).then((m) => void (server.port = Number(m[1])));
  // A server expected to refuse is never awaited as ready.
  server.ready.catch(() => undefined);
  return server;
}

/** Resolves with the first match of `re` in the process's output; rejects if it exits first. */
export function waitFor(server: Pick<Server, 'proc' | 'output' | 'exited'>, re: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = re.exec(server.output());
      if (m) {
        done();
        resolve(m);
      }
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${re} within ${timeoutMs} ms; output:\n${server.output()}`));
    }, timeoutMs);
    const onExit = () => {
      check();
      done();
      reject(new Error(`exited before ${re}; output:\n${server.output()}`));
    };
    const done = () => {
      clearTimeout(timer);
      server.proc.stdout!.off('data', check);
      server.proc.stderr!.off('data', check);
      server.proc.off('close', onExit);
    };
    server.proc.stdout!.on('data', check);
    server.proc.stderr!.on('data', check);
    server.proc.on('close', onExit);
    check();
  });
}

export async function startServer(env: Record<string, string>, opts?: Parameters<typeof spawnServer>[1]): Promise<Server> {
  const s = spawnServer(env, opts);
  await s.ready;
  return s;
}

/** A call to a spawned server's API; the envelope whatever it says. */
export async function api<T>(server: Server, method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`http://127.0.0.1:${server.port}${url}`, {
    method,
    headers: { ...(opts.token ? { 'x-token': opts.token } : {}), ...(opts.body ? { 'content-type': 'application/json' } : {}) },
    body: opts.body ? JSON.stringify(opts.body) : undefined,
  });
  return (await res.json()) as { code: string; msg?: string; data: T };
}

/** Logs the bootstrap admin in; the session token. */
export async function login(server: Server) {
  const r = await api<{ status: string; token: string }>(server, 'POST', `/ext/login/login?mailAddr=${encodeURIComponent(ADMIN.mail)}&pwd=${ADMIN.pwd}`);
  expect(r.data.status).toBe('succ');
  return r.data.token;
}

/**
 * A PostgreSQL database of the test file's own on TEST_DATABASE_URL's server (`ph_<name>_<pid>`,
 * made anew), for server processes to share: its URL, and drop() for the file's afterAll.
 */
export async function ownPgDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const dbName = `ph_${name}_${process.pid}`;
  const run = async (statements: string[]) => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      for (const s of statements) await admin.query(s);
    } finally {
      await admin.end();
    }
  };
  await run([`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`, `CREATE DATABASE ${dbName}`]);
  const u = new URL(process.env.TEST_DATABASE_URL!);
  u.pathname = `/${dbName}`;
  return { url: u.toString(), drop: () => run([`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]) };
}
