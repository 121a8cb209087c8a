// Chinese text of the tasks screens; part of the one catalog (zh.ts re-exports it as zh.tasks).
// The task rules' refusals ('只有进行中的任务可以修改', ...) are not here: they live with the rules in
// machines/task.machine.ts (taskMessages); the claim rules' field messages (used by the edit-count
// dialog) in machines/claim.machine.ts (claimMessages).
/** A tracking id whose carrier's check digit fails (decision 097): one wording wherever the id is typed or shown. */
const TRACKING_CHECK_DIGIT = '校验位不符，请核对单号';

export const tasksText = {
  // /user/my-task: filters
  status: '状态',
  statusAll: '全部',
  itemName: '商品名称',
  trackingId: '快递单号',
  taskId: '任务ID',
  taskIdHint: '如 102 或 102-1',
  taskIdInvalid: '任务ID格式不正确',
  recordedOnly: '只看已填单号',
  claimedOnly: '不看已删除',
  exportExcel: '导出Excel',

  // /user/my-task: table
  caption: '我的任务列表',
  colTaskId: '任务ID',
  colBoard: '看板',
  colItemName: '商品名称',
  colUpc: 'UPC',
  colCount: '认领数量',
  colProductCount: '到货数量',
  colPrice: '价格',
  colBuyIn: '回收价',
  colBonus: '奖励',
  colDiscount: '折扣', // SPEC §3: punish, shown as discount
  colStatus: '状态',
  colTrackingId: '快递单号',
  colCreatedAt: '认领时间',
  colActions: '操作',

  // per-row actions
  action: {
    upload: '上传',
    records: '记录',
    edit: '编辑',
    delete: '删除',
    split: '拆分',
    match: '匹配',
    labelPdf: '标签PDF',
  },
  confirmDelete: (task: string) => `确定删除任务 ${task} 吗？`,
  confirmSplit: (task: string) => `确定将任务 ${task} 已到货的部分拆分为新任务吗？`,
  deleteSuccess: '删除成功', // SPEC §8
  deleteFailed: '删除失败', // SPEC §8
  splitSuccess: (tasks: readonly string[]) => `拆分成功：${tasks.join('、')}`,
  splitFailed: '拆分失败', // SPEC §8
  saveSuccess: '保存成功', // SPEC §8
  createSuccess: '创建成功', // SPEC §8
  failed: '操作失败', // SPEC §8
  /** A SPEC failure text, then the server's reason. */
  withReason: (specText: string, reason: string) => `${specText}：${reason}`,
  done: '操作成功', // SPEC §8

  // the outcome of a match
  matchDone: '匹配完成',
  matchFailed: '匹配失败',
  matchOutcome: (status: string, arrived: number, count: number) => `任务状态：${status}，到货 ${arrived}/${count} 件`,
  matchCanSplit: '已到货部分可拆分',
  outcomeLines: (lines: readonly string[]) => lines.join('；'),

  /** A task in a dialog title: its id and item. */
  taskSubject: (id: string, itemName: string) => `${id} · ${itemName}`,

  // the edit-count dialog
  editTitle: '修改认领数量',
  count: '认领数量',
  isHome: '寄到家（需要标签）',
  state: '州',
  zipCode: '邮编',
  labelCount: '标签数量',
  homeFieldsFixed: '寄到家、州和邮编认领后不能修改。',
  maxCount: (n: number) => `最多 ${n} 件`,
  loadingLimit: '正在读取可认领数量…',
  save: '保存',
  cancel: '取消',

  // the task record dialog (purchased records)
  recordsTitle: '采购记录',
  recordsCaption: '采购记录列表',
  recordsLoading: '加载中…',
  recordsNone: '暂无采购记录',
  taskNotFound: '任务不存在',
  colRecordTracking: '快递单号',
  colRecordCount: '数目',
  colRecordStatus: '状态',
  colRecordMsg: '信息',
  recordEdit: '编辑',
  recordDelete: '删除',
  recordLocked: '已匹配，不能修改',
  addRecord: '添加采购记录',
  editRecord: (tracking: string) => `编辑采购记录 ${tracking}`,
  recordTracking: '快递单号',
  /** Under a typed tracking id (decision 097). */
  trackingCarrier: (carrier: string) => `承运商：${carrier}`,
  /** Beside a tracking id shown (the scan stations, the tracking list: decision 099). */
  trackingCheckDigit: TRACKING_CHECK_DIGIT,
  /** Under a typed tracking id: the id is still taken. */
  trackingCheckDigitFailed: `${TRACKING_CHECK_DIGIT}（仍可保存）`,
  recordCount: '数目',
  trackingRequired: '请填写trackingId', // SPEC §5, verbatim
  countRequired: '请填写数目', // SPEC §5
  countNotNumber: '数目须为正整数',
  trackingTooLong: '快递单号不能超过64个字符',
  add: '添加',
  confirmRemoveRecord: (tracking: string) => `确定删除采购记录 ${tracking} 吗？`,
  match: '匹配',
  close: '关闭',
  summary: (count: number, arrived: number) => `认领 ${count} 件，已到货 ${arrived} 件`,

  recordStatus: {
    init: '待匹配',
    match: '已匹配',
    unmatch: '不匹配',
  },

  // /user/my-task: where each tracking id stands (a record's status read as arrival, machines/task.machine.ts RECORD_ARRIVAL)
  arrival: {
    arrived: '已到货',
    expected: '待到货',
    disagreed: '不一致',
    checking: '核对中',
  },
  /** A tracking id's chip, named for a screen reader and on hover: the id, where it stands, and matching's words. */
  arrivalOf: (tracking: string, where: string, reason: string) => (reason ? `${tracking}：${where}（${reason}）` : `${tracking}：${where}`),
  colItem: '商品',
  colArrivedOfClaimed: '到货/认领',
  colPrices: '价格/回收价',
  colBonuses: '奖励',
  askedBonus: '申请奖励',
  agreedBonus: '同意奖励',
  noBonus: '—',
  price: '价格',
  buyIn: '回收价',
  discount: '折扣',
  createdAt: '认领时间',
  /** One line each: what 拆分 and 匹配 do (a tooltip, and the text beside the dialog's 匹配). */
  actionHint: {
    split: '把已到货的件数拆成一个已锁定的子任务（可单独申请付款），其余件数留在本任务',
    match: '按已扫描的包裹重新核对本任务的采购记录，更新到货数量和状态',
  },
  cardsCaption: '我的任务卡片',

  // the paste box (decision 105): on the record dialog and on /user/my-task
  bulk: {
    open: '批量粘贴单号',
    title: '批量添加采购记录',
    toggle: '批量粘贴',
    task: '任务',
    taskPlaceholder: '请选择任务',
    /** An option of the task choice: the task and how many more units its records may hold. */
    taskOption: (subject: string, left: number) => `${subject}（还可记录${left}件）`,
    loading: '正在读取任务…',
    noTask: '没有可以添加采购记录的任务：进行中或不匹配、且记录的数目未满的任务才能添加',
    text: '粘贴单号',
    hint: '每行一个单号，单号后可写数目（用Tab、逗号、空格或分号隔开），不写数目按1件；空行会被忽略。',
    previewCaption: '粘贴内容预览',
    colLine: '行',
    colQty: '数目',
    colCheck: '检查',
    lineOk: '可以添加',
    counts: (lines: number, refused: number) => (refused ? `共${lines}行，${refused}行有误` : `共${lines}行，均可添加`),
    submit: (n: number) => `添加${n}条记录`,
    submitEmpty: '添加',
    serverRefused: '服务器未添加任何记录，请按每行的提示修改后再提交',
    cancel: '取消',
  },
} as const;
