// The sign-in pages' calls (SPEC §2, §5). Each is silent: the page says what happened in its own
// words (login-outcome.ts) or the server's, so these hand back the outcome and never toast.
import { FORM_URLENCODED, type ApiClient } from '../../../api/client';
import { outcomeOf } from '../../../api/outcome';
import type { components } from '../../../api/schema';

type Schemas = components['schemas'];

export interface LoginQuery {
  mailAddr: string;
  pwd: string;
  keepflag: boolean;
}

/** POST /ext/login/login; no answer (offline) is a failure with code null and status 0. */
export function logIn(api: ApiClient, query: LoginQuery) {
  return outcomeOf(api.POST('/ext/login/login', { params: { query }, silent: true }), { noAnswer: 'fail' });
}

export function register(api: ApiClient, body: Schemas['RegisterRequest']) {
  return outcomeOf(api.POST('/ext/login/register', { body, silent: true }));
}

export function resetPassword(api: ApiClient, body: Schemas['ResetPasswordRequest']) {
  return outcomeOf(api.POST('/ext/login/reset', { body, silent: true }));
}

/** Asks for the reset mail (the server answers alike whether or not the address exists). */
export function requestResetMail(api: ApiClient, mail: string) {
  return outcomeOf(api.POST('/ext/login/password', { body: { mail }, headers: FORM_URLENCODED, silent: true }));
}

/** Whether an account already has this address; false when the check failed or got no answer. */
export async function isMailTaken(api: ApiClient, mailAddr: string): Promise<boolean> {
  const outcome = await outcomeOf(api.GET('/ext/login/exist', { params: { query: { mailAddr } } }), { noAnswer: 'fail' });
  return outcome.ok && outcome.data?.status === 'already_exist';
}
