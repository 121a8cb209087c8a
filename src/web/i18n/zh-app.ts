// The app frame's words: the name, the page titles, the sign-in pages, the sidebar, the roles and
// statuses every screen shares. Apart from the screens' catalogs (zh-<area>.ts) so that the first
// page, the login page, loads these and not every screen's words (docs/decisions/130): the routes,
// the shell and the sign-in pages import `zhApp as zh`; the screens import `zh` (zh.ts), which is
// this and every catalog.
import type { RoleType } from '../../../machines/session.machine';
import type { TaskStatus } from '../../../machines/task.statuses';
import type { BoardTaskStatus } from '../../../machines/claim.machine';
import type { ShownBoardState } from '../../../machines/board.machine';
import { scanStatusLabels } from '../../../machines/scan-record.statuses';

export const zhApp = {
  app: {
    name: '采购任务协作平台',
    version: (v: string) => `版本 ${v}`,
    logout: '退出登录',
    mainNav: '主菜单',
    menu: '菜单',
    skipToContent: '跳到正文',
    loading: '加载中…',
    errorTitle: '页面加载失败',
    errorBody: '请检查网络后重试。',
    loadFailed: '加载失败',
    retry: '重试',
  },

  common: {
    networkError: '网络错误，请稍后重试',
    saveSuccess: '保存成功', // SPEC §8
    submit: '提交',
    backToLogin: '返回登录',
  },

  session: {
    tokenExpired: 'Token已过期', // SPEC §4, verbatim
  },

  roles: {
    admin: '管理员',
    lowerAdmin: '次级管理员',
    user: '普通用户',
  } satisfies Record<RoleType, string>,

  /** Status values more than one feature shows (SPEC §4), one table each (components/task-status-badges.tsx). */
  status: {
    task: {
      pending: '待审核',
      open: '进行中',
      closed: '已关闭',
      locked: '已锁定',
      processing: '付款中', // locked -> (apply for payment) processing -> (paid) finished
      finished: '已完成',
      deleted: '已删除',
      unmatch: '不匹配',
    } satisfies Record<TaskStatus, string>,
    boardTask: {
      normal: '正常',
      urgent: '紧急',
      full: '已满',
      deleted: '已删除',
      closed: '已关闭',
    } satisfies Record<BoardTaskStatus, string>,
    /** Scan record status: the words the server's export uses too (machines/scan-record.machine.ts). */
    scan: scanStatusLabels,
    /** A board's one shown state (machines/board.machine.ts shownBoardState), for members and admins alike. */
    board: { unpublish: '未发布', open: '已发布', close: '已关闭', expired: '已过期' } satisfies Record<ShownBoardState, string>,
  },

  /** The time left to a deadline (components/countdown.tsx). */
  countdown: {
    left: (text: string) => `剩余 ${text}`,
    days: '天',
    hours: '小时',
    minutes: '分',
    seconds: '秒',
    expired: '已过期',
  },

  /** Page titles (document.title and page headers), keyed by route. */
  titles: {
    login: '登录',
    signup: '注册',
    forgotPassword: '忘记密码',
    reset: '重置密码',
    me: '个人中心',
    adminHome: '首页',
    userHome: '首页',
    userBoardList: '任务看板',
    userBoard: '看板详情',
    userBoardTask: '看板任务',
    userMyTask: '我的任务',
    userApplyList: '我的付款申请',
    userBankCard: '银行卡',
    userWithdrawRequest: '提现申请',
    userWithdrawOrders: '提现订单',
    userUpload: '上传采购记录',
    adminScan: '扫描入库',
    adminScan2: '单品扫描',
    adminUpload: '批量导入',
    adminTrackingList: '扫描记录',
    adminTaskAudit: '用户日志',
    adminTrackingAudit: '管理员日志',
    adminUserList: '用户列表',
    adminGroupList: '用户组',
    adminGroup: '用户组详情',
    adminInvite: '邀请用户',
    adminWithdrawList: '提现管理',
    adminBoardList: '看板管理',
    adminBoard: '看板编辑',
    adminBoardTask: '看板任务编辑',
    adminTasks: '用户任务',
    adminMissingParcels: '未到货包裹',
    userMissingParcels: '未到货包裹',
    userUnknownParcels: '无主包裹',
    adminParcelClaims: '包裹认领',
    adminTask: '用户任务编辑',
    adminApplyList: '付款申请',
    adminTaskAmountList: '订单金额统计',
    adminItemList: '商品列表',
    adminItem: '商品编辑',
    adminMachines: '状态图',
  },

  auth: {
    mailAddr: '邮箱',
    username: '用户名（邮箱）',
    password: '密码',
    password2: '确认密码',
    nickName: '用户名',
    phoneNo: '电话',
    qq: 'QQ',
    keepLogin: '保持登录',
    forgotLink: '忘记密码？',
    loginButton: '登录',
    loginSubtitle: '请使用邮箱和密码登录',
    // SPEC §5 login outcomes
    userNotExist: '用户不存在',
    wrongPassword: '密码错误',
    noGroup: '您不属于任何用户组，无法登录，请联系管理员',
    badCredentials: '用户名或密码错误',
    // register
    token: '邀请码',
    signupButton: '注册',
    haveAccount: '已有账户？',
    goLogin: '去登录',
    tokenInvalid: 'token已失效', // SPEC §5, verbatim
    mailTaken: (name: string) => `用户名${name}已被占用`, // SPEC §5
    passwordsDiffer: '两次密码不一致', // SPEC §5
    signupSuccess: '注册成功，请使用注册的账户登录', // SPEC §8
    checkingToken: '正在校验链接…',
    // forgot password
    forgotIntro: '输入注册时使用的邮箱，我们会发送重置密码的链接。',
    forgotButton: '发送重置邮件',
    forgotSubmitted: '申请已提交，请查收邮箱中的重置密码邮件。',
    // reset
    linkExpired: '链接已失效', // SPEC §2 / §8
    resetButton: '提交',
    resetSuccess: '提交成功，请使用新密码登录', // SPEC §8
  },

  me: {
    account: '账户信息',
    id: 'ID',
    nickName: '用户名',
    mailAddr: '邮箱',
    phoneNo: '电话',
    qq: 'QQ',
    roleType: '角色',
    notice: '公告',
    noticeEmpty: '暂无公告',
    save: '保存',
    saveAndMail: '保存并群发邮件',
    mailQueued: '保存成功，邮件已加入发送队列',
  },

  invite: {
    mails: '邮箱（每行一个）',
    mailsHint: '每行填写一个邮箱地址',
    mailsRequired: '请至少填写一个邮箱',
    submit: '发送邀请',
    result: '发送结果',
    colMail: '邮箱',
    colStatus: '状态',
    colMsg: '信息',
    statusSucc: '成功',
    statusFailed: '失败',
  },

  /** Sidebar labels, keyed by path. */
  nav: {
    '/admin/home': '首页',
    '/admin/group-list': '用户组',
    '/admin/user-list': '用户列表',
    '/admin/item-list': '商品列表',
    '/admin/board-list': '看板管理',
    '/admin/tracking-list': '扫描记录',
    '/admin/scan': '扫描入库',
    '/admin/scan2': '单品扫描',
    '/admin/tasks': '用户任务',
    '/admin/missing-parcels': '未到货包裹',
    '/admin/parcel-claims': '包裹认领',
    '/admin/apply-list': '付款申请',
    '/admin/withdraw-list': '提现管理',
    '/admin/task-amount-list': '订单金额统计',
    '/admin/tracking-audit': '管理员日志',
    '/admin/task-audit': '用户日志',
    '/admin/invite': '邀请用户',
    '/user/home': '首页',
    '/user/board-list': '任务看板',
    '/user/my-task': '我的任务',
    '/user/unknown-parcels': '无主包裹',
    '/user/apply-list': '我的付款申请',
    '/user/upload': '上传采购记录',
    '/user/bank-card': '银行卡',
    '/user/withdraw-request': '提现申请',
    '/me': '个人中心',
  },
} as const;
