// Accounts' rows for the account calls (SPEC §5 login/register/forgot/reset; DECISIONS "Accounts
// and sessions"): users found by address, one-time tokens (invitations and reset links: the SHA-256
// of the token stored, single use, an expiry), and the writes that consume a token. A token is
// consumed in the transaction that uses it, so two requests with one token succeed once.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { postgresError, type Db, type Tx } from '../db/client.ts';
import { oneTimeTokens, users } from '../db/schema/accounts.ts';
import { hashToken, newToken } from './secrets.ts';
import { revokeUserSessions } from './sessions.ts';

/** An invitation ('register') or a reset link ('change'). */
export type TokenKind = 'register' | 'change';

/** The user row of an address (already normalized), or undefined. */
export async function userByMail(tx: Tx, mailAddr: string) {
  const [user] = await tx.select().from(users).where(eq(users.mailAddr, mailAddr)).limit(1);
  return user;
}

/** Whether an account has this address. */
export async function mailTaken(tx: Tx, mailAddr: string): Promise<boolean> {
  const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.mailAddr, mailAddr)).limit(1);
  return u !== undefined;
}

/** A usable one-time token of this kind, or undefined. */
export async function findToken(tx: Tx, token: string, kind: TokenKind) {
  const [row] = await tx
    .select()
    .from(oneTimeTokens)
    .where(
      and(eq(oneTimeTokens.tokenHash, hashToken(token)), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, new Date())),
    )
    .limit(1);
  return row;
}

/** Marks the token used; false when another request used it (or it expired) first: single use under races. */
async function consumeToken(tx: Tx, id: number): Promise<boolean> {
  const now = new Date();
  const rows = await tx
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.id, id), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)))
    .returning({ id: oneTimeTokens.id });
  return rows.length === 1;
}

/** A new token of this kind for the address, valid `ttlMs`: the token itself (only its hash is stored). */
export async function insertToken(tx: Tx, kind: TokenKind, mailAddr: string, ttlMs: number, createdBy: number | null) {
  const token = newToken();
  await tx.insert(oneTimeTokens).values({ kind, mailAddr, tokenHash: hashToken(token), createdBy, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/** Takes back a token that was never delivered (its invitation mail failed). */
export async function deleteToken(tx: Tx, token: string) {
  await tx.delete(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, hashToken(token)));
}

/**
 * Ends every live reset link of the address, before a new one is mailed and after a reset: at most
 * one link works, the newest. Marked used, not deleted: the hourly mail limit counts these rows.
 */
async function endResetTokens(tx: Tx, mailAddr: string) {
  await tx
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.mailAddr, mailAddr), eq(oneTimeTokens.kind, 'change'), isNull(oneTimeTokens.usedAt)));
}

/** A PostgreSQL unique violation, possibly wrapped by the driver or Drizzle. */
const isUniqueViolation = (err: unknown) => postgresError(err)?.code === '23505';

/**
 * Registers a member with an invitation (its row already found for this address): the token is
 * consumed and the user inserted in one transaction. 'failed': the token was used meanwhile;
 * 'taken': the address got an account meanwhile.
 */
export async function registerMember(
  db: Db,
  tokenId: number,
  member: { mailAddr: string; nickName: string; phoneNo: string; qq: string; passwordHash: string },
): Promise<'succ' | 'failed' | 'taken'> {
  return db.transaction(async (tx) => {
    if (!(await consumeToken(tx, tokenId))) return 'failed';
    try {
      await tx.insert(users).values({ ...member, roleType: 'user' });
    } catch (err) {
      if (isUniqueViolation(err)) return 'taken';
      throw err;
    }
    return 'succ';
  });
}

/**
 * A new reset link for the address, in `tx`, or null when it has no account or had `perHour`
 * links in the last hour. The user row is locked: two requests at once cannot both pass the hourly
 * limit or leave two live links; the address's older links end.
 */
export async function issueResetToken(tx: Tx, mailAddr: string, ttlMs: number, perHour: number): Promise<string | null> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.mailAddr, mailAddr)).limit(1).for('update');
  if (!user) return null;
  const [recent] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.mailAddr, mailAddr), eq(oneTimeTokens.kind, 'change'), gt(oneTimeTokens.createdAt, new Date(Date.now() - 3_600_000))));
  if ((recent?.n ?? 0) >= perHour) return null;
  await endResetTokens(tx, mailAddr);
  return insertToken(tx, 'change', mailAddr, ttlMs, user.id);
}

/**
 * Sets the password with a reset link (its row already found for this address): the token is
 * consumed, the address's other links end and every session of the user ends, in one transaction.
 * The user's id, or null when the token was used meanwhile or the account is gone.
 */
export async function resetPassword(db: Db, tokenId: number, mailAddr: string, passwordHash: string): Promise<number | null> {
  return db.transaction(async (tx) => {
    if (!(await consumeToken(tx, tokenId))) return null;
    const updated = await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.mailAddr, mailAddr)).returning({ id: users.id });
    const user = updated[0];
    if (!user) return null;
    await endResetTokens(tx, mailAddr);
    await revokeUserSessions(tx, user.id);
    return user.id;
  });
}
