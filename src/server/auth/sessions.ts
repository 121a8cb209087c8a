// Sessions: a random token handed to the browser once, its SHA-256 stored. Valid 12 hours, or 30
// days when the user ticked keep-me-logged-in (DECISIONS "Accounts and sessions"). The lifetime is
// fixed at login (no sliding renewal) so a stolen token has a known end.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { listenerOf, type Db, type Tx } from '../db/client.ts';
import { sessions, users } from '../db/schema/accounts.ts';
import { downloadTokens } from '../db/schema/files.ts';
import type { SessionUser } from './session-user.ts';
import { hashToken, newToken } from './secrets.ts';

export const SESSION_HOURS = 12;
export const KEEP_DAYS = 30;

export async function createSession(tx: Tx, userId: number, keep: boolean, now = new Date()): Promise<string> {
  const token = newToken();
  const ms = keep ? KEEP_DAYS * 86_400_000 : SESSION_HOURS * 3_600_000;
  await tx.insert(sessions).values({ userId, tokenHash: hashToken(token), keep, createdAt: now, expiresAt: new Date(now.getTime() + ms) });
  // Expired rows of this user are of no use any more.
  await tx.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
  return token;
}

async function lookupSession(db: Db, tokenHash: string, now: Date): Promise<{ user: SessionUser; expiresAt: Date } | null> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      id: users.id,
      mailAddr: users.mailAddr,
      nickName: users.nickName,
      roleType: users.roleType,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  const { expiresAt, ...user } = row;
  return { user, expiresAt };
}

/** The NOTIFY channel of session revocations: every process forgets what it cached of them. */
export const SESSIONS_CHANNEL = 'ph_sessions';

/** A revocation on the wire: the sessions ended, or the users whose sessions changed (reset, role). */
export interface Revoked {
  sessions?: number[];
  users?: number[];
}

/**
 * The sessions of recent calls, kept in this process for a few seconds so that a busy clerk's
 * every call does not cost a database round trip (the session lookup was a third of the server's
 * time per scan). Correctness rules (docs/decisions/150-session-revocation-across-processes.md):
 * - an entry never outlives its session (it expires at the earlier of the session's end and TTL);
 * - a revocation (logout, password reset, role change) is a NOTIFY in its transaction: every process
 *   on the database forgets the entries concerned when it commits; the revoking process also forgets
 *   them itself after the commit (forgetSession / forgetUser), so its next call never waits for it;
 * - entries are kept and served only while this process LISTENs: from a lost listening connection
 *   until it listens again every call reads the database;
 * - a lookup under way while anything was forgotten (or listening began again) is not stored (the
 *   generation check), so no stale row is put back.
 */
export class SessionCache {
  static readonly TTL_MS = 10_000;
  static readonly MAX_ENTRIES = 10_000;
  /** After a failed LISTEN, the next try waits this long (calls read the database meanwhile). */
  static readonly LISTEN_RETRY_MS = 1_000;
  private entries = new Map<string, { user: SessionUser; until: number }>();
  private generation = 0;
  /** True while this process hears every revocation: only then are entries kept and served. */
  private hearing = false;
  private listening: Promise<(() => Promise<void>) | null> | null = null;
  private nextTry = 0;
  private stopped = false;
  private readonly observers = new Set<(revoked: Revoked | null) => void>();

  constructor(private readonly db: Db) {}

  async resolve(token: string, at?: Date): Promise<SessionUser | null> {
    if (!this.hearing) this.listen();
    const tokenHash = hashToken(token);
    const hit = this.hearing ? this.entries.get(tokenHash) : undefined;
    // A Date only when the database is asked (most calls are answered from the cache).
    if (hit && hit.until > (at ? at.getTime() : Date.now())) return hit.user;
    if (hit) this.entries.delete(tokenHash);
    const now = at ?? new Date();
    const generation = this.generation;
    const found = await lookupSession(this.db, tokenHash, now);
    if (found && this.hearing && generation === this.generation) {
      if (this.entries.size >= SessionCache.MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(tokenHash, { user: found.user, until: Math.min(found.expiresAt.getTime(), now.getTime() + SessionCache.TTL_MS) });
    }
    return found?.user ?? null;
  }

  /** After logout (call once the session row is deleted). */
  forgetSession(sessionId: number) {
    this.forget((u) => u.sessionId === sessionId);
    this.tell({ sessions: [sessionId] });
  }

  /** After a password reset or a role change of this user (call after commit). */
  forgetUser(userId: number) {
    this.forget((u) => u.id === userId);
    this.tell({ users: [userId] });
  }

  /**
   * `observer` hears every revocation this process makes or hears of, as soon as it does (the live
   * streams end with their session: live/hub.ts); null: anything may have been revoked (a payload
   * not ours, or listening again after a loss, when notifications may have been missed).
   * Returns how to stop.
   */
  onRevoked(observer: (revoked: Revoked | null) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  clear() {
    this.forget(() => true);
  }

  /** Starts listening (the app's onReady); resolves once this process hears revocations, or the first try failed. */
  async start(): Promise<void> {
    this.listen();
    await this.listening;
  }

  /** Stops listening (the server is stopping: before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.deaf();
    const unlisten = await this.listening?.catch(() => null);
    this.listening = null;
    await unlisten?.();
  }

  /** LISTEN once (again after a failure, at most every LISTEN_RETRY_MS); calls go on meanwhile, uncached. */
  private listen(): void {
    if (this.listening || this.stopped || Date.now() < this.nextTry) return;
    const listen = listenerOf(this.db);
    if (!listen) return;
    this.listening = listen(SESSIONS_CHANNEL, {
      onPayload: (payload) => this.revoked(payload),
      onLost: () => this.deaf(),
      onResumed: () => {
        this.hear();
        this.tell(null);
      },
    }).then(
      (unlisten) => {
        if (!this.stopped) this.hear();
        return unlisten;
      },
      () => {
        this.listening = null;
        this.nextTry = Date.now() + SessionCache.LISTEN_RETRY_MS;
        return null;
      },
    );
  }

  private hear() {
    // Lookups begun while deaf may have read a session revoked since: not stored.
    this.generation++;
    this.hearing = true;
  }

  private deaf() {
    this.hearing = false;
    this.clear();
  }

  private revoked(payload: string) {
    let r: Revoked | null;
    try {
      r = JSON.parse(payload) as Revoked | null;
    } catch {
      // Not ours to read, but something was revoked: forget everything.
      this.clear();
      this.tell(null);
      return;
    }
    const sessionIds = new Set(r?.sessions ?? []);
    const userIds = new Set(r?.users ?? []);
    this.forget((u) => sessionIds.has(u.sessionId) || userIds.has(u.id));
    this.tell({ sessions: [...sessionIds], users: [...userIds] });
  }

  private tell(revoked: Revoked | null) {
    for (const observer of this.observers) observer(revoked);
  }

  private forget(which: (u: SessionUser) => boolean) {
    this.generation++;
    for (const [key, entry] of this.entries) if (which(entry.user)) this.entries.delete(key);
  }
}

/** Tells every process (NOTIFY, delivered at commit) to forget what it cached of these sessions or users. */
const announce = (revoked: Revoked) => sql`select pg_notify(${SESSIONS_CHANNEL}, ${JSON.stringify(revoked)})`;

/** Logout: the session ends, and every process hears so when `tx` commits. One statement. */
export async function revokeSession(tx: Tx, sessionId: number) {
  await tx.execute(sql`with ended as (delete from ${sessions} where ${sessions.id} = ${sessionId}) ${announce({ sessions: [sessionId] })}`);
}

/** After a password change every session of the user ends, and every process hears so when `tx` commits. */
export async function revokeUserSessions(tx: Tx, userId: number) {
  await tx.execute(sql`with ended as (delete from ${sessions} where ${sessions.userId} = ${userId}) ${announce({ users: [userId] })}`);
}

/**
 * The user's sessions stay but what they carry changed (a role): every process reads them again
 * after `tx` commits, and their download tokens, made for the old role, end (decision 067). (Logout
 * and password reset end the tokens with the sessions: ON DELETE CASCADE.)
 */
export async function sessionsChanged(tx: Tx, userId: number) {
  await tx.execute(sql`with ended as (delete from ${downloadTokens} where ${downloadTokens.userId} = ${userId}) ${announce({ users: [userId] })}`);
}
