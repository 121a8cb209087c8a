// index.html as the server answers a path of the app (decision 174): with the preloads of the path's
// route from the build's manifest, the CSP allowing its inline script by hash, compressed by
// Accept-Encoding and revalidated by ETag; API answers, built files and the login page as before.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { useTestApp } from '../support/harness.ts';

const t = useTestApp();
const INLINE = "window.early = fetch('/api/user/info');";

function builtWebDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-web-page-'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><title>app</title><script>${INLINE}</script><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>`,
  );
  fs.writeFileSync(path.join(dir, 'login.html'), '<!doctype html><title>login</title>');
  fs.mkdirSync(path.join(dir, 'assets'));
  for (const name of ['index-1', 'session-actor-1', 'tracking-list-1', 'table-1', 'signup-1'])
    fs.writeFileSync(path.join(dir, 'assets', `${name}.js`), `// ${name}`);
  fs.mkdirSync(path.join(dir, '.vite'));
  const route = 'src/web/routes/_app/_admin/admin/tracking-list.tsx?tsr-split=component---loader';
  const signup = 'src/web/routes/signup.tsx?tsr-split=component';
  fs.writeFileSync(
    path.join(dir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-1.js', src: 'index.html', isEntry: true },
      'src/web/session/session-actor.ts': { file: 'assets/session-actor-1.js', src: 'src/web/session/session-actor.ts', imports: ['index.html'] },
      [route]: { file: 'assets/tracking-list-1.js', src: route, imports: ['_table-1.js', 'index.html'] },
      '_table-1.js': { file: 'assets/table-1.js' },
      [signup]: { file: 'assets/signup-1.js', src: signup, imports: ['index.html'] },
    }),
  );
  return dir;
}

const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe("the web app's page", () => {
  it("a route's path preloads its files; an unknown path none; API answers and built files untouched", async () => {
    const { database, mailer, outbox, config } = t();
    const app = await buildApp({ db: database.db, config: { ...config, webDir: builtWebDir() }, mailer, outbox });
    const page = await app.inject({ url: '/admin/tracking-list?page=1' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(preloads(page.body)).toEqual(['/assets/session-actor-1.js', '/assets/tracking-list-1.js', '/assets/table-1.js']);
    expect(page.body).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>');

    const unknown = await app.inject({ url: '/no/such/page' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('<title>app</title>');
    expect(preloads(unknown.body)).toEqual([]);

    const api = await app.inject({ url: '/api/user/info' });
    expect(api.statusCode).toBe(401);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.body).not.toContain('modulepreload');
    expect((await app.inject({ url: '/api/no/such/call' })).json()).toEqual({ code: 'A00004', msg: '接口不存在' });
    expect((await app.inject({ url: '/assets/table-1.js' })).body).toBe('// table-1');
    expect((await app.inject({ url: '/login' })).body).toContain('<title>login</title>');
    await app.close();
  });

  it('a page behind the login is marked for the early script (decision 189); /, too; the sign-up page and an unknown path are not', async () => {
    const { database, mailer, outbox, config } = t();
    const app = await buildApp({ db: database.db, config: { ...config, webDir: builtWebDir() }, mailer, outbox });
    const marked = async (url: string) => (await app.inject({ url })).body.includes('<html data-login-required>');
    expect(await marked('/admin/tracking-list?page=1')).toBe(true);
    expect(await marked('/')).toBe(true);
    expect(await marked('/signup?mailAddr=a%40b.c')).toBe(false);
    expect(await marked('/no/such/page')).toBe(false);
    // One page per variant: the marked page keeps its preloads.
    expect(preloads((await app.inject({ url: '/admin/tracking-list' })).body)).toEqual([
      '/assets/session-actor-1.js',
      '/assets/tracking-list-1.js',
      '/assets/table-1.js',
    ]);
    await app.close();
  });

  it('the CSP allows the inline script by its hash, and no other inline script', async () => {
    const { database, mailer, outbox, config } = t();
    const app = await buildApp({ db: database.db, config: { ...config, webDir: builtWebDir() }, mailer, outbox });
    const csp = String((await app.inject({ url: '/admin/tracking-list' })).headers['content-security-policy']);
    const hash = createHash('sha256').update(INLINE).digest('base64');
    const scriptSrc = csp.split(';').find((directive) => directive.startsWith('script-src'));
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
    // Without a built app, no hash.
    expect(String((await t().app.inject({ url: '/healthz' })).headers['content-security-policy'])).toContain("script-src 'self';");
    await app.close();
  });

  it('compressed by Accept-Encoding; unchanged, 304 by its ETag', async () => {
    const { database, mailer, outbox, config } = t();
    const app = await buildApp({ db: database.db, config: { ...config, webDir: builtWebDir() }, mailer, outbox });
    const plain = await app.inject({ url: '/admin/tracking-list' });
    const br = await app.inject({ url: '/admin/tracking-list', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await app.inject({ url: '/admin/tracking-list', headers: { 'accept-encoding': 'gzip' } });
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    const again = await app.inject({ url: '/admin/tracking-list', headers: { 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another route's page is another page.
    expect((await app.inject({ url: '/no/such/page', headers: { 'if-none-match': String(plain.headers.etag) } })).statusCode).toBe(200);
    await app.close();
  });
});
