// Rate limits of the anonymous account calls (login, register, reset, forgot-password, mail check):
// one mechanism, every limit named in RATE_LIMITS. An attempt is counted when it starts (so a burst
// sent at once is bounded too) and forgiven when it succeeds. Refusals are per (address, IP) and per
// IP, never per address alone, so nobody can lock the owner out of their account
// (docs/decisions/021-account-rate-limits.md: what an attacker can and cannot do). Counted in the
// database, a row per attempt (rate_limit_hits: limit name, key, time) in sliding windows, so the
// limits hold across every server process on it (docs/decisions/151-rate-limits-in-the-database.md).
// Not @fastify/rate-limit: it cannot forgive a success nor count several keys at once
// (docs/decisions/037-rate-limits-stay-our-own.md).
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { executePrepared, isPipelined, pipelinedTransaction, rowsOf, type Db } from '../db/client.ts';
import { rateLimitHits } from '../db/schema/accounts.ts';
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

/** The longest window: rows older than it count nowhere. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(RATE_LIMITS).map((l) => l.windowMs));
/** Between two sweeps of expired rows by one process (each attempt also drops the expired rows of its own keys). */
const SWEEP_EVERY_MS = 5 * MIN;
/** "Never refuses" (a check's max of Infinity) in the database's int. */
const NEVER = 2_147_483_647;

export interface LimitCheck {
  name: LimitName;
  key: string;
  /** A stricter max for this check (login under attack); Infinity counts without ever refusing. */
  max?: number;
}

/** An attempt counted on its limits; forgive() takes it back when it succeeded. */
export interface Attempt {
  forgive(): Promise<void>;
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / MIN));

/**
 * The limits' counters, in the database. Times are this process's clock (Date.now()), so every
 * process on one database should keep the same time (NTP); a few seconds apart change nothing.
 */
export class RateLimiter {
  private lastSweep = 0;

  constructor(private readonly db: Db) {}

  /** Recent attempts of `key` on limit `name`. */
  async count(name: LimitName, key: string): Promise<number> {
    const since = new Date(Date.now() - RATE_LIMITS[name].windowMs);
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.name, name), eq(rateLimitHits.key, key), gt(rateLimitHits.at, since)));
    return row?.n ?? 0;
  }

  /**
   * Refuses with HTTP 429 A00004 when any check is at its max (nothing counted then); otherwise
   * counts the attempt on every check. `what` names the call in the message ('登录失败', '操作').
   * One transaction: the checks' keys locked (a transaction-scoped advisory lock each, in order, so
   * attempts at once on any process are counted one after the other), then one statement that
   * counts, decides, and writes the attempt (dropping the keys' expired rows and those beyond 2 x
   * max, which change no decision). On PostgreSQL both go in one round trip, and the commit in one.
   */
  async take(checks: LimitCheck[], what: string): Promise<Attempt> {
    const now = Date.now();
    this.sweep(now);
    const opts = checks.map((c) => RATE_LIMITS[c.name]);
    const maxes = checks.map((c, i) => Math.min(c.max ?? opts[i]!.max, NEVER));
    const lockKeys = [...new Set(checks.map((c) => `rate-limit:${c.name} ${c.key}`))].sort();
    const decide = sql`with c as (
        select * from unnest(${sql.param(checks.map((c) => c.name))}::text[], ${sql.param(checks.map((c) => c.key))}::text[],
          ${sql.param(maxes)}::int[], ${sql.param(opts.map((o) => new Date(now - o.windowMs).toISOString()))}::timestamptz[],
          ${sql.param(opts.map((o) => 2 * o.max))}::int[]) with ordinality as c(name, key, max, since, cap, n)),
      recent as (
        select c.n, h.id, h.at, row_number() over (partition by c.n order by h.at desc, h.id desc) as newest
        from c join rate_limit_hits h on h.name = c.name and h.key = c.key and h.at > c.since),
      refused as (
        select c.n, (select r.at from recent r where r.n = c.n and r.newest = c.max) as leaving, c.since
        from c where c.max <= (select count(*) from recent r where r.n = c.n)),
      added as (
        insert into rate_limit_hits (name, key, at)
        select c.name, c.key, ${new Date(now).toISOString()}::timestamptz from c where not exists (select 1 from refused)
        returning id),
      dropped as (
        delete from rate_limit_hits h using c
        where not exists (select 1 from refused) and h.name = c.name and h.key = c.key
          and (h.at <= c.since or h.id in (select r.id from recent r where r.n = c.n and r.newest >= c.cap)))
      select (select json_agg(json_build_object('n', n, 'leaving', leaving) order by n) from refused) as refused,
        (select json_agg(id) from added) as ids`;
    const [answer] = await pipelinedTransaction(this.db, async (tx) => {
      const locked = executePrepared(
        tx,
        sql`select count(pg_advisory_xact_lock(hashtextextended(u.k, 0))) from (select k from unnest(${sql.param(lockKeys)}::text[]) as k order by k) u`,
      );
      if (!isPipelined(tx)) await locked;
      const [, rows] = await Promise.all([
        locked,
        rowsOf<{ refused: { n: number; leaving: string | null }[] | null; ids: number[] | null }>(executePrepared(tx, decide)),
      ]);
      return rows;
    });
    const refused = answer?.refused?.[0];
    if (refused) {
      const i = refused.n - 1;
      const leaving = refused.leaving ? new Date(refused.leaving).getTime() : now;
      throw tooMany(`${what}次数过多，请${minutes(leaving + opts[i]!.windowMs - now)}分钟后再试`);
    }
    const ids = answer?.ids ?? [];
    let forgiven = false;
    return {
      forgive: async () => {
        if (forgiven || !ids.length) return;
        forgiven = true;
        await this.db.delete(rateLimitHits).where(inArray(rateLimitHits.id, ids));
      },
    };
  }

  async reset(name: LimitName, key: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(and(eq(rateLimitHits.name, name), eq(rateLimitHits.key, key)));
  }

  /** Forgets every (address, IP) count of this address on a pair limit (after a password reset). */
  async resetAddress(name: 'loginPair' | 'resetPair' | 'registerPair', address: string): Promise<void> {
    await this.db
      .delete(rateLimitHits)
      .where(and(eq(rateLimitHits.name, name), sql`substr(${rateLimitHits.key}, strpos(${rateLimitHits.key}, ' ') + 1) = ${address}`));
  }

  /** Forgets every count (tests). */
  async clear(): Promise<void> {
    await this.db.delete(rateLimitHits);
  }

  /** Drops every expired row, at most every SWEEP_EVERY_MS per process (in the background: no attempt waits for it). */
  private sweep(now: number) {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.db
      .delete(rateLimitHits)
      .where(lte(rateLimitHits.at, new Date(now - LONGEST_WINDOW_MS)))
      .catch(() => (this.lastSweep = 0));
  }
}
