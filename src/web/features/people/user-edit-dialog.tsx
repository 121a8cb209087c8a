// The edit dialog of /admin/user-list: a user's role and groups, saved with updateAdminUser
// (POST /api/admin/user/update {id, roleType, groupIds}; groupIds replaces the membership).
import { useId, type JSX } from 'react';
import { useController } from 'react-hook-form';
import * as v from 'valibot';
import type { RoleType } from '../../../../machines/session.machine';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, SelectField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { UI_TEXT } from '../../components/ui/ui-text';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { CheckList } from './check-list';
import { ROLE_TYPES, assignableRoles, canChangeRole } from './user-roles';
import { updateUser, type AdminUser, type UserGroup } from './users';

const t = zh.people;

const editSchema = v.object({
  roleType: v.picklist(ROLE_TYPES, UI_TEXT.requiredField(zh.people.userList.role)),
  groupIds: v.array(v.number()),
});
type EditValues = v.InferOutput<typeof editSchema>;

export interface UserEditDialogProps {
  /** The user being edited (mount the dialog only while one is; key it by the user's id). */
  user: AdminUser;
  groups: readonly UserGroup[];
  viewerRole: RoleType | null;
  viewerId: number | null;
  onClose: () => void;
  /** After a successful save (the toast is shown already). */
  onSaved: () => void;
}

export function UserEditDialog({ user, groups, viewerRole, viewerId, onClose, onSaved }: UserEditDialogProps): JSX.Element {
  const { api } = useAppContext();
  const formId = useId();
  const form = useValibotForm(editSchema, {
    defaultValues: { roleType: user.roleType, groupIds: [...user.groupIds] },
  });
  const groupIds = useController({ control: form.control, name: 'groupIds' });
  const roleEditable = canChangeRole(viewerId, user.id);
  // One's own role is shown but fixed (then it is the only choice, whatever it is).
  const roles = roleEditable ? assignableRoles(viewerRole) : [user.roleType];
  const roleOptions = roles.map((role) => ({ value: role, label: zh.roles[role] }));

  async function onSubmit(values: EditValues) {
    if (!(await updateUser(api, { id: user.id, ...(roleEditable && { roleType: values.roleType }), groupIds: values.groupIds }))) return;
    toast.success(t.common.saveSuccess);
    onSaved();
  }

  return (
    <Modal
      open
      onClose={onClose}
      title={t.userList.editTitle(user.nickName || user.mailAddr)}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t.common.cancel}
          </Button>
          <Button type="submit" form={formId} loading={form.formState.isSubmitting}>
            {t.common.save}
          </Button>
        </>
      }
    >
      <Form form={form} onSubmit={onSubmit} id={formId} className="flex flex-col gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">{t.userList.colId}</dt>
          <dd className="text-slate-900">{user.id}</dd>
          <dt className="text-slate-500">{t.userList.colMailAddr}</dt>
          <dd className="break-all text-slate-900">{user.mailAddr}</dd>
        </dl>
        <SelectField<EditValues, 'roleType', RoleType>
          name="roleType"
          label={t.userList.role}
          options={roleOptions}
          placeholder={false}
          disabled={!roleEditable}
          hint={roleEditable ? undefined : t.userList.ownRole}
        />
        <CheckList
          legend={t.userList.groups}
          hint={t.userList.groupsHint}
          options={groups.map((g) => ({ value: g.id, label: g.groupName, description: g.remark || undefined }))}
          value={groupIds.field.value}
          onChange={groupIds.field.onChange}
          filterable={groups.length > 8}
          emptyText={t.userList.noGroups}
        />
      </Form>
    </Modal>
  );
}
