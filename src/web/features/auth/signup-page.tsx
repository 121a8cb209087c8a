// /signup (SPEC §2, §5): reached from the invitation mail (/signup?mailAddr=..&token=..). Both are
// read-only here. The token was checked by the route loader; an invalid one shows the server's msg
// or 'token已失效' on the page (and as a toast). The address is checked on blur (already_exist ->
// '用户名{name}已被占用'). Every field is required after trimming; the passwords must match.
import { useEffect, useRef, useState, type JSX } from 'react';
import * as v from 'valibot';
import { errorText } from '../../../api/client';
import { Button } from '../../components/ui/button';
import { Form, FormError, PasswordField, TextField, required, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zhApp as zh } from '../../i18n/zh-app';
import { LOGIN_PATH } from '../../navigation/navigate-to';
import { useAppContext } from '../../app/app-context';
import { isMailTaken, register } from './auth-api';
import { AuthCard } from './auth-card';
import { requiredSecret } from './auth-fields';
import type { TokenCheck } from './token-check';

export const signupSchema = v.pipe(
  v.object({
    mailAddr: required(zh.auth.mailAddr),
    nickName: required(zh.auth.nickName),
    phoneNo: required(zh.auth.phoneNo),
    qq: required(zh.auth.qq),
    pwd: requiredSecret(zh.auth.password),
    pwd2: requiredSecret(zh.auth.password2),
    token: required(zh.auth.token),
  }),
  v.forward(
    v.partialCheck([['pwd'], ['pwd2']], (input) => input.pwd === input.pwd2, zh.auth.passwordsDiffer),
    ['pwd2'],
  ),
);
type SignupValues = v.InferOutput<typeof signupSchema>;

export function SignupPage({ mailAddr, token, check }: { mailAddr: string; token: string; check: TokenCheck }): JSX.Element {
  const { api } = useAppContext();
  const form = useValibotForm(signupSchema, {
    // 'all' lets the password match run even while other fields are still empty.
    criteriaMode: 'all',
    defaultValues: { mailAddr, nickName: '', phoneNo: '', qq: '', pwd: '', pwd2: '', token },
  });
  const [message, setMessage] = useState<string | null>(null);
  const tokenError = check.valid ? null : (check.message ?? zh.auth.tokenInvalid);

  // Toast the invalid-token message once per page visit (the page shows it as well).
  const toasted = useRef(false);
  useEffect(() => {
    if (tokenError && !toasted.current) {
      toasted.current = true;
      toast.error(tokenError);
    }
  }, [tokenError]);

  async function checkMailFree() {
    const value = form.getValues('mailAddr').trim();
    if (!value) return;
    // The register call reports a taken address too; a failed pre-check changes nothing.
    if (await isMailTaken(api, value)) form.setError('mailAddr', { type: 'taken', message: zh.auth.mailTaken(value) });
  }

  async function onSubmit(values: SignupValues) {
    setMessage(null);
    const outcome = await register(api, {
      mailAddr: values.mailAddr,
      pwd: values.pwd,
      nickName: values.nickName,
      phoneNo: values.phoneNo,
      qq: values.qq,
      token: values.token,
    });
    if (!outcome.ok) {
      setMessage(errorText(null, outcome.msg));
      return;
    }
    const status = outcome.data?.status;
    if (status === 'succ') {
      // The login page is a page of its own (decision 131): the toast goes with the page load.
      toast.onNextPage('success', zh.auth.signupSuccess);
      window.location.assign(LOGIN_PATH);
      return;
    }
    if (status === 'already_exist') {
      form.setError('mailAddr', { type: 'taken', message: zh.auth.mailTaken(values.mailAddr) });
    }
    setMessage(errorText(null, outcome.msg));
  }

  return (
    <AuthCard
      title={zh.titles.signup}
      footer={
        <>
          {zh.auth.haveAccount}{' '}
          <a href={LOGIN_PATH} className="text-blue-600 underline underline-offset-2">
            {zh.auth.goLogin}
          </a>
        </>
      }
    >
      {tokenError ? (
        <FormError message={tokenError} />
      ) : (
        <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={zh.titles.signup}>
          <TextField<SignupValues, 'mailAddr'> name="mailAddr" label={zh.auth.mailAddr} readOnly onBlur={() => void checkMailFree()} />
          <TextField<SignupValues, 'nickName'> name="nickName" label={zh.auth.nickName} autoComplete="nickname" />
          <TextField<SignupValues, 'phoneNo'> name="phoneNo" label={zh.auth.phoneNo} type="tel" autoComplete="tel" />
          <TextField<SignupValues, 'qq'> name="qq" label={zh.auth.qq} />
          <PasswordField<SignupValues, 'pwd'> name="pwd" label={zh.auth.password} autoComplete="new-password" />
          <PasswordField<SignupValues, 'pwd2'> name="pwd2" label={zh.auth.password2} autoComplete="new-password" />
          <TextField<SignupValues, 'token'> name="token" label={zh.auth.token} readOnly />
          <FormError message={message} />
          <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
            {zh.auth.signupButton}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
