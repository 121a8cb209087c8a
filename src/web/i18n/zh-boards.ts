// Chinese text of the boards screens; part of the one catalog (zh.ts re-exports it as zh.boards).
// Exact SPEC strings are marked.
export const boardsText = {
  /** SPEC §5 Board and admin board task form: '{field}必填'. */
  required: (label: string) => `${label}必填`,
  operationSuccess: '操作成功', // SPEC §8
  operationFailed: '操作失败', // SPEC §8
  /** SPEC §5: group add/remove answered with a falsy result. */
  groupOperationFailed: 'operation failed', // SPEC §5, verbatim
  created: '创建成功', // SPEC §8
  saved: '保存成功', // SPEC §8
  saveFailed: '保存失败', // SPEC §8

  // ------------------------------------------------------------ board fields
  board: {
    id: 'ID',
    uuid: '链接ID', // the id in the member's link /user/board/{uuid}
    boardName: '看板名称',
    remark: '备注',
    remarkHint: '必填：会员在看板上看到的说明',
    publishAt: '发布时间',
    expireAt: '截止时间',
    status: '状态',
    createdAt: '创建时间',
    invalidTime: '请输入有效的时间',
    expireAfterPublish: '截止时间必须晚于发布时间', // the server's words too
  },

  // ------------------------------------------------------------ /admin/board-list
  list: {
    caption: '看板列表',
    filterBoardId: '看板ID',
    filterBoardTaskId: '看板任务ID',
    filterItem: '商品',
    sort: '排序',
    sortDesc: '创建时间（新→旧）',
    sortAsc: '创建时间（旧→新）',
    newBoard: '新建看板',
    edit: '编辑',
    actions: '操作',
    idInvalid: '请输入正整数',
  },

  // ------------------------------------------------------------ /admin/board/{id|new}
  detail: {
    newTitle: '新建看板',
    basicInfo: '基本信息',
    save: '保存',
    create: '创建',
    backToList: '返回列表',
    exportExcel: '导出Excel',
    statusLine: '看板状态',
    publish: '发布',
    publishToUsers: '发布给指定用户',
    backupPublish: '备用发布',
    close: '关闭看板',
    reopen: '重新开启',
    confirmPublish: '确定发布此看板吗？绑定用户组的所有成员将收到通知邮件。',
    confirmBackupPublish: '确定通过备用邮件服务器发布此看板吗？绑定用户组的所有成员将收到通知邮件。',
    confirmClose: '确定关闭此看板吗？关闭后用户将无法认领任务。',
    confirmReopen: '确定重新开启此看板吗？',
    publishHint: '暂不能发布：',
  },

  publishUsers: {
    title: '发布给指定用户',
    search: '搜索用户',
    searchPlaceholder: '输入用户名或邮箱筛选',
    chosen: (n: number) => `已选择 ${n} 人`,
    submit: '发布',
    cancel: '取消',
    empty: '没有匹配的用户',
    loading: '正在加载用户…',
  },

  groups: {
    title: '用户组绑定',
    available: '可绑定的用户组',
    bound: '已绑定的用户组',
    add: '绑定 →',
    remove: '← 解绑',
    empty: '暂无',
    hint: '发布时，已绑定用户组的成员会收到通知并可以看到此看板。',
  },

  // ------------------------------------------------------------ board tasks
  boardTask: {
    title: '看板任务',
    caption: '看板任务列表',
    newBoardTask: '新建看板任务',
    id: 'ID',
    itemId: '商品',
    itemName: '商品名称',
    upc: 'UPC',
    url: '链接',
    price: '价格',
    buyIn: '回收价',
    show: '需求数量',
    need: '实际需求',
    averageCost: '平均成本',
    allCount: '到货数量',
    claimCount: '已认领',
    /** A claim progress bar's name. */
    progressOf: (itemName: string) => `${itemName} 认领进度`,
    address: '地址',
    defaultAddress: '默认地址',
    addressHint: '留空即默认地址',
    status: '状态',
    note: '备注',
    itemSource: '商品来源',
    actions: '操作',
    edit: '编辑',
    mustBeNumber: (label: string) => `${label}必须为数字`,
    moneyPlaces: (label: string) => `${label}最多两位小数`,
    mustBeWholeNumber: (label: string) => `${label}必须为非负整数`,
    newTitle: '新建看板任务',
    editTitle: (id: number) => `编辑看板任务 #${id}`,
    ofBoard: (boardId: number) => `所属看板 #${boardId}`,
    variant: '表单类型',
    variantFull: '完整表单',
    variantSimple: '简易表单',
    simpleHint: '价格留空时使用商品的价格；链接使用商品的链接。',
    save: '保存',
    back: '返回',
  },

  // ------------------------------------------------------------ user tasks (claims)
  task: {
    caption: '用户任务',
    id: '任务ID',
    user: '用户',
    count: '认领数量',
    status: '状态',
    isHome: '寄到家',
    state: '州',
    zipCode: '邮编',
    labelCount: '标签数量',
    createdAt: '认领时间',
    boardTask: '看板任务',
    itemName: '商品名称',
    actions: '操作',
    accept: '通过',
    reject: '拒绝',
    confirmAccept: (label: string) => `确定通过认领 ${label} 吗？`,
    confirmReject: (label: string) => `确定拒绝认领 ${label} 吗？拒绝后该认领将被删除。`,
    yes: '是',
    no: '否',
    none: '暂无用户认领',
    loading: '加载中…',
  },
  pending: {
    title: '待审核的认领',
    caption: '待审核的认领',
    hint: '已关闭的看板任务或已过期的看板上的认领需要管理员审核。',
    none: '没有待审核的认领',
  },
} as const;
