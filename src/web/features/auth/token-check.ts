// GET /ext/login/token/exist: is an invitation (register) or reset (change) token still usable?
// Run by the signup and reset routes' loaders, so the page renders with the answer.
import { extractMessage, type ApiClient } from '../../../api/client';

export type TokenKind = 'register' | 'change';

export type TokenCheck =
  | { valid: true; mail: string }
  /** `message` is the server's msg when it gave one. */
  | { valid: false; message: string | null };

export async function checkToken(api: ApiClient, token: string | undefined, type: TokenKind): Promise<TokenCheck> {
  if (!token) return { valid: false, message: null };
  try {
    const { data, error } = await api.GET('/ext/login/token/exist', { params: { query: { token, type } }, silent: true });
    if (error !== undefined || !data) return { valid: false, message: serverMessage(error) };
    if (data.data?.status === 'succ') return { valid: true, mail: data.data.mail ?? '' };
    return { valid: false, message: serverMessage(data) };
  } catch {
    return { valid: false, message: null };
  }
}

function serverMessage(body: unknown): string | null {
  const message = extractMessage(body);
  return message === 'unknown error' ? null : message;
}
