// The shipped deployment recipe, run: Debian's nginx with deploy/nginx.conf (only its ports and
// paths substituted) in front of two `npm start` processes on one PostgreSQL database, restarted
// one after the other by deploy/README.md's procedure while clients keep sending reads, scans and
// logins through nginx: no request fails. Also what an operator paid for before the recipe: the
// access log holds no password, and a 2 MB upload reaches the app (nginx's default took 1 MB).
// PostgreSQL only (TEST_DB=pg: two processes cannot share a PGlite folder); skipped without
// /usr/sbin/nginx (CI installs nginx-light: .ci/run).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDriver } from '../support/harness.ts';
import { ADMIN, freePort, killServers, ownPgDatabase, spawnServer, STARTUP_MS, type Server } from '../support/server-process.ts';

const NGINX = '/usr/sbin/nginx';
const SHIPPED = path.resolve(import.meta.dirname, '../../../deploy/nginx.conf');
const TEST_MS = 240_000;
const hasNginx = fs.existsSync(NGINX);
if (dbDriver() === 'pg' && !hasNginx) console.warn(`nginx-rolling-restart: skipped, no ${NGINX} (apt-get install nginx-light)`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-nginx-'));
// nginx's workers run as nobody when the test runs as root: they must reach their temp folders.
fs.chmodSync(dir, 0o755);
let nginx: ChildProcess | undefined;
afterAll(() => {
  killServers();
  nginx?.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * deploy/nginx.conf with this run's ports and log folder (and `down` on the line of the process
 * being restarted, as the procedure says), inside the smallest main configuration.
 */
function writeNginxConfig(ports: { nginx: number; a: number; b: number }, down?: number): string {
  const shipped = fs.readFileSync(SHIPPED, 'utf8');
  let site = shipped
    .replace(/127\.0\.0\.1:3001\b/, `127.0.0.1:${ports.a}`)
    .replace(/127\.0\.0\.1:3002\b/, `127.0.0.1:${ports.b}`)
    .replace('listen 80;', `listen 127.0.0.1:${ports.nginx};`)
    .replaceAll('/var/log/nginx/', `${dir}/`);
  // The recipe's lines this relies on are still there (a change to them must update this test).
  expect(site).not.toMatch(/:300[12]\b|listen 80;|\/var\/log/);
  if (down) site = site.replace(new RegExp(`(server 127\\.0\\.0\\.1:${down}\\b[^;]*);`), '$1 down;');
  expect(site.includes(' down;')).toBe(down !== undefined);
  fs.writeFileSync(path.join(dir, 'site.conf'), site);
  const main = path.join(dir, 'nginx.conf');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join(' ');
  fs.writeFileSync(
    main,
    `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/main-error.log warn;
     events { worker_connections 512; }
     http { ${temp} include ${dir}/site.conf; }\n`,
  );
  return main;
}

/** nginx's worker processes (the master's children). */
const workersOf = (pid: number) => fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);

/**
 * `nginx -s reload` (SIGHUP to the master), then waits until the workers of the old configuration
 * have finished what they were proxying and exited: from then on every request follows the new one.
 */
async function reloadNginx(master: ChildProcess) {
  const old = workersOf(master.pid!);
  master.kill('SIGHUP');
  const until = Date.now() + 60_000;
  for (;;) {
    const now = workersOf(master.pid!);
    if (now.length && !now.some((w) => old.includes(w))) return;
    if (Date.now() > until) throw new Error(`nginx's old workers ${old} still running 60 s after the reload`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Answer = { status: number; type: string; text: string };

/** One request through nginx (a connection of its own); its answer, or what went wrong. */
function send(port: number, method: string, url: string, opts: { token?: string; body?: Buffer; type?: string } = {}): Promise<Answer | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: {
          ...(opts.token ? { 'x-token': opts.token } : {}),
          ...(opts.body ? { 'content-type': opts.type ?? 'application/json', 'content-length': opts.body.length } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
        res.on('error', (e) => resolve({ error: `answer cut: ${e.message}` }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: `${e.code ?? ''} ${e.message}` }));
    req.end(opts.body);
  });
}

const json = (body: unknown) => Buffer.from(JSON.stringify(body));
const envelope = (a: Answer) => JSON.parse(a.text) as { code: string; msg?: string; data?: Record<string, unknown> };

/** GET /readyz on `port` (a process, or nginx in front) until it answers 200. */
async function ready(port: number, timeoutMs = STARTUP_MS) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const a = await send(port, 'GET', '/readyz');
    if ('status' in a && a.status === 200) return;
    if (Date.now() > until) throw new Error(`127.0.0.1:${port}/readyz not 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasNginx || dbDriver() !== 'pg')(`nginx (deploy/nginx.conf) in front of two processes (TEST_DB=pg only; skipped without ${NGINX})`, () => {
  let drop: () => Promise<void> = async () => undefined;
  let env: Record<string, string>;
  const ports = { nginx: 0, a: 0, b: 0 };
  const servers: Server[] = [];
  let token = '';
  let itemId = 0;

  beforeAll(async () => {
    const own = await ownPgDatabase('nginx');
    drop = own.drop;
    [ports.nginx, ports.a, ports.b] = await Promise.all([freePort(), freePort(), freePort()]);
    env = { DATABASE_URL: own.url, APP_SECRET: 'nginx-test-secret-0123456789abcdef', APP_URL: 'http://app.test', TRUST_PROXY: '127.0.0.1' };
    const started = [ports.a, ports.b].map((port, i) => spawnServer({ ...env, PORT: String(port), DATA_DIR: path.join(dir, `data-${i}-0`) }));
    const main = writeNginxConfig(ports);
    nginx = spawn(NGINX, ['-e', path.join(dir, 'startup-error.log'), '-p', dir, '-c', main], { stdio: 'ignore' });
    await Promise.all(started.map((s) => s.ready));
    servers.push(...started);
    await ready(ports.nginx, 30_000).catch((e: Error) => {
      const logs = ['startup-error.log', 'main-error.log', 'purchase-hub.error.log'].map((f) =>
        fs.readFileSync(path.join(dir, f), { encoding: 'utf8', flag: 'a+' }),
      );
      throw new Error(`through nginx: ${e.message}\n${logs.join('\n')}`);
    });
    const login = await send(ports.nginx, 'POST', `/ext/login/login?mailAddr=${encodeURIComponent(ADMIN.mail)}&pwd=${ADMIN.pwd}`);
    token = String(envelope(login as Answer).data?.token);
    const item = await send(ports.nginx, 'POST', '/api/item/info', {
      token,
      body: json({ itemName: 'nginx 测试', status: 'open', productId: 'NGX-1', upc: 'NGX-UPC' }),
    });
    itemId = Number(envelope(item as Answer).data?.id);
    expect(itemId).toBeGreaterThan(0);
  }, TEST_MS);

  afterAll(async () => {
    for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await drop();
  });

  it(
    'restarting each process in turn (SIGTERM, start, /readyz 200, then the other) under reads, scans and logins fails no request',
    async () => {
      let stop = false;
      let answered = 0;
      const failures: string[] = [];
      const check = (what: string, a: Answer | { error: string }, ok: (body: ReturnType<typeof envelope>) => boolean) => {
        if ('error' in a) return void failures.push(`${what}: ${a.error}`);
        let body;
        try {
          body = envelope(a);
        } catch {
          return void failures.push(`${what}: ${a.status} ${a.type} ${a.text.slice(0, 120)}`);
        }
        if (a.status !== 200 || !ok(body)) failures.push(`${what}: ${a.status} ${a.text.slice(0, 200)}`);
        else answered++;
      };
      const loop = (body: (n: number) => Promise<void>) =>
        (async () => {
          for (let n = 0; !stop; n++) await body(n);
        })();
      const clients = [
        ...[0, 1].map(() =>
          loop(async () => check('GET /api/notice/get', await send(ports.nginx, 'GET', '/api/notice/get', { token }), (b) => b.code === 'A00000')),
        ),
        ...[0, 1].map((c) =>
          loop(async (n) => {
            const url = `/api/scan/admin/tracking/NGX-${c}-${n}/create`;
            const a = await send(ports.nginx, 'POST', url, { token, body: json({ items: [{ upc: 'NGX-UPC', count: 1, itemId }] }) });
            check(`POST ${url}`, a, (b) => b.code === 'A00000' && b.data?.opStatus === 'succ');
          }),
        ),
        loop(async () => {
          const a = await send(ports.nginx, 'POST', `/ext/login/login?mailAddr=${encodeURIComponent(ADMIN.mail)}&pwd=${ADMIN.pwd}`);
          check('POST /ext/login/login', a, (b) => b.code === 'A00000' && b.data?.status === 'succ');
        }),
      ];
      const settle = async (more: number) => {
        const until = answered + more;
        while (answered < until) await new Promise((r) => setTimeout(r, 20));
      };

      // The procedure of deploy/README.md, one process after the other.
      await settle(30);
      const exits = [];
      for (const i of [0, 1]) {
        const port = i ? ports.b : ports.a;
        // 1. nginx sends it nothing more.
        writeNginxConfig(ports, port);
        await reloadNginx(nginx!);
        // 2. SIGTERM: it answers what it has and exits; 3. started again on its port, ready.
        const old = servers[i]!;
        old.proc.kill('SIGTERM');
        exits.push(await old.exited);
        const fresh = spawnServer({ ...env, PORT: String(port), DATA_DIR: path.join(dir, `data-${i}-1`) });
        servers[i] = fresh;
        await fresh.ready;
        await ready(port);
        // 4. Back in nginx's pool.
        writeNginxConfig(ports);
        await reloadNginx(nginx!);
        await settle(20);
      }
      stop = true;
      await Promise.all(clients);

      expect(failures).toEqual([]);
      expect(exits.map((e) => e.code)).toEqual([0, 0]);
      // Not one request was sent to a stopped process (nginx had none to retry): the drain worked,
      // not merely proxy_next_upstream.
      const errors = fs.readFileSync(path.join(dir, 'purchase-hub.error.log'), 'utf8');
      const upstreamErrors = errors.split('\n').filter((l) => /upstream/.test(l));
      expect(upstreamErrors.length, `nginx's upstream errors, the first: ${upstreamErrors.slice(0, 3).join('\n')}`).toBe(0);
      // Each restarted process took requests through nginx again.
      const log = fs.readFileSync(path.join(dir, 'purchase-hub.access.log'), 'utf8');
      const tail = log.split('\n').slice(-40).join('\n');
      expect(tail).toContain(`127.0.0.1:${ports.a}`);
      expect(tail).toContain(`127.0.0.1:${ports.b}`);
      console.log(`rolling restart behind nginx: ${answered} requests answered, 0 failed`);
    },
    TEST_MS,
  );

  it('the access log names the login call without its query string, and a download link without its token', async () => {
    await send(ports.nginx, 'GET', '/ext/excel/withdraw/DOWNLOAD-TOKEN-IN-PATH');
    // nginx writes a request's log line once it has answered: the client may read the file first.
    const file = path.join(dir, 'purchase-hub.access.log');
    let log = fs.readFileSync(file, 'utf8');
    for (const until = Date.now() + 5_000; !log.includes('/ext/excel/withdraw/') && Date.now() < until; log = fs.readFileSync(file, 'utf8'))
      await new Promise((r) => setTimeout(r, 50));
    expect(log).toContain('"POST /ext/login/login"');
    expect(log).not.toContain('pwd=');
    expect(log).not.toContain(ADMIN.pwd);
    expect(log).toContain('"GET /ext/excel/withdraw/-"');
    expect(log).not.toContain('DOWNLOAD-TOKEN');
  });

  it("a 2 MB upload reaches the app (its envelope, not nginx's 413); one over nginx's limit gets a 413 in the envelope", async () => {
    const upload = (bytes: number) => {
      const boundary = 'nginx-test-boundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.xlsx"\r\ncontent-type: application/octet-stream\r\n\r\n`),
        Buffer.alloc(bytes, 0x41),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return send(ports.nginx, 'POST', '/api/scan/admin/excel/upload/import', { token, body, type: `multipart/form-data; boundary=${boundary}` });
    };
    // Not an .xlsx: the app's refusal of the file itself.
    const small = (await upload(2 * 1024 * 1024)) as Answer;
    expect(small.status).toBe(400);
    expect(envelope(small).code).toBe('A00001');
    const big = (await upload(12 * 1024 * 1024)) as Answer;
    expect(big.status).toBe(413);
    expect(envelope(big)).toEqual({ code: 'A00001', msg: '参数错误：上传内容过大' });
  });
});
