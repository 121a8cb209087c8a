// /forgot-password (SPEC §2, §5): one e-mail field (required). POST /ext/login/password as a form
// {mail}; the server answers the same whether or not the address exists, so success just says the
// request was submitted and to check the mailbox.
import { useState, type JSX } from 'react';
import * as v from 'valibot';
import { errorText } from '../../../api/client';
import { Button } from '../../components/ui/button';
import { Form, FormError, TextField, required, useValibotForm } from '../../components/ui/form';
import { zhApp as zh } from '../../i18n/zh-app';
import { LOGIN_PATH } from '../../navigation/navigate-to';
import { useAppContext } from '../../app/app-context';
import { requestResetMail } from './auth-api';
import { AuthCard, NoticeBox } from './auth-card';

const forgotSchema = v.object({ mail: required(zh.auth.mailAddr) });
type ForgotValues = v.InferOutput<typeof forgotSchema>;

export function ForgotPasswordPage(): JSX.Element {
  const { api } = useAppContext();
  const form = useValibotForm(forgotSchema, { defaultValues: { mail: '' } });
  const [submitted, setSubmitted] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  async function onSubmit(values: ForgotValues) {
    setMessage(null);
    const outcome = await requestResetMail(api, values.mail);
    if (!outcome.ok || (outcome.data?.sendStatus !== undefined && outcome.data.sendStatus !== 'succ')) {
      setMessage(errorText(null, outcome.msg));
      return;
    }
    setSubmitted(true);
  }

  return (
    <AuthCard
      title={zh.titles.forgotPassword}
      subtitle={submitted ? undefined : zh.auth.forgotIntro}
      footer={
        <a href={LOGIN_PATH} className="text-blue-600 underline underline-offset-2">
          {zh.common.backToLogin}
        </a>
      }
    >
      {submitted ? (
        <NoticeBox>{zh.auth.forgotSubmitted}</NoticeBox>
      ) : (
        <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={zh.titles.forgotPassword}>
          <TextField<ForgotValues, 'mail'> name="mail" label={zh.auth.mailAddr} type="email" autoComplete="email" autoFocus />
          <FormError message={message} />
          <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
            {zh.auth.forgotButton}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
