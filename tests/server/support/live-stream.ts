// A client of the live stream (GET /api/events) over real HTTP, as a browser's fetch reads it: the
// token in x-token, the body read as it arrives and cut into server-sent events. For the live tests
// of one process (an app listening on a port) and of several (server-process.ts).

export interface LiveMessage {
  event: string;
  data: unknown;
}

export interface LiveChangeData {
  kind: string;
  ids?: number[];
}

export interface LiveStream {
  /** The HTTP status; an answer other than 200 is read whole into `refusal`. */
  status: number;
  refusal?: { code: string; msg: string };
  contentType: string | null;
  /** Every message received so far, in order. */
  messages: LiveMessage[];
  /** The `change` messages' data so far. */
  changes(): LiveChangeData[];
  /**
   * The first message from index `from` on (already received or still to come) that `match` accepts;
   * rejects after `timeoutMs`, naming what did arrive.
   */
  waitFor(match: (m: LiveMessage) => boolean, opts?: { from?: number; timeoutMs?: number }): Promise<LiveMessage>;
  /** Resolves when the server ends the stream (not when this side closes it). */
  ended: Promise<void>;
  /** Closes the stream from this side. */
  close(): void;
}

/** A change of `kind` naming `id` (or naming none: "several"). */
export const changeOf =
  (kind: string, id?: number) =>
  (m: LiveMessage): boolean => {
    if (m.event !== 'change') return false;
    const d = m.data as LiveChangeData;
    return d.kind === kind && (id === undefined || !d.ids || d.ids.includes(id));
  };

/** The product's promise (decision 154): a revoked session's streams end within 1 s, on every process. */
export const REVOKED_MS = 1_000;

/** Resolves when the server ends `s`; rejects if it has not within `ms` of the call. */
export function endsWithin(s: LiveStream, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the stream did not end within ${ms} ms`)), ms)));
  return Promise.race([s.ended, late]).finally(() => clearTimeout(timer));
}

export async function openLiveStream(baseUrl: string, token?: string): Promise<LiveStream> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/events`, { headers: token ? { 'x-token': token } : {}, signal: abort.signal });
  const messages: LiveMessage[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  let endedByServer!: () => void;
  const ended = new Promise<void>((resolve) => (endedByServer = resolve));
  const stream: LiveStream = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    messages,
    changes: () => messages.filter((m) => m.event === 'change').map((m) => m.data as LiveChangeData),
    waitFor(match, opts = {}) {
      const from = opts.from ?? 0;
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.slice(from).find(match);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no such message within ${opts.timeoutMs ?? 2000} ms; received: ${JSON.stringify(messages.slice(from))}`));
        }, opts.timeoutMs ?? 2000);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    ended,
    close: () => abort.abort(),
  };
  if (res.status !== 200 || !res.body) {
    stream.refusal = (await res.json()) as { code: string; msg: string };
    return stream;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trim());
          }
          if (data.length) messages.push({ event, data: JSON.parse(data.join('\n')) as unknown });
          else if (block.startsWith(':')) messages.push({ event: 'comment', data: block.slice(1).trim() });
        }
        notify();
      }
      endedByServer();
    } catch {
      // closed from this side
    }
  })();
  return stream;
}
