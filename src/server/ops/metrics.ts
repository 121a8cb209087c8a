// Prometheus metrics (prom-client), kept only when METRICS_PORT is set and served on that port alone,
// bound to METRICS_HOST (127.0.0.1 by default): never on the app's public port. Requests are counted
// by operation and HTTP status (logger.ts operationOf), never by URL, which carries ids and tokens and
// would make a series per parcel. Requests and scan batches are counted as they happen; the outbox
// backlog (in the database) and the pools' use are read when scraped.
// docs/decisions/160-health-readiness-and-metrics.md.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolUseOf, type Db, type PoolUse } from '../db/client.ts';
import { outboxBacklog } from '../mail/outbox.ts';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'operation' | 'status'>;
  private readonly scanBatches: Histogram;
  private server: http.Server | null = null;

  constructor(db: Db, log?: FastifyBaseLogger) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // Its _count is the number of requests: no separate counter.
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Requests answered, by operation (operationId, or static, webApp, notFound, unrouted) and HTTP status, and the time to answer each',
      labelNames: ['operation', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.scanBatches = new Histogram({
      name: 'scan_batch_size',
      help: 'Scans written together in one transaction (receiving/scan-batcher.ts)',
      buckets: [1, 2, 4, 8, 16, 32],
      registers,
    });
    /** A gauge read from the database when scraped; no sample while the database does not answer. */
    const fromDatabase = (name: string, help: string, query: () => Promise<number | null>) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          try {
            const value = await query();
            if (value === null) this.reset();
            else this.set(value);
          } catch (err) {
            log?.debug({ err }, `metrics: ${name} not read`);
            this.reset();
          }
        },
      });
    fromDatabase('outbox_pending_messages', 'Mails in the outbox waiting to be sent (first tries and retries)', async () => (await outboxBacklog(db)).pending);
    fromDatabase(
      'outbox_oldest_pending_seconds',
      'Age of the oldest mail waiting in the outbox (absent when none waits)',
      async () => (await outboxBacklog(db)).oldestSeconds,
    );
    // PostgreSQL only: PGlite has one connection whose queue it does not expose.
    const pools = poolUseOf(db);
    if (pools) {
      const poolGauge = (name: string, help: string, read: (p: PoolUse) => number) =>
        new Gauge({
          name,
          help,
          labelNames: ['pool'],
          registers,
          collect() {
            for (const p of pools()) this.set({ pool: p.pool }, read(p));
          },
        });
      poolGauge(
        'db_pool_connections',
        'Connections open in the pool (main: requests; pipelined: scan batches and uploads; keyLookups: reads by key, the near misses)',
        (p) => p.total,
      );
      poolGauge('db_pool_idle_connections', 'Open connections of the pool not in use', (p) => p.idle);
      poolGauge('db_pool_waiting_queries', 'Queries waiting for a connection of the pool', (p) => p.waiting);
    }
  }

  observeRequest(operation: string, status: number, ms: number): void {
    this.requests.observe({ operation, status: String(status) }, ms / 1000);
  }

  observeScanBatch(size: number): void {
    this.scanBatches.observe(size);
  }

  /** Serves GET /metrics on host:port (0: any free port); answers the address. */
  async listen(host: string, port: number): Promise<AddressInfo> {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics\n');
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        () => res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    return server.address() as AddressInfo;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
