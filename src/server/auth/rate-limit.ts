// Login rate limit (DECISIONS "Accounts and sessions"): failed attempts counted per address and per
// client IP in a sliding window. Kept in process memory: one server process serves the app, and a
// restart forgetting the counters is acceptable for a 15-minute window.
export interface RateLimitOptions {
  windowMs: number;
  max: number;
}

export class FailureCounter {
  private readonly hits = new Map<string, number[]>();
  constructor(private readonly opts: RateLimitOptions) {}

  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.opts.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  isBlocked(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= this.opts.max;
  }

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 100_000) this.sweep(now);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  clear(): void {
    this.hits.clear();
  }

  private sweep(now: number) {
    for (const key of [...this.hits.keys()]) this.recent(key, now);
  }
}

export const LOGIN_LIMITS = {
  perAddress: { windowMs: 15 * 60_000, max: 10 },
  perIp: { windowMs: 15 * 60_000, max: 50 },
} as const;
