// pino, as Fastify uses it. A request is logged by its operationId and route pattern, never by its
// URL: the login call carries the password in its query (SPEC §7), token checks carry one-time
// tokens there, and download links carry their token in the path. Unknown paths log the path alone.
import type { Writable } from 'node:stream';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';

/** What a log line says of a request (Fastify passes its request object to the `req` serializer). */
export function requestForLog(req: { method: string; url: string; id?: string; ip?: string; routeOptions?: { url?: string; schema?: unknown } }) {
  const route = req.routeOptions?.url;
  const schema = req.routeOptions?.schema as { operationId?: string } | undefined;
  return { method: req.method, op: schema?.operationId, route: route ?? req.url.split('?')[0], ip: req.ip, id: req.id };
}

export function createLogger(level: string, destination?: Writable): Logger {
  return pino(
    {
      level,
      redact: { paths: ['req.headers["x-token"]', 'req.headers.cookie', 'req.headers.authorization'], remove: true },
      serializers: { req: requestForLog },
    },
    destination,
  );
}

/**
 * One line per request, written once it is answered: the request (requestForLog), its status and
 * time; Fastify's own two lines (received, then completed) cost twice the JSON per request
 * (docs/decisions/141-one-log-line-per-request.md).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
