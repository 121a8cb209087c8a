// Chinese text of the payment screens (/user/apply-list, /admin/apply-list, the apply dialog of
// /user/my-task) and of the order-amount statistics (/admin/task-amount-list); part of the one
// catalog (zh.ts re-exports them as zh.payments and zh.statistics). Exact SPEC strings are marked.
// The payment rules' refusals ('该任务已申请付款', ...) are not here: they live with the rules in
// machines/payment.machine.ts (paymentMessages) and come back from the server as its msg.
import type { PaymentStatus } from '../../../machines/payment.machine';

export const paymentsText = {
  /** SPEC §4 payment application status (DECISIONS "Money": applied -> agreed -> withdrawing -> paid -> collected). */
  status: {
    applied: '已申请',
    agreed: '已同意',
    withdrawing: '提现中',
    paid: '已付款',
    collected: '已收款',
  } satisfies Record<PaymentStatus, string>,

  done: '操作成功', // SPEC §8
  failed: '操作失败', // SPEC §8
  applySuccess: '申请成功', // SPEC §8

  /** Columns of both lists (SPEC §2 /user/apply-list, §3 payment application). */
  col: {
    taskId: '任务ID',
    user: '申请人',
    itemName: '商品名称',
    price: '价格',
    buyIn: '回收价',
    count: '数量',
    bonus: '奖励',
    discount: '折扣', // SPEC §3: punish, shown as discount
    income: '收入',
    note: '备注',
    status: '状态',
    createdAt: '申请时间',
    actions: '操作',
  },

  // ------------------------------------------------------------ /user/apply-list
  user: {
    caption: '我的付款申请列表',
    empty: '暂无付款申请',
    collect: '确认收款',
    collectNamed: (task: string) => `确认收款：任务 ${task}`,
  },

  // ------------------------------------------------------------ /admin/apply-list
  admin: {
    caption: '付款申请列表',
    empty: '没有符合条件的付款申请',
    status: '状态',
    allStatuses: '全部状态',
    userId: '申请人',
    allUsers: '全部用户',
    mainId: '任务ID',
    mainIdHint: '主任务ID，如 102',
    idInvalid: '请输入正整数',
    sort: '排序',
    sortDesc: '申请时间（新→旧）',
    sortAsc: '申请时间（旧→新）',
    agree: '同意',
    agreeNamed: (task: string) => `同意付款申请：任务 ${task}`,
    confirm: '确认付款',
    confirmNamed: (task: string) => `确认付款：任务 ${task}`,
    confirmPay: (task: string, user: string, income: string) => `确认任务 ${task}（${user}）的 ${income} 已付款吗？`,
  },

  // ------------------------------------------------------------ the agree dialog
  agree: {
    title: '同意付款申请',
    subject: (task: string, itemName: string) => `${task} · ${itemName}`,
    applicant: '申请人',
    income: '当前收入',
    bonus: '奖励',
    /** SPEC §5: on agree, a number or blank to keep the original. */
    bonusHint: (current: string) => `留空则保持原奖励 ${current}`,
    newIncome: (income: string) => `同意后收入：${income}`,
    submit: '同意',
    cancel: '取消',
  },

  // ------------------------------------------------------------ the apply dialog (/user/my-task)
  apply: {
    /** The row button of a locked task. */
    button: '申请付款',
    buttonNamed: (task: string) => `申请付款：任务 ${task}`,
    /** SPEC §4: the disabled button of a task that already has an application. */
    applied: '已申请付款',
    title: '申请付款',
    subject: (task: string, itemName: string) => `${task} · ${itemName}`,
    /** What the income is made of (DECISIONS "Money": buyIn x productCount + bonus - punish). */
    basis: (buyIn: string, count: number, discount: string) => `回收价 ${buyIn} × 到货 ${count} 件，折扣 ${discount}`,
    expected: (income: string) => `预计收入：${income}`,
    bonus: '奖励',
    /** SPEC §5: the bonus is a number, 0 when empty. */
    bonusHint: '可选，留空为 0',
    note: '备注',
    noteTooLong: '备注不能超过1000个字',
    submit: '提交申请',
    cancel: '取消',
  },

  /** Paying for what arrived, in one step (decision 053): a task whose units partly arrived. */
  applyArrived: {
    /** The row button: the same words as the plain apply (the member asks to be paid), its hint says for what. */
    button: '申请付款',
    buttonNamed: (task: string) => `申请付款（已到货部分）：任务 ${task}`,
    hint: (arrived: number, count: number) => `已到货 ${arrived}/${count} 件：把已到货的部分拆成子任务并为它申请付款`,
    title: '申请付款（已到货部分）',
    /** What the one step does, in the dialog. */
    explain: (arrived: number, rest: number) => `将已到货的 ${arrived} 件拆分为一个子任务并为它申请付款；其余 ${rest} 件留在原任务，到货后可再申请。`,
    /** The claim's discount stays with the original task (a split leaves it there). */
    basis: (buyIn: string, count: number) => `回收价 ${buyIn} × 已到货 ${count} 件`,
    success: (subTask: string) => `申请成功：子任务 ${subTask}`,
  },

  /** SPEC §5 "a number": at least 0, at most two places. */
  bonusInvalid: '奖励必须是数字（不小于0，最多两位小数）',
} as const;

export const statisticsText = {
  // ------------------------------------------------------------ /admin/task-amount-list
  caption: '订单金额列表',
  empty: '没有符合条件的订单金额',
  isAsc: '升序',
  orderItem: '排序字段',
  /** SPEC §7 orderItem: 1 user id, 2 amount. */
  orderBy: { 1: '用户ID', 2: '金额' } as Record<1 | 2, string>,
  user: '用户',
  allUsers: '全部用户',
  startTime: '开始日期',
  endTime: '结束日期',
  timezoneHint: (offset: string) => `按本地时区（${offset}）的日期`,
  dateInvalid: '请输入有效日期（YYYY-MM-DD）',
  endBeforeStart: '结束日期不能早于开始日期',
  col: {
    userId: '用户ID',
    nickName: '用户名',
    mailAddr: '邮箱',
    amount: '金额',
  },
  exportExcel: '导出Excel',
  exportSelected: (n: number) => `导出已选（${n}）`,
  selected: (n: number) => `已选 ${n} 个用户，导出只含所选用户`,
  noneSelected: '未选择用户时导出全部符合条件的用户',
  clearSelection: '清除选择',
} as const;
