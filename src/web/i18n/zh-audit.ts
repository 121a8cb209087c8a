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
    trackingId: 'Tracking',
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
    trackingId: 'Tracking',
    productCount: '数目',
    status: '状态',
    msg: '信息',
    createdAt: '创建时间',
    updatedAt: '更新时间',
  } as Record<string, string>,
  /** What an entry is about (AuditEntry entity). */
  entity: {
    task: '任务',
    purchased: '采购记录',
    tracking: '扫描记录',
  },
  /** Known audit actions; others are shown as the server wrote them. */
  action: {
    claim: '认领',
    accept: '通过',
    reject: '拒绝',
    edit: '修改',
    delete: '删除',
    match: '匹配',
    'match.split': '匹配拆分',
    split: '拆分',
    'split.create': '拆分出新任务',
    apply: '申请付款',
    pay: '付款',
    close: '关闭',
    create: '新建',
    update: '修改',
    remove: '删除',
    scan: '扫描',
    add: '单品扫描',
    modify: '修改',
    'upload.import': '上传导入',
    'upload.update': '上传更新',
    'upload.update.merge': '上传更新（合并）',
    'upload.confirm': '上传确认到货',
  } as Record<string, string>,
} as const;
