// Prometheus metrics, scraped over HTTP from their own port as a monitor would: requests counted by
// operationId and status (never a URL, a query string or a token), scan batch sizes, the outbox's
// backlog and, on PostgreSQL, the pools' use. Off unless METRICS_PORT is set, and never on the app's port.
import fs from 'node:fs';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { enqueueMail } from '../../../src/server/mail/outbox.ts';
import { seedItem, signIn } from '../support/board-fixtures.ts';
import { migratedDataDir } from '../support/data-template.ts';
import { dbDriver, useTestApp } from '../support/harness.ts';
import { killServers, startServer, STARTUP_MS, waitFor } from '../support/server-process.ts';

const t = useTestApp();
afterAll(killServers);

/** The value of one sample line of a scrape (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  it('are off unless METRICS_PORT is set', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(t().app.metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
  });

  it('count requests by operationId and status, scan batches, the outbox backlog and the pools, on a port of their own', async () => {
    const { database, mailer, outbox, config } = t();
    const app = await buildApp({ db: database.db, config: { ...config, metricsPort: 0 }, mailer, outbox, logger: pino({ level: 'silent' }) });
    try {
      const at = await app.metrics!.listen(config.metricsHost, 0);
      expect(at.address).toBe('127.0.0.1');
      const scrape = async () => {
        const res = await fetch(`http://127.0.0.1:${at.port}/metrics`);
        expect(res.status).toBe(200);
        return res.text();
      };

      await app.inject({ method: 'POST', url: '/ext/login/login?mailAddr=nobody%40x.test&pwd=Secret-Pass-1&keepflag=false' });
      await app.inject({ method: 'POST', url: '/ext/login/login?mailAddr=other%40x.test&pwd=Secret-Pass-2&keepflag=true' });
      await app.inject({ url: '/api/user/info', headers: { 'x-token': 'SESSION-TOKEN-456' } });
      await app.inject({ url: '/ext/excel/withdraw/TOKEN-IN-THE-PATH-123' });
      await app.inject({ url: '/healthz?probe=QUERY-VALUE-789' });
      await app.inject({ url: '/api/no/such/call' });
      await app.inject({ url: '/ext/excel/withdraw/TOKEN-IN-A-BAD-URL-%ZZ' });

      const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
      const item = await seedItem(database);
      const scans = await Promise.all(
        ['T-1', 'T-2', 'T-3', 'T-4', 'T-5'].map((trackingId) =>
          app.inject({
            method: 'POST',
            url: `/api/scan/admin/tracking/${trackingId}/create`,
            headers: { 'x-token': admin.token },
            payload: { items: [{ upc: item.upc, count: 1, itemId: item.id }] },
          }),
        ),
      );
      expect(scans.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      await enqueueMail(database.db, 'test', [
        { to: 'a@x.test', subject: 's', text: 't' },
        { to: 'b@x.test', subject: 's', text: 't' },
      ]);

      const text = await scrape();
      const count = (operation: string, status: number) => sample(text, `http_request_duration_seconds_count{operation="${operation}",status="${status}"}`);
      expect(count('login', 200)).toBe(2);
      expect(count('getUserInfo', 401)).toBe(1);
      expect(count('getHealth', 200)).toBe(1);
      expect(count('notFound', 404)).toBe(1);
      // Refused before routing (a URL that is not valid percent-encoding): counted under no operation.
      expect(count('unrouted', 400)).toBe(1);
      expect(count('createScanTrackings', 200)).toBe(5);
      // Each scan is in exactly one batch, alone or with others that arrived meanwhile.
      expect(sample(text, 'scan_batch_size_sum')).toBe(5);
      expect(sample(text, 'scan_batch_size_count')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'outbox_pending_messages')).toBe(2);
      expect(sample(text, 'outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(0);
      if (dbDriver() === 'pg') {
        expect(sample(text, 'db_pool_connections{pool="main"}')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'db_pool_waiting_queries{pool="pipelined"}')).toBe(0);
      } else {
        expect(text).not.toContain('db_pool_');
      }
      // Names of operations and statuses only: no URL, query, password or token.
      for (const secret of [
        'Secret-Pass',
        'nobody',
        'SESSION-TOKEN',
        'TOKEN-IN-THE-PATH',
        'TOKEN-IN-A-BAD-URL',
        'QUERY-VALUE',
        'T-1',
        '/api/',
        '/ext/',
        '/healthz',
        'mailAddr',
      ])
        expect(text).not.toContain(secret);
      const operations = new Set([...text.matchAll(/operation="([^"]*)"/g)].map((m) => m[1]));
      expect([...operations].every((o) => /^[a-zA-Z]+$/.test(o!))).toBe(true);

      // The app's own port serves no metrics.
      expect((await app.inject({ url: '/metrics' })).body).not.toContain('http_request_duration_seconds');
      // Only /metrics on the metrics port.
      expect((await fetch(`http://127.0.0.1:${at.port}/`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it(
    'are served by `npm start` on METRICS_PORT, bound to 127.0.0.1, apart from the app',
    async () => {
      const dataDir = await migratedDataDir('ph-metrics-');
      const server = await startServer({ DATA_DIR: dataDir, METRICS_PORT: '0' });
      try {
        const [, host, port] = await waitFor(server, /Metrics: http:\/\/([\d.]+):(\d+)\/metrics/, 10_000);
        expect(host).toBe('127.0.0.1');
        const app = `http://127.0.0.1:${server.port}`;
        expect((await fetch(`${app}/readyz`)).status).toBe(200);
        expect(await (await fetch(`${app}/metrics`)).text()).not.toContain('http_request_duration_seconds');
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(sample(text, 'http_request_duration_seconds_count{operation="getReadiness",status="200"}')).toBe(1);
        expect(text).toContain('process_cpu_seconds_total');
      } finally {
        server.proc.kill('SIGTERM');
        await server.exited;
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    STARTUP_MS + 30_000,
  );
});
