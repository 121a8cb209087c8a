// Auth (SPEC §7 Auth, §5 login/register/forgot/reset; DECISIONS "Accounts and sessions").
// Business outcomes travel as data.status inside an A00000 answer, as the login and register
// screens expect; malformed input is A00001. The anonymous calls are rate-limited
// (auth/rate-limit.ts), and a password is hashed only for a request that can succeed: its token is
// checked first, so a flood of bogus resets costs a lookup each, not a scrypt. The rows (users,
// one-time tokens) are read and written by auth/accounts.ts (decision 164).
import { deleteToken, findToken, insertToken, issueResetToken, mailTaken, registerMember, resetPassword, userByMail } from '../auth/accounts.ts';
import { badRequest } from '../errors.ts';
import { LOGIN_PAIR_MAX_UNDER_ATTACK, pairKey, RATE_LIMITS, type Attempt, type RateLimiter } from '../auth/rate-limit.ts';
import { hashPassword, verifyPassword } from '../auth/secrets.ts';
import { createSession, revokeSession } from '../auth/sessions.ts';
import { hasGroup } from '../people/groups.ts';
import { userById } from '../people/users.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { invitationMail, resetMail } from '../mail/templates.ts';
import { me, ok, type Handlers } from './types.ts';

export const INVITE_DAYS = 7;
export const RESET_HOURS = 1;
export const RESET_MAILS_PER_HOUR = 5;
export const MAX_INVITES_PER_CALL = 100;
export const PASSWORD_MIN = 6;

const MAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const normalizeMail = (s: string) => s.trim().toLowerCase();

/** SPEC §5: every register field is required after trimming: '{field label}为必填项'. */
const REGISTER_LABELS = { mailAddr: '邮箱', nickName: '用户名', phoneNo: '电话', qq: 'QQ', pwd: '密码', token: '邀请码' } as const;

function requireFilled<T extends Record<string, unknown>>(body: T, labels: Partial<Record<keyof T, string>>) {
  for (const [key, label] of Object.entries(labels) as [keyof T, string][]) {
    const v = body[key];
    if (typeof v !== 'string' || v.trim() === '') throw badRequest(`${label}为必填项`);
  }
}

function checkPassword(pwd: string) {
  if (pwd.length < PASSWORD_MIN) throw badRequest(`密码至少${PASSWORD_MIN}位`);
  if (pwd.length > 128) throw badRequest('密码最多128位');
}

/**
 * A login attempt counted per (address, IP), per IP and per address. Only an IP that has been
 * failing on the address is refused; while the address is under attack from many IPs that IP's
 * allowance drops to LOGIN_PAIR_MAX_UNDER_ATTACK, and a clean IP still gets in with the password.
 */
async function takeLogin(limits: RateLimiter, address: string, ip: string): Promise<Attempt> {
  const underAttack = (await limits.count('loginAddress', address)) >= RATE_LIMITS.loginAddress.max;
  return limits.take(
    [
      { name: 'loginPair', key: pairKey(address, ip), max: underAttack ? LOGIN_PAIR_MAX_UNDER_ATTACK : undefined },
      { name: 'loginIp', key: ip },
      { name: 'loginAddress', key: address, max: Infinity },
    ],
    '登录失败',
  );
}

/** Runs a step that may throw (a busy hash queue, the database): the attempt was not a wrong guess. */
async function unlessThrows<T>(attempt: Attempt, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    await attempt.forgive();
    throw err;
  }
}

export const authHandlers: Handlers = {
  async login(req, ctx) {
    const mailAddr = normalizeMail(String(req.query.mailAddr ?? ''));
    const pwd = String(req.query.pwd ?? '');
    if (!mailAddr || !pwd) throw badRequest('用户名或密码错误');
    // Counted as a failure from the start (a burst sent at once is bounded), forgiven on success.
    const attempt = await takeLogin(ctx.rateLimits, mailAddr, req.ip);
    const user = await unlessThrows(attempt, () => userByMail(ctx.db, mailAddr));
    if (!user) return ok({ status: 'user_not_exist' }, '用户不存在');
    if (!(await unlessThrows(attempt, () => verifyPassword(pwd, user.passwordHash)))) return ok({ status: 'failed' }, '密码错误');
    await attempt.forgive();
    await ctx.rateLimits.reset('loginPair', pairKey(mailAddr, req.ip));
    if (user.roleType === 'user') {
      if (!(await hasGroup(ctx.db, user.id))) return ok({ status: 'no_group' }, '您不属于任何用户组，无法登录，请联系管理员');
    }
    const token = await createSession(ctx.db, user.id, req.query.keepflag === true);
    return ok({ status: 'succ', userName: user.nickName, roleType: user.roleType, token }, '登录成功');
  },

  async logout(req, ctx, reply) {
    // Every process forgets the session when this commits (a NOTIFY); this one at once.
    await revokeSession(ctx.db, me(req).sessionId);
    ctx.sessions.forgetSession(me(req).sessionId);
    // The browser drops what it cached of this origin (and the back/forward cache's pages of the
    // session). Not "storage": it would also wipe /admin/scan2's unsent rows and the members' last
    // visits, kept there across logins; the web app removes the token itself (decision 035).
    reply.header('clear-site-data', '"cache"');
    return ok({ status: 'succ' }, '已退出登录');
  },

  async getUserInfo(req, ctx) {
    const u = await userById(ctx.db, me(req).id);
    if (!u) throw badRequest('用户不存在');
    return ok(u);
  },

  async checkMailExists(req, ctx) {
    const mailAddr = normalizeMail(String(req.query.mailAddr ?? ''));
    if (!mailAddr) throw badRequest('邮箱为必填项');
    // Each answer tells whether an address has an account: counted per IP, never forgiven.
    await ctx.rateLimits.take([{ name: 'mailCheckIp', key: req.ip }], '邮箱查询');
    return (await mailTaken(ctx.db, mailAddr)) ? ok({ status: 'already_exist' }, `用户名${mailAddr}已被占用`) : ok({ status: 'succ' }, '');
  },

  async checkToken(req, ctx) {
    const kind = req.query.type === 'change' ? 'change' : 'register';
    const row = await findToken(ctx.db, String(req.query.token ?? ''), kind);
    if (!row) return ok({ status: 'failed', mail: '' }, kind === 'change' ? '链接已失效' : 'token已失效');
    return ok({ status: 'succ', mail: row.mailAddr }, '');
  },

  async register(req, ctx) {
    const body = req.body;
    requireFilled(body, REGISTER_LABELS);
    checkPassword(body.pwd);
    const mailAddr = normalizeMail(body.mailAddr);
    const attempt = await ctx.rateLimits.take(
      [
        { name: 'registerPair', key: pairKey(mailAddr, req.ip) },
        { name: 'registerIp', key: req.ip },
      ],
      '注册失败',
    );
    const failed = ok({ status: 'failed' as const }, 'token已失效');
    const taken = ok({ status: 'already_exist' as const }, `用户名${mailAddr}已被占用`);
    // Token and address first: no hash for a request that cannot succeed. The token is consumed in
    // the transaction below, so two requests with one token still register once.
    const tokenRow = await unlessThrows(attempt, () => findToken(ctx.db, body.token.trim(), 'register'));
    if (!tokenRow || tokenRow.mailAddr !== mailAddr) return failed;
    await attempt.forgive(); // a real invitation: whatever follows, this was no guess
    if (await mailTaken(ctx.db, mailAddr)) return taken;
    const passwordHash = await hashPassword(body.pwd);
    const member = { mailAddr, nickName: body.nickName.trim(), phoneNo: body.phoneNo.trim(), qq: body.qq.trim(), passwordHash };
    const outcome = await registerMember(ctx.db, tokenRow.id, member);
    if (outcome === 'failed') return failed;
    if (outcome === 'taken') return taken;
    return ok({ status: 'succ' as const }, '注册成功，请使用注册的账户登录');
  },

  async forgotPassword(req, ctx) {
    const mail = normalizeMail(String(req.body.mail ?? ''));
    if (!mail) throw badRequest('邮箱为必填项');
    await ctx.rateLimits.take([{ name: 'forgotIp', key: req.ip }], '重置密码邮件请求');
    // Same answer whether or not the address exists (DECISIONS), so the form cannot probe accounts.
    const answer = ok({ sendStatus: 'succ' as const, msg: '如果该邮箱已注册，重置密码邮件已发送，请查收邮箱' }, '提交成功，请查收邮箱');
    await ctx.db.transaction(async (tx) => {
      // At most one live link and RESET_MAILS_PER_HOUR mails an hour, under concurrent requests too.
      const token = await issueResetToken(tx, mail, RESET_HOURS * 3_600_000, RESET_MAILS_PER_HOUR);
      if (token) await enqueueMail(tx, 'reset', [resetMail(ctx.config.appUrl, mail, token)]);
    });
    ctx.outbox.kick();
    return answer;
  },

  async resetPassword(req, ctx) {
    const body = req.body;
    requireFilled(body, { pwd: '密码', token: 'token', mailAddr: '邮箱' });
    checkPassword(body.pwd);
    const mailAddr = normalizeMail(body.mailAddr);
    const attempt = await ctx.rateLimits.take(
      [
        { name: 'resetPair', key: pairKey(mailAddr, req.ip) },
        { name: 'resetIp', key: req.ip },
      ],
      '重置密码失败',
    );
    const failed = ok({ status: 'failed' as const }, '链接已失效');
    // The token first: no hash for a request that cannot succeed. It is consumed in the
    // transaction below, so a link still works once when two requests race.
    const row = await unlessThrows(attempt, () => findToken(ctx.db, body.token.trim(), 'change'));
    if (!row || row.mailAddr !== mailAddr) return failed;
    await attempt.forgive();
    const hash = await hashPassword(body.pwd);
    // The token consumed, the address's other links and the user's sessions ended, in one transaction.
    const userId = await resetPassword(ctx.db, row.id, mailAddr, hash);
    if (userId === null) return failed;
    ctx.sessions.forgetUser(userId);
    // The owner proved the mailbox: failures counted on the address's logins no longer apply.
    await ctx.rateLimits.resetAddress('loginPair', mailAddr);
    return ok({ status: 'succ' }, '提交成功，请使用新密码登录');
  },

  async inviteUsers(req, ctx) {
    const inviter = me(req);
    const mails = [
      ...new Set(
        String(req.body.mails ?? '')
          .split(/[,;\s]+/)
          .map(normalizeMail)
          .filter(Boolean),
      ),
    ];
    if (mails.length === 0) throw badRequest('请填写邮箱');
    if (mails.length > MAX_INVITES_PER_CALL) throw badRequest(`一次最多邀请${MAX_INVITES_PER_CALL}个邮箱`);
    const rows: { mail: string; sendStatus: 'succ' | 'failed'; msg: string }[] = [];
    // Sent one by one and reported per address: the admin sees which mail actually went out.
    for (const mail of mails) {
      if (!MAIL_RE.test(mail) || mail.length > 254) {
        rows.push({ mail, sendStatus: 'failed', msg: '邮箱格式错误' });
        continue;
      }
      if (await mailTaken(ctx.db, mail)) {
        rows.push({ mail, sendStatus: 'failed', msg: '该邮箱已注册' });
        continue;
      }
      const token = await insertToken(ctx.db, 'register', mail, INVITE_DAYS * 86_400_000, inviter.id);
      try {
        await ctx.mailer.send(invitationMail(ctx.config.appUrl, mail, token, inviter.nickName));
        rows.push({ mail, sendStatus: 'succ', msg: '邀请已发送' });
      } catch (err) {
        ctx.log.warn({ err, mail }, 'invitation mail failed');
        await deleteToken(ctx.db, token);
        rows.push({ mail, sendStatus: 'failed', msg: '邮件发送失败' });
      }
    }
    return ok(rows);
  },
};
