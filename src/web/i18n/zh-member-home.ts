// Chinese text of the member home (/user/home); part of the one catalog (zh.ts re-exports it as
// zh.memberHome). The countdown's words are zh.countdown, the task and scan statuses zh.status.
export const memberHomeText = {
  refresh: '刷新',
  intro: '需要您处理的事项',

  boards: '开放的看板',
  boardsEmpty: '暂无开放的看板',
  boardsAll: (n: number) => `全部看板（${n}）`,

  awaiting: '待填写快递单号',
  awaitingEmpty: '认领的任务都已填写快递单号',
  recorded: (recorded: number, count: number) => `已填写 ${recorded} / ${count} 件`,

  arrived: '新到的包裹',
  arrivedSince: (since: string) => `${since} 以来`,
  arrivedEmpty: '上次访问以来没有新到的包裹',
  parcelCount: (n: number) => `${n} 件`,
  parcelTask: (task: string) => `任务 ${task}`,
  parcelUntied: '未匹配到任务',

  disagreeing: '到货与记录不一致',
  disagreeingEmpty: '没有不一致的任务',
  arrivedOfRecorded: (arrived: number, recorded: number) => `到货 ${arrived} 件 · 记录 ${recorded} 件`,

  payable: '可申请付款',
  payableEmpty: '暂无可申请付款的任务',
  payableTotal: (amount: string) => `合计 ${amount}`,
  partial: '部分到货',

  balance: '可提现余额',
  withdraw: '去提现',

  task: (label: string) => `任务 ${label}`,
  more: (n: number) => `还有 ${n} 项`,
  all: '查看全部',
  open: '处理',

  totals: '我的数据',
  totalsHint: '认领、购买、到货与收款的合计（金额按采购价计，付款与可提现含奖励与扣款）',
  totalClaimed: '已认领',
  totalRecorded: '已购买（已填单号）',
  totalArrived: '已到货',
  totalPaid: '已付款',
  totalWithdrawable: '可提现',
  units: (n: number) => `${n} 件`,
  amount: (yuan: string) => `¥${yuan}`,

  loadFailed: '首页加载失败',
  retry: '重试',
} as const;
