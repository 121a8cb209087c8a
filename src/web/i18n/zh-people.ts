// Chinese text of the people screens; part of the one catalog (zh.ts re-exports it as zh.people).
// Exact SPEC strings are marked.
export const peopleText = {
  common: {
    edit: '编辑',
    save: '保存',
    cancel: '取消',
    back: '返回列表',
    actions: '操作',
    saveSuccess: '保存成功', // SPEC §8
    createSuccess: '创建成功', // SPEC §8
    operationSuccess: '操作成功', // SPEC §8
    deleteSuccess: '删除成功', // SPEC §8
    operationFailed: 'operation failed', // SPEC §5, verbatim (group add/remove with a falsy result)
    filterPlaceholder: '输入关键字筛选',
    noMatch: '没有符合条件的用户',
  },

  userList: {
    roleFilter: '角色',
    roleAll: '全部',
    roleAdmin: '管理员',
    roleUser: '用户',
    mailAddr: '邮箱',
    nickName: '用户名',
    colId: 'ID',
    colNickName: '用户名',
    colMailAddr: '邮箱',
    colPhoneNo: '电话',
    colQq: 'QQ',
    colRoleType: '角色',
    colGroups: '用户组',
    colCreatedAt: '注册时间',
    caption: '用户列表',
    noGroup: '未分组',
    editTitle: (name: string) => `编辑用户：${name}`,
    role: '角色',
    ownRole: '不能修改自己的角色',
    groups: '用户组',
    groupsHint: '勾选用户所属的用户组；不属于任何组的普通用户无法登录。',
    noGroups: '还没有用户组',
  },

  groupList: {
    add: '新建用户组',
    colId: 'ID',
    colGroupName: '组名称',
    colRemark: '备注',
    caption: '用户组列表',
  },

  group: {
    newTitle: '新建用户组',
    editTitle: (name: string) => `用户组：${name}`,
    info: '基本信息',
    groupName: '组名称',
    groupNameRequired: '组名称必填', // SPEC §5
    groupNameTooLong: '组名称不能超过64个字符',
    remark: '备注',
    remarkTooLong: '备注不能超过500个字符',
    notFound: '用户组不存在或已被删除。',
    members: (n: number) => `成员（${n}）`,
    membersCaption: '用户组成员',
    membersAfterSave: '保存用户组后即可添加成员。',
    noMembers: '该组还没有成员',
    addMembers: '添加成员',
    addMembersTitle: '添加成员',
    pickUsers: '选择用户',
    addMembersHint: '勾选要加入该组的用户（已在组内的用户不再列出）。',
    addSelected: (n: number) => `添加（${n}）`,
    remove: '移除',
    removeSelected: (n: number) => `移除所选（${n}）`,
    removeConfirm: (names: string) => `确定将 ${names} 移出该用户组吗？`,
    removeConfirmTitle: '移除成员',
    colId: 'ID',
    colNickName: '用户名',
    colMailAddr: '邮箱',
    colRoleType: '角色',
  },
} as const;
