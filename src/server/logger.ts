// pino, as Fastify uses it. A request is logged (and counted in the metrics) by its operationId and
// route pattern, never by its URL: the login call carries the password in its query (SPEC §7), token
// checks carry one-time tokens there, and download links carry their token in the path. Requests no
// operation serves are named by what served them (operationOf); unknown paths log the path alone.
import type { Writable } from 'node:stream';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';

interface RequestLike {
  method: string;
  url: string;
  id?: string;
  ip?: string;
  /** Fastify's request has these (a raw request, logged before routing, has neither). */
  routeOptions?: { url?: string; schema?: unknown };
  is404?: boolean;
}

const API_PREFIXES = ['/api/', '/ext/'];
export const isApiPath = (url: string) => API_PREFIXES.some((p) => url.startsWith(p));

/**
 * A path of a file, never a page of the web app: under /assets/, or its last segment ends in an
 * extension (.js .css .map .png ...). A missing one is a 404, not index.html (a stale chunk or a
 * probe would otherwise get html with a 200). The app's own routes have no dot in their last segment.
 */
const isFilePath = (url: string) => {
  const p = url.split('?')[0]!;
  return p.startsWith('/assets/') || /\.[A-Za-z0-9]{1,10}$/.test(p);
};

/** An unrouted request the web app answers (history mode): a GET or HEAD outside the API, not of a file. */
export const servesWebApp = (method: string, url: string) => (method === 'GET' || method === 'HEAD') && !isApiPath(url) && !isFilePath(url);

/**
 * The name a request is logged and counted by: its operationId; else `static` (a built file),
 * `webApp` (index.html for a path of the web app) or `notFound`. Never the URL, so a metric has one
 * series per operation, not per id or token. Undefined for a request not yet routed.
 */
export function operationOf(req: RequestLike): string | undefined {
  const operationId = (req.routeOptions?.schema as { operationId?: string } | undefined)?.operationId;
  if (operationId) return operationId;
  if (req.is404) return servesWebApp(req.method, req.url) ? 'webApp' : 'notFound';
  return req.routeOptions?.url ? 'static' : undefined;
}

/** What a log line says of a request (Fastify passes its request object to the `req` serializer). */
export function requestForLog(req: RequestLike) {
  return { method: req.method, op: operationOf(req), route: req.routeOptions?.url ?? req.url.split('?')[0], ip: req.ip, id: req.id };
}

/** What a log line says of an answer ('request completed'): its status and the operation it answered. */
export function responseForLog(reply: { statusCode: number; request?: RequestLike }) {
  return { statusCode: reply.statusCode, op: reply.request ? operationOf(reply.request) : undefined };
}

export function createLogger(level: string, destination?: Writable): Logger {
  return pino(
    {
      level,
      redact: { paths: ['req.headers["x-token"]', 'req.headers.cookie', 'req.headers.authorization'], remove: true },
      serializers: { req: requestForLog, res: responseForLog },
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
