// Chinese text of the bank card and withdraw screens (/user/bank-card, /user/withdraw-request,
// /user/withdraw-orders, /admin/withdraw-list); part of the one catalog (zh.ts re-exports them as
// zh.bankCards and zh.withdraw). Exact SPEC strings are marked. The card's field names and the rules'
// own messages (the card fields' '请填写卡号' ..., the request dialog's '请填写需要提现的任务' ...) are not
// here: they live with the rules in machines/bank-card.ts and machines/withdraw.machine.ts, which the
// server answers with too.
import { CARD_LABELS } from '../../../machines/bank-card';
import type { WithdrawStatus } from '../../../machines/withdraw.machine';

export const bankCardsText = {
  saved: '保存成功', // SPEC §8
  saveFailed: '保存失败', // SPEC §8
  deleted: '删除成功', // SPEC §8
  deleteFailed: '删除失败', // SPEC §8

  // ------------------------------------------------------------ /user/bank-card
  add: '添加银行卡',
  caption: '银行卡列表',
  empty: '还没有银行卡，点击「添加银行卡」添加一张',
  /** Columns other than the card's fields (those carry the SPEC §5 names of machines/bank-card.ts). */
  colId: 'ID',
  colActions: '操作',
  delete: '删除',
  deleteNamed: (id: number) => `删除银行卡 #${id}`,
  deleteTitle: '删除银行卡',
  deleteConfirm: (label: string) => `确定删除银行卡 ${label} 吗？`,

  // ------------------------------------------------------------ the add dialog
  dialog: {
    title: '添加银行卡',
    /** The choice that lets the member type a payment type of their own (SPEC §5 "new values can be typed"). */
    otherType: '其他（自行填写）',
    customType: '新的付款方式',
    customTypeHint: '填写其他付款方式的名称',
    chooseTypeFirst: '请先选择付款方式，再填写对应的信息',
    switchHint: '切换付款方式会清空已填写的卡信息',
    optional: '选填',
    /** Under the account field of a typed payment type. */
    accountHint: '收款的账号、邮箱或手机号（保存后只显示末四位）',
    save: '保存',
    cancel: '取消',
  },
} as const;

export const withdrawText = {
  /** SPEC §4 withdraw status (the words of the server's export, files/withdraw-export.ts). */
  status: {
    waited: '待付款',
    paid: '已付款',
    requestedCancel: '申请取消',
    canceled: '已取消',
  } satisfies Record<WithdrawStatus, string>,

  done: '操作成功', // SPEC §8
  failed: '操作失败', // SPEC §8
  saved: '保存成功', // SPEC §8
  saveFailed: '保存失败', // SPEC §8
  requested: '申请成功', // SPEC §8
  uploadError: '上传错误', // SPEC §8 withdraw-confirm upload failure

  /** Columns of the withdraw tables (SPEC §2, §3 withdraw request). */
  col: {
    id: 'ID',
    orderId: '订单号',
    user: '用户',
    paymentType: CARD_LABELS.paymentType,
    accountName: CARD_LABELS.accountName,
    cardNo: CARD_LABELS.cardNo,
    address: CARD_LABELS.address,
    withdrawAmount: '提现金额',
    userNote: '用户备注',
    status: '状态',
    adminNote: '账户备注', // SPEC §3 adminNote (account note)
    adminNote2: '日期备注', // SPEC §3 adminNote2 (date note)
    createdAt: '创建时间',
    actions: '操作',
  },

  /** The filters of the three lists. */
  filter: {
    isDesc: '按创建时间倒序',
    status: '状态',
    allStatuses: '全部状态',
    card: '银行卡',
    allCards: '全部银行卡',
    orderId: '订单号',
    userId: '用户',
    allUsers: '全部用户',
    cardId: '银行卡ID',
    idInvalid: '请输入正整数',
  },

  /** How a card reads in a select: its id, type, masked number and holder. */
  cardLabel: (id: number, paymentType: string, cardNo: string, accountName: string) =>
    [`#${id}`, paymentType, cardNo, accountName].filter((part) => part !== '').join(' · '),

  // ------------------------------------------------------------ /user/withdraw-request
  request: {
    balance: (amount: string) => `可提现余额：${amount}`,
    balanceUnknown: '可提现余额：—',
    button: '申请提现',
    ordersLink: '提现订单',
    caption: '提现记录',
    empty: '暂无提现记录',
    changeCard: '更换银行卡',
    changeCardNamed: (id: number) => `更换银行卡：提现 #${id}`,
    requestCancel: '申请取消',
    requestCancelNamed: (id: number, orderId: number) => `申请取消：提现 #${id}（订单 ${orderId}）`,
    /** Cancel is asked for per order (machines/withdraw.machine.ts). */
    cancelConfirm: (orderId: number) => `确定申请取消订单 ${orderId} 吗？该订单的全部提现都会申请取消。`,
    /**
     * The member's wd.pay: the member says the money of this line arrived (the admin's word for the
     * same event, 标记已付款, would read as if the member paid).
     */
    markPaid: '确认到账',
    markPaidNamed: (id: number) => `确认到账：提现 #${id}`,
    markPaidConfirm: (id: number, amount: string) => `确定提现 #${id}（${amount}）的款项已到账吗？确认后该提现记为已付款。`,
    collect: '确认收款',
    collectNamed: (id: number, orderId: number) => `确认收款：提现 #${id}（订单 ${orderId}）`,
  },

  // ------------------------------------------------------------ a withdrawal's applications (request and receipt dialogs)
  applications: {
    colTaskId: '任务ID',
    colItemName: '商品名称',
    colIncome: '收入',
  },

  // ------------------------------------------------------------ confirming receipt of a paid line's order
  receipt: {
    title: (orderId: number) => `确认收款：订单 ${orderId}`,
    intro: '该订单支付的付款申请如下。确认收到款项后，请点击“确认收款”。',
    caption: '订单的付款申请',
    loading: '加载中…',
    loadFailed: '付款申请加载失败',
    colStatus: '状态',
    total: (amount: string) => `待确认合计：${amount}`,
    nothing: '该订单没有待确认收款的付款申请（已全部确认，或订单中还有未付款的提现）。',
    confirm: (n: number) => `确认收款（${n} 笔）`,
    done: (n: number) => `已确认收款 ${n} 笔`,
    cancel: '关闭',
  },

  // ------------------------------------------------------------ the request dialog
  dialog: {
    title: '申请提现',
    tasks: '选择要提现的任务',
    tasksCaption: '可提现的任务',
    noTasks: '没有可提现的任务',
    selectTask: (task: string) => `选择任务 ${task}`,
    selectAll: '选择全部任务',
    /** The task check's message (SPEC §5's words) and what to do about it, under the task table. */
    taskRequired: (message: string) => `${message}：在上表勾选要提现的任务`,
    allChosen: '已默认选择全部可提现的任务，取消勾选的任务会留到下次提现。',
    /** SPEC §5 names the two sums "任务合计" and "提现合计". */
    taskTotal: (amount: string) => `任务合计：${amount}`,
    lineTotal: (amount: string) => `提现合计：${amount}`,
    lines: '提现到银行卡',
    line: (n: number) => `第 ${n} 行`,
    card: '银行卡',
    amount: '金额',
    note: '备注',
    noteTooLong: '备注不能超过500个字',
    addLine: '添加一行',
    removeLine: '删除',
    removeLineNamed: (n: number) => `删除第 ${n} 行`,
    noCards: '还没有银行卡，请先在「银行卡」页面添加',
    loading: '加载中…',
    submit: '提交',
    cancel: '取消',
  },

  // ------------------------------------------------------------ the change-card dialog
  changeCard: {
    title: (id: number) => `更换银行卡：提现 #${id}`,
    current: '当前银行卡',
    card: '新的银行卡',
    submit: '确定',
    cancel: '取消',
  },

  // ------------------------------------------------------------ /user/withdraw-orders
  orders: {
    caption: '提现订单',
    empty: '暂无提现订单',
    /** SPEC §2: the status filter is not sent with the call; it filters the rows shown. */
    statusHint: '状态只筛选当前页的记录',
    backToRequests: '返回提现申请',
  },

  // ------------------------------------------------------------ /admin/withdraw-list
  admin: {
    caption: '提现列表',
    empty: '没有符合条件的提现记录',
    exportExcel: '导出Excel',
    agreeCancel: '同意取消',
    agreeCancelNamed: (id: number, orderId: number) => `同意取消：提现 #${id}（订单 ${orderId}）`,
    agreeCancelConfirm: (orderId: number, user: string) => `同意取消 ${user} 的订单 ${orderId} 吗？该订单的全部提现都会取消，任务金额退回可提现余额。`,
    rejectCancel: '拒绝取消',
    rejectCancelNamed: (id: number, orderId: number) => `拒绝取消：提现 #${id}（订单 ${orderId}）`,
    rejectCancelConfirm: (orderId: number, user: string) => `拒绝 ${user} 取消订单 ${orderId} 吗？该订单的提现回到待付款。`,
    markPaid: '标记已付款',
    markPaidNamed: (id: number) => `标记已付款：提现 #${id}`,
    markPaidConfirm: (id: number, user: string, amount: string) => `确定提现 #${id}（${user}，${amount}）已付款吗？`,
    /** The full payout details of a line's card (revealWithdrawCard). */
    reveal: {
      button: '收款信息',
      named: (id: number) => `收款信息：提现 #${id}`,
      title: (id: number) => `收款信息：提现 #${id}`,
      line: (user: string, orderId: number, amount: string) => `${user} · 订单 ${orderId} · 金额 ${amount}`,
      logged: '查看收款信息会记录在管理员日志中（谁、何时、哪一笔提现）。关闭窗口后不再保留这些信息。',
      loading: '正在读取收款信息…',
      failed: '收款信息读取失败',
      empty: '—',
      copy: (field: string) => `复制${field}`,
      /** The card's fields, as the bank card page names them. */
      field: CARD_LABELS,
    },
    /** Choosing waited lines: bulk pay (payWithdrawRequests) and the payment file. */
    selection: {
      chosen: (count: number, total: string) => `已选择 ${count} 笔待付款提现，合计 ${total}`,
      clear: '取消选择',
      tooMany: (max: number) => `一次最多 ${max} 笔，请减少选择`,
    },
    batchPay: {
      button: '批量标记已付款',
      title: '批量标记已付款',
      confirm: (count: number, total: string) => `确定这 ${count} 笔提现（合计 ${total}）都已付款吗？\n全部可以付款才会标记，否则不做任何修改。`,
      ok: '标记已付款',
      done: (count: number) => `已将 ${count} 笔提现标记为已付款`,
      failed: '批量付款失败，未做任何修改',
      refusedTitle: '以下提现不能标记为已付款，未做任何修改：',
      refusedLine: (id: number, msg: string) => `提现 #${id}：${msg}`,
      dismiss: '知道了',
    },
    paymentFile: {
      button: '导出付款文件',
      /** Without a choice, the file holds every waited line the filters select. */
      hint: '导出当前筛选条件下全部待付款的提现（含完整收款信息）',
      onlyWaited: '付款文件只包含待付款的提现：请把状态筛选改为「待付款」或全部',
      ready: (count: number) => `付款文件包含 ${count} 笔待付款提现，下载会记录在管理员日志中`,
    },
    editNotes: '备注',
    editNotesNamed: (id: number) => `编辑备注：提现 #${id}`,
    notesTitle: (id: number) => `编辑备注：提现 #${id}`,
    noteTooLong: '备注不能超过1000个字',
    save: '保存',
    cancel: '取消',
    upload: {
      open: 'Excel确认付款',
      close: '收起Excel确认付款',
      title: 'Excel确认付款',
      action: '上传并确认付款',
      hint: '上传已付款的提现记录：第一列「提现ID」必填，「订单号」「金额」填写时会核对。可以用「导出Excel」导出的文件，只保留已付款的行。全部行无误才会确认，有错误行时不做任何修改。',
    },
  },
} as const;
