// Chinese text shared by the two audit logs (/admin/task-audit, the user log; /admin/tracking-audit,
// the admin log): who did it, what an entry is about, the known actions and the before -> after
// detail (components/audit/). Part of the one catalog (zh.ts re-exports it as zh.audit).
export const auditText = {
  system: '系统',
  changes: '变更内容',
  field: '字段',
  before: '修改前',
  after: '修改后',
  changed: '已修改',
  noChanges: '没有字段变化',
  noDetail: '没有记录修改前后的内容',
  rawBefore: '修改前（原文）',
  rawAfter: '修改后（原文）',
  emptyValue: '（空）',
  /** The columns both logs show (components/audit/audit-columns.tsx). */
  column: {
    id: 'ID',
    time: '时间',
    operator: '操作人',
    entity: '类型',
    action: '动作',
    trackingId: '快递单号',
    upc: 'UPC',
    count: '数量',
    itemName: '商品名称',
    status: '状态',
    user: '用户',
    task: '任务',
  },
  /** The sort both logs' filters offer. */
  sort: '排序',
  sortDesc: '时间（新→旧）',
  sortAsc: '时间（旧→新）',
  /**
   * Fields of a purchased record (SPEC §3 task tracking record) in the before -> after of either
   * log. Its productCount is what the member bought, named as the record dialog names it (SPEC §5
   * '请填写数目'), not the task's arrived count.
   */
  purchasedField: {
    taskId: '任务记录ID',
    userId: '用户',
    trackingId: '快递单号',
    productCount: '数目',
    status: '状态',
    msg: '信息',
    createdAt: '创建时间',
    updatedAt: '更新时间',
  } as Record<string, string>,
  /**
   * What an entry is about (AuditEntry entity): every entity the server's audit trail writes
   * (src/server/audit.ts), though the two logs list task, purchased and tracking only.
   */
  entity: {
    task: '任务',
    purchased: '采购记录',
    tracking: '扫描记录',
    payment: '付款申请',
    withdraw: '提现',
    card: '银行卡',
    user: '用户',
    group: '用户组',
    item: '商品',
    board: '看板',
    boardTask: '看板任务',
  } as Record<string, string>,
  /**
   * Every action the server's audit trail writes, in words, whatever its entity: task events (the
   * task machine's, without 'task.'), purchased records, scan rows (scans, uploads, matching, the
   * payment steps that move them), payment applications (the payment machine's events), withdraw
   * lines (incl. the payout reads of decision 052), cards, people, items and boards. A code not
   * here is shown as the server wrote it (audit-entry.ts).
   */
  action: {
    // tasks
    claim: '认领',
    accept: '通过',
    reject: '拒绝',
    edit: '修改',
    records: '修改采购记录',
    delete: '删除',
    match: '匹配',
    'match.split': '匹配拆分',
    split: '拆分',
    'split.create': '拆分出新任务',
    apply: '申请付款',
    pay: '付款',
    close: '关闭',
    reopen: '重新开启',
    // purchased records, items, groups, boards
    create: '新建',
    update: '修改',
    remove: '删除',
    'contest.assign': '核对包裹后分配',
    'record.missing': '未到货备注或报丢件',
    'record.claim': '认领无主包裹',
    'record.unclaim': '撤销认领',
    unclaim: '撤销认领后重新开启',
    // scan rows
    scan: '扫描入库',
    add: '单品扫描',
    modify: '修改',
    'upload.import': '上传导入',
    'upload.update': '上传更新',
    'upload.update.merge': '上传更新（合并）',
    'upload.confirm': '上传确认到货',
    // payment applications (and the scan rows they move)
    agree: '同意付款',
    withdraw: '申请提现',
    release: '退回可提现',
    paid: '提现已付款',
    confirm: '确认付款',
    collect: '确认收款',
    // withdraw lines
    request: '申请提现',
    payBatch: '批量付款',
    requestCancel: '申请取消提现',
    agreeCancel: '同意取消提现',
    rejectCancel: '拒绝取消提现',
    changeCard: '更换银行卡',
    adminNote: '修改备注',
    reveal: '查看收款信息',
    paymentExport: '导出付款文件',
    // cards, people, boards
    bind: '添加银行卡',
    unbind: '删除银行卡',
    addUser: '添加成员',
    removeUser: '移除成员',
    'publish.all': '发布',
    'publish.users': '发布给指定用户',
    'publish.backup': '备用发布',
    'groups.add': '绑定用户组',
    'groups.remove': '解绑用户组',
  } as Record<string, string>,
} as const;
