// /login (SPEC §2, §5): e-mail + password, keep-me-logged-in, forgot-password link. Enter in the
// password field submits. The login page is a page of its own (login.html, src/web/login/,
// decision 131), drawn without the router and the session machine: on success it stores the token
// in the token store the session reads (as the session's storeToken does) and, 100 ms later, loads
// the callback (resolveLoginCallback) as a new page, where the session starts from that token.
import { useEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import * as v from 'valibot';
import type { ApiClient } from '../../../api/client';
import { Button } from '../../components/ui/button';
import { Checkbox, Form, FormError, PasswordField, TextField, required, useValibotForm } from '../../components/ui/form';
import { zhApp as zh } from '../../i18n/zh-app';
import { resolveLoginCallback } from '../../navigation/navigate-to';
import { getTokenStore } from '../../session/token-store';
import { logIn } from './auth-api';
import { AuthCard } from './auth-card';
import { requiredSecret } from './auth-fields';
import { LOGIN_REDIRECT_DELAY_MS, loginErrorMessage, loginStatusMessage } from './login-outcome';

const loginSchema = v.object({
  mailAddr: required(zh.auth.username),
  pwd: requiredSecret(zh.auth.password),
  keepflag: v.boolean(),
});
type LoginValues = v.InferOutput<typeof loginSchema>;

const FORGOT_PASSWORD_PATH = '/forgot-password';

export function LoginPage({ api, callback }: { api: ApiClient; callback?: string }): JSX.Element {
  const form = useValibotForm(loginSchema, { defaultValues: { mailAddr: '', pwd: '', keepflag: false } });
  const [message, setMessage] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function onSubmit(values: LoginValues) {
    setMessage(null);
    const outcome = await logIn(api, { mailAddr: values.mailAddr, pwd: values.pwd, keepflag: values.keepflag });
    if (!outcome.ok) {
      setMessage(loginErrorMessage(outcome));
      return;
    }
    const result = outcome.data;
    if (result?.status !== 'succ' || !result.token) {
      setMessage(loginStatusMessage(result?.status));
      return;
    }
    getTokenStore().write({ token: result.token, keep: values.keepflag });
    setRedirecting(true);
    const target = resolveLoginCallback(callback);
    timer.current = setTimeout(() => window.location.assign(target), LOGIN_REDIRECT_DELAY_MS);
  }

  function submitOnEnter(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void form.handleSubmit(onSubmit)();
  }

  return (
    <AuthCard title={zh.titles.login} subtitle={zh.auth.loginSubtitle}>
      <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={zh.titles.login}>
        <TextField<LoginValues, 'mailAddr'> name="mailAddr" label={zh.auth.username} type="email" autoComplete="username" autoFocus />
        <PasswordField<LoginValues, 'pwd'> name="pwd" label={zh.auth.password} onKeyDown={submitOnEnter} />
        <div className="flex items-center justify-between">
          <Checkbox<LoginValues, 'keepflag'> name="keepflag" label={zh.auth.keepLogin} />
          <a href={FORGOT_PASSWORD_PATH} className="text-sm text-blue-600 hover:underline">
            {zh.auth.forgotLink}
          </a>
        </div>
        <FormError message={message} />
        <Button type="submit" className="w-full" loading={form.formState.isSubmitting || redirecting}>
          {zh.auth.loginButton}
        </Button>
      </Form>
    </AuthCard>
  );
}
