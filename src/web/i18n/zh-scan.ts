// Chinese text of the scanning screens (/admin/scan, /admin/scan2) and the shared scanner pieces
// (hidden scanner input, camera); part of the one catalog (zh.ts re-exports it as zh.scan). The rule
// messages of SPEC §5 live in the machines (scanMessages, scan2Messages) and are shown as they are.
export const scanText = {
  scanner: {
    inputLabel: '扫码枪输入',
    ready: '扫码枪已就绪',
    paused: '正在输入，扫码枪暂停',
  },

  camera: {
    open: '摄像头扫码',
    close: '关闭摄像头',
    title: '摄像头扫码',
    starting: '正在打开摄像头…',
    hint: '将条码对准取景框',
    unsupported: '此设备或浏览器不支持摄像头扫码（需要HTTPS）',
    denied: '无法使用摄像头：未获授权或没有可用的摄像头',
    video: '摄像头画面',
    lastRead: '已读取：',
    held: '该条码仍在画面中，不会重复计数；移开后再对准才算新的一次扫描',
    resultBelow: '扫描结果见下方提示',
  },

  common: {
    itemList: '商品列表',
    trackingList: '扫描记录',
    actions: '操作',
    delete: '删除',
    submit: '提交',
    edit: '编辑',
    cancel: '取消',
    save: '保存',
    confirm: '确定',
    upc: 'UPC',
    tracking: '快递单号',
    item: '商品',
    count: '数量',
    status: '状态',
    message: '信息',
  },

  scan: {
    intro: '先扫描包裹的快递单号，再逐个扫描其中商品的UPC；同一UPC再扫一次数量加1。',
    tabTracking: '快递单号',
    tabUpc: 'UPC',
    trackingPrompt: '请扫描包裹的快递单号',
    trackingManual: '手动输入快递单号',
    upcManual: '手动输入UPC',
    add: '添加',
    current: (trackingId: string) => `当前快递单号：${trackingId}`,
    noTracking: '尚未扫描快递单号',
    nextParcel: '下一个包裹',
    exists: '该快递单号已有扫描记录',
    notExists: '该快递单号尚无扫描记录',
    recordsCaption: '已添加的商品',
    rowsCaption: '新扫描的商品',
    noRecords: '暂无已添加的商品',
    noRows: '请扫描商品UPC',
    colMatchedUser: '匹配用户',
    chooseItem: '请选择商品',
    searchItem: '搜索其他商品',
    noCandidate: '没有该UPC的商品',
    addItemHint: '商品不存在？到商品列表新增',
    looking: '正在查找商品…',
    editTitle: '编辑扫描记录',
    submitRows: (n: number) => `提交（${n}项）`,
    // banner
    trackingSet: (code: string, exists: boolean) => `快递单号 ${code}${exists ? '（已有记录）' : ''}，请扫描商品`,
    added: (code: string, count: number) => `${code} 数量 ${count}`,
    unknown: (code: string) => `未找到UPC为 ${code} 的商品，请选择或新增商品`,
    created: '创建成功', // SPEC §8, the create call's own msg
    createdNext: '创建成功，请扫描下一个包裹的快递单号',
    /** A parcel with a record no member's task took: amber, with the reason, so the clerk sets it aside. */
    createdUnmatched: (code: string, reason: string, near?: string) => `创建成功，但不匹配：${reason}（${code}）${near ? `；${near}` : ''}。请将包裹单独放置`,
    unmatchedNoReason: '没有可匹配的会员任务',
    saved: '保存成功', // SPEC §8
    addedAnnounced: (code: string, count: number) => `${code} 确认导入的商品，数量 ${count}`,
    announcedMark: '确认导入',
    undone: (code: string, count: number) => (count > 0 ? `已撤销一次扫描：${code} 数量 ${count}` : `已撤销一次扫描：${code} 已移除`),
    parcelCancelled: (code: string) => `已取消包裹 ${code}，请扫描包裹的快递单号`,
    increase: (upc: string) => `数量加一 ${upc}`,
    decrease: (upc: string) => `数量减一 ${upc}`,
    // The command barcodes (machines/scan.machine.ts SCAN_COMMANDS)
    commandsCaption: '命令条码',
    /** A command barcode's image, by its command. */
    commandBarcode: (label: string) => `命令条码：${label}`,
    commandsHint: '用扫码枪扫描下面的条码即可操作，不必用鼠标；也可以打印出来放在工位旁。',
    commands: {
      submit: { label: '提交', hint: '提交本包裹新扫描的商品，然后扫描下一个包裹' },
      nextParcel: { label: '下一个包裹', hint: '结束当前包裹，扫描下一个包裹的快递单号' },
      cancel: { label: '取消', hint: '撤销上一次扫描；没有可撤销的扫描时取消当前包裹' },
    },
  },

  scan2: {
    intro:
      '先扫描商品的UPC（或在下面选择商品），再逐个扫描包裹的快递单号；扫描下一个时上一条自动提交，最后一条扫描「提交」。未提交的记录保存在本机，断网后自动重试。',
    item: '商品',
    itemPlaceholder: '搜索商品名称、UPC或商品ID',
    caption: '扫描记录',
    empty: '请扫描商品的UPC或选择商品，然后扫描快递单号',
    colNo: '#',
    colScannedAt: '扫描时间',
    submitPending: (n: number) => `提交待提交（${n}）`,
    retryNow: '立即重试',
    clearSettled: '清除已完成',
    summary: (pending: number, sending: number, failed: number, done: number) => `待提交 ${pending} · 提交中 ${sending} · 失败 ${failed} · 已完成 ${done}`,
    unsettledWarning: (n: number) => `${n} 条记录尚未提交到服务器，已保存在本机，不会丢失。`,
    retrying: (attempts: number) => `等待自动重试（已尝试${attempts}次）`,
    noAnswer: '无法连接服务器',
    accepted: (code: string) => `已扫描 ${code}`,
    looking: '正在查找商品…',
    /** The open choice between products of one code (machines/scan2.machine.ts, decision 085). */
    choiceCaption: (code: string) => `选择UPC ${code} 的商品`,
    choiceHint: '按数字键后回车，或点选；扫描「取消」放弃',
    choiceOption: (n: number, label: string) => `${n}. ${label}`,
    /** Parcels' labels scanned while the choice is open (decision 085). */
    choiceKept: (n: number) => `已暂存 ${n} 个快递单号（选择商品后加入该商品；扫描「取消」则不加入）：`,
    /** The command barcodes as they mean here (the codes are /admin/scan's). */
    commands: {
      submit: { label: '提交', hint: '提交所有待提交的记录' },
      nextParcel: { label: '下一个包裹', hint: '提交待提交的记录，然后扫描下一个包裹' },
      cancel: { label: '取消', hint: '删除上一次扫描的待提交记录；选择商品时放弃选择' },
    },
    status: {
      0: '待提交',
      1: '提交中',
      2: '已提交',
      3: '失败',
      4: '匹配成功',
      5: '匹配失败',
      9: '已删除',
    },
  },
} as const;
