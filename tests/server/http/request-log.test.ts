// Request logs name the operation and its route pattern and status, never a query string, a token in
// a path or a header's token: what a log reader sees of a login and a download link. Requests no
// operation serves (a built file, the web app's page, an unknown path) are named by what served them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { createLogger } from '../../../src/server/logger.ts';
import { useTestApp } from '../support/harness.ts';

describe('request logs', () => {
  const t = useTestApp();

  it('carry the operationId, route and status in one line a request, and no password, token or query', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => void (lines.push(String(chunk)), done()) });
    const { database, mailer, outbox, config } = t();
    const app = await buildApp({ db: database.db, config, mailer, outbox, logger: createLogger('info', sink) });
    await app.inject({ method: 'POST', url: '/ext/login/login?mailAddr=a%40b.test&pwd=Secret-Pass-1&keepflag=false' });
    await app.inject({ url: '/ext/excel/withdraw/TOKEN-IN-THE-PATH-123' });
    await app.inject({ url: '/api/user/info', headers: { 'x-token': 'SESSION-TOKEN-456' } });
    await app.close();

    const text = lines.join('');
    for (const secret of ['Secret-Pass-1', 'a%40b.test', 'TOKEN-IN-THE-PATH-123', 'SESSION-TOKEN-456', 'keepflag']) expect(text).not.toContain(secret);
    const entries = lines.map((l) => JSON.parse(l) as { req?: { op?: string; route?: string }; res?: { statusCode?: number } });
    const ops = entries.flatMap((e) => (e.req?.op ? [`${e.req.op} ${e.req.route}`] : []));
    expect(ops).toEqual(expect.arrayContaining(['login /ext/login/login', 'exportWithdrawExcel /ext/excel/withdraw/:token', 'getUserInfo /api/user/info']));
    // One line per request, naming the operation and the status together.
    expect(entries.filter((e) => e.req?.op === 'getUserInfo').map((e) => e.res?.statusCode)).toEqual([401]);
  });

  it('name the operation and status on every answer, for the probes, built files, the web app and unknown paths too', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => void (lines.push(String(chunk)), done()) });
    const { database, mailer, outbox, config } = t();
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
    const app = await buildApp({ db: database.db, config: { ...config, webDir }, mailer, outbox, logger: createLogger('info', sink) });
    const sent = [
      ['GET', '/healthz?token=QUERY-TOKEN-1', 'getHealth 200'],
      ['GET', '/readyz', 'getReadiness 200'],
      ['GET', '/assets/app-1a2b3c.js?v=QUERY-TOKEN-2', 'static 200'],
      ['GET', '/reset?token=QUERY-TOKEN-3', 'webApp 200'],
      ['GET', '/api/no/such/call?token=QUERY-TOKEN-4', 'notFound 404'],
      ['GET', '/assets/app-0000.js?v=QUERY-TOKEN-6', 'notFound 404'],
      ['POST', '/healthz', 'notFound 404'],
      ['GET', '/ext/login/token/exist?token=QUERY-TOKEN-5&type=change', 'checkToken 200'],
    ];
    for (const [method, url] of sent) await app.inject({ method: method as 'GET', url });
    await app.close();

    const text = lines.join('');
    expect(text).not.toContain('QUERY-TOKEN');
    expect(text).not.toContain('?');
    const entries = lines.map(
      (l) => JSON.parse(l) as { msg: string; reqId?: string; req?: { op?: string; id?: string }; res?: { op?: string; statusCode?: number } },
    );
    const completed = entries.filter((e) => e.msg === 'request completed');
    expect(completed.map((e) => `${e.req?.op} ${e.res?.statusCode}`)).toEqual(sent.map((s) => s[2]));
    // Each thing once a line: the request's id is its reqId, the operation its req.op.
    for (const e of completed) expect([e.reqId === undefined, e.req?.id, e.res?.op]).toEqual([false, undefined, undefined]);
  });
});
