// Download tokens (DECISIONS "Files"; schema/files.ts; decisions 064 and 067): the /ext/pdf and
// /ext/excel links are plain links, so the credential sits in the URL path, where it lands in
// browser history and proxy logs. It is therefore never the session token but a random 256-bit
// token scoped to one file (kind, resource id and the export's filters, fixed when it is issued) and
// one session, stored only as its SHA-256 hash, valid for DOWNLOAD_TOKEN_TTL_MS and no longer than
// its session: a logout or password reset deletes it with the session (ON DELETE CASCADE), a role
// change deletes the user's tokens (auth/sessions.ts), all in the database, so on every process.
// Not single use (a browser may retry a download), except the payment file's (full payout
// details), consumed by the one statement that reads it. Expired tokens are swept whenever a new one
// is issued. Any token that does not fit the link it is used on (unknown, expired, revoked, used,
// another kind or another file) answers A00004, like a missing file.
import { and, eq, exists, gt, lt } from 'drizzle-orm';
import { hashToken, newToken } from '../auth/secrets.ts';
import type { Tx } from '../db/client.ts';
import { sessions, users } from '../db/schema/accounts.ts';
import { downloadTokens } from '../db/schema/files.ts';
import { notFound } from '../errors.ts';
import type { UserRole } from '../contract.ts';
import type { SessionUser } from '../auth/session-user.ts';

/** Five minutes: long enough to start a download after asking for its link, short once leaked. */
export const DOWNLOAD_TOKEN_TTL_MS = 5 * 60_000;

export const DOWNLOAD_MESSAGES = {
  invalid: '下载链接无效或已过期',
} as const;

/** Which file a token opens (download_tokens.kind). */
export type DownloadKind =
  | 'pdf.labels'
  | 'excel.withdraw'
  /** The payment file (full payout details): its selection of lines fixed in the params. */
  | 'excel.withdrawPayment'
  | 'excel.userTask'
  | 'excel.tracking'
  | 'excel.board'
  | 'excel.taskAmount';

/** JSON-safe filters of an export, as stored in download_tokens.params. */
export type DownloadParams = Record<string, string | number | boolean>;

export async function issueDownloadToken(
  tx: Tx,
  v: { actor: SessionUser; kind: DownloadKind; resourceId?: number | null; params?: DownloadParams },
  now = new Date(),
): Promise<{ token: string; expireAt: number }> {
  await tx.delete(downloadTokens).where(lt(downloadTokens.expiresAt, now));
  const token = newToken();
  const expiresAt = new Date(now.getTime() + DOWNLOAD_TOKEN_TTL_MS);
  await tx.insert(downloadTokens).values({
    tokenHash: hashToken(token),
    userId: v.actor.id,
    sessionId: v.actor.sessionId,
    kind: v.kind,
    resourceId: v.resourceId ?? null,
    params: v.params ?? {},
    expiresAt,
  });
  return { token, expireAt: expiresAt.getTime() };
}

export interface RedeemedToken {
  user: { id: number; nickName: string; mailAddr: string; roleType: UserRole };
  resourceId: number | null;
  params: DownloadParams;
}

const userColumns = { id: users.id, nickName: users.nickName, mailAddr: users.mailAddr, roleType: users.roleType };

/**
 * The user and filters of a live token for this kind (and this resource, when the link names
 * one), whose session is live too; A00004 otherwise. The user is read again, so the file is made
 * with their current role. `consume`: the token is deleted as it is read (single use); two requests
 * racing for it, one gets it (the other's delete waits for the row and then finds it gone).
 */
export async function redeemDownloadToken(
  tx: Tx,
  token: string,
  kind: DownloadKind,
  resourceId?: number,
  opts: { consume?: boolean; now?: Date } = {},
): Promise<RedeemedToken> {
  const now = opts.now ?? new Date();
  const live = and(
    eq(downloadTokens.tokenHash, hashToken(token)),
    eq(downloadTokens.kind, kind),
    gt(downloadTokens.expiresAt, now),
    resourceId === undefined ? undefined : eq(downloadTokens.resourceId, resourceId),
    exists(
      tx
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, downloadTokens.sessionId), gt(sessions.expiresAt, now))),
    ),
  );
  let row: { resourceId: number | null; params: unknown; user: RedeemedToken['user'] } | undefined;
  if (opts.consume) {
    const [used] = await tx
      .delete(downloadTokens)
      .where(live)
      .returning({ userId: downloadTokens.userId, resourceId: downloadTokens.resourceId, params: downloadTokens.params });
    const [user] = used ? await tx.select(userColumns).from(users).where(eq(users.id, used.userId)) : [];
    row = used && user ? { resourceId: used.resourceId, params: used.params, user } : undefined;
  } else {
    [row] = await tx
      .select({ resourceId: downloadTokens.resourceId, params: downloadTokens.params, user: userColumns })
      .from(downloadTokens)
      .innerJoin(users, eq(users.id, downloadTokens.userId))
      .where(live)
      .limit(1);
  }
  if (!row) throw notFound(DOWNLOAD_MESSAGES.invalid);
  const params = typeof row.params === 'object' && row.params !== null && !Array.isArray(row.params) ? (row.params as DownloadParams) : {};
  return { user: row.user, resourceId: row.resourceId, params };
}
