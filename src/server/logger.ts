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

/**
 * What a log line says of a request (Fastify passes its request object to the `req` serializer). Its
 * id is the line's `reqId` (Fastify's request logger), not repeated here.
 */
export function requestForLog(req: RequestLike) {
  return { method: req.method, op: operationOf(req), route: req.routeOptions?.url ?? req.url.split('?')[0], ip: req.ip };
}

/** What a log line says of an answer ('request completed'): its status (the operation is the request's `op`). */
export function responseForLog(reply: { statusCode: number }) {
  return { statusCode: reply.statusCode };
}

/** Bytes of log lines kept before they are written (decision 141): a write per ~13 request lines, not per line. */
export const LOG_BUFFER_BYTES = 4096;
/** A quiet server's buffered lines are written within this many ms. */
export const LOG_FLUSH_MS = 1000;
/** Lines at this level and above (error, fatal) start their write at once, with what was buffered before them. */
const WRITTEN_AT_ONCE = 50;

/** The destinations logDestination made: buffered, so the logger writes them out on a timer and on an error line. */
const bufferedDestinations = new WeakSet<object>();

/**
 * The log's own destination (`dest`: a file descriptor, stdout by default, or a path): asynchronous
 * and buffered (pino.destination, sync false), so a request's line costs the request a string
 * append, not a write (decision 141). Written when LOG_BUFFER_BYTES are buffered, within LOG_FLUSH_MS
 * ms when there is something to write, at once (asynchronously) after an error line, on stop
 * (flushLog) and when the process exits, a crash included (pino writes the buffer synchronously on
 * the process's `exit`). What is lost: the buffer, at most the last second's lines (~LOG_BUFFER_BYTES
 * under load), when the process is killed (SIGKILL, the stop's watchdog, the OOM killer) or V8 aborts.
 */
export function logDestination(dest: number | string = 1) {
  const stream = pino.destination({ dest, sync: false, minLength: LOG_BUFFER_BYTES });
  bufferedDestinations.add(stream);
  return stream;
}

export function createLogger(level: string, destination?: Writable): Logger {
  const stream = destination ?? (logDestination() as unknown as Writable);
  const buffered = bufferedDestinations.has(stream) ? (stream as unknown as { flush(): void }) : null;
  let pending = false;
  const write = () => {
    pending = false;
    try {
      buffered!.flush();
    } catch {
      // Closed (the process is ending): its exit wrote what was left.
    }
  };
  const logger = pino(
    {
      level,
      // No headers reach a line: pino serializes `req` (requestForLog: no headers) before it would
      // redact, so redacting req.headers found nothing and cost each request line ~2 KB of
      // garbage and its walk (decision 177). requestForLog is what keeps tokens out.
      serializers: { req: requestForLog, res: responseForLog },
      ...(buffered
        ? {
            hooks: {
              logMethod(args, method, levelValue) {
                method.apply(this, args);
                if (levelValue >= WRITTEN_AT_ONCE) write();
                else pending = true;
              },
            },
          }
        : {}),
    },
    stream,
  );
  if (buffered) setInterval(() => pending && write(), LOG_FLUSH_MS).unref();
  return logger;
}

/** Writes the buffered lines; resolves once written (or after `ms` whatever happens), for a stop. */
export function flushLog(log: object, ms = 1000): Promise<void> {
  const { flush } = log as { flush?: (cb: () => void) => void };
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      if (typeof flush === 'function') flush.call(log, done);
      else done();
    } catch {
      done();
    }
  });
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
