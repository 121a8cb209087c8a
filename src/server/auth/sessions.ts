// Sessions: a random token handed to the browser once, its SHA-256 stored. Valid 12 hours, or 30
// days when the user ticked keep-me-logged-in (DECISIONS "Accounts and sessions"). The lifetime is
// fixed at login (no sliding renewal) so a stolen token has a known end.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { sessions, users } from '../db/schema/accounts.ts';
import type { SessionUser } from '../handlers/types.ts';
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

export async function resolveSession(db: Db, token: string, now = new Date()): Promise<SessionUser | null> {
  const [row] = await db
    .select({ sessionId: sessions.id, id: users.id, mailAddr: users.mailAddr, nickName: users.nickName, roleType: users.roleType })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

export async function revokeSession(db: Tx, sessionId: number) {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** After a password change every other session of the user ends. */
export async function revokeUserSessions(db: Tx, userId: number) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
