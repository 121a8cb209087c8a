// GET /ext/login/token/exist: is an invitation (register) or reset (change) token still usable?
// Run by the signup and reset routes' loaders, so the page renders with the answer.
import type { ApiClient } from '../../../api/client';
import { outcomeOf } from '../../../api/outcome';

export type TokenKind = 'register' | 'change';

export type TokenCheck =
  | { valid: true; mail: string }
  /** `message` is the server's msg when it gave one. */
  | { valid: false; message: string | null };

export async function checkToken(api: ApiClient, token: string | undefined, type: TokenKind): Promise<TokenCheck> {
  if (!token) return { valid: false, message: null };
  const outcome = await outcomeOf(api.GET('/ext/login/token/exist', { params: { query: { token, type } }, silent: true }), { noAnswer: 'fail' });
  if (outcome.ok && outcome.data?.status === 'succ') return { valid: true, mail: outcome.data.mail ?? '' };
  return { valid: false, message: outcome.msg || null };
}
