// /me (SPEC §2): the account (id, nickName, mailAddr, phoneNo, qq, roleType) and the notice.
// The notice is read-only for role user; lowerAdmin and admin get save and save-and-mass-email.
import { useState, type JSX } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { Form, TextArea, useValibotForm } from '../../components/ui/form';
import { PageHeader, Panel } from '../../components/ui/page';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { useSessionRole, useSessionUser } from '../../session/use-session';
import { canEditNotice, saveNotice } from './notice';

const noticeSchema = v.object({ content: v.string() });
type NoticeValues = v.InferOutput<typeof noticeSchema>;

export function MePage({ notice }: { notice: string }): JSX.Element {
  const user = useSessionUser();
  const role = useSessionRole();
  const editable = canEditNotice(role);

  const rows: Array<[string, string | number]> = user
    ? [
        [zh.me.id, user.id],
        [zh.me.nickName, user.nickName],
        [zh.me.mailAddr, user.mailAddr],
        [zh.me.phoneNo, user.phoneNo],
        [zh.me.qq, user.qq],
        [zh.me.roleType, zh.roles[user.roleType] ?? user.roleType],
      ]
    : [];

  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <PageHeader title={zh.titles.me} />
      <Panel title={zh.me.account}>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label} className="flex gap-3">
              <dt className="w-16 shrink-0 text-slate-500">{label}</dt>
              <dd className="min-w-0 break-all text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </Panel>
      <NoticePanel notice={notice} editable={editable} />
    </div>
  );
}

function NoticePanel({ notice, editable }: { notice: string; editable: boolean }): JSX.Element {
  const { api } = useAppContext();
  const form = useValibotForm(noticeSchema, { defaultValues: { content: notice } });
  const [saving, setSaving] = useState<'save' | 'mail' | null>(null);

  async function save(values: NoticeValues, isMail: boolean) {
    setSaving(isMail ? 'mail' : 'save');
    try {
      const saved = await saveNotice(api, values.content, isMail);
      if (saved !== null) {
        toast.success(zh.common.saveSuccess);
        form.reset({ content: saved });
      }
    } finally {
      setSaving(null);
    }
  }

  return (
    <Panel title={zh.me.notice}>
      <Form form={form} onSubmit={(values) => save(values, false)} className="flex flex-col gap-3">
        <TextArea<NoticeValues, 'content'>
          name="content"
          label={<span className="sr-only">{zh.me.notice}</span>}
          rows={8}
          readOnly={!editable}
          placeholder={editable ? undefined : zh.me.noticeEmpty}
        />
        {editable && (
          <div className="flex gap-2">
            <Button type="submit" loading={saving === 'save'} disabled={saving !== null}>
              {zh.me.save}
            </Button>
            <Button
              variant="secondary"
              loading={saving === 'mail'}
              disabled={saving !== null}
              onClick={() => void form.handleSubmit((values) => save(values, true))()}
            >
              {zh.me.saveAndMail}
            </Button>
          </div>
        )}
      </Form>
    </Panel>
  );
}
