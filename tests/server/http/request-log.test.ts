// Request logs name the operation and its route pattern and status, never a query string, a token in
// a path or a header's token: what a log reader sees of a login and a download link.
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
});
