// The session's first call, started by index.html's inline script before the app's files have loaded
// (decision 174): with a stored token it sends GET /api/user/info at once and leaves the token and
// the answer's promise on window.__earlyUserInfo. The session's first loadUser takes that answer
// instead of calling again, once and only for the same token. An answer that is not a user (an
// expired token, an error) or a failed fetch is not used: the call is made again through the API
// client, so its session signals and messages are exactly those of a call made the ordinary way.
import { SUCCESS_CODE } from '../../api/client';

interface EarlyUserInfo {
  token: string;
  answer: Promise<unknown>;
}

declare global {
  interface Window {
    __earlyUserInfo?: EarlyUserInfo;
  }
}

/** The user of the early call for `token`, or null (none started, another token, already taken, not a user). */
export async function takeEarlyUserInfo(
  token: string,
  from: { __earlyUserInfo?: EarlyUserInfo } = globalThis as { __earlyUserInfo?: EarlyUserInfo },
): Promise<unknown> {
  const early = from.__earlyUserInfo;
  if (!early) return null;
  delete from.__earlyUserInfo;
  if (early.token !== token) return null;
  try {
    const body = (await early.answer) as { code?: unknown; data?: unknown } | null;
    return body && body.code === SUCCESS_CODE && body.data ? body.data : null;
  } catch {
    return null;
  }
}
