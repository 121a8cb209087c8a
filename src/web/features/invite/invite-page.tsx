// /admin/invite (SPEC §2, §7): one e-mail per line; POST /api/admin/invite as a form with `mails`
// comma-joined; the answer is one row per address {mail, sendStatus, msg}, shown in a table.
import { useState, type JSX } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { Form, TextArea, useValibotForm } from '../../components/ui/form';
import { PageHeader, Panel } from '../../components/ui/page';
import { StatusBadge } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { inviteMails, type InviteResult } from './invite-api';

/** The addresses typed one per line: trimmed, blank lines and repeats dropped. */
export function parseMailLines(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return [...new Set(lines)];
}

const inviteSchema = v.object({
  mails: v.pipe(
    v.string(),
    v.check((text) => parseMailLines(text).length > 0, zh.invite.mailsRequired),
  ),
});
type InviteValues = v.InferOutput<typeof inviteSchema>;

const col = columnHelper<InviteResult>();
const columns = [
  col.accessor('mail', { header: zh.invite.colMail }),
  col.accessor('sendStatus', {
    header: zh.invite.colStatus,
    cell: ({ getValue }) => {
      const status = getValue();
      return status === 'succ' ? (
        <StatusBadge tone="success">{zh.invite.statusSucc}</StatusBadge>
      ) : (
        <StatusBadge tone="danger">{status === 'failed' ? zh.invite.statusFailed : status}</StatusBadge>
      );
    },
  }),
  col.accessor('msg', { header: zh.invite.colMsg, cell: ({ getValue }) => getValue() ?? '' }),
];

export function InvitePage(): JSX.Element {
  const { api } = useAppContext();
  const form = useValibotForm(inviteSchema, { defaultValues: { mails: '' } });
  const [results, setResults] = useState<InviteResult[] | null>(null);

  async function onSubmit(values: InviteValues) {
    const rows = await inviteMails(api, parseMailLines(values.mails));
    if (rows) setResults(rows);
  }

  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <PageHeader title={zh.titles.adminInvite} />
      <Panel>
        <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-3">
          <TextArea<InviteValues, 'mails'>
            name="mails"
            label={zh.invite.mails}
            hint={zh.invite.mailsHint}
            rows={8}
            placeholder={'alice@example.com\nbob@example.com'}
          />
          <div>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {zh.invite.submit}
            </Button>
          </div>
        </Form>
      </Panel>
      {results && (
        <Panel title={zh.invite.result}>
          <DataTable
            columns={columns}
            data={results}
            rowId={(row) => row.mail}
            page={0}
            size={Math.max(results.length, 1)}
            totalPages={1}
            onPageChange={() => {}}
            caption={zh.invite.result}
          />
        </Panel>
      )}
    </div>
  );
}
