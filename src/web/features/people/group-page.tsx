// /admin/group/{id|new} (SPEC §2, §5, §7): the group's name (required, '组名称必填') and remark,
// saved with POST /api/usergroup/update (no id creates; after creating the page moves to the new
// group's address); then its members (GET /api/usergroup/list/{id}), removed per row or in a batch
// and added from all users (GET /api/user/list), through POST / DELETE /api/usergroup/{id}/user
// with `uids` comma-joined. A falsy result of those two fails with 'operation failed'.
import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState, type JSX } from 'react';
import * as v from 'valibot';
import { Button, Spinner } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { columnHelper, DataTable, type RowSelectionState } from '../../components/ui/data-table';
import { Modal } from '../../components/ui/dialog';
import { Form, TextArea, TextField, useValibotForm } from '../../components/ui/form';
import { PageHeader, Panel } from '../../components/ui/page';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { CheckList } from './check-list';
import { secondaryLinkClass } from '../../components/ui/link-classes';
import { RoleBadge } from './role-badge';
import { changeGroupMembers, saveGroup, type GroupPageData, type MemberChange, type User, type UserGroup } from './users';
import { loadAllUsers } from '../../lib/users';

const t = zh.people;

const groupSchema = v.object({
  groupName: v.pipe(v.string(t.group.groupNameRequired), v.trim(), v.nonEmpty(t.group.groupNameRequired), v.maxLength(64, t.group.groupNameTooLong)),
  remark: v.pipe(v.string(), v.trim(), v.maxLength(500, t.group.remarkTooLong)),
});
type GroupValues = v.InferOutput<typeof groupSchema>;

export function GroupPage({ data }: { data: GroupPageData }): JSX.Element {
  const backLink = (
    <Link to="/admin/group-list" className={secondaryLinkClass}>
      {t.common.back}
    </Link>
  );

  if (data.kind === 'missing') {
    return (
      <div className="flex max-w-4xl flex-col gap-4">
        <PageHeader title={zh.titles.adminGroup} actions={backLink} />
        <Panel>
          <p role="alert" className="text-sm text-slate-600">
            {t.group.notFound}
          </p>
        </Panel>
      </div>
    );
  }

  const group = data.kind === 'found' ? data.group : null;
  return (
    <div className="flex max-w-5xl flex-col gap-4">
      <PageHeader title={group ? t.group.editTitle(group.groupName) : t.group.newTitle} actions={backLink} />
      <GroupForm key={group?.id ?? 'new'} group={group} />
      {data.kind === 'found' ? (
        <GroupMembers group={data.group} members={data.members} />
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-500">{t.group.membersAfterSave}</p>
      )}
    </div>
  );
}

function GroupForm({ group }: { group: UserGroup | null }): JSX.Element {
  const { api } = useAppContext();
  const navigate = useNavigate();
  const router = useRouter();
  const form = useValibotForm(groupSchema, {
    defaultValues: { groupName: group?.groupName ?? '', remark: group?.remark ?? '' },
  });

  async function onSubmit(values: GroupValues) {
    const saved = await saveGroup(api, group ? { id: group.id, ...values } : values);
    if (saved === null) return;
    if (!group) {
      toast.success(t.common.createSuccess);
      if (saved) await navigate({ to: '/admin/group/$id', params: { id: String(saved.id) }, replace: true });
      else await navigate({ to: '/admin/group-list' });
      return;
    }
    toast.success(t.common.saveSuccess);
    form.reset(saved ? { groupName: saved.groupName, remark: saved.remark } : values);
    await router.invalidate();
  }

  return (
    <Panel title={t.group.info}>
      <Form form={form} onSubmit={onSubmit} aria-label={t.group.info} className="flex flex-col gap-4">
        <TextField<GroupValues, 'groupName'>
          name="groupName"
          label={
            <>
              {t.group.groupName}
              <span aria-hidden="true" className="ml-0.5 text-red-600">
                *
              </span>
            </>
          }
          maxLength={64}
          className="max-w-md"
        />
        <TextArea<GroupValues, 'remark'> name="remark" label={t.group.remark} rows={3} maxLength={500} />
        <div>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t.common.save}
          </Button>
        </div>
      </Form>
    </Panel>
  );
}

/** POST adds, DELETE removes (`busy` meanwhile); true when the server changed something, after `onChanged` and a reload. */
function useChangeMembers(groupId: number, onChanged: () => void) {
  const { api } = useAppContext();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const changeMembers = useCallback(
    async (change: MemberChange, uids: readonly number[]): Promise<boolean> => {
      if (uids.length === 0) return false;
      setBusy(true);
      try {
        const result = await changeGroupMembers(api, groupId, change, uids);
        if (result === 'refused') return false; // the client has already shown the error (SPEC §8)
        if (result === 'unchanged') {
          toast.error(t.common.operationFailed);
          return false;
        }
        toast.success(change === 'add' ? t.common.operationSuccess : t.common.deleteSuccess);
        onChanged();
        await router.invalidate();
        return true;
      } finally {
        setBusy(false);
      }
    },
    [api, router, groupId, onChanged],
  );
  return { busy, changeMembers };
}

/** The group's members: who they are and a 移除 each. */
function memberColumns(onRemove: (user: User) => void) {
  const col = columnHelper<User>();
  return [
    col.accessor('id', { header: t.group.colId, meta: { className: 'w-16' } }),
    col.accessor('nickName', { header: t.group.colNickName }),
    col.accessor('mailAddr', { header: t.group.colMailAddr, meta: { className: 'break-all' } }),
    col.accessor('roleType', { header: t.group.colRoleType, cell: ({ getValue }) => <RoleBadge role={getValue()} /> }),
    col.display({
      id: 'actions',
      header: t.common.actions,
      meta: { align: 'center', className: 'w-20' },
      cell: ({ row }) => (
        <Button variant="link" className="text-red-600" aria-label={`${t.group.remove} ${row.original.mailAddr}`} onClick={() => onRemove(row.original)}>
          {t.group.remove}
        </Button>
      ),
    }),
  ];
}

function GroupMembers({ group, members }: { group: UserGroup; members: User[] }): JSX.Element {
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [adding, setAdding] = useState(false);
  const clearSelection = useCallback(() => setSelection({}), []);
  const { busy, changeMembers } = useChangeMembers(group.id, clearSelection);

  const remove = useCallback(
    async (users: readonly User[]) => {
      if (users.length === 0) return;
      const names = users.map((u) => u.nickName || u.mailAddr).join('、');
      const ok = await confirmDialog(t.group.removeConfirm(names), { title: t.group.removeConfirmTitle, danger: true });
      if (ok)
        await changeMembers(
          'remove',
          users.map((u) => u.id),
        );
    },
    [changeMembers],
  );

  const columns = useMemo(() => memberColumns((user) => void remove([user])), [remove]);

  const selected = members.filter((m) => selection[String(m.id)]);

  return (
    <Panel
      title={t.group.members(members.length)}
      actions={
        <>
          {selected.length > 0 && (
            <Button variant="danger" size="sm" disabled={busy} onClick={() => void remove(selected)}>
              {t.group.removeSelected(selected.length)}
            </Button>
          )}
          <Button size="sm" disabled={busy} onClick={() => setAdding(true)}>
            {t.group.addMembers}
          </Button>
        </>
      }
    >
      <DataTable
        columns={columns}
        data={members}
        page={0}
        size={Math.max(members.length, 1)}
        totalPages={1}
        totalElements={members.length}
        onPageChange={() => {}}
        rowSelection={selection}
        onRowSelectionChange={setSelection}
        emptyText={t.group.noMembers}
        caption={t.group.membersCaption}
      />
      {adding && (
        <AddMembersDialog
          memberIds={members.map((m) => m.id)}
          onClose={() => setAdding(false)}
          onConfirm={async (uids) => {
            if (await changeMembers('add', uids)) setAdding(false);
          }}
        />
      )}
    </Panel>
  );
}

function AddMembersDialog({
  memberIds,
  onClose,
  onConfirm,
}: {
  memberIds: readonly number[];
  onClose: () => void;
  onConfirm: (uids: number[]) => Promise<void>;
}): JSX.Element {
  const { api } = useAppContext();
  const [users, setUsers] = useState<User[] | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    void loadAllUsers(api).then((all) => {
      if (live) setUsers(all);
    });
    return () => {
      live = false;
    };
  }, [api]);

  const members = new Set(memberIds);
  const options = (users ?? [])
    .filter((u) => !members.has(u.id))
    .map((u) => ({
      value: u.id,
      label: u.nickName || u.mailAddr,
      description: `${u.mailAddr} · ${zh.roles[u.roleType] ?? u.roleType}`,
    }));

  async function confirm() {
    setSaving(true);
    try {
      await onConfirm(picked);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      onClose={onClose}
      title={t.group.addMembersTitle}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t.common.cancel}
          </Button>
          <Button disabled={picked.length === 0} loading={saving} onClick={() => void confirm()}>
            {t.group.addSelected(picked.length)}
          </Button>
        </>
      }
    >
      {users === null ? (
        <div role="status" className="flex items-center justify-center gap-2 py-8 text-slate-500">
          <Spinner />
          {zh.app.loading}
        </div>
      ) : (
        <CheckList legend={t.group.pickUsers} hint={t.group.addMembersHint} options={options} value={picked} onChange={setPicked} filterable />
      )}
    </Modal>
  );
}
