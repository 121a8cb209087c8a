// /admin/group-list (SPEC §2): every user group (GET /api/usergroup/list) with a 'new' button to
// /admin/group/new and 'edit' to /admin/group/{id}. The contract lists groups without a member
// count, so the table shows none (the count is on the group page).
import { Link } from '@tanstack/react-router';
import type { JSX } from 'react';
import { columnHelper, DataTable } from '../../components/ui/data-table';
import { PageHeader } from '../../components/ui/page';
import { zh } from '../../i18n/zh';
import { primaryLinkClass, textLinkClass } from '../../components/ui/link-classes';
import type { UserGroup } from './users';

const t = zh.people;

const col = columnHelper<UserGroup>();
const columns = [
  col.accessor('id', { header: t.groupList.colId, meta: { className: 'w-16' } }),
  col.accessor('groupName', { header: t.groupList.colGroupName }),
  col.accessor('remark', { header: t.groupList.colRemark, meta: { className: 'text-slate-600' } }),
  col.display({
    id: 'actions',
    header: t.common.actions,
    meta: { align: 'center', className: 'w-20' },
    cell: ({ row }) => (
      <Link to="/admin/group/$id" params={{ id: String(row.original.id) }} className={textLinkClass} aria-label={`${t.common.edit} ${row.original.groupName}`}>
        {t.common.edit}
      </Link>
    ),
  }),
];

export function GroupListPage({ groups }: { groups: UserGroup[] }): JSX.Element {
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={zh.titles.adminGroupList}
        actions={
          <Link to="/admin/group/$id" params={{ id: 'new' }} className={primaryLinkClass}>
            {t.groupList.add}
          </Link>
        }
      />
      <DataTable
        columns={columns}
        data={groups}
        page={0}
        size={Math.max(groups.length, 1)}
        totalPages={1}
        totalElements={groups.length}
        onPageChange={() => {}}
        caption={t.groupList.caption}
      />
    </div>
  );
}
