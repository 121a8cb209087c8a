// A PostgreSQL database that blinks under running servers (decision 162): its backends terminated
// under load (a restart, a failover), and the database unreachable for a few seconds (a network cut).
// No process exits; a request the database failed answers 503 A00005 saying so; every write that was
// acknowledged is in the database; requests and /readyz are answered again within 2 s of its return,
// and the live updates' listening connection comes back by itself. A database that stops answering
// without closing its connections (a blackholed network) leaves no request hanging: each is answered,
// 503 A00005 when a connection it needs does not open within 3 s, or once the stall ends.
// PostgreSQL only (TEST_DB=pg). Two `npm start` processes on a database of the file's own: `viaProxy`
// reaches it through a TCP proxy of the test's (node:net) that can cut it, `direct` does not.
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDriver } from '../support/harness.ts';
import { openLiveStream } from '../support/live-stream.ts';
import { killServers, login, ownPgDatabase, spawnServer, type Server } from '../support/server-process.ts';

const TEST_MS = 120_000;
/** The product's promise: requests and /readyz are answered again within 2 s of the database's return. */
const BACK_WITHIN_MS = 2_000;
const UNAVAILABLE = { code: 'A00005', msg: '数据库暂时不可用，请稍后重试' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A stall (a blackholed network) lasts longer than a connection may take to open (3 s, db/client.ts). */
const STALL_MS = 6_000;
/** /readyz's check is bounded to 2 s (decision 160); the rest is slack for a busy machine. */
const READY_WITHIN_MS = 4_000;
/** Generous: a request sent during the stall is answered at most this long after the stall ends. */
const ANSWERED_AFTER_STALL_MS = 5_000;

/**
 * A TCP proxy to PostgreSQL that can be cut (every connection closed, new ones refused) and restored
 * on the same port, or stalled (a blackholed network: connections accepted and kept open, nothing
 * forwarded either way, no reset) and then forward again, the bytes held meanwhile first.
 */
async function startProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  /** Sends what a stalled connection held back (each direction of each connection has one). */
  const held = new Set<() => void>();
  let stalled = false;
  let server: net.Server;
  const forward = (from: net.Socket, to: net.Socket) => {
    const chunks: Buffer[] = [];
    const release = () => void (chunks.length && to.write(Buffer.concat(chunks.splice(0))));
    held.add(release);
    from.on('data', (chunk: Buffer) => (stalled ? chunks.push(chunk) : to.write(chunk)));
    from.on('error', () => to.destroy());
    from.on('close', () => {
      sockets.delete(from);
      held.delete(release);
      to.destroy();
    });
  };
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        sockets.add(client).add(upstream);
        forward(client, upstream);
        forward(upstream, client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  return {
    port,
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: () => listen(port),
    stall: () => void (stalled = true),
    forwardAgain: () => {
      stalled = false;
      for (const release of held) release();
    },
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

type Answer = { status: number; body: { code?: string; msg?: string; data?: unknown } };
async function request(server: Server, method: string, url: string, token?: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${server.port}${url}`, {
    method,
    headers: { ...(token ? { 'x-token': token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}
const alive = (s: Server) => s.proc.exitCode === null && s.proc.signalCode === null;

describe.skipIf(dbDriver() !== 'pg')('a PostgreSQL database that blinks under two server processes (TEST_DB=pg only)', () => {
  let drop: () => Promise<void> = async () => undefined;
  let url: string;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let viaProxy: Server;
  let direct: Server;
  const tokens = new Map<Server, string>();
  const dirs: string[] = [];

  beforeAll(async () => {
    const own = await ownPgDatabase('blinks');
    drop = own.drop;
    url = own.url;
    const u = new URL(url);
    proxy = await startProxy({ host: u.hostname, port: Number(u.port || 5432) });
    const proxied = new URL(url);
    proxied.port = String(proxy.port);
    const env = { APP_SECRET: 'blinks-test-secret-0123456789abcdef', APP_URL: 'http://app.test' };
    const dir = () => dirs[dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'ph-blinks-'))) - 1]!;
    const [a, b] = [spawnServer({ ...env, DATABASE_URL: proxied.toString(), DATA_DIR: dir() }), spawnServer({ ...env, DATABASE_URL: url, DATA_DIR: dir() })];
    [viaProxy, direct] = [a, b];
    await Promise.all([a.ready, b.ready]);
    for (const s of [a, b]) tokens.set(s, await login(s));
  }, TEST_MS);

  afterAll(async () => {
    for (const s of [viaProxy, direct]) if (s && alive(s)) s.proc.kill('SIGTERM');
    await Promise.all([viaProxy?.exited, direct?.exited]);
    killServers();
    await proxy?.close();
    await drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  /** Creates an item (a transaction) on `server`; the product id when it was acknowledged. */
  let next = 0;
  const createItem = async (server: Server): Promise<{ answer: Answer; productId: string }> => {
    const productId = `BLINK-${next++}`;
    const answer = await request(server, 'POST', '/api/item/info', tokens.get(server), { itemName: 'blink', status: 'open', productId });
    return { answer, productId };
  };

  it(
    'backends terminated three times under 8 clients: both processes live, only 503 A00005 refusals, every acknowledged write kept, writes succeed again within 2 s',
    async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const dbName = new URL(url).pathname.slice(1);
      const acknowledged: string[] = [];
      const other: Answer[] = [];
      let stop = false;
      /** A request's answer; a process that exited refuses the connection: status 0. */
      const answered = (sending: Promise<Answer>) => sending.catch((err: Error): Answer => ({ status: 0, body: { msg: String(err.cause ?? err) } }));
      const client = async (i: number) => {
        const server = i % 2 ? direct : viaProxy;
        while (!stop) {
          const productId = `BLINK-${next++}`;
          const answer = await answered(request(server, 'POST', '/api/item/info', tokens.get(server), { itemName: 'blink', status: 'open', productId }));
          if (answer.status === 200 && answer.body.code === 'A00000') acknowledged.push(productId);
          else if (answer.status !== 503 || answer.body.code !== UNAVAILABLE.code || answer.body.msg !== UNAVAILABLE.msg) other.push(answer);
          // A list between writes: a read on the pool too.
          const list = await answered(request(server, 'GET', '/api/item/page?page=0&size=5', tokens.get(server)));
          if (list.status !== 200 && list.status !== 503) other.push(list);
          if (answer.status === 0 || list.status === 0) return;
        }
      };
      const clients = Array.from({ length: 8 }, (_, i) => client(i));
      try {
        for (let round = 0; round < 3; round++) {
          await sleep(700);
          const ended = await admin.query(
            'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [dbName],
          );
          expect(ended.rows[0].n).toBeGreaterThan(0);
          const killedAt = Date.now();
          // Each process writes again within 2 s (a write of the test's own beside the clients').
          for (const server of [viaProxy, direct]) {
            let answer = (await createItem(server)).answer;
            while (answer.body.code !== 'A00000' && Date.now() - killedAt < 3 * BACK_WITHIN_MS) {
              await sleep(50);
              answer = (await createItem(server)).answer;
            }
            expect(answer.body.code).toBe('A00000');
            expect(Date.now() - killedAt).toBeLessThan(BACK_WITHIN_MS);
          }
        }
      } finally {
        stop = true;
        await Promise.all(clients);
      }
      expect(alive(viaProxy) && alive(direct), `a process exited:\n${viaProxy.output().slice(-2000)}\n${direct.output().slice(-2000)}`).toBe(true);
      expect(other).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(20);
      const kept = await admin.query<{ product_id: string }>('select product_id from items where product_id = any($1)', [acknowledged]);
      await admin.end();
      expect(kept.rows.length).toBe(acknowledged.length);
    },
    TEST_MS,
  );

  it(
    'the database unreachable for 4 s: the process lives, /readyz and writes answer 503 A00005 meanwhile, 200 within 2 s of its return, and the live stream hears it resumed',
    async () => {
      const token = tokens.get(viaProxy)!;
      const live = await openLiveStream(`http://127.0.0.1:${viaProxy.port}`, token);
      expect(live.status).toBe(200);
      await live.waitFor((m) => m.event === 'ready', { timeoutMs: 10_000 });
      const readyBefore = live.messages.length;

      await proxy.cut();
      const cutAt = Date.now();
      // /readyz turns 503 (its check is bounded to 2 s).
      let ready = await request(viaProxy, 'GET', '/readyz');
      while (ready.status !== 503 && Date.now() - cutAt < 10_000) ready = await request(viaProxy, 'GET', '/readyz');
      expect(ready).toEqual({ status: 503, body: { status: 'unready', reason: 'database unreachable' } });
      const { answer } = await createItem(viaProxy);
      expect(answer).toEqual({ status: 503, body: UNAVAILABLE });
      await sleep(Math.max(0, 4_000 - (Date.now() - cutAt)));
      expect(alive(viaProxy)).toBe(true);

      await proxy.restore();
      const backAt = Date.now();
      ready = await request(viaProxy, 'GET', '/readyz');
      while (ready.status !== 200 && Date.now() - backAt < 3 * BACK_WITHIN_MS) {
        await sleep(50);
        ready = await request(viaProxy, 'GET', '/readyz');
      }
      expect(ready.status).toBe(200);
      expect(Date.now() - backAt).toBeLessThan(BACK_WITHIN_MS);
      expect((await createItem(viaProxy)).answer).toMatchObject({ status: 200, body: { code: 'A00000' } });
      // The listening connection is back: the stream says `ready` again (read everything again).
      await live.waitFor((m) => m.event === 'ready', { from: readyBefore, timeoutMs: 15_000 });
      live.close();
      expect(alive(viaProxy) && alive(direct)).toBe(true);
    },
    TEST_MS,
  );

  it(
    'the database stalled for 6 s (a blackholed network: connections open, nothing answered): the process lives, /readyz 503 within ~2 s, every request answered in bounded time (503 A00005 or success), all well within seconds of its end',
    async () => {
      expect((await createItem(viaProxy)).answer).toMatchObject({ status: 200, body: { code: 'A00000' } });
      type Timed = { answer: Answer; productId?: string; at: number };
      /** When `sending` was answered; a request not answered in bounded time (or refused) is status 0. */
      const timed = (sending: Promise<Answer | { answer: Answer; productId: string }>): Promise<Timed> => {
        const bound = STALL_MS + ANSWERED_AFTER_STALL_MS + 5_000;
        const late = sleep(bound).then(() => ({ answer: { status: 0, body: { msg: `no answer within ${bound} ms` } } }));
        return Promise.race([sending.then((r) => ('answer' in r ? r : { answer: r })), late]).then(
          (r) => ({ ...r, at: Date.now() }),
          (err: Error) => ({ answer: { status: 0, body: { msg: String(err.cause ?? err) } }, at: Date.now() }),
        );
      };

      proxy.stall();
      const stalledAt = Date.now();
      // More writes at once than the pool has connections (10): some take a connection that hangs,
      // some open one that never opens (refused within 3 s), the others wait for one (db/client.ts).
      const writes = Array.from({ length: 16 }, () => timed(createItem(viaProxy)));
      const ready = await timed(request(viaProxy, 'GET', '/readyz'));
      expect(ready.answer).toEqual({ status: 503, body: { status: 'unready', reason: 'database unreachable' } });
      expect(ready.at - stalledAt).toBeLessThan(READY_WITHIN_MS);
      await sleep(Math.max(0, STALL_MS - (Date.now() - stalledAt)));
      expect(alive(viaProxy)).toBe(true);

      proxy.forwardAgain();
      const resumedAt = Date.now();
      const answers = await Promise.all(writes);
      const wrong = answers.filter(
        ({ answer }) => !(answer.status === 200 && answer.body.code === 'A00000') && !(answer.status === 503 && answer.body.msg === UNAVAILABLE.msg),
      );
      expect(wrong).toEqual([]);
      expect(Math.max(...answers.map((a) => a.at)) - resumedAt).toBeLessThan(ANSWERED_AFTER_STALL_MS);

      // Everything answers again within seconds.
      let back = await request(viaProxy, 'GET', '/readyz');
      while (back.status !== 200 && Date.now() - resumedAt < ANSWERED_AFTER_STALL_MS) {
        await sleep(50);
        back = await request(viaProxy, 'GET', '/readyz');
      }
      expect(back.status).toBe(200);
      const again = await Promise.all(Array.from({ length: 12 }, () => createItem(viaProxy)));
      expect(again.map((w) => w.answer.status)).toEqual(again.map(() => 200));
      expect(Date.now() - resumedAt).toBeLessThan(ANSWERED_AFTER_STALL_MS);
      const early = answers.filter((a) => a.at < resumedAt);
      console.log(
        `stall: /readyz 503 after ${ready.at - stalledAt} ms; ${early.length} of ${answers.length} writes refused 503 during it (the last ${Math.max(...early.map((a) => a.at - stalledAt))} ms in), the others answered within ${Math.max(...answers.map((a) => a.at - resumedAt))} ms of its end; all well again ${Date.now() - resumedAt} ms after`,
      );

      // Every acknowledged write is in the database.
      const acknowledged = [...answers, ...again].flatMap((a) => (a.answer.status === 200 && a.productId ? [a.productId] : []));
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const kept = await admin.query<{ product_id: string }>('select product_id from items where product_id = any($1)', [acknowledged]);
      await admin.end();
      expect(kept.rows.length).toBe(acknowledged.length);
      expect(alive(viaProxy) && alive(direct)).toBe(true);
    },
    TEST_MS,
  );
});
