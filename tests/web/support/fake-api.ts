// The HTTP boundary the web tests fake, in one place: a route table keyed 'METHOD /path', where a
// path may name its parameters as openapi.yaml does ('/api/task/info/{id}'); the contract's envelope
// ({code, msg, data} with its HTTP status, docs/CONVENTIONS.md "Wire") and its page shape; a log of
// the calls a fake answered; and an API client on that table (fakeApiClient) for a test that renders
// one component rather than the app. Each area's fake is tests/web/<area>/<area>-fake.ts, made by
// create<Area>Fake(seed) on createFakeServer: its in-memory state answers on top of this, and
// app-harness's renderApp routes the app's requests through the same table. Only the web app is
// under test here; the real server is proven by tests/server.
import { createApiClient, type ApiClient, type ApiClientOptions } from '../../../src/api/client';
import { zh } from '../../../src/web/i18n/zh';
import { fakeXhr, type UploadScript } from './fake-xhr';

export type Handler = (request: Request) => Response | Promise<Response>;

/** 'METHOD /path' (or '/path/{param}') -> handler. Later entries of a spread replace earlier ones. */
export type Routes = Record<string, Handler>;

// ---------------------------------------------------------------- envelopes

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A00000 with `data` (and a message when the call has one to show). */
export function ok(data?: unknown, msg?: string): Response {
  return json(msg === undefined ? { code: 'A00000', data } : { code: 'A00000', msg, data });
}

/** A refused call: A00001 and HTTP 400 unless told otherwise. */
export function refuse(msg: string, status = 400, code = 'A00001'): Response {
  return json({ code, msg }, status);
}

/** A00004 with HTTP 404. */
export function notFound(msg: string): Response {
  return refuse(msg, 404, 'A00004');
}

/** A list page as the contract answers it: `page` (0-based) and `size` from the query. */
export function pageOf<T>(rows: readonly T[], query: Readonly<Record<string, string>>, defaultSize = 20) {
  const page = Number(query.page ?? 0);
  const size = Number(query.size ?? defaultSize);
  return { content: rows.slice(page * size, page * size + size), totalPages: Math.ceil(rows.length / size), totalElements: rows.length };
}

// ---------------------------------------------------------------- routing

/** The path parameters of `pathname` under `pattern` ('/a/{id}/b'), or null when it does not match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const name = /^\{(\w+)\}$/.exec(want[i]!)?.[1];
    if (name) {
      if (!got[i]) return null;
      params[name] = decodeURIComponent(got[i]!);
    } else if (want[i] !== got[i]) {
      return null;
    }
  }
  return params;
}

const paramCount = (key: string) => (key.match(/\{/g) ?? []).length;

/** The route for a request: an exact path first, then the pattern with the fewest parameters. */
export function routeFor(routes: Routes, method: string, pathname: string): { handler: Handler; params: Record<string, string> } | undefined {
  const exact = routes[`${method} ${pathname}`];
  if (exact) return { handler: exact, params: {} };
  const candidates = Object.keys(routes)
    .filter((key) => key.startsWith(`${method} `) && key.includes('{'))
    .sort((a, b) => paramCount(a) - paramCount(b));
  for (const key of candidates) {
    const params = matchPath(key.slice(method.length + 1), pathname);
    if (params) return { handler: routes[key]!, params };
  }
  return undefined;
}

/** The answer to a call nobody routed: A00004, naming the path (a test missing a route reads it). */
export function notStubbed(pathname: string): Response {
  return json({ code: 'A00004', msg: `not stubbed: ${pathname}` }, 404);
}

/** Answers `request` from `routes`. */
export async function answerFrom(routes: Routes, request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  const route = routeFor(routes, request.method, pathname);
  return route ? route.handler(request) : notStubbed(pathname);
}

// ---------------------------------------------------------------- the server

export interface Call {
  method: string;
  path: string;
  /** The path's parameters, by the names of the route's pattern. */
  params: Record<string, string>;
  query: Record<string, string>;
  /** JSON and form bodies parsed; a multipart file as {name, size}. */
  body: unknown;
}

export type Answer = (call: Call, request: Request) => Response | Promise<Response>;

export interface FakeServer<K extends string = never> {
  /** The route table, for renderApp (spread several fakes' tables into one to combine them). */
  handlers: Routes;
  /** Every call the routes answered, in order. */
  calls: Call[];
  /** Replace the answer of a named route (a refusal, say); the call is still logged. */
  answer: Partial<Record<K, Answer>>;
  /** A dropped connection: every call to a named route is logged and then fails without an answer (fetch rejects). */
  down: boolean;
  /** Adds a route; `name` lets a test replace its answer through `answer`. */
  on(method: string, path: string, answer: Answer, name?: K): void;
  /** The calls made to `path` (a pattern matches as in routing), optionally of one method. */
  callsTo(path: string, method?: string): Call[];
}

async function readBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  const copy = request.clone();
  if (type.includes('json')) {
    const text = await copy.text();
    return text ? JSON.parse(text) : undefined;
  }
  if (type.includes('multipart')) {
    const form = await copy.formData();
    const file = form.get('file');
    return { file: file instanceof Blob ? { name: (file as File).name, size: file.size } : file };
  }
  if (type.includes('x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(await copy.text()));
  return undefined;
}

export function createFakeServer<K extends string = never>(): FakeServer<K> {
  const server: FakeServer<K> = {
    handlers: {},
    calls: [],
    answer: {},
    down: false,
    on(method, path, answer, name) {
      server.handlers[`${method} ${path}`] = async (request) => {
        const url = new URL(request.url);
        const call: Call = {
          method: request.method,
          path: url.pathname,
          params: matchPath(path, url.pathname) ?? {},
          query: Object.fromEntries(url.searchParams),
          body: await readBody(request),
        };
        server.calls.push(call);
        if (server.down && name !== undefined) throw new TypeError('Failed to fetch');
        const override = name === undefined ? undefined : server.answer[name];
        return (override ?? answer)(call, request);
      };
    },
    callsTo(path, method) {
      return server.calls.filter((call) => (method === undefined || call.method === method) && matchPath(path, call.path) !== null);
    },
  };
  return server;
}

// ---------------------------------------------------------------- a client on the table

export interface FakeApiClientOptions extends Partial<Pick<ApiClientOptions, 'readToken' | 'notifyError' | 'onSessionSignal' | 'messages'>> {
  /** How an upload's body goes out (api.upload's progress); all at once by default. */
  uploadScript?: UploadScript;
}

/**
 * The app's API client on a fake fetch that answers from `routes` (uploads too, through a fake
 * XMLHttpRequest on the same fetch), and every request it sent. No token, no toasts and no session
 * signals unless `options` says otherwise.
 */
export function fakeApiClient(routes: Routes, options: FakeApiClientOptions = {}): { api: ApiClient; requests: Request[] } {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request.clone());
    return answerFrom(routes, request);
  };
  const api = createApiClient({
    baseUrl: 'http://localhost',
    fetch,
    createXhr: fakeXhr(fetch, options.uploadScript),
    readToken: options.readToken ?? (() => null),
    notifyError: options.notifyError ?? (() => {}),
    onSessionSignal: options.onSessionSignal ?? (() => {}),
    messages: options.messages ?? { networkError: zh.common.networkError },
  });
  return { api, requests };
}
