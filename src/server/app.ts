// Builds the Fastify app: plugins first (security headers, body parsers), then the contract's
// routes from openapi.yaml, then the SPA. Every route's roles come from its x-roles.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyValidationResult } from 'fastify/types/schema';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import type { Config } from './config.ts';
import { listOperations, loadSpec, type Operation } from './contract.ts';
import { registerContractRoutes } from './contract-routes.ts';
import { isLoginPage, LOGIN_PAGE_FILE } from './login-page.ts';
import { loadWebPage, pickEncoding, type PageVariant, type WebPage } from './web-page.ts';
import { databaseUrlOf, type Db } from './db/client.ts';
import { startMaintenance, type Maintenance } from './db/maintenance.ts';
import { databaseUnavailable, markDiskFull, unavailableError } from './db/unavailable.ts';
import { AppError, badRequest, Code, forbidden, notImplemented, unauthorized } from './errors.ts';
import { SessionCache } from './auth/sessions.ts';
import { ScanBatcher } from './receiving/scan-batcher.ts';
import { RateLimiter } from './auth/rate-limit.ts';
import type { Mailer } from './mail/mailer.ts';
import type { OutboxWorker } from './mail/outbox.ts';
import { isOk, type Ctx, type Handler, type Handlers, type OpId, type OpRequest } from './handlers/types.ts';
import type { SessionUser } from './auth/session-user.ts';
import { clientErrorAnswer, frameworkAnswer, requestErrorAnswer } from './request-errors.ts';
import { longestPathParameter, parseUrlEncoded, requireBody, validationMessage, withInputRules } from './validation.ts';
import { httpServerOptions } from './http-limits.ts';
import { OneLinePerRequest } from './logger.ts';
import { authHandlers } from './handlers/auth.ts';
import { noticeHandlers } from './handlers/notice.ts';
import { usersHandlers } from './handlers/users.ts';
import { groupsHandlers } from './handlers/groups.ts';
import { itemsHandlers } from './handlers/items.ts';
import { boardsHandlers } from './handlers/boards.ts';
import { boardTasksHandlers } from './handlers/board-tasks.ts';
import { claimsHandlers } from './handlers/claims.ts';
import { tasksHandlers } from './handlers/tasks.ts';
import { purchasedHandlers } from './handlers/purchased.ts';
import { missingHandlers } from './handlers/missing.ts';
import { auditHandlers } from './handlers/audit.ts';
import { matchHandlers } from './handlers/match.ts';
import { filesHandlers } from './handlers/files.ts';
import { scanHandlers } from './handlers/scan.ts';
import { paymentsHandlers } from './handlers/payments.ts';
import { statisticsHandlers } from './handlers/statistics.ts';
import { withdrawHandlers } from './handlers/withdraw.ts';
import { homeHandlers } from './handlers/home.ts';
import { liveHandlers } from './handlers/live.ts';
import { opsHandlers } from './handlers/ops.ts';
import { LiveHub } from './live/hub.ts';
import { isApiPath, operationOf, servesWebApp } from './logger.ts';
import { Metrics } from './ops/metrics.ts';
import { READY_TIMEOUT_MS, ReadinessCheck } from './ops/readiness.ts';
import { uploadRunner, type UploadRunner } from './files/upload-jobs.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    /** The uploaded file of a multipart operation. */
    upload: { field: string; filename: string; mimetype: string; buffer: Buffer } | null;
  }
  interface FastifyInstance {
    /** The handlers' context (tests reset the rate-limit counters through it). */
    appCtx: Ctx;
    /** The Prometheus metrics, when METRICS_PORT is set (main.ts serves them on that port). */
    metrics: Metrics | null;
  }
}

/** Every handler module; operations without an entry answer A00005 '未实现'. */
export const allHandlers: Handlers = {
  ...authHandlers,
  ...noticeHandlers,
  ...usersHandlers,
  ...groupsHandlers,
  ...itemsHandlers,
  ...boardsHandlers,
  ...boardTasksHandlers,
  ...claimsHandlers,
  ...tasksHandlers,
  ...purchasedHandlers,
  ...missingHandlers,
  ...auditHandlers,
  ...matchHandlers,
  ...filesHandlers,
  ...scanHandlers,
  ...paymentsHandlers,
  ...statisticsHandlers,
  ...withdrawHandlers,
  ...homeHandlers,
  ...liveHandlers,
  ...opsHandlers,
};

export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

export interface AppDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  outbox: OutboxWorker;
  /** pino instance; silent when absent (tests). */
  logger?: FastifyBaseLogger;
  handlers?: Handlers;
}

// Query strings and path parameters arrive as text and are coerced to the contract's types;
// bodies are not: a JSON body with 42 where a string belongs is an error, not "42".
// Unknown body fields are rejected (removeAdditional: false), never silently dropped.
// strictNumbers: NaN and Infinity are not numbers.
const ajvFor = (coerceTypes: boolean | 'array') =>
  addFormats(
    new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false, strictNumbers: true, multipleOfPrecision: 6 }),
  );
const ajvText = ajvFor('array');
const ajvBody = ajvFor(false);
const compiled = new Map<string, ReturnType<Ajv['compile']>>();

/**
 * The uploads' runner and, on PGlite (no autovacuum), the app's maintenance (decision 066): checked
 * after each upload, and put off while any upload is in flight (decision 176: one ANALYZE held
 * PGlite's one session ~1 s beside a confirm).
 */
function uploadsAndMaintenance(db: Db, log: FastifyBaseLogger): { maintenance: Maintenance | null; uploads: UploadRunner } {
  const uploads = uploadRunner(db);
  if (databaseUrlOf(db)) return { maintenance: null, uploads };
  let inFlight = 0;
  const maintenance = startMaintenance(db, log, { busy: () => inFlight > 0 });
  const run: UploadRunner['run'] = (job) => {
    inFlight++;
    return uploads.run(job).finally(() => {
      inFlight--;
      maintenance.kick();
    });
  };
  return { maintenance, uploads: { ...uploads, run } };
}

/**
 * What `compile` makes, once per process under `key` and only when first asked for: the contract's
 * schemas are the same in every app a process builds (the API tests build one per file), so a
 * schema's text names its compiled function; and most processes answer few of the contract's
 * operations (a test's server, a clerk's station), while compiling them all was most of a start's
 * work after loading the code (docs/performance.md).
 */
function compiledOnce<F>(cache: Map<string, F>, key: string, compile: () => F): () => F {
  let made = cache.get(key);
  return () => {
    if (!made) cache.set(key, (made = cache.get(key) ?? compile()));
    return made;
  };
}

/** The contract's validator of one part of one operation (compiledOnce). */
function compiledValidator(schema: unknown, httpPart: string | undefined): FastifyValidationResult {
  const body = httpPart === 'body';
  const key = `${body ? 'body' : 'text'} ${JSON.stringify(schema)}`;
  const known = compiled.get(key);
  if (known) return known;
  const validator = compiledOnce(compiled, key, () => (body ? ajvBody : ajvText).compile(schema as object));
  const lazy: FastifyValidationResult = (data: unknown) => {
    const validate = validator();
    // The contract has no async schemas.
    const valid = validate(data) as boolean;
    lazy.errors = validate.errors;
    return valid;
  };
  return lazy;
}

const serializers = new Map<string, (data: unknown) => string>();

/**
 * The contract's serializer of one answer (compiledOnce): Fastify compiled every operation's answers
 * (fast-json-stringify) for each app it built, ~a quarter of building one.
 */
function compiledSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  const key = JSON.stringify(schema);
  const serializer = compiledOnce(serializers, key, () => fastJsonStringify(schema as Schema));
  return serializers.get(key) ?? ((data: unknown) => serializer()(data));
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const maxParamLength = longestPathParameter(loadSpec());
  const metrics = deps.config.metricsPort === undefined ? null : new Metrics(deps.db, deps.logger);
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // One line per request, once it is answered (logger.ts).
    logController: new OneLinePerRequest(),
    // Off unless TRUST_PROXY says otherwise: else any client picks the IP the rate limits count.
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // The router refuses a path parameter longer than this before the contract sees it: as long as
    // the contract's longest, so every value the contract admits reaches it (Fastify's default is 100).
    // Query strings whose values are not valid percent-encoded UTF-8 are refused, not kept raw.
    routerOptions: { maxParamLength, querystringParser: parseUrlEncoded },
    // The router's own refusals (bad percent-encoding in the path, an overlong parameter) in the envelope.
    frameworkErrors: (err, _req, reply) => {
      const { status, code, msg } = frameworkAnswer(err as Error & { code?: string }, maxParamLength);
      // Refused before routing, so no hook sees it: counted here, under no operation.
      metrics?.observeRequest('unrouted', status, 0);
      void (reply as FastifyReply).headers(answerHeaders).status(status).send({ code, msg });
    },
    // Malformed requests that never become one (bad request line, headers too large, timeouts).
    clientErrorHandler: clientErrorAnswer,
    // Bounded time to receive a request (http-limits.ts).
    ...httpServerOptions(deps.config),
  });
  app.decorateRequest('user', null);
  app.decorateRequest('upload', null);
  // Every part also passes the input rules of validation.ts (control characters, lone surrogates,
  // bad encoding, plain decimal numbers; a body's read-only properties are dropped once valid).
  app.setValidatorCompiler(({ schema, httpPart }) => withInputRules(compiledValidator(schema, httpPart), schema, httpPart));
  app.setSerializerCompiler(compiledSerializer);

  const sessions = new SessionCache(deps.db);
  const { maintenance, uploads } = uploadsAndMaintenance(deps.db, app.log);
  const ctx: Ctx = {
    db: deps.db,
    config: deps.config,
    mailer: deps.mailer,
    outbox: deps.outbox,
    log: app.log,
    rateLimits: new RateLimiter(deps.db),
    sessions,
    scans: new ScanBatcher(deps.db, { onBatch: metrics ? (size) => metrics.observeScanBatch(size) : undefined }),
    live: new LiveHub({ db: deps.db, sessions, log: app.log }),
    readiness: new ReadinessCheck(deps.db, READY_TIMEOUT_MS, deps.config.databaseUrl ? undefined : deps.config.dataDir),
    uploads,
  };
  app.decorate('appCtx', ctx);
  app.decorate('metrics', metrics);
  if (metrics) {
    // Every answer, by the name its log line gives it (never the URL).
    app.addHook('onResponse', (req, reply, done) => {
      metrics.observeRequest(operationOf(req) ?? 'unrouted', reply.statusCode, reply.elapsedTime);
      done();
    });
    app.addHook('onClose', () => metrics.close());
  }
  // Open event streams would hold a stopping server until its deadline (lifecycle.ts): they end
  // before the server stops listening, and the database listening (live updates, session
  // revocations) stops before the database closes.
  app.addHook('preClose', (done) => {
    ctx.live.closeStreams();
    done();
  });
  app.addHook('onReady', () => sessions.start());
  app.addHook('onClose', () => Promise.all([ctx.live.stop(), sessions.stop(), ctx.uploads.close(), maintenance?.stop()]).then(() => undefined));

  // index.html with each route's preloads; its inline scripts' hashes go in the CSP (decision 174).
  const webPage = loadWebPage(deps.config.webDir);
  const headers = securityHeaders({ hstsMaxAge: deps.config.hstsMaxAge, scriptHashes: webPage?.scriptHashes });
  const answerHeaders = apiHeaders({ hstsMaxAge: deps.config.hstsMaxAge });
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isApiPath(req.url) ? answerHeaders : headers);
    done();
  });

  await addBodyParsers(app);
  app.setErrorHandler(errorAnswer(deps.db));

  const operations = new Map(listOperations().map((op) => [op.operationId, op]));
  const handlers = deps.handlers ?? allHandlers;

  // The contract's routes (contract-routes.ts), each with what its operation needs.
  await registerContractRoutes(app, (operationId) => {
    const op = operations.get(operationId);
    if (!op) throw new Error(`operation ${operationId} missing from the contract`);
    const handler = handlers[operationId as OpId] as Handler<OpId> | undefined;
    // The probes outside the envelope (tag ops) take no session: a token would cost a database
    // read, and a probe must answer when the database does not.
    if (!op.enveloped) return { handler: handle(handler, ctx) } as Partial<RouteOptions>;
    // A body the contract requires, not sent: A00001 (after the session's 401/403 and the path and
    // query's own refusals), never a handler's TypeError.
    const body = op.bodyRequired ? { preHandler: requireBody } : {};
    return { onRequest: authorize(op, ctx), ...body, handler: handle(handler, ctx) } as Partial<RouteOptions>;
  });

  await serveWebApp(app, deps.config.webDir, webPage);

  return app;
}

/** The request bodies the app reads: JSON, form and multipart (one file, kept on the request); the media types it only answers with are refused. */
async function addBodyParsers(app: FastifyInstance): Promise<void> {
  // Bodies must be UTF-8: invalid bytes are refused, where the default parsers replaced them with
  // U+FFFD. A "__proto__" key stays an own key and is refused by the validation layer, naming it.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(badRequest('参数错误：请求体不是有效的UTF-8'), undefined);
    try {
      done(null, JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')));
    } catch {
      done(badRequest('参数错误：请求体不是有效的JSON'), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(badRequest('参数错误：请求体不是有效的UTF-8'), undefined);
    done(null, parseUrlEncoded(bytes.toString('utf8')));
  });
  // Files and streams the API answers with (media types the contract names for its answers only)
  // are never accepted as request bodies.
  app.addContentTypeParser(['application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/event-stream'], (req, _body, done) =>
    done(badRequest(`参数错误：不支持的Content-Type ${req.headers['content-type'] ?? ''}`), undefined),
  );
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20 },
    async onFile(part) {
      // The bytes are buffered (the size limit applies) and kept on the request; the body's field
      // carries the file name, so the contract's `file: string(binary)` validates as a string.
      const buffer = await part.toBuffer();
      this.upload = { field: part.fieldname, filename: part.filename, mimetype: part.mimetype, buffer };
      (part as unknown as { value: string }).value = part.filename || part.fieldname;
    },
  });
}

/** Every error's answer in the envelope: the app's own, validation's, a malformed request's, the database's 503, else 500. */
function errorAnswer(db: AppDeps['db']) {
  return (err: Error & { validation?: unknown; validationContext?: string; statusCode?: number; code?: string }, req: FastifyRequest, reply: FastifyReply) => {
    // The client closed the connection before its request had arrived (an aborted upload, or one
    // dropped for its time limit): nobody is left to answer, and it is not the server's error.
    if (err.code === 'ECONNRESET' && req.raw.destroyed) {
      req.log.info({ url: req.url.split('?')[0] }, 'request abandoned: the connection closed before the request had arrived');
      return;
    }
    if (err instanceof AppError) {
      if (err.httpStatus >= 500) req.log.error({ err }, err.message);
      return reply.status(err.httpStatus).send({ code: err.code, msg: err.message });
    }
    if (err.validation) {
      return reply.status(400).send({ code: Code.badParam, msg: validationMessage(err.validation as never, err.validationContext ?? 'body') });
    }
    const known = requestErrorAnswer(err, req.headers['content-type']);
    if (known) return reply.status(known.status).send({ code: Code.badParam, msg: known.msg });
    // The database, not the request, failed: 503 (decision 162).
    const down = databaseUnavailable(err);
    if (down) {
      if (down === 'disk full') markDiskFull(db);
      req.log.error({ err }, `database unavailable (${down})`);
      const answer = unavailableError(down);
      return reply.status(answer.httpStatus).send({ code: answer.code, msg: answer.message });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.status(500).send({ code: Code.system, msg: '系统错误' });
  };
}

/** The web app's files, robots.txt, and every other path: 404 in the envelope, the login page or the SPA. */
async function serveWebApp(app: FastifyInstance, webDir: string, webPage: WebPage | null): Promise<void> {
  // Unknown API paths and missing files (a path ending in an extension, or under /assets/) answer
  // 404 in the envelope; /login is the login page's own html (login.html, decision 131); every
  // other path is the SPA (history mode): index.html with the preloads of the path's route
  // (web-page.ts, decision 174). Both pages compressed by Accept-Encoding, revalidated on each use
  // (staticCacheControl).
  const hasWeb = webPage !== null;
  const hasLoginPage = fs.existsSync(path.join(webDir, LOGIN_PAGE_FILE));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => void reply.header('cache-control', staticCacheControl(webDir, file)),
    });
  }
  // Nothing of the app is for search engines (every page is behind a login): a real robots.txt,
  // not the SPA's html.
  app.get('/robots.txt', (_req, reply) => reply.type('text/plain; charset=utf-8').send('User-agent: *\nDisallow: /\n'));
  app.setNotFoundHandler((req, reply) => {
    if (!servesWebApp(req.method, req.url)) {
      return reply.status(404).send({ code: Code.notFound, msg: isApiPath(req.url) ? '接口不存在' : '文件不存在' });
    }
    if (!webPage) return reply.status(404).type('text/plain; charset=utf-8').send('The web app is not built: run npm run build.');
    if (hasLoginPage && isLoginPage(req.url)) return reply.sendFile(LOGIN_PAGE_FILE);
    return sendPage(req, reply, webPage.forUrl(req.url));
  });
}

/** index.html for a path of the app: by Accept-Encoding, revalidated by its ETag (304 when unchanged). */
function sendPage(req: FastifyRequest, reply: FastifyReply, page: PageVariant) {
  reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').header('etag', page.etag).type('text/html; charset=utf-8');
  if (req.headers['if-none-match'] === page.etag) return reply.status(304).send();
  const encoding = pickEncoding(req.headers['accept-encoding']);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.raw);
}

/**
 * Files under assets/ carry a content hash in their name (a change is a new name): cached for a year
 * and never revalidated. Everything else (index.html, favicon) is revalidated on each use, so a
 * deploy is seen at the next load.
 */
export function staticCacheControl(webDir: string, file: string): string {
  const relative = path.relative(webDir, file).split(path.sep);
  return relative[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

function authorize(op: Operation, ctx: Ctx) {
  const anonymous = op.roles.includes('anonymous');
  return async (req: FastifyRequest) => {
    const token = req.headers['x-token'];
    const value = typeof token === 'string' ? token.trim() : '';
    if (value) {
      req.user = await ctx.sessions.resolve(value);
      // An expired token on an anonymous call is simply ignored.
      if (!req.user && !anonymous) throw unauthorized('Token已过期，请重新登录');
    }
    if (!anonymous) {
      if (!req.user) throw unauthorized('请先登录');
      if (!op.roles.includes(req.user.roleType)) throw forbidden();
    }
    // A body is only read in a media type the contract declares for this operation; otherwise
    // its schema (keyed by media type) would not apply to it.
    const contentType = req.headers['content-type'];
    const type = contentType ? contentType.split(';')[0]!.trim().toLowerCase() : '';
    if (type && op.requestTypes.length && !op.requestTypes.includes(type)) {
      throw badRequest(`参数错误：不支持的Content-Type ${type}，应为 ${op.requestTypes.join(' 或 ')}`);
    }
  };
}

function handle(handler: Handler<OpId> | undefined, ctx: Ctx) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (!handler) throw notImplemented();
    const opReq = {
      query: req.query ?? {},
      params: req.params ?? {},
      body: req.body,
      user: req.user,
      ip: req.ip,
      raw: req,
    } as OpRequest<OpId>;
    const result = await handler(opReq, ctx, reply);
    if (isOk(result)) return { code: Code.ok, msg: result.msg, data: result.data };
    return result;
  };
}

/**
 * The security headers of every response: helmet's, with this app's Content-Security-Policy
 * (same-origin scripts and connections; inline styles for the UI kit; images and media from data:
 * and blob: URLs, as the label preview and the camera scanner make them; no framing); a
 * Permissions-Policy granting the camera to this origin alone (/admin/scan's scanner) and the
 * microphone, location, payment and USB to nobody (the app uses none); Strict-Transport-Security only when HSTS_MAX_AGE is set (the TLS proxy in
 * front knows whether there is TLS; decision 035). Computed once at start, by helmet's middleware run
 * on a response that only records them: they are the same for every response (no nonces), and
 * @fastify/helmet rebuilds helmet's middleware on each request (~8 µs CPU a request, decision 036).
 */
export function securityHeaders(opts: { hstsMaxAge?: number; scriptHashes?: readonly string[] } = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The hashes: index.html's inline scripts (web-page.ts), and no other inline script.
        scriptSrc: ["'self'", ...(opts.scriptHashes ?? [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:', 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // Not for sibling subdomains: other sites of the domain may not have TLS.
    hsts: opts.hstsMaxAge === undefined ? false : { maxAge: opts.hstsMaxAge, includeSubDomains: false },
  })({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  headers['permissions-policy'] = 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()';
  return headers;
}

/** What an API answer keeps of a page's headers (apiHeaders). */
const ANSWER_KEEPS = ['cross-origin-resource-policy', 'x-content-type-options', 'referrer-policy', 'strict-transport-security'];

/**
 * The headers of an API answer (/api/, /ext/: JSON, or a file to save), which no browser runs as a
 * page: nothing may load from it or frame it, no other site may read it, no browser may sniff it as
 * another type, and no cache may keep it (answers carry personal data: user info, cards,
 * withdrawals). A page's own headers (its script hashes, Permissions-Policy, COOP...) govern what a
 * document does: an answer carries 7 headers instead of 14 (decision 187).
 */
export function apiHeaders(opts: { hstsMaxAge?: number } = {}): Record<string, string> {
  const page = securityHeaders(opts);
  const kept = ANSWER_KEEPS.filter((k) => page[k] !== undefined).map((k) => [k, page[k]!]);
  return {
    'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    ...Object.fromEntries(kept),
    'cache-control': 'no-store',
  };
}
