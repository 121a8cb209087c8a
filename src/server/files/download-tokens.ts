// Download tokens (DECISIONS "Files"; schema/files.ts): the /ext/pdf and /ext/excel links are plain
// links, so the credential sits in the URL path, where it lands in browser history and proxy logs.
// It is therefore never the session token but a random 256-bit token scoped to one file (kind,
// resource id and the export's filters, fixed when it is issued) and one user, stored only as its
// SHA-256 hash, valid for DOWNLOAD_TOKEN_TTL_MS. Not single use: a browser may retry a download.
// Expired tokens are swept whenever a new one is issued. Any token that does not fit the link it
// is used on (unknown, expired, another kind or another file) answers A00004, like a missing file.
import { and, eq, gt, lt } from 'drizzle-orm';
import { hashToken, newToken } from '../auth/secrets.ts';
import type { Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { downloadTokens } from '../db/schema/files.ts';
import { notFound } from '../errors.ts';
import type { UserRole } from '../contract.ts';

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
  v: { userId: number; kind: DownloadKind; resourceId?: number | null; params?: DownloadParams },
  now = new Date(),
): Promise<{ token: string; expireAt: number }> {
  await tx.delete(downloadTokens).where(lt(downloadTokens.expiresAt, now));
  const token = newToken();
  const expiresAt = new Date(now.getTime() + DOWNLOAD_TOKEN_TTL_MS);
  await tx.insert(downloadTokens).values({
    tokenHash: hashToken(token),
    userId: v.userId,
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

/**
 * The user and filters of a live token for this kind (and this resource, when the link names
 * one); A00004 otherwise. The user is read again, so the file is made with their current role.
 */
export async function redeemDownloadToken(tx: Tx, token: string, kind: DownloadKind, resourceId?: number, now = new Date()): Promise<RedeemedToken> {
  const [row] = await tx
    .select({
      resourceId: downloadTokens.resourceId,
      params: downloadTokens.params,
      user: { id: users.id, nickName: users.nickName, mailAddr: users.mailAddr, roleType: users.roleType },
    })
    .from(downloadTokens)
    .innerJoin(users, eq(users.id, downloadTokens.userId))
    .where(and(eq(downloadTokens.tokenHash, hashToken(token)), eq(downloadTokens.kind, kind), gt(downloadTokens.expiresAt, now)))
    .limit(1);
  if (!row) throw notFound(DOWNLOAD_MESSAGES.invalid);
  if (resourceId !== undefined && row.resourceId !== resourceId) throw notFound(DOWNLOAD_MESSAGES.invalid);
  const params = typeof row.params === 'object' && row.params !== null && !Array.isArray(row.params) ? (row.params as DownloadParams) : {};
  return { user: row.user, resourceId: row.resourceId, params };
}
