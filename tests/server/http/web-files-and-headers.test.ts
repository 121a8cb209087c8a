// What a browser, a crawler and an operator see outside the API's answers: a missing file is a 404
// (never the web app's html with a 200), /robots.txt keeps crawlers out, every page carries a
// Permissions-Policy and every API answer the few headers of a response that is no page (decision
// 187), both Strict-Transport-Security when HSTS_MAX_AGE is set, and the logout answer tells the
// browser to drop its cache (decision 035).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { createUser, login, useTestApp } from '../support/harness.ts';

const t = useTestApp();

/** A built web app: index.html, login.html and one hashed asset. */
function webDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-web-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'login.html'), '<!doctype html><title>login</title><div id="root"></div>');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
  return dir;
}

describe('files and pages outside the API', () => {
  it("a missing file answers 404 in the envelope, not the web app's html; pages and built files as before", async () => {
    const { database, mailer, outbox, config } = t();
    const app = await buildApp({ db: database.db, config: { ...config, webDir: webDir() }, mailer, outbox });
    for (const url of ['/no/such/path.js', '/assets/app-0000.js', '/assets/app-1a2b3c.js.map', '/assets/nothing', '/favicon.ico', '/admin/x.css?v=1']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
        if (method === 'GET') expect(res.json(), url).toEqual({ code: 'A00004', msg: '文件不存在' });
      }
    }
    // A page whose query holds dots (a reset link's token) is still the web app's.
    for (const [url, title] of [
      ['/admin/board/12', 'app'],
      ['/reset?token=abc.def.ghi', 'app'],
      ['/login?callback=%2Fadmin%2Fhome', 'login'],
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(`<title>${title}</title>`);
    }
    expect((await app.inject({ url: '/assets/app-1a2b3c.js' })).body).toBe('console.log(1)');
    expect((await app.inject({ url: '/api/no/such/call' })).json()).toEqual({ code: 'A00004', msg: '接口不存在' });
    await app.close();
  });

  it('/robots.txt disallows everything, as text, with or without a built web app', async () => {
    const { app } = t();
    const res = await app.inject({ url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('User-agent: *\nDisallow: /\n');
  });
});

describe('security headers', () => {
  it('every page grants the camera to this origin only, and the microphone and location to nobody', async () => {
    const { app } = t();
    for (const url of ['/healthz', '/robots.txt', '/no/such.js', '/admin/scan']) {
      const policy = String((await app.inject({ url })).headers['permissions-policy']);
      expect(policy, url).toContain('camera=(self)');
      expect(policy, url).toContain('microphone=()');
      expect(policy, url).toContain('geolocation=()');
    }
  });

  it('an API answer is no page: nothing loads from it, frames it, sniffs it or keeps it, and it carries no page policy', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'answers@x.test', inGroup: true });
    const token = await login(app, 'answers@x.test');
    const answers = [
      await app.inject({ url: '/api/user/info', headers: { 'x-token': token } }),
      await app.inject({ url: '/api/user/info' }), // 401
      await app.inject({ url: '/api/no/such/call' }), // 404
      await app.inject({ url: `/api/scan/admin/tracking/${'%E0%A4%A'}/list` }), // refused by the router
      await app.inject({ method: 'POST', url: '/ext/login/login?mailAddr=nobody%40x.test&pwd=x&keepflag=false' }),
    ];
    for (const res of answers) {
      const what = `${res.statusCode} ${res.body.slice(0, 60)}`;
      expect(res.headers['content-type'], what).toMatch(/^application\/json/);
      expect(res.headers, what).toMatchObject({
        'content-security-policy': "default-src 'none';frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      });
      expect(res.headers['permissions-policy'], what).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy'], what).toBeUndefined();
    }
    // A page keeps the policy of a document: its scripts, and the camera for /admin/scan.
    const page = await app.inject({ url: '/admin/scan' });
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(page.headers['cache-control']).not.toBe('no-store');
  });

  it('Strict-Transport-Security is sent only when HSTS_MAX_AGE is set; a malformed value stops the start', async () => {
    const { app, database, mailer, outbox, config } = t();
    expect((await app.inject({ url: '/healthz' })).headers['strict-transport-security']).toBeUndefined();
    expect(config.hstsMaxAge).toBeUndefined();

    const hsts = loadConfig({ HSTS_MAX_AGE: '31536000' });
    expect(hsts.hstsMaxAge).toBe(31_536_000);
    const withHsts = await buildApp({ db: database.db, config: { ...config, hstsMaxAge: hsts.hstsMaxAge }, mailer, outbox });
    for (const url of ['/healthz', '/api/user/info', '/']) {
      expect((await withHsts.inject({ url })).headers['strict-transport-security'], url).toBe('max-age=31536000');
    }
    await withHsts.close();
    for (const bad of ['abc', '-1', '1.5', '1e6', 'one year']) {
      expect(() => loadConfig({ HSTS_MAX_AGE: bad }), bad).toThrow(/HSTS_MAX_AGE must be a whole number of seconds/);
    }
  });

  it('the logout answer tells the browser to clear its cache, and only the logout answer', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'leaving@x.test', inGroup: true });
    const token = await login(app, 'leaving@x.test');
    const info = await app.inject({ url: '/api/user/info', headers: { 'x-token': token } });
    expect(info.statusCode).toBe(200);
    expect(info.headers['clear-site-data']).toBeUndefined();
    const out = await app.inject({ method: 'POST', url: '/ext/login/logout', headers: { 'x-token': token } });
    expect(out.json()).toMatchObject({ code: 'A00000' });
    // "cache" only: "storage" would wipe /admin/scan2's unsent rows kept in localStorage.
    expect(out.headers['clear-site-data']).toBe('"cache"');
  });
});
