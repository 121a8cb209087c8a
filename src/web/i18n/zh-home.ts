// Chinese text of the admin home (/admin/home); part of the one catalog (zh.ts re-exports it as
// zh.home). The scan stations' names are the sidebar's (zh.nav).
export const homeText = {
  today: (day: string) => `今天是 ${day}`,
  refresh: '刷新',

  stations: '扫描',
  station: {
    scan: '一个快递单号，多件商品',
    scan2: '一种商品，多个快递单号',
  },

  waiting: '待处理',
  /** Each count of getAdminHome, as its card names it. */
  card: {
    pendingClaims: '待审核的认领',
    scannedTodayUnmatched: '今天扫描未匹配的包裹',
    notArrived: (days: number) => `超过${days}天未到货的快递单号`,
    appliesToAgree: '待同意的付款申请',
    withdrawalsWaiting: '待付款的提现',
    requestedCancels: '申请取消的提现',
  },
  hint: {
    pendingClaims: '通过或拒绝用户的认领',
    scannedTodayUnmatched: '今天入库、没有对上用户任务的扫描记录',
    notArrived: '用户已录入、仓库还没有扫描到',
    appliesToAgree: '同意后用户即可申请提现',
    withdrawalsWaiting: (total: string) => `金额合计 ${total}`,
    requestedCancels: '同意或拒绝用户的取消申请',
  },
  open: '查看',
  nothing: '暂无',

  loadFailed: '待处理事项加载失败',
  retry: '重试',
} as const;
