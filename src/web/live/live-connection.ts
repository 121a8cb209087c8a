// One live stream per tab (per API client), shared by every page that listens: opened with the first
// listener, closed when the last has gone (after the current render, so a page replaced by another
// that listens too keeps it). A stream that ends or fails is opened again after a pause that grows
// (1 s, 2 s, ... 30 s; 60 s when the server says there are too many); a refused session (401/403)
// is left to the session, which logs out. When a stream is back after a break, changes may have
// been missed: listeners hear `resync` and read everything again.
import { createSseParser } from './sse';
import { LIVE_KINDS, type LiveEvent, type LiveOpening } from './live-api';

/** A change, or `resync`: anything may have changed (the stream was broken). */
export type LiveSignal = LiveEvent | 'resync';
export type LiveListener = (signal: LiveSignal) => void;

export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 30_000;
export const RETRY_TOO_MANY_MS = 60_000;

export class LiveConnection {
  private readonly listeners = new Set<LiveListener>();
  private abort: AbortController | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private closing: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  /** A stream of this connection has said `ready` before: the next `ready` follows a break. */
  private wasReady = false;

  constructor(private readonly open: (signal: AbortSignal) => Promise<LiveOpening>) {}

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    if (this.closing) clearTimeout(this.closing);
    this.closing = null;
    if (!this.abort && !this.retry) void this.connect();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size || this.closing) return;
      this.closing = setTimeout(() => {
        this.closing = null;
        if (!this.listeners.size) this.stop();
      }, 0);
    };
  }

  private stop(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.abort?.abort();
    this.abort = null;
    this.wasReady = false;
    this.failures = 0;
  }

  private async connect(): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    const opened = await this.open(abort.signal);
    if (abort.signal.aborted) return;
    if (!opened.ok) {
      this.abort = null;
      // The session is over or not allowed: the client has told the session, which logs out.
      if (opened.status === 401 || opened.status === 403) return;
      this.later(opened.status === 429 ? RETRY_TOO_MANY_MS : undefined);
      return;
    }
    const reader = opened.body.getReader();
    abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined));
    const decoder = new TextDecoder();
    const parser = createSseParser((m) => this.receive(m.event, m.data));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // the connection broke: opened again below
    }
    if (abort.signal.aborted) return;
    this.abort = null;
    this.later();
  }

  /** Opens the stream again after a pause. */
  private later(ms?: number): void {
    const wait = ms ?? Math.min(RETRY_FIRST_MS * 2 ** this.failures, RETRY_MAX_MS);
    this.failures++;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.listeners.size) void this.connect();
    }, wait);
  }

  private receive(event: string, data: string): void {
    if (event === 'ready') {
      this.failures = 0;
      if (this.wasReady) this.emit('resync');
      this.wasReady = true;
      return;
    }
    if (event !== 'change') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const change = parsed as Partial<LiveEvent> | null;
    if (!change || !LIVE_KINDS.includes(change.kind as LiveEvent['kind'])) return;
    this.emit({ kind: change.kind!, ...(Array.isArray(change.ids) ? { ids: change.ids.filter(Number.isInteger) } : {}) });
  }

  private emit(signal: LiveSignal): void {
    for (const listener of [...this.listeners]) listener(signal);
  }
}
