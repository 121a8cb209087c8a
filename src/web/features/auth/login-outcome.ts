// SPEC §5 Login: what the login page says for each answer of POST /ext/login/login.
import { errorText } from '../../../api/client';
import type { ApiError } from '../../../api/outcome';
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

/** Message for a refused login: A00001 is '用户名或密码错误', others "code message"; no answer at all, the network error. */
export function loginErrorMessage(error: ApiError): string {
  if (error.code === null && error.status === 0) return zh.common.networkError;
  if (error.code === 'A00001') return zh.auth.badCredentials;
  return errorText(error.code, error.msg);
}
