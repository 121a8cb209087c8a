// /admin/user-list (SPEC §2, §7): filters role (all / admin / user), mailAddr and nickName; a paged
// table of users with their role and groups; per row an edit dialog for role and groups. Filters,
// page and size live in the URL; the route loader fetches GET /api/admin/user/list for them.
import { useNavigate } from '@tanstack/react-router';
import { useMemo, type JSX } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { columnHelper } from '../../components/ui/data-table';
import { PagedTable } from '../../components/ui/paged-table';
import { FilterBar } from '../../components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../components/ui/form';
import { PageHeader } from '../../components/ui/page';
import { StatusBadge } from '../../components/ui/status-badge';
import { zh } from '../../i18n/zh';
import { useSessionRole, useSessionUser } from '../../session/use-session';
import { formatDateTime } from '../../components/ui/format';
import { RoleBadge } from './role-badge';
import { UserEditDialog } from './user-edit-dialog';
import { USER_ROLE_FILTERS, toUserListUrlSearch, type UserListSearch, type UserRoleFilter } from './user-list-search';
import { canEditUser } from './user-roles';
import type { AdminUser, UserListData } from './users';
import { useRowDialog } from '../../lib/use-row-dialog';
import { useReloading } from '../../navigation/use-reloading';

const t = zh.people;

const ROLE_FILTER_LABEL: Record<UserRoleFilter, string> = {
  all: t.userList.roleAll,
  admin: t.userList.roleAdmin,
  user: t.userList.roleUser,
};

export interface UserListPageProps {
  search: UserListSearch;
  data: UserListData;
}

export function UserListPage({ search, data }: UserListPageProps): JSX.Element {
  const navigate = useNavigate();
  const viewerRole = useSessionRole();
  const viewerId = useSessionUser()?.id ?? null;
  const loading = useReloading();
  const editingDialog = useRowDialog<AdminUser>();
  const { row: editing, open: setEditing } = editingDialog;

  const go = (next: UserListSearch) => navigate({ to: '/admin/user-list', search: toUserListUrlSearch(next) });

  const columns = useMemo(() => {
    const groupNames = new Map(data.groups.map((g) => [g.id, g.groupName]));
    const col = columnHelper<AdminUser>();
    return [
      col.accessor('id', { header: t.userList.colId, meta: { className: 'w-16' } }),
      col.accessor('nickName', { header: t.userList.colNickName }),
      col.accessor('mailAddr', { header: t.userList.colMailAddr, meta: { className: 'break-all' } }),
      col.accessor('phoneNo', { header: t.userList.colPhoneNo }),
      col.accessor('qq', { header: t.userList.colQq }),
      col.accessor('roleType', {
        header: t.userList.colRoleType,
        cell: ({ getValue }) => <RoleBadge role={getValue()} />,
      }),
      col.accessor('groupIds', {
        header: t.userList.colGroups,
        cell: ({ getValue }) => {
          const ids = getValue();
          if (ids.length === 0) return <span className="text-slate-500">{t.userList.noGroup}</span>;
          return (
            <span className="flex flex-wrap gap-1">
              {ids.map((id) => (
                <StatusBadge key={id} tone="info">
                  {groupNames.get(id) ?? `#${id}`}
                </StatusBadge>
              ))}
            </span>
          );
        },
      }),
      col.accessor('createdAt', {
        header: t.userList.colCreatedAt,
        meta: { className: 'whitespace-nowrap' },
        cell: ({ getValue }) => formatDateTime(getValue()),
      }),
      col.display({
        id: 'actions',
        header: t.common.actions,
        meta: { align: 'center', className: 'w-20' },
        cell: ({ row }) =>
          canEditUser(viewerRole, row.original.roleType) ? (
            <Button variant="link" aria-label={`${t.common.edit} ${row.original.mailAddr}`} onClick={() => setEditing(row.original)}>
              {t.common.edit}
            </Button>
          ) : null,
      }),
    ];
  }, [data.groups, viewerRole, setEditing]);

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={zh.titles.adminUserList} />
      <UserFilters search={search} onSearch={(filters) => void go({ ...search, ...filters, page: 0 })} />
      <PagedTable columns={columns} search={search} result={data.users} onSearch={(next) => void go(next)} loading={loading} caption={t.userList.caption} />
      {editing && (
        <UserEditDialog
          key={editing.id}
          user={editing}
          groups={data.groups}
          viewerRole={viewerRole}
          viewerId={viewerId}
          onClose={editingDialog.close}
          onSaved={editingDialog.done}
        />
      )}
    </div>
  );
}

const filterSchema = v.object({
  roleType: v.picklist(USER_ROLE_FILTERS),
  mailAddr: v.string(),
  nickName: v.string(),
});
type FilterValues = v.InferOutput<typeof filterSchema>;

const EMPTY_FILTERS: FilterValues = { roleType: 'all', mailAddr: '', nickName: '' };

function UserFilters({ search, onSearch }: { search: UserListSearch; onSearch: (filters: FilterValues) => void }): JSX.Element {
  // `values` follows the URL (back / forward, a sidebar click) without remounting the form.
  const form = useValibotForm(filterSchema, {
    values: { roleType: search.roleType, mailAddr: search.mailAddr ?? '', nickName: search.nickName ?? '' },
  });
  const roleOptions = USER_ROLE_FILTERS.map((value) => ({ value, label: ROLE_FILTER_LABEL[value] }));
  return (
    <FilterBar
      form={form}
      onSubmit={onSearch}
      onReset={() => {
        form.reset(EMPTY_FILTERS);
        onSearch(EMPTY_FILTERS);
      }}
      layout="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-[10rem_1fr_1fr_auto]"
    >
      <SelectField<FilterValues, 'roleType', UserRoleFilter> name="roleType" label={t.userList.roleFilter} options={roleOptions} placeholder={false} />
      <TextField<FilterValues, 'mailAddr'> name="mailAddr" label={t.userList.mailAddr} type="search" />
      <TextField<FilterValues, 'nickName'> name="nickName" label={t.userList.nickName} type="search" />
    </FilterBar>
  );
}
