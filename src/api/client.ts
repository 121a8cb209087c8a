// The one API client of the web app: openapi-fetch typed by the generated `paths`, same origin
// (SPEC §9). Its middleware sends the session token (`x-token`, `x-keepflag`) from `readToken`
// unless the call set `x-token` itself, and applies SPEC §8 to every answer (classifyResponse):
// error messages through `notifyError`, the session signals token.expired / no.access through
// `onSessionSignal`. It knows nothing of the web: src/web/app/api.ts hands in the token store, the
// toast and the words. `{ silent: true }` (or the header `x-silent: 1`, removed before sending)
// opts one call out of the toasts, not out of the session signals. `api.upload` (upload.ts) is a
// multipart POST over XMLHttpRequest for its progress, with the same headers and SPEC §8 handling.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { sendUpload, type Upload, type UploadTransport, type UploadXhr } from './upload';

export type ApiPaths = paths;
export type ApiClient = Client<paths> & { upload: Upload };

export const SUCCESS_CODE = 'A00000';
export const UNAUTHORIZED_CODE = 'A00002';
export const NO_PERMISSION_CODE = 'A00003';
export const TOKEN_HEADER = 'x-token';
export const KEEP_FLAG_HEADER = 'x-keepflag';
export const SILENT_HEADER = 'x-silent';
export const UNKNOWN_ERROR = 'unknown error';

/** Headers for the calls SPEC §7 marks "(form)": openapi-fetch then sends URL-encoded fields. */
export const FORM_URLENCODED = { 'Content-Type': 'application/x-www-form-urlencoded' } as const;

/**
 * `bodySerializer` for multipart uploads (Excel imports, withdraw confirm):
 * `api.POST(path, { body: { file }, bodySerializer: multipartBody })`. Blobs/Files are appended as
 * files, arrays as repeated fields, everything else as text; null/undefined fields are left out.
 */
export function multipartBody(body: unknown): FormData {
  const form = new FormData();
  if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === undefined || item === null) continue;
        if (item instanceof Blob) form.append(key, item);
        else form.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
      }
    }
  }
  return form;
}

const MESSAGE_FIELDS = ['msg', 'errorMsg', 'error_description', 'error_msg', 'error'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function findMessage(body: unknown): string | null {
  if (!isRecord(body)) return null;
  for (const field of MESSAGE_FIELDS) {
    const value = body[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

/** SPEC §8: the message of a response body: msg, errorMsg, error_description, error_msg, error; else 'unknown error'. */
export function extractMessage(body: unknown): string {
  return findMessage(body) ?? UNKNOWN_ERROR;
}

/** The server's own words in a body (the fields of extractMessage), or '' when it gave none. */
export function serverWords(body: unknown): string {
  return findMessage(body) ?? '';
}

/** SPEC §8: an error message shows the response code followed by its message, e.g. `A00001 参数错误`. */
export function errorText(code: string | null | undefined, msg: string): string {
  const text = msg.trim() || UNKNOWN_ERROR;
  return code ? `${code} ${text}` : text;
}

export type ResponseVerdict =
  /** Success: no code, or A00000 (and no failed opStatus). */
  | { kind: 'ok' }
  /** A00000 whose data.opStatus is present and not 'succ': error toast with the message. */
  | { kind: 'op.failed'; message: string }
  /** HTTP 401, A00002 or a legacy 401/'unauthorized' code: the session's token.expired. */
  | { kind: 'token.expired' }
  /** A00003 (or a bare HTTP 403): the session's no.access. */
  | { kind: 'no.access' }
  /** Legacy codes 301/302: no toast (SPEC §8 excludes them). */
  | { kind: 'redirect' }
  /** Any other non-success code: error toast "code message". */
  | { kind: 'error'; code: string; message: string };

const UNAUTHORIZED_CODES = new Set([UNAUTHORIZED_CODE, '401', 'unauthorized']);
const REDIRECT_CODES = new Set(['301', '302']);

/**
 * SPEC §8 as a pure function of the HTTP status and the parsed JSON body (undefined when the body
 * was not JSON). A JSON body without a code counts as success; a non-JSON error response (a proxy's
 * 502 page, say) is reported as an error with code `HTTP <status>`.
 */
export function classifyResponse(status: number, body: unknown): ResponseVerdict {
  const rawCode = isRecord(body) ? body.code : undefined;
  const code = rawCode === undefined || rawCode === null || rawCode === '' ? null : String(rawCode);

  if (status === 401 || (code !== null && UNAUTHORIZED_CODES.has(code))) return { kind: 'token.expired' };
  if (code === NO_PERMISSION_CODE || (code === null && status === 403)) return { kind: 'no.access' };
  if (code !== null && REDIRECT_CODES.has(code)) return { kind: 'redirect' };

  if (code === null && status >= 400) {
    return { kind: 'error', code: `HTTP ${status}`, message: findMessage(body) ?? UNKNOWN_ERROR };
  }
  if (code !== null && code !== SUCCESS_CODE) {
    return { kind: 'error', code, message: extractMessage(body) };
  }

  const data = isRecord(body) ? body.data : undefined;
  if (isRecord(data) && 'opStatus' in data && data.opStatus !== undefined && data.opStatus !== 'succ') {
    return { kind: 'op.failed', message: findMessage(data) ?? extractMessage(body) };
  }
  return { kind: 'ok' };
}

export type SessionSignal = { type: 'token.expired' } | { type: 'no.access' };
type SignalListener = (signal: SessionSignal) => void;

const signalListeners = new Set<SignalListener>();

/** A channel for session signals: the web's client emits into it and the app forwards them to the session actor. */
export const sessionSignals = {
  subscribe(listener: SignalListener): () => void {
    signalListeners.add(listener);
    return () => {
      signalListeners.delete(listener);
    };
  },
  emit(signal: SessionSignal): void {
    for (const listener of signalListeners) listener(signal);
  },
};

/** The session's token as the client sends it (the web's token store keeps it). */
export interface SessionToken {
  token: string;
  /** "Remember me": sent as x-keepflag 1. */
  keep: boolean;
}

/** The words the client itself shows (the web's catalog has them). */
export interface ClientMessages {
  /** A call that got no answer (offline, connection reset). */
  networkError: string;
}

export interface ApiClientOptions {
  /** Defaults to '' (same origin). Tests running outside a page pass an absolute origin. */
  baseUrl?: string;
  /** Injected fetch (tests); defaults to the global fetch. */
  fetch?: (input: Request) => Promise<Response>;
  /** Where the token comes from (the web's token store). */
  readToken: () => SessionToken | null;
  /** Shows an error message (the web's error toast). */
  notifyError: (message: string) => void;
  /** Receives token.expired / no.access (the web forwards them to the session actor). */
  onSessionSignal: (signal: SessionSignal) => void;
  messages: ClientMessages;
  /** Injected XMLHttpRequest for `upload` (tests); defaults to a new XMLHttpRequest. */
  createXhr?: () => UploadXhr;
}

type ReportOptions = Pick<ApiClientOptions, 'readToken' | 'notifyError' | 'onSessionSignal' | 'messages'>;

/** x-token and x-keepflag from the stored token; none without one. */
function sessionHeaders(readToken: ReportOptions['readToken']): Record<string, string> {
  const stored = readToken();
  return stored ? { [TOKEN_HEADER]: stored.token, [KEEP_FLAG_HEADER]: stored.keep ? '1' : '0' } : {};
}

/** SPEC §8 for one answer: session signals always, error toasts unless the call is silent. */
function reportResponse(options: ReportOptions, status: number, body: unknown, silent: boolean): void {
  const verdict = classifyResponse(status, body);
  switch (verdict.kind) {
    case 'token.expired':
    case 'no.access':
      options.onSessionSignal({ type: verdict.kind });
      break;
    case 'op.failed':
      if (!silent) options.notifyError(verdict.message);
      break;
    case 'error':
      if (!silent) options.notifyError(errorText(verdict.code, verdict.message));
      break;
    default:
      break;
  }
}

function reportNetworkError(options: ReportOptions, silent: boolean): void {
  if (!silent) options.notifyError(options.messages.networkError);
}

async function readJsonBody(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return undefined;
  try {
    const text = await response.clone().text();
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function isSilentRequest(request: Request): boolean {
  return (request as Request & { silent?: unknown }).silent === true;
}

/** The SPEC §8 middleware, parameterised so tests can observe what it does. */
export function createApiMiddleware(options: ReportOptions): Middleware {
  const silentIds = new Set<string>();
  return {
    onRequest({ request, id }) {
      if (request.headers.has(SILENT_HEADER)) {
        silentIds.add(id);
        request.headers.delete(SILENT_HEADER);
      }
      if (isSilentRequest(request)) silentIds.add(id);
      if (!request.headers.has(TOKEN_HEADER)) {
        for (const [name, value] of Object.entries(sessionHeaders(options.readToken))) request.headers.set(name, value);
      }
      return undefined;
    },
    async onResponse({ response, id }) {
      const silent = silentIds.delete(id);
      reportResponse(options, response.status, await readJsonBody(response), silent);
      return undefined;
    },
    onError({ error, id }) {
      reportNetworkError(options, silentIds.delete(id));
      return error instanceof Error ? error : new Error(String(error));
    },
  };
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl ?? '';
  const client = createClient<paths>({ baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { readToken, notifyError, onSessionSignal, messages } = options;
  const report: ReportOptions = { readToken, notifyError, onSessionSignal, messages };
  client.use(createApiMiddleware(report));
  const transport: UploadTransport = {
    baseUrl,
    createXhr: options.createXhr ?? (() => new XMLHttpRequest()),
    headers: () => sessionHeaders(report.readToken),
    onResponse: (status, body, silent) => reportResponse(report, status, body, silent),
    onNetworkError: (silent) => reportNetworkError(report, silent),
  };
  const upload: Upload = (path, body, uploadOptions) => sendUpload(transport, path, body, uploadOptions);
  return Object.assign(client, { upload });
}
