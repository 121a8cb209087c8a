// A multipart POST that reports how much of the body has been sent. fetch cannot report upload
// progress, so this one kind of call goes through XMLHttpRequest. It is not a second client: the
// API client (client.ts) builds it with its own token headers and its own SPEC §8 handling of the
// answer (toasts, the session signals token.expired / no.access) and exposes it as `api.upload`,
// so an upload behaves like any other call, only with progress.
import type { paths } from './schema';

/** How much of the request body has gone out. `percent` is null while the size is not known. */
export interface UploadProgress {
  loaded: number;
  total: number;
  percent: number | null;
}

export interface UploadOptions {
  /** Called as the body goes out; the last call (percent 100) comes once all of it is sent. */
  onProgress?: (progress: UploadProgress) => void;
  /** No error toasts for this call (the page words the failure); session signals still go out. */
  silent?: boolean;
  /** Aborts the upload; the promise then rejects with an AbortError. */
  signal?: AbortSignal;
}

/** The part of XMLHttpRequest an upload uses (tests hand in a fake). */
export interface UploadXhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  abort(): void;
  getResponseHeader(name: string): string | null;
  readonly status: number;
  readonly responseText: string;
  readonly upload: {
    onprogress: ((event: ProgressEvent) => void) | null;
    onload: ((event: ProgressEvent) => void) | null;
  };
  onload: ((event: ProgressEvent) => void) | null;
  onerror: ((event: ProgressEvent) => void) | null;
  ontimeout: ((event: ProgressEvent) => void) | null;
  onabort: ((event: ProgressEvent) => void) | null;
}

type PostOf<P extends keyof paths> = paths[P] extends { post: infer Operation } ? Operation : never;
type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** The paths whose POST takes a multipart body. */
export type UploadPath = {
  [P in keyof paths]: PostOf<P> extends { requestBody: { content: { 'multipart/form-data': unknown } } } ? P : never;
}[keyof paths];

/** As openapi-fetch answers: the parsed body as `data` on a 2xx, else as `error`. */
export type UploadAnswer<P extends UploadPath> =
  | { data: JsonOf<PostOf<P> extends { responses: { 200: infer R } } ? R : never>; error?: never; status: number }
  | { data?: never; error: unknown; status: number };

export type Upload = <P extends UploadPath>(path: P, body: FormData, options?: UploadOptions) => Promise<UploadAnswer<P>>;

/** What the API client lends an upload: where to send it, its headers, and how answers are judged. */
export interface UploadTransport {
  baseUrl: string;
  createXhr: () => UploadXhr;
  /** The session headers (x-token, x-keepflag), read when the upload starts. */
  headers: () => Record<string, string>;
  /** SPEC §8 for the answer: the same judgement the client's middleware applies to every response. */
  onResponse: (status: number, body: unknown, silent: boolean) => void;
  /** The request never got an answer (offline, connection reset). */
  onNetworkError: (silent: boolean) => void;
}

export function progressOf(loaded: number, total: number): UploadProgress {
  return { loaded, total, percent: total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : null };
}

function jsonBody(xhr: UploadXhr): unknown {
  if (!(xhr.getResponseHeader('content-type') ?? '').includes('json') || !xhr.responseText) return undefined;
  try {
    return JSON.parse(xhr.responseText) as unknown;
  } catch {
    return undefined;
  }
}

function abortError(): DOMException {
  return new DOMException('The upload was aborted.', 'AbortError');
}

/** POST `body` to `path` through the transport; resolves with the answer, rejects when none came. */
export function sendUpload<P extends UploadPath>(transport: UploadTransport, path: P, body: FormData, options: UploadOptions = {}): Promise<UploadAnswer<P>> {
  const { onProgress, silent = false, signal } = options;
  return new Promise<UploadAnswer<P>>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = transport.createXhr();
    const stopListening = () => signal?.removeEventListener('abort', abort);
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });

    xhr.open('POST', `${transport.baseUrl}${path}`);
    for (const [name, value] of Object.entries(transport.headers())) xhr.setRequestHeader(name, value);
    // Listeners on xhr.upload must be set before send(), or the browser reports nothing.
    xhr.upload.onprogress = (event) => onProgress?.(progressOf(event.loaded, event.lengthComputable ? event.total : 0));
    xhr.upload.onload = (event) => {
      const total = event.lengthComputable && event.total > 0 ? event.total : 1;
      onProgress?.(progressOf(total, total));
    };
    xhr.onload = () => {
      stopListening();
      const parsed = jsonBody(xhr);
      transport.onResponse(xhr.status, parsed, silent);
      if (xhr.status >= 200 && xhr.status < 300) resolve({ data: parsed as never, status: xhr.status });
      else resolve({ error: parsed ?? xhr.responseText, status: xhr.status });
    };
    xhr.onerror = xhr.ontimeout = () => {
      stopListening();
      transport.onNetworkError(silent);
      reject(new TypeError('Upload failed: no answer from the server'));
    };
    xhr.onabort = () => {
      stopListening();
      reject(abortError());
    };
    xhr.send(body);
  });
}
