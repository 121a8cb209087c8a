// GET /healthz and GET /readyz (Beyond SPEC §7; docs/decisions/160-health-readiness-and-metrics.md):
// the probes of a load balancer, outside the API envelope. app.ts routes them without the session
// check (a token would cost a database read, and a probe must answer when the database does not), and
// they never throw: any failure of the database is a 503, never the envelope's 500.
import type { Handlers } from './types.ts';

export const opsHandlers: Handlers = {
  async getHealth(_req, _ctx, reply) {
    return reply.header('cache-control', 'no-store').send({ status: 'ok' });
  },

  async getReadiness(_req, ctx, reply) {
    const readiness = await ctx.readiness.check();
    return reply
      .status(readiness.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(readiness.ready ? { status: 'ready' } : { status: 'unready', reason: readiness.reason });
  },
};
