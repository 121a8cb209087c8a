// Chinese text of the admin task screens (/admin/tasks, /admin/task/{id}, /admin/task-audit); part of
// the one catalog (zh.ts re-exports it as zh.adminTasks). Exact SPEC strings are marked.
export const adminTasksText = {
  operationSuccess: '操作成功', // SPEC §8
  operationFailed: '操作失败', // SPEC §8
  saved: '保存成功', // SPEC §8
  saveFailed: '保存失败', // SPEC §8

  yes: '是',
  no: '否',

  // ------------------------------------------------------------ task fields
  task: {
    id: '任务ID',
    user: '用户',
    board: '看板',
    boardTask: '看板任务',
    item: '商品',
    itemName: '商品名称',
    upc: 'UPC',
    count: '认领数量',
    productCount: '到货数量',
    price: '价格',
    buyIn: '回收价',
    bonus: '奖励',
    punish: '折扣', // SPEC §2: punish is labelled discount
    status: '状态',
    trackingId: '快递单号',
    isHome: '寄到家',
    state: '州',
    zipCode: '邮编',
    labelCount: '标签数量',
    delivery: '寄送信息',
    createdAt: '认领时间',
    updatedAt: '更新时间',
    actions: '操作',
  },

  // ------------------------------------------------------------ /admin/tasks
  list: {
    caption: '用户任务列表',
    userId: '用户',
    allUsers: '全部用户',
    taskStatus: '状态',
    allStatuses: '全部状态',
    itemId: '商品',
    itemName: '商品名称',
    boardId: '看板ID',
    boardTaskId: '看板任务ID',
    taskId: '任务ID',
    trackingId: '快递单号',
    sort: '排序',
    sortDesc: '创建时间（新→旧）',
    sortAsc: '创建时间（旧→新）',
    /** The admin home's 超过N天未到货: N is the server's MISSING_PARCEL_DAYS, which the list's answer carries. */
    notArrived: (days: number) => `只看超过${days}天未到货`,
    /** The same filter while the setting is unknown (the list did not load). */
    notArrivedAny: '只看未到货',
    idInvalid: '请输入正整数',
    empty: '没有符合条件的任务',
  },

  // ------------------------------------------------------------ per-row actions
  actions: {
    accept: '通过',
    reject: '拒绝',
    edit: '编辑',
    match: '匹配',
    close: '关闭',
    delete: '删除',
    records: '采购记录',
    /** Accessible names: the action and the task it acts on. */
    named: (action: string, label: string) => `${action} ${label}`,
    confirmAccept: (label: string) => `确定通过任务 ${label} 吗？`,
    confirmReject: (label: string) => `确定拒绝任务 ${label} 吗？拒绝后该任务将被删除。`,
    confirmClose: (label: string) => `确定关闭任务 ${label} 吗？关闭后不能再操作。`,
    confirmDelete: (label: string) => `确定删除任务 ${label} 吗？`,
  },

  // ------------------------------------------------------------ /admin/task/{id}
  edit: {
    title: (label: string) => `编辑用户任务 ${label}`,
    info: '任务信息',
    form: '修改',
    save: '保存',
    back: '返回',
    countRequired: 'count必填', // SPEC §5, verbatim
    mustBeWholeNumber: (label: string) => `${label}必须为非负整数`,
    mustBePositive: (label: string) => `${label}必须大于0`,
    mustBeMoney: (label: string) => `${label}必须为数字，最多两位小数`,
    pricePlaceholder: '留空则不修改',
  },

  // ------------------------------------------------------------ /admin/task-audit
  audit: {
    caption: '用户日志',
    status: '状态',
    allStatuses: '全部状态',
    userId: '用户',
    allUsers: '全部用户',
    mainId: '任务ID',
    mainIdHint: '含拆分出的子任务',
    taskIdFilter: '任务记录ID',
    itemNameFilter: '商品名称',
    idInvalid: '请输入正整数',
    empty: '暂无日志',
    /** The column of the task record id (the other columns are zh.audit.column). */
    taskId: '任务记录ID',
  },
} as const;
