// The request log is buffered (decision 141): a request's line is appended to a buffer and written
// later, not by the request. Nothing answered goes unlogged for that: each answered request still
// has its one line once the log is written out, on a stop (SIGTERM) and on a crash (an uncaught
// exception), the buffer is written before the process ends. No timings are asserted.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { createLogger, flushLog, logDestination } from '../../../src/server/logger.ts';
import { useTestApp } from '../support/harness.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-log-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const linesOf = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string; level: number; req?: { op?: string }; res?: { statusCode?: number } });

/** The fixture server (support/log-stop-fixture.ts) logging to `file`; answers its port and its exit. */
async function startFixture(file: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../support/log-stop-fixture.ts')], {
    env: { ...process.env, LOG_FILE: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    void exited.then((code) => reject(new Error(`the fixture ended (${code}): ${out}`)));
  });
  return { proc, port, exited };
}

describe('the buffered request log', () => {
  const t = useTestApp();

  it('holds one line per answered request once written out', async () => {
    const file = path.join(dir, 'app.log');
    const log = createLogger('info', logDestination(file) as never);
    const { database, mailer, outbox, config } = t();
    const app = await buildApp({ db: database.db, config, mailer, outbox, logger: log });
    for (let i = 0; i < 5; i++) await app.inject({ url: '/api/user/info' });
    await app.inject({ url: '/readyz' });
    await flushLog(log);
    await app.close();

    const requests = linesOf(file).filter((l) => l.msg === 'request completed');
    expect(requests.map((l) => `${l.req?.op} ${l.res?.statusCode}`)).toEqual([...Array(5).fill('getUserInfo 401'), 'getReadiness 200']);
  });

  it('is written out when the server stops on SIGTERM', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'stop.log');
    const server = await startFixture(file);
    for (let i = 0; i < 7; i++) expect((await fetch(`http://127.0.0.1:${server.port}/hello`)).status).toBe(200);
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const lines = linesOf(file);
    expect(lines.filter((l) => l.msg === 'request completed')).toHaveLength(7);
    expect(lines.at(-1)?.msg).toMatch(/^stopped in \d+ ms$/);
  });

  it('is written out when the process crashes', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'crash.log');
    const server = await startFixture(file);
    for (let i = 0; i < 3; i++) await fetch(`http://127.0.0.1:${server.port}/hello`);
    await fetch(`http://127.0.0.1:${server.port}/crash`);
    expect(await server.exited).not.toBe(0);

    expect(linesOf(file).filter((l) => l.msg === 'request completed')).toHaveLength(4);
  });
});
