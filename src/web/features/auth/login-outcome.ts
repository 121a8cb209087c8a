// SPEC §5 Login: what the login page says for each answer of POST /ext/login/login.
import { errorText, extractMessage } from '../../../api/client';
import { zhApp as zh } from '../../i18n/zh-app';

export const LOGIN_REDIRECT_DELAY_MS = 100;

/** Message for a non-success `data.status` (user_not_exist, failed, no_group, anything else as is). */
export function loginStatusMessage(status: string | undefined | null): string {
  switch (status) {
    case 'user_not_exist':
      return zh.auth.userNotExist;
    case 'failed':
      return zh.auth.wrongPassword;
    case 'no_group':
      return zh.auth.noGroup;
    default:
      return status ? status : zh.auth.badCredentials;
  }
}

/** Message for an error response: A00001 is '用户名或密码错误', others "code message". */
export function loginErrorMessage(body: unknown): string {
  const code = typeof body === 'object' && body !== null && 'code' in body ? String((body as { code: unknown }).code) : undefined;
  if (code === 'A00001') return zh.auth.badCredentials;
  return errorText(code, extractMessage(body));
}
