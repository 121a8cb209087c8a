// An XMLHttpRequest stand-in for api.upload (src/api/upload.ts) in happy-dom: it hands the request
// to the same fake fetch the test's API client uses, and reports the body going out as the test's
// script says, so a test can hold an upload half-sent.
import type { UploadXhr } from '../../../src/api/upload';

export type FetchLike = (request: Request) => Promise<Response>;

/**
 * How the body goes out: call `sent(bytes)` for each step, waiting in between if the test wants to
 * look at the page mid-upload. The default sends it all at once.
 */
export type UploadScript = (sent: (loaded: number) => void, total: number) => Promise<void> | void;

const allAtOnce: UploadScript = (sent, total) => sent(total);

function sizeOf(body: FormData): number {
  let size = 0;
  for (const [, value] of body.entries()) size += typeof value === 'string' ? value.length : value.size;
  return size;
}

function progress(loaded: number, total: number): ProgressEvent {
  return { lengthComputable: total > 0, loaded, total } as ProgressEvent;
}

class FakeXhr implements UploadXhr {
  status = 0;
  responseText = '';
  upload: UploadXhr['upload'] = { onprogress: null, onload: null };
  onload: UploadXhr['onload'] = null;
  onerror: UploadXhr['onerror'] = null;
  ontimeout: UploadXhr['ontimeout'] = null;
  onabort: UploadXhr['onabort'] = null;
  private method = 'GET';
  private url = '';
  private readonly headers = new Headers();
  private responseHeaders = new Headers();
  private aborted = false;

  constructor(
    private readonly fetch: FetchLike,
    private readonly script: UploadScript,
  ) {}

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers.set(name, value);
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders.get(name);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.onabort?.(progress(0, 0));
  }

  send(body: FormData): void {
    void this.run(body);
  }

  private async run(body: FormData): Promise<void> {
    const total = sizeOf(body);
    await this.script((loaded) => {
      if (!this.aborted) this.upload.onprogress?.(progress(loaded, total));
    }, total);
    if (this.aborted) return;
    this.upload.onload?.(progress(total, total));
    let response: Response;
    try {
      response = await this.fetch(new Request(this.url, { method: this.method, headers: this.headers, body }));
    } catch {
      if (!this.aborted) this.onerror?.(progress(0, 0));
      return;
    }
    if (this.aborted) return;
    this.status = response.status;
    this.responseHeaders = response.headers;
    this.responseText = await response.text();
    this.onload?.(progress(total, total));
  }
}

/** createXhr for createApiClient: uploads answered by `fetch`, sent as `script` says. */
export function fakeXhr(fetch: FetchLike, script: UploadScript = allAtOnce): () => UploadXhr {
  return () => new FakeXhr(fetch, script);
}
