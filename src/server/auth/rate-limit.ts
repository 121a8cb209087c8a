// Rate limits of the anonymous account calls (login, register, reset, forgot-password, mail check):
// one mechanism, every limit named in RATE_LIMITS. An attempt is counted when it starts (so a burst
// sent at once is bounded too) and forgiven when it succeeds. Refusals are per (address, IP) and per
// IP, never per address alone, so nobody can lock the owner out of their account
// (docs/decisions/021-account-rate-limits.md: what an attacker can and cannot do). Counted in process
// memory in sliding windows: one server process serves the app, and a restart forgetting 15 minutes
// of counters is acceptable. Handlers use only RateLimiter's few methods, so the counters can move
// into the database (a row per limit name, key and time) behind them, made async.
import { tooMany } from '../errors.ts';

export interface RateLimitOptions {
  windowMs: number;
  max: number;
}

const MIN = 60_000;

export const RATE_LIMITS = {
  /** Failed logins of one address from one IP; at max that IP is refused for that address. */
  loginPair: { windowMs: 15 * MIN, max: 10 },
  /** Failed logins from one IP, whatever the address (spraying many accounts). */
  loginIp: { windowMs: 15 * MIN, max: 50 },
  /** Failed logins of one address from every IP: at max, loginPair's max drops to LOGIN_PAIR_MAX_UNDER_ATTACK. Never refuses by itself. */
  loginAddress: { windowMs: 15 * MIN, max: 20 },
  /** Reset attempts whose token (or address) was wrong. */
  resetPair: { windowMs: 15 * MIN, max: 10 },
  resetIp: { windowMs: 15 * MIN, max: 30 },
  /** Register attempts whose invitation token (or address) was wrong. */
  registerPair: { windowMs: 15 * MIN, max: 10 },
  registerIp: { windowMs: 15 * MIN, max: 30 },
  /** Every forgot-password request of one IP (each may send a mail; per address the database allows 5 mails an hour). */
  forgotIp: { windowMs: 15 * MIN, max: 10 },
  /** Every mail-exist check of one IP (each tells whether an address has an account). */
  mailCheckIp: { windowMs: 15 * MIN, max: 60 },
} as const satisfies Record<string, RateLimitOptions>;

export type LimitName = keyof typeof RATE_LIMITS;

/** While an address is under attack (loginAddress at its max), an IP with this many failures on it is refused. */
export const LOGIN_PAIR_MAX_UNDER_ATTACK = 3;

/** The key of an (address, IP) pair. An IP never contains a space, so the first space separates them. */
export const pairKey = (address: string, ip: string) => `${ip} ${address}`;
const addressOfPair = (key: string) => key.slice(key.indexOf(' ') + 1);

/** Sliding-window counter of one limit: the times of the recent hits per key (at most 2 x max kept). */
export class FailureCounter {
  private readonly hits = new Map<string, number[]>();
  constructor(readonly opts: RateLimitOptions) {}

  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.opts.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  count(key: string, now = Date.now()): number {
    return this.recent(key, now).length;
  }

  /** Milliseconds until fewer than `max` recent hits are left. */
  retryAfterMs(key: string, max = this.opts.max, now = Date.now()): number {
    const list = this.recent(key, now);
    const leaving = list[list.length - max];
    return leaving === undefined ? 0 : leaving + this.opts.windowMs - now;
  }

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    // Counts far beyond max change no decision; keeping them all would let a flood grow the list.
    // The margin keeps a count at its max when a success is forgiven (loginAddress counts on).
    if (list.length > 2 * this.opts.max) list.shift();
    this.hits.set(key, list);
    if (this.hits.size > 100_000) this.sweep(now);
  }

  /** Takes back the newest hit (the attempt it counted succeeded). */
  forgive(key: string): void {
    const list = this.hits.get(key);
    if (!list) return;
    list.pop();
    if (!list.length) this.hits.delete(key);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  resetWhere(match: (key: string) => boolean): void {
    for (const key of [...this.hits.keys()]) if (match(key)) this.hits.delete(key);
  }

  clear(): void {
    this.hits.clear();
  }

  private sweep(now: number) {
    for (const key of [...this.hits.keys()]) this.recent(key, now);
  }
}

export interface LimitCheck {
  name: LimitName;
  key: string;
  /** A stricter max for this check (login under attack); Infinity counts without ever refusing. */
  max?: number;
}

/** An attempt counted on its limits; forgive() takes it back when it succeeded. */
export interface Attempt {
  forgive(): void;
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / MIN));

export class RateLimiter {
  private readonly counters = new Map<LimitName, FailureCounter>();

  private counter(name: LimitName) {
    let c = this.counters.get(name);
    if (!c) this.counters.set(name, (c = new FailureCounter(RATE_LIMITS[name])));
    return c;
  }

  count(name: LimitName, key: string): number {
    return this.counter(name).count(key);
  }

  /**
   * Refuses with HTTP 429 A00004 when any check is at its max (nothing counted then); otherwise
   * counts the attempt on every check. `what` names the call in the message ('登录失败', '操作').
   */
  take(checks: LimitCheck[], what: string): Attempt {
    for (const c of checks) {
      const counter = this.counter(c.name);
      const max = c.max ?? counter.opts.max;
      if (counter.count(c.key) >= max) {
        throw tooMany(`${what}次数过多，请${minutes(counter.retryAfterMs(c.key, max))}分钟后再试`);
      }
    }
    for (const c of checks) this.counter(c.name).fail(c.key);
    let forgiven = false;
    return {
      forgive: () => {
        if (forgiven) return;
        forgiven = true;
        for (const c of checks) this.counter(c.name).forgive(c.key);
      },
    };
  }

  reset(name: LimitName, key: string): void {
    this.counter(name).reset(key);
  }

  /** Forgets every (address, IP) count of this address on a pair limit (after a password reset). */
  resetAddress(name: 'loginPair' | 'resetPair' | 'registerPair', address: string): void {
    this.counter(name).resetWhere((key) => addressOfPair(key) === address);
  }

  clear(): void {
    for (const c of this.counters.values()) c.clear();
  }
}
