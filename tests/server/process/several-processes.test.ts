// Several server processes on one PostgreSQL database, as behind a load balancer (README): two
// `npm start` processes, and what must hold across them because it lives in the database - claims
// never over-claim, a logout ends the session on the other process at once, login failures are
// counted together, a mass mail goes out once, a parcel scanned on both at once is recorded once -
// and SIGTERM to one while clients keep going through both fails no request it accepted.
// PostgreSQL only (TEST_DB=pg): a PGlite data folder is one process's (decision 010).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { openDatabase, rowsOf, type Database } from '../../../src/server/db/client.ts';
import { outbox, users } from '../../../src/server/db/schema/accounts.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { tasks } from '../../../src/server/db/schema/tasks.ts';
import { createMailer } from '../../../src/server/mail/mailer.ts';
import { startOutboxWorker } from '../../../src/server/mail/outbox.ts';
import { scanMessages } from '../../../src/server/receiving/scan-service.ts';
import { createBoardTask } from '../support/board-fixtures.ts';
import { createUser, dbDriver, TEST_PASSWORD } from '../support/harness.ts';
import { api, killServers, ownPgDatabase, spawnServer, type Server } from '../support/server-process.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { taskWorld, UPC } from '../support/task-fixtures.ts';

const TEST_MS = 300_000;
/** The product's promises: a revoked session is refused everywhere within 1 s; a stopped process is gone within 10 s. */
const REVOKED_WITHIN_MS = 1_000;
const STOP_LIMIT_MS = 10_000;
const silent = pino({ level: 'silent' });
const dirs: string[] = [];
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-multi-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  killServers();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

type World = Awaited<ReturnType<typeof seed>>;

/** The world, written through an app of this process on the database (the fixtures speak app.inject). */
async function seed(database: Database) {
  const dir = tmpDir();
  const config = { ...loadConfig({ DATA_DIR: dir, APP_URL: 'http://app.test' }), webDir: path.join(dir, 'no-web') };
  const mailer = createMailer({ from: config.mailFrom, dataDir: dir, log: silent });
  const worker = startOutboxWorker(database.db, mailer, silent, { pollMs: 3_600_000 });
  const app = await buildApp({ db: database.db, config, mailer, outbox: worker, logger: silent });
  try {
    const w = await taskWorld(app, database, { show: 30 });
    // What the clients claim while a process stops: plenty of units.
    const roomy = await createBoardTask(w.admin, w.board.id, { itemId: w.item2.id, buyIn: 5, show: 9_999 });
    // Recipients of the mass mail.
    for (let i = 0; i < 20; i++) await createUser(database, { mailAddr: `reader${i}@x.test` });
    return {
      w,
      roomy,
      tokens: {
        admin: await createSession(database.db, w.adminUser.id, false),
        a: await createSession(database.db, w.a.user.id, false),
        b: await createSession(database.db, w.b.user.id, false),
      },
    };
  } finally {
    // Publishing the board queued mails: sent here (as files), so the processes' sink gets only the test's.
    await worker.drain();
    await app.close();
    await worker.stop();
    mailer.close();
  }
}

/**
 * One request on a connection of its own, as a load balancer sends it; how it ended: answered; the
 * connection refused, or reset before any byte of an answer (what the kernel does to connections
 * still queued, not yet accepted, when a listening socket closes: the test shows the process never
 * received them); or failed in any other way.
 */
type Sent = { answered: { status: number; body: { code: string; msg?: string; data?: unknown } } } | { refused: string } | { failed: string };

function send(port: number, method: string, url: string, token: string, body?: unknown): Promise<Sent> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: { 'x-token': token, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          try {
            resolve({ answered: { status: res.statusCode ?? 0, body: JSON.parse(text) as { code: string } } });
          } catch {
            resolve({ failed: `${res.statusCode} not JSON: ${text.slice(0, 200)}` });
          }
        });
        res.on('error', (e) => resolve({ failed: `answer cut: ${e.message}` }));
      },
    );
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve(
        e.code === 'ECONNREFUSED' || (e.code === 'ECONNRESET' && !answered)
          ? { refused: `${e.code} ${e.message}` }
          : { failed: `${e.code ?? ''} ${e.message}` },
      ),
    );
    req.end(payload);
  });
}

describe.skipIf(dbDriver() !== 'pg')('two server processes on one PostgreSQL database (TEST_DB=pg only: a PGlite data folder is one process)', () => {
  let drop: () => Promise<void> = async () => undefined;
  let database: Database;
  let sink: SmtpSink;
  let world: World;
  let one: Server;
  let two: Server;

  beforeAll(async () => {
    const own = await ownPgDatabase('multi');
    drop = own.drop;
    const url = own.url;
    sink = await startSmtpSink();
    const env = { DATABASE_URL: url, APP_SECRET: 'multi-test-secret-0123456789abcdef', SMTP_URL: sink.url, APP_URL: 'http://app.test' };
    // Both processes and this one start at once on the new database: they migrate it in turns (one
    // applies the migrations, the others find them applied), and the seeding runs while they start.
    const [first, second] = [spawnServer({ ...env, DATA_DIR: tmpDir() }), spawnServer({ ...env, DATA_DIR: tmpDir() })];
    [one, two] = [first, second];
    database = await openDatabase({ url });
    world = await seed(database);
    await Promise.all([first.ready, second.ready]);
  }, TEST_MS);

  afterAll(async () => {
    for (const s of [one, two]) if (s && s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGTERM');
    await Promise.all([one?.exited, two?.exited]);
    await sink?.close();
    await database?.close();
    await drop();
  });

  it('100 simultaneous claims of 1 unit, split over both, on a board task showing 30 claim exactly 30', async () => {
    const { w, tokens } = world;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api<{ task: { count: number } }>(i % 2 ? two : one, 'POST', `/api/task/${w.boardTask.id}/user/create/1`, {
          token: i % 4 < 2 ? tokens.a : tokens.b,
        }),
      ),
    );
    const ok = answers.filter((a) => a.code === 'A00000');
    expect(ok).toHaveLength(30);
    for (const r of answers.filter((a) => a.code !== 'A00000')) expect(r).toMatchObject({ code: 'A00001', msg: expect.stringMatching(/^不能认领超过\d+件$/) });
    const [claimed] = await rowsOf<{ n: number }>(
      database.db.execute(sql`select coalesce(sum(${tasks.count}), 0)::int as n from ${tasks} where ${tasks.boardTaskId} = ${w.boardTask.id}`),
    );
    expect(claimed?.n).toBe(30);
  });

  it('a logout on one process: the token is refused on the other within a second', async () => {
    const token = await createSession(database.db, world.w.a.user.id, false);
    // Used on the second process first, so that process holds it in its session cache.
    for (let i = 0; i < 3; i++) expect((await api(two, 'GET', '/api/user/info', { token })).code).toBe('A00000');
    expect((await api(one, 'POST', '/ext/login/logout', { token })).code).toBe('A00000');
    const loggedOut = Date.now();
    let answer = await api(two, 'GET', '/api/user/info', { token });
    while (answer.code === 'A00000' && Date.now() - loggedOut < 5 * REVOKED_WITHIN_MS) {
      await new Promise((r) => setTimeout(r, 20));
      answer = await api(two, 'GET', '/api/user/info', { token });
    }
    const refusedAfter = Date.now() - loggedOut;
    expect(answer.code).toBe('A00002');
    expect(refusedAfter).toBeLessThan(REVOKED_WITHIN_MS);
  });

  it('11 wrong passwords at once, spread over both, leave the address blocked from that IP on both', async () => {
    const mail = world.w.b.user.mailAddr;
    const loginUrl = (pwd: string) => `/ext/login/login?mailAddr=${encodeURIComponent(mail)}&pwd=${encodeURIComponent(pwd)}`;
    const answers = await Promise.all(Array.from({ length: 11 }, (_, i) => api<{ status: string }>(i % 2 ? two : one, 'POST', loginUrl(`wrong-${i}`))));
    expect(answers.filter((a) => a.code === 'A00000' && a.data.status === 'failed')).toHaveLength(10);
    expect(answers.filter((a) => a.code === 'A00004' && /^登录失败次数过多/.test(a.msg ?? ''))).toHaveLength(1);
    // Blocked on both, even with the right password (decision 021).
    for (const s of [one, two]) expect((await api(s, 'POST', loginUrl(TEST_PASSWORD))).code).toBe('A00004');
  });

  it('two mass mails saved at once, one on each process: every mail is sent once', async () => {
    const { tokens } = world;
    const saved = await Promise.all(
      [one, two].map((s, i) =>
        api<{ mailQueued: number }>(s, 'POST', '/api/notice/save', { token: tokens.admin, body: { content: `通知${i}`, isMail: true } }),
      ),
    );
    const queued = saved.reduce((n, s) => n + s.data.mailQueued, 0);
    // Every account but the sender, twice (a process may have created its bootstrap admin too).
    const [accounts] = await rowsOf<{ n: number }>(database.db.execute(sql`select count(*)::int as n from ${users}`));
    expect(accounts!.n).toBeGreaterThanOrEqual(23);
    expect(queued).toBe(2 * (accounts!.n - 1));
    await sink.waitForCount(queued, 60_000);
    // Until no row is left to send (a second copy would be sent by then), then nothing more arrived.
    for (;;) {
      const [left] = await rowsOf<{ n: number }>(database.db.execute(sql`select count(*)::int as n from ${outbox} where ${outbox.status} = 'pending'`));
      if (!left?.n) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const sent = sink.mails.filter((m) => m.subject === '采购任务平台公告').map((m) => `${m.to} ${m.text.includes('通知0') ? 0 : 1}`);
    expect(sent).toHaveLength(queued);
    expect(new Set(sent).size).toBe(queued);
  });

  it('the same tracking id scanned on both at once: one row, and one answer that it is a repeat', async () => {
    const { w, tokens } = world;
    for (let k = 0; k < 5; k++) {
      const trackingId = `MULTI${k}`; // a canonical key (decision 097): the row is found by it
      const answers = await Promise.all(
        [one, two].map((s) =>
          api<{ opStatus: string }>(s, 'POST', `/api/scan/admin/tracking/${trackingId}/create`, {
            token: tokens.admin,
            body: { items: [{ upc: UPC, count: 1, itemId: w.item.id }] },
          }),
        ),
      );
      expect(answers.map((a) => a.data.opStatus).sort()).toEqual(['failed', 'succ']);
      // What a repeat of the parcel is told on one process: its product is there already.
      expect(answers.find((a) => a.data.opStatus === 'failed')?.msg).toBe(scanMessages.upcDuplicate);
      expect(await database.db.select().from(scanTrackings).where(eq(scanTrackings.trackingId, trackingId))).toHaveLength(1);
    }
  });

  it(
    'SIGTERM to one while clients keep going through both: no request it accepted fails, and it exits within 10 s',
    async () => {
      const { roomy, tokens } = world;
      let stop = false;
      const results: { via: number; sent: Sent }[] = [];
      const failures: string[] = [];
      const claimsMade = async (): Promise<number> => (await database.db.select().from(tasks).where(eq(tasks.boardTaskId, roomy.id))).length;
      // Six clients, each sending its next claim as soon as the last is answered, alternately to
      // each process; a refused connection is sent to the other process (what a load balancer does).
      const clients = Array.from({ length: 6 }, async (_, c) => {
        for (let n = 0; !stop; n++) {
          const first = (c + n) % 2;
          const token = c % 2 ? tokens.a : tokens.b;
          for (const via of [first, 1 - first]) {
            const server = via ? two : one;
            const sent = await send(server.port, 'POST', `/api/task/${roomy.id}/user/create/1`, token);
            results.push({ via, sent });
            if ('refused' in sent) continue;
            if ('failed' in sent) failures.push(`via ${via}: ${sent.failed}`);
            else if (sent.answered.body.code !== 'A00000') failures.push(`via ${via}: ${JSON.stringify(sent.answered.body)}`);
            break;
          }
        }
      });
      // Both busy, then the signal, then a while more through the first alone.
      const answered = () => results.filter((r) => 'answered' in r.sent);
      while (answered().filter((r) => r.via === 1).length < 30) await new Promise((r) => setTimeout(r, 20));
      const signalled = Date.now();
      two.proc.kill('SIGTERM');
      const exit = await two.exited;
      const afterExit = answered().length;
      while (answered().length < afterExit + 30) await new Promise((r) => setTimeout(r, 20));
      stop = true;
      await Promise.all(clients);

      expect(failures).toEqual([]);
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.at - signalled).toBeLessThan(STOP_LIMIT_MS);
      expect(results.some((r) => 'refused' in r.sent)).toBe(true);
      // Every claim answered was made, and no claim was made that was not answered (a request the
      // stopping process had received and dropped, or a retry of one it had carried out, would show).
      expect(await claimsMade()).toBe(answered().length);
      // The stopping process answered nothing with a server error (its request log: one line per
      // answered request, decision 141; a request dropped after its claim was made shows above).
      const completed = two
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; res?: { statusCode: number } })
        .filter((l) => l.msg === 'request completed');
      expect(completed.length).toBeGreaterThan(0);
      expect(completed.filter((l) => (l.res?.statusCode ?? 500) >= 500)).toEqual([]);
      const tally = new Map<string, number>();
      for (const r of results) {
        const code = 'refused' in r.sent ? r.sent.refused.split(' ')[0]! : null;
        if (code) tally.set(code, (tally.get(code) ?? 0) + 1);
      }
      console.log(`SIGTERM under load: ${answered().length} claims answered; sent to the other process: ${JSON.stringify([...tally])}`);
      // The first process still serves.
      expect((await api(one, 'GET', '/api/notice/get', { token: tokens.a })).code).toBe('A00000');
    },
    TEST_MS,
  );
});
