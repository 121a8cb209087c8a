// Sessions: a random token handed to the browser once, its SHA-256 stored. Valid 12 hours, or 30
// days when the user ticked keep-me-logged-in (DECISIONS "Accounts and sessions"). The lifetime is
// fixed at login (no sliding renewal) so a stolen token has a known end.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { sessions, users } from '../db/schema/accounts.ts';
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

/**
 * The sessions of recent calls, kept in this process for a few seconds so that a busy clerk's
 * every call does not cost a database round trip (the session lookup was a third of the server's
 * time per scan). Correctness rules:
 * - an entry never outlives its session (it expires at the earlier of the session's end and TTL);
 * - logout, a password reset and a role change forget the entries concerned AFTER their
 *   transaction commits (see forgetSession / forgetUser), and a lookup that was under way while
 *   anything was forgotten is not stored (the generation check), so no stale row is put back;
 * - only this process is informed: with several server processes on one database another process
 *   could honour a revoked token for up to TTL_MS. We run one process (docs/decisions/025-sessions.md).
 */
export class SessionCache {
  static readonly TTL_MS = 10_000;
  static readonly MAX_ENTRIES = 10_000;
  private entries = new Map<string, { user: SessionUser; until: number }>();
  private generation = 0;

  async resolve(db: Db, token: string, now = new Date()): Promise<SessionUser | null> {
    const tokenHash = hashToken(token);
    const hit = this.entries.get(tokenHash);
    if (hit && hit.until > now.getTime()) return hit.user;
    if (hit) this.entries.delete(tokenHash);
    const generation = this.generation;
    const found = await lookupSession(db, tokenHash, now);
    if (found && generation === this.generation) {
      if (this.entries.size >= SessionCache.MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(tokenHash, { user: found.user, until: Math.min(found.expiresAt.getTime(), now.getTime() + SessionCache.TTL_MS) });
    }
    return found?.user ?? null;
  }

  /** After logout (call once the session row is deleted). */
  forgetSession(sessionId: number) {
    this.forget((u) => u.sessionId === sessionId);
  }

  /** After a password reset or a role change of this user (call after commit). */
  forgetUser(userId: number) {
    this.forget((u) => u.id === userId);
  }

  clear() {
    this.forget(() => true);
  }

  private forget(which: (u: SessionUser) => boolean) {
    this.generation++;
    for (const [key, entry] of this.entries) if (which(entry.user)) this.entries.delete(key);
  }
}

export async function revokeSession(db: Tx, sessionId: number) {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** After a password change every other session of the user ends. */
export async function revokeUserSessions(db: Tx, userId: number) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
