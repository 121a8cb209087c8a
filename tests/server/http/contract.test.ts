// The contract holds for every operation in openapi.yaml: no token -> 401 unless anonymous, the
// wrong role -> 403, bad input -> 400 A00001 naming the field (and nothing changes), unknown
// routes -> 404, unexpected failures -> 500 A00005 without internals, unbuilt operations -> '未实现'.
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { listOperations } from '../../../src/server/contract.ts';
import { allHandlers, buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { call, createUser, login, useTestApp } from '../support/harness.ts';

const t = useTestApp();
const operations = listOperations();
const urlOf = (p: string) => p.replace(/\{[^}]+\}/g, '1');

describe('roles from x-roles', () => {
  it('answers 401 A00002 without a token for every operation that is not anonymous', async () => {
    const { app } = t();
    const failures: string[] = [];
    for (const op of operations.filter((o) => !o.roles.includes('anonymous'))) {
      const res = await call(app, { method: op.method as 'GET', url: urlOf(op.path) });
      if (res.status !== 401 || res.body.code !== 'A00002') failures.push(`${op.method} ${op.path} -> ${res.status} ${res.body.code}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 A00003 to a user token on every admin-side operation, and to a lowerAdmin on admin-only ones', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'u@x.test', inGroup: true });
    await createUser(database, { mailAddr: 'l@x.test', roleType: 'lowerAdmin' });
    const user = await login(app, 'u@x.test');
    const lower = await login(app, 'l@x.test');
    const failures: string[] = [];
    const adminSide = operations.filter((o) => !o.roles.includes('user') && !o.roles.includes('anonymous'));
    expect(adminSide.length).toBeGreaterThan(40);
    for (const op of adminSide) {
      const res = await call(app, { method: op.method as 'GET', url: urlOf(op.path), headers: { 'x-token': user } });
      if (res.status !== 403 || res.body.code !== 'A00003') failures.push(`user: ${op.method} ${op.path} -> ${res.status}`);
    }
    const adminOnly = operations.filter((o) => o.roles.includes('admin') && !o.roles.includes('lowerAdmin') && !o.roles.includes('anonymous'));
    // Admin-only: the withdraw side, the contested parcels' assignment (decision 096) and the log of
    // who read payout details (decision 168: SPEC §2 gives a lowerAdmin no withdraw list).
    const ADMIN_ONLY_ELSEWHERE = ['/api/match/admin/contested/assign', '/api/audit/payout/list', '/api/admin/purchased/claims/undo'];
    expect(adminOnly.map((o) => o.path).filter((p) => !p.startsWith('/api/withdraw/admin/') && !ADMIN_ONLY_ELSEWHERE.includes(p))).toEqual([]);
    for (const op of adminOnly) {
      const res = await call(app, { method: op.method as 'GET', url: urlOf(op.path), headers: { 'x-token': lower } });
      if (res.status !== 403) failures.push(`lowerAdmin: ${op.method} ${op.path} -> ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('builds every operation of the contract: none is left answering 未实现', () => {
    expect(operations.filter((o) => !(o.operationId in allHandlers)).map((o) => o.operationId)).toEqual([]);
  });

  it('answers A00005 未实现 for an operation declared without a handler', async () => {
    const { database, mailer, outbox } = t();
    const { getNotice: _unbuilt, ...handlers } = allHandlers;
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-contract-'));
    const app = await buildApp({ db: database.db, config: { ...loadConfig({}), webDir }, mailer, outbox, logger: pino({ level: 'silent' }), handlers });
    try {
      await createUser(database, { mailAddr: 'a@x.test', roleType: 'admin' });
      const admin = await login(app, 'a@x.test');
      expect(await call(app, { method: 'GET', url: '/api/notice/get', headers: { 'x-token': admin } })).toMatchObject({
        status: 501,
        body: { code: 'A00005', msg: '未实现' },
      });
    } finally {
      await app.close();
    }
  });
});

describe('bad input', () => {
  async function adminToken() {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'a@x.test', roleType: 'admin' });
    return login(app, 'a@x.test');
  }
  const notice = async (token: string) =>
    (await call<{ content: string }>(t().app, { method: 'GET', url: '/api/notice/get', headers: { 'x-token': token } })).body.data?.content;

  it('answers 400 A00001 naming the field, and changes nothing', async () => {
    const { app } = t();
    const token = await adminToken();
    const save = (payload: string, contentType = 'application/json') =>
      call(app, { method: 'POST', url: '/api/notice/save', headers: { 'x-token': token, 'content-type': contentType }, payload });

    const unknown = await save(JSON.stringify({ content: 'x', isMail: false, evil: 1 }));
    expect(unknown).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(unknown.body.msg).toContain('evil');

    const wrongType = await save(JSON.stringify({ content: 42, isMail: false }));
    expect(wrongType).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(wrongType.body.msg).toContain('content');

    const missing = await save(JSON.stringify({ isMail: false }));
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('content');

    expect(await save('{"content": "x",')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await save('content=x', 'text/plain')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await notice(token)).toBe('');
  });

  it('checks query types: a non-boolean keepflag is refused', async () => {
    const res = await call(t().app, { method: 'POST', url: '/ext/login/login?mailAddr=a%40x.test&pwd=x&keepflag=maybe' });
    expect(res).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(res.body.msg).toContain('keepflag');
  });
});

describe('the rest of the surface', () => {
  it('answers 404 A00004 for an unknown API path and 500 A00005 without internals for a crash', async () => {
    const { app, database, config, mailer, outbox } = t();
    expect(await call(app, { method: 'GET', url: '/api/no/such/thing' })).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await call(app, { method: 'POST', url: '/api/no/such/thing' })).toMatchObject({ status: 404, body: { code: 'A00004' } });

    const crashing = await buildApp({
      db: database.db,
      config,
      mailer,
      outbox,
      logger: pino({ level: 'silent' }),
      handlers: {
        ...allHandlers,
        async getNotice() {
          throw new Error('relation "secret_table" does not exist at SELECT * FROM secret_table');
        },
      },
    });
    await createUser(database, { mailAddr: 'u@x.test', inGroup: true });
    const token = await login(crashing, 'u@x.test');
    const res = await call(crashing, { method: 'GET', url: '/api/notice/get', headers: { 'x-token': token } });
    expect(res).toMatchObject({ status: 500, body: { code: 'A00005', msg: '系统错误' } });
    expect(res.raw.body).not.toMatch(/secret_table|SELECT|at .*\.ts/);
    await crashing.close();
  });

  it('serves the SPA for every non-API path (history mode) with security headers', async () => {
    const { database, mailer, outbox } = t();
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'login.html'), '<!doctype html><title>login</title><div id="root"></div>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
    const app = await buildApp({ db: database.db, config: { ...loadConfig({}), webDir }, mailer, outbox });
    const pages = {
      '/': 'app',
      '/login': 'login',
      '/login?callback=%2Fadmin%2Fhome': 'login',
      '/admin/board/12': 'app',
      '/user/board/abc?x=1': 'app',
      '/login-x': 'app',
    };
    for (const [url, title] of Object.entries(pages)) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body, url).toContain(`<title>${title}</title><div id="root">`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
      expect(res.headers['x-frame-options']).toBeDefined();
    }
    const asset = await app.inject({ url: '/assets/app.js' });
    expect(asset.body).toBe('console.log(1)');
    expect((await app.inject({ url: '/api/nothing' })).statusCode).toBe(404);
    await app.close();
  });

  it('sends a built file precompressed by Accept-Encoding; hashed assets are cached for a year, the page is revalidated', async () => {
    const { database, mailer, outbox } = t();
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-web-'));
    const script = `console.log(${JSON.stringify('x'.repeat(4096))});`;
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app-1a2b3c.js'), script);
    fs.writeFileSync(path.join(webDir, 'assets', 'app-1a2b3c.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(webDir, 'assets', 'app-1a2b3c.js.gz'), zlib.gzipSync(script));
    const app = await buildApp({ db: database.db, config: { ...loadConfig({}), webDir }, mailer, outbox });

    const br = await app.inject({ url: '/assets/app-1a2b3c.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await app.inject({ url: '/assets/app-1a2b3c.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ url: '/assets/app-1a2b3c.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    for (const url of ['/index.html', '/admin/home']) expect((await app.inject({ url })).headers['cache-control']).toBe('no-cache');
    await app.close();
  });

  it('sends the login page as it sends index.html: precompressed, revalidated on each use', async () => {
    const { database, mailer, outbox } = t();
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-web-'));
    const page = `<!doctype html><title>login</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(40)}`;
    for (const name of ['index.html', 'login.html']) {
      const body = name === 'login.html' ? page : page.replace('login', 'app');
      fs.writeFileSync(path.join(webDir, name), body);
      fs.writeFileSync(path.join(webDir, `${name}.br`), zlib.brotliCompressSync(body));
      fs.writeFileSync(path.join(webDir, `${name}.gz`), zlib.gzipSync(body));
    }
    const app = await buildApp({ db: database.db, config: { ...loadConfig({}), webDir }, mailer, outbox });
    for (const [url, title] of [
      ['/login?callback=%2Fme', 'login'],
      ['/me', 'app'],
    ] as const) {
      const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['cache-control'], url).toBe('no-cache');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain(`<title>${title}</title>`);
      const plain = await app.inject({ url });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain(`<title>${title}</title>`);
    }
    await app.close();
  });
});
