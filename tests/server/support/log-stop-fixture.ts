// A server process for tests/server/http/log-destination.test.ts: Fastify with the app's logger
// (logger.ts createLogger on logDestination, its one line per request) writing to LOG_FILE, stopped
// by the app's graceful stop (lifecycle.ts) on SIGTERM; `GET /crash` throws outside any request
// (an uncaught exception ends the process). Prints `listening <port>`.
import Fastify, { type FastifyInstance } from 'fastify';
import { createLogger, logDestination, OneLinePerRequest } from '../../../src/server/logger.ts';
import { prepareGracefulStop } from '../../../src/server/lifecycle.ts';

const log = createLogger('info', logDestination(process.env.LOG_FILE!) as never);
const app = Fastify({ loggerInstance: log, logController: new OneLinePerRequest() });
app.get('/hello', async () => ({ hello: 'world' }));
app.get('/crash', async () => {
  setImmediate(() => {
    throw new Error('crash outside a request');
  });
  return { crashing: true };
});
const stop = prepareGracefulStop(app as unknown as FastifyInstance, { log, announce: () => undefined, closeRest: async () => undefined });
process.on('SIGTERM', () => stop('SIGTERM'));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
