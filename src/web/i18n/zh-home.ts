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
    /** Counts the records /admin/missing-parcels lists (one row per member who recorded a parcel). */
    notArrived: (days: number) => `超过${days}天未到货的包裹`,
    appliesToAgree: '待同意的付款申请',
    withdrawalsWaiting: '待付款的提现',
    requestedCancels: '申请取消的提现',
  },
  hint: {
    pendingClaims: '通过或拒绝用户的认领',
    scannedTodayUnmatched: '今天入库、没有对上用户任务的扫描记录',
    notArrived: '用户已录入、仓库还没有扫描到',
    /** When several members recorded one parcel: the list has a row for each, so more rows than tracking ids. */
    notArrivedShared: (trackingIds: number) => `共${trackingIds}个快递单号：同一单号有多位会员录入，每位一行`,
    appliesToAgree: '同意后用户即可申请提现',
    withdrawalsWaiting: (total: string) => `金额合计 ${total}`,
    requestedCancels: '同意或拒绝用户的取消申请',
  },
  open: '查看',
  nothing: '暂无',

  /** Contested parcels (decision 096): records of several members, fewer units than they record. */
  contested: {
    title: '待核对的包裹',
    hint: '多位会员记录了同一包裹，到货数量不够分配：请分配到货的商品',
    parcel: (trackingId: string, itemName: string) => `快递单号 ${trackingId} · ${itemName}`,
    units: (scanned: number, held: number) => (held > 0 ? `到货${scanned}件，其中${held}件已属于已锁定的任务` : `到货${scanned}件`),
    member: '会员',
    task: '任务',
    recorded: '记录数量',
    assign: '分配数量',
    settled: '已锁定，保留已分配的商品',
    submit: '确认分配',
    done: '分配完成',
    loadFailed: '待核对的包裹加载失败',
  },

  loadFailed: '待处理事项加载失败',
  retry: '重试',
} as const;
