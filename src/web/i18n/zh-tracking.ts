// Chinese text of the admin receiving pages other than the scan screens (/admin/tracking-list,
// /admin/upload, /admin/tracking-audit); part of the one catalog (zh.ts re-exports it as
// zh.tracking). Exact SPEC strings are marked. Scan status labels are in zh.status.scan; the words of
// the scan rules (a count, a frozen record, a duplicate upc) are machines/scan-record.machine.ts's
// scanRecordMessages, which the server answers with too.
export const trackingText = {
  saved: '保存成功', // SPEC §8
  saveFailed: '保存失败', // SPEC §8
  saveFailedWith: (reason: string) => `保存失败：${reason}`,

  /** Fields of a scan record (SPEC §3) and of the rows the admin log shows. */
  field: {
    id: 'ID',
    trackingId: '快递单号',
    upc: 'UPC',
    count: '数量',
    itemId: '商品ID',
    itemName: '商品名称',
    item: '商品',
    status: '状态',
    matchedUser: '匹配用户',
    userId: '用户',
    mainId: '任务ID',
    subId: '子任务号',
    taskId: '任务记录ID',
    task: '任务',
    opUid: '操作人',
    createdAt: '创建时间',
    updatedAt: '更新时间',
    productCount: '数目',
    msg: '信息',
    actions: '操作',
  } as Record<string, string>,

  // ------------------------------------------------------------ /admin/tracking-list
  list: {
    caption: '扫描记录',
    trackingId: '快递单号',
    status: '状态',
    allStatuses: '全部状态',
    startTime: '开始日期',
    endTime: '结束日期',
    /** The dates are days in this offset (SPEC §9: the timezone is sent with the list). */
    timezoneHint: (offset: string) => `按本地时区（${offset}）的日期`,
    endBeforeStart: '结束日期不能早于开始日期',
    dateInvalid: '请输入有效日期（YYYY-MM-DD）',
    itemId: '商品',
    sort: '排序',
    sortDesc: '创建时间（新→旧）',
    sortAsc: '创建时间（旧→新）',
    empty: '没有符合条件的扫描记录',
    exportExcel: '导出Excel',
    edit: '编辑',
    /** Accessible name of a row's edit button. */
    editNamed: (id: number, trackingId: string) => `编辑扫描记录 #${id}（${trackingId}）`,
    moreRows: '符合条件的记录很多，页数只统计到当前页之后的一部分；继续往后翻页会显示更多页。',
  },

  // ------------------------------------------------------------ edit dialog
  edit: {
    title: (id: number) => `编辑扫描记录 #${id}`,
    current: (status: string, matched: string) => (matched ? `当前状态：${status}，匹配用户：${matched}` : `当前状态：${status}`),
    itemHint: '留空则不修改商品',
    rematchHint: '保存后会按新的内容重新匹配。',
    save: '保存',
    cancel: '取消',
  },

  // ------------------------------------------------------------ /admin/upload
  upload: {
    tabsLabel: '上传类型',
    tabTracking: '快递单号导入',
    tabUser: '用户采购记录',
    trackingTitle: '快递单号文件',
    trackingIntro: '用Excel批量处理包裹：导入到货前预报的包裹，更新已有记录的数量，或确认已导入的包裹到货。请使用模板的列。',
    insert: '导入',
    update: '更新',
    confirm: '确认到货',
    trackingHint:
      '导入：新增文件中的包裹（状态为已导入，到货前不参与匹配）；更新：按快递单号和UPC修改已有记录的数量；确认到货：把已导入的包裹标记为已扫描并匹配',
    userTitle: '用户采购记录文件',
    userIntro: '代用户批量录入采购记录：文件与用户“上传采购记录”页面的模板相同，可处理任何用户的任务。',
    userImport: '导入',
    userUpdate: '更新',
    userHint: '导入：新增文件中的采购记录；更新：按快递单号修改已有采购记录的数目',
    downloadTemplate: '下载模板',
  },

  // ------------------------------------------------------------ /admin/tracking-audit
  audit: {
    caption: '管理员日志',
    trackingId: '快递单号',
    upc: 'UPC',
    operator: '操作人',
    allOperators: '全部操作人',
    status: '状态',
    allStatuses: '全部状态',
    empty: '暂无日志',
    /** The two views (decision 168). */
    views: '日志类型',
    scanView: '扫描与匹配',
    payoutView: '收款信息查看',
  },

  // ------------------------------------------------------------ /admin/tracking-audit?log=payout
  payoutAudit: {
    caption: '收款信息查看记录',
    intro: '每次查看收款信息、每次下载付款文件中的每一笔提现都记录在此：谁、何时、看了哪位会员的哪一笔（账号只显示后几位）。',
    action: '类型',
    allActions: '全部类型',
    admin: '管理员',
    allAdmins: '全部管理员',
    member: '会员',
    allMembers: '全部会员',
    startTime: '开始日期',
    endTime: '结束日期',
    endBeforeStart: '结束日期不能早于开始日期',
    dateInvalid: '请输入有效日期',
    empty: '暂无收款信息查看记录',
    column: {
      time: '时间',
      action: '类型',
      admin: '管理员',
      member: '会员',
      lineId: '提现ID',
      orderId: '订单号',
      paymentType: '付款方式',
      accountName: '户名',
      cardNo: '账号/卡号',
      amount: '金额',
    },
  },
} as const;
