// What stops a start, as an operator reads it (decision 017): a setting that is wrong, a database
// that does not answer (waited for, one line per attempt) or does not exist, a DATA_DIR this user
// cannot write, a port in use. Each is one plain line that says what is wrong and what to set, exit
// code 1, no stack (the stack only at LOG_LEVEL=debug). Real server processes, as `npm start` runs them.
// Only the port's test opens the pass's database: the others stop before any and run in the PGlite
// pass only (pgliteOnly; the missing PostgreSQL database is TEST_DATABASE_URL's, whatever TEST_DB says).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../support/data-template.ts';
import { dbDriver, pgliteOnly } from '../support/harness.ts';
import { killServers, ownPgDatabase, spawnServer, STARTUP_MS } from '../support/server-process.ts';

afterAll(killServers);
const TEST_MS = STARTUP_MS + 20_000;
const tmpDirs: string[] = [];
afterAll(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-start-'));
  tmpDirs.push(d);
  return d;
};

/** A start that must fail: its exit code and output. */
async function failedStart(env: Record<string, string>, opts?: Parameters<typeof spawnServer>[1]) {
  const server = spawnServer({ DATA_DIR: tmpDir(), ...env }, opts);
  const { code } = await server.exited;
  return { code, output: server.output() };
}

/** The output's "Cannot start:" lines; the output shows no stack frame. */
function cannotStart(output: string): string[] {
  return output.split('\n').filter((l) => l.startsWith('Cannot start: '));
}
const STACK_FRAME = /^\s+at .+\(.*:\d+:\d+\)$|^\s+at file:/m;

describe('a start that cannot go on says why in one line and exits 1', () => {
  it.skipIf(pgliteOnly)(
    'a bad setting names it and what it takes',
    async () => {
      const { code, output } = await failedStart({ PORT: 'abc' });
      expect(code).toBe(1);
      expect(cannotStart(output)).toEqual(['Cannot start: PORT must be a port number, got abc.']);
      expect(output).not.toMatch(STACK_FRAME);
    },
    TEST_MS,
  );

  it.skipIf(pgliteOnly)(
    'a DATABASE_URL nobody answers is tried again with backoff for DATABASE_WAIT seconds, one line per attempt, then given up',
    async () => {
      const closed = await freePort();
      const { code, output } = await failedStart({ DATABASE_URL: `postgres://someone:secret@127.0.0.1:${closed}/app`, DATABASE_WAIT: '3' });
      expect(code).toBe(1);
      expect(output).toContain(`PostgreSQL at 127.0.0.1:${closed} (DATABASE_URL) does not answer (ECONNREFUSED): trying again in 1 s (attempt 1;`);
      expect(cannotStart(output)).toEqual([
        `Cannot start: PostgreSQL at 127.0.0.1:${closed} (DATABASE_URL) does not answer (ECONNREFUSED) (waited 3 s, DATABASE_WAIT): start it, or set DATABASE_URL to one that runs.`,
      ]);
      // The password is never printed.
      expect(output).not.toContain('secret');
      expect(output).not.toMatch(STACK_FRAME);
    },
    TEST_MS,
  );

  it.skipIf(pgliteOnly)(
    'at LOG_LEVEL=debug the same failure also shows where it happened',
    async () => {
      const { code, output } = await failedStart({ DATABASE_URL: `postgres://127.0.0.1:${await freePort()}/app`, DATABASE_WAIT: '0', LOG_LEVEL: 'debug' });
      expect(code).toBe(1);
      expect(cannotStart(output)).toHaveLength(1);
      expect(output).toMatch(STACK_FRAME);
    },
    TEST_MS,
  );

  it.skipIf(pgliteOnly || !process.env.TEST_DATABASE_URL)(
    'a PostgreSQL without the database named says to create it, at once',
    async () => {
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = '/ph_no_such_database';
      const { code, output } = await failedStart({ DATABASE_URL: u.toString() });
      expect(code).toBe(1);
      expect(output).not.toContain('trying again');
      expect(cannotStart(output)).toEqual([
        `Cannot start: PostgreSQL at ${u.hostname}:${u.port || 5432} (DATABASE_URL) has no database "ph_no_such_database": create it (createdb ph_no_such_database) or name another in DATABASE_URL.`,
      ]);
    },
    TEST_MS,
  );

  it.skipIf(pgliteOnly)(
    'a DATA_DIR that is not a folder this user can write: a file in its path, and a read-only folder',
    async () => {
      const file = path.join(tmpDir(), 'a-file');
      fs.writeFileSync(file, '');
      const notFolder = await failedStart({ DATA_DIR: path.join(file, 'data') });
      expect(notFolder.code).toBe(1);
      expect(cannotStart(notFolder.output)).toEqual([
        `Cannot start: DATA_DIR ${path.join(file, 'data')} is not a folder this user can write (ENOTDIR): set DATA_DIR to one (it holds the embedded database, mail files and generated secrets).`,
      ]);

      // Read-only for the server's user: root writes anywhere, so as root the server runs as nobody.
      const readOnly = tmpDir();
      fs.chmodSync(readOnly, 0o555);
      const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
      const ro = await failedStart({ DATA_DIR: path.join(readOnly, 'data') }, asNobody);
      expect(ro.code).toBe(1);
      expect(cannotStart(ro.output)).toEqual([
        `Cannot start: DATA_DIR ${path.join(readOnly, 'data')} is not a folder this user can write (EACCES): set DATA_DIR to one (it holds the embedded database, mail files and generated secrets).`,
      ]);
      expect(ro.output).not.toMatch(STACK_FRAME);
    },
    TEST_MS,
  );

  it(
    'a PORT another program holds names the port and what to set',
    async () => {
      const holder = net.createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const port = (holder.address() as net.AddressInfo).port;
      let own: { drop(): Promise<void> } | undefined;
      try {
        const env: Record<string, string> = { PORT: String(port) };
        if (dbDriver() === 'pglite') env.DATA_DIR = await migratedDataDir('ph-start-port-');
        else env.DATABASE_URL = (own = await ownPgDatabase('start_port')).url;
        const { code, output } = await failedStart(env);
        expect(code).toBe(1);
        expect(cannotStart(output)).toEqual([`Cannot start: PORT ${port} is in use by another program: stop it, or set PORT to a free port.`]);
        expect(output).not.toMatch(STACK_FRAME);
      } finally {
        holder.close();
        await own?.drop();
      }
    },
    TEST_MS,
  );
});

/** A port nothing listens on (taken, then released). */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}
