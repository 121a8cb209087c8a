// The server as `npm start` runs it, in processes of its own: one process per PGlite data folder
// (a second refuses and names the first, a dead or reused pid's lock is taken over, a restart waits
// for a process that is stopping), and SIGTERM stops it within 10 s with the request in flight
// answered, on PGlite and (TEST_DB=pg) on a PostgreSQL database of the test's own. Startup times
// vary a lot on a busy CI machine: waits are generous; the one time bound asserted is the 10 s stop
// the product promises.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../support/data-template.ts';
import { dbDriver } from '../support/harness.ts';
import { api, killServers, login, ownPgDatabase, spawnServer, startServer, STARTUP_MS, waitFor, type Server } from '../support/server-process.ts';

const TEST_MS = 400_000;
afterAll(killServers);

const notice = async (server: Server, token: string) => (await api<{ content: string }>(server, 'GET', '/api/notice/get', { token })).data.content;

/** One HTTP/1.1 response read off a raw socket (the answers here carry content-length). */
function readResponse(socket: net.Socket): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = buf.subarray(0, end).toString().split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      if (buf.length < end + 4 + length) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: buf.subarray(end + 4, end + 4 + length).toString() });
    };
    const onClose = () => reject(new Error(`socket closed before a whole response: ${buf.toString()}`));
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

async function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/** Resolves once a new connection to `port` is refused (the server has stopped listening). */
async function refusedWithin(port: number, ms: number) {
  const until = Date.now() + ms;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
    });
    if (refused) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * SIGTERM while a keep-alive client has a request in flight (its body half sent) and another keep-alive
 * socket is idle: the port is freed at once, the request is answered (with Connection: close) once
 * its body arrives, and the process exits cleanly (not by its deadline) within 10 s.
 */
async function stopWithRequestInFlight(server: Server, token: string, content: string) {
  const idle = await connect(server.port);
  idle.write(`GET /api/notice/get HTTP/1.1\r\nHost: x\r\nx-token: ${token}\r\n\r\n`);
  expect((await readResponse(idle)).status).toBe(200);
  const idleClosed = new Promise<void>((r) => idle.on('close', () => r()));

  const busy = await connect(server.port);
  const body = Buffer.from(JSON.stringify({ content, isMail: false }));
  busy.write(`POST /api/notice/save HTTP/1.1\r\nHost: x\r\nx-token: ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
  busy.write(body.subarray(0, 5));
  const answer = readResponse(busy);
  const busyClosed = new Promise<void>((r) => busy.on('close', () => r()));

  const signalled = Date.now();
  server.proc.kill('SIGTERM');
  await waitFor(server, /"msg":"stopping: no new connections/, 30_000);
  expect(await refusedWithin(server.port, 5_000)).toBe(true);

  busy.write(body.subarray(5));
  const res = await answer;
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body)).toMatchObject({ code: 'A00000', data: { content } });
  expect(res.headers.connection).toBe('close');
  await busyClosed;
  await idleClosed;
  const exit = await server.exited;
  expect(exit).toMatchObject({ code: 0, signal: null });
  return { signalled, exit };
}

const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ph-life-'));

describe.skipIf(dbDriver() === 'pg')('one server process per PGlite data folder', () => {
  // One folder for the whole block, a copy of the migrated template (an initdb is slow on a busy machine).
  const env = { DATA_DIR: '' };
  let lockDir = '';
  beforeAll(async () => {
    env.DATA_DIR = await migratedDataDir('ph-life-');
    lockDir = path.join(env.DATA_DIR, 'pglite.lock');
  });
  afterAll(() => fs.rmSync(env.DATA_DIR, { recursive: true, force: true }));

  it(
    'refuses a second server on a folder in use, naming the first; the first keeps working',
    async () => {
      const first = await startServer(env);
      const token = await login(first);
      await api(first, 'POST', '/api/notice/save', { token, body: { content: '第一版', isMail: false } });

      const second = spawnServer(env);
      const exit = await second.exited;
      expect(exit.code).toBe(1);
      expect(second.output()).toContain(`in use by another Purchase Hub server process (pid ${first.pid}, since `);
      expect(second.output()).not.toContain('    at '); // a message, not a stack trace

      expect(await notice(first, token)).toBe('第一版');
      await api(first, 'POST', '/api/notice/save', { token, body: { content: '第二版', isMail: false } });
      const { signalled, exit: stopped } = await stopWithRequestInFlight(first, token, '第三版');
      // The product's promise (README): stopped within 10 s of the signal. A clean stop is far quicker.
      expect(stopped.at - signalled).toBeLessThan(10_000);
      expect(fs.readdirSync(lockDir).filter((f) => f.endsWith('.json'))).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'takes over the lock of a dead process, and of a reused pid, and keeps the acknowledged data',
    async () => {
      const dead = spawn(process.execPath, ['-e', '']);
      await new Promise((r) => dead.on('exit', r));
      // An entry of a pid now alive in another process (this one) with another start time: a reused pid.
      const stale = [`${dead.pid}-1.json`, `${process.pid}-1.json`];
      for (const f of stale)
        fs.writeFileSync(
          path.join(lockDir, f),
          JSON.stringify({ pid: Number(f.split('-')[0]), since: '2026-01-01T00:00:00.000Z', state: 'open', host: os.hostname() }),
        );

      const server = await startServer(env);
      const token = await login(server);
      expect(await notice(server, token)).toBe('第三版');
      expect(fs.readdirSync(lockDir).filter((f) => stale.includes(f))).toEqual([]);
      server.proc.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    },
    TEST_MS,
  );

  it(
    'a restart while the holder is still stopping waits for it, and an overlapping restart keeps every acknowledged write',
    async () => {
      // A holder that has announced it is stopping: a process of our own, with the entry it would write.
      const holder = spawn('sleep', ['600']);
      const stat = fs.readFileSync(`/proc/${holder.pid}/stat`, 'utf8');
      const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      fs.writeFileSync(
        path.join(lockDir, `${holder.pid}-${ticks}.json`),
        JSON.stringify({ pid: holder.pid, since: new Date().toISOString(), state: 'stopping', host: os.hostname() }),
      );
      const server = spawnServer(env);
      try {
        await waitFor(server, new RegExp(`held by server process ${holder.pid}, which is stopping: waiting`), STARTUP_MS);
      } finally {
        holder.kill('SIGKILL');
      }
      await server.ready;
      const token = await login(server);
      expect(await notice(server, token)).toBe('第三版');

      // SIGTERM, and the next process started at once: whether it finds the first stopping or gone,
      // the folder opens with what the first acknowledged.
      await api(server, 'POST', '/api/notice/save', { token, body: { content: '第四版', isMail: false } });
      server.proc.kill('SIGTERM');
      const next = await startServer(env);
      expect((await server.exited).code).toBe(0);
      const token2 = await login(next);
      expect(await notice(next, token2)).toBe('第四版');

      // A request that never finishes arriving does not hold the process past its 10 s: the deadline
      // ends it (status 1).
      const stalled = await connect(next.port);
      stalled.on('error', () => undefined);
      stalled.write(
        `POST /api/notice/save HTTP/1.1\r\nHost: x\r\nx-token: ${token2}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"content":`,
      );
      const signalled = Date.now();
      next.proc.kill('SIGTERM');
      const exit = await next.exited;
      expect(exit.code).toBe(1);
      expect(exit.at - signalled).toBeLessThan(10_000);
      expect(next.output()).toContain('still stopping after 9000 ms');
    },
    TEST_MS,
  );
});

describe.skipIf(dbDriver() !== 'pg')('stopping on PostgreSQL', () => {
  let url = '';
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    ({ url, drop } = await ownPgDatabase('life'));
  });
  afterAll(() => drop());

  it(
    'answers the request in flight, closes idle keep-alive sockets and exits within 10 s',
    async () => {
      const dataDir = tmpDir();
      try {
        const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: url });
        const token = await login(server);
        const { signalled, exit } = await stopWithRequestInFlight(server, token, '停止前保存');
        expect(exit.at - signalled).toBeLessThan(10_000);
        const again = await startServer({ DATA_DIR: dataDir, DATABASE_URL: url });
        expect(await notice(again, await login(again))).toBe('停止前保存');
        again.proc.kill('SIGTERM');
        expect((await again.exited).code).toBe(0);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    TEST_MS,
  );
});
