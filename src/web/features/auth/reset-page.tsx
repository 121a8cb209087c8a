// /reset (SPEC §2, §5): the reset mail links /reset?token=..; the route loader checked the token
// (type change). Invalid -> '链接已失效'. The address comes from that check and is read-only; both
// passwords are required and must match. Success: '提交成功，请使用新密码登录', then /login.
import { useState, type JSX } from 'react';
import * as v from 'valibot';
import { errorText } from '../../../api/client';
import { Button } from '../../components/ui/button';
import { Form, FormError, PasswordField, TextField, required, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zhApp as zh } from '../../i18n/zh-app';
import { LOGIN_PATH } from '../../navigation/navigate-to';
import { useAppContext } from '../../app/app-context';
import { resetPassword } from './auth-api';
import { AuthCard } from './auth-card';
import { requiredSecret } from './auth-fields';
import type { TokenCheck } from './token-check';

const resetSchema = v.pipe(
  v.object({
    mailAddr: required(zh.auth.mailAddr),
    pwd: requiredSecret(zh.auth.password),
    pwd2: requiredSecret(zh.auth.password2),
  }),
  v.forward(
    v.partialCheck([['pwd'], ['pwd2']], (input) => input.pwd === input.pwd2, zh.auth.passwordsDiffer),
    ['pwd2'],
  ),
);
type ResetValues = v.InferOutput<typeof resetSchema>;

export function ResetPage({ token, check }: { token: string; check: TokenCheck }): JSX.Element {
  const { api } = useAppContext();
  const form = useValibotForm(resetSchema, {
    // 'all' lets the password match run even while other fields are still empty.
    criteriaMode: 'all',
    defaultValues: { mailAddr: check.valid ? check.mail : '', pwd: '', pwd2: '' },
  });
  const [message, setMessage] = useState<string | null>(null);

  async function onSubmit(values: ResetValues) {
    setMessage(null);
    const outcome = await resetPassword(api, { pwd: values.pwd, token, mailAddr: values.mailAddr });
    if (!outcome.ok || outcome.data?.status !== 'succ') {
      setMessage(errorText(null, outcome.msg));
      return;
    }
    // The login page is a page of its own (decision 131): the toast goes with the page load.
    toast.onNextPage('success', zh.auth.resetSuccess);
    window.location.assign(LOGIN_PATH);
  }

  return (
    <AuthCard
      title={zh.titles.reset}
      footer={
        <a href={LOGIN_PATH} className="text-blue-600 underline underline-offset-2">
          {zh.common.backToLogin}
        </a>
      }
    >
      {!check.valid ? (
        <FormError message={zh.auth.linkExpired} />
      ) : (
        <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={zh.titles.reset}>
          <TextField<ResetValues, 'mailAddr'> name="mailAddr" label={zh.auth.mailAddr} readOnly autoComplete="username" />
          <PasswordField<ResetValues, 'pwd'> name="pwd" label={zh.auth.password} autoComplete="new-password" autoFocus />
          <PasswordField<ResetValues, 'pwd2'> name="pwd2" label={zh.auth.password2} autoComplete="new-password" />
          <FormError message={message} />
          <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
            {zh.auth.resetButton}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
