// Auth (SPEC §7 Auth, §5 login/register/forgot/reset; DECISIONS "Accounts and sessions").
// Business outcomes travel as data.status inside an A00000 answer, as the login and register
// screens expect; malformed input is A00001.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { users, oneTimeTokens } from '../db/schema/accounts.ts';
import { userGroupMembers } from '../db/schema/groups.ts';
import type { Tx } from '../db/client.ts';
import { badRequest, tooMany } from '../errors.ts';
import { hashPassword, hashToken, newToken, verifyPassword } from '../auth/secrets.ts';
import { createSession, revokeSession, revokeUserSessions } from '../auth/sessions.ts';
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
const REGISTER_LABELS = { mailAddr: '邮箱', nickName: '昵称', phoneNo: '手机号', qq: 'QQ', pwd: '密码', token: '邀请码' } as const;

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

/** A usable one-time token of this kind, or undefined. */
async function findToken(tx: Tx, token: string, kind: 'register' | 'change') {
  const [row] = await tx
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.tokenHash, hashToken(token)), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, new Date())))
    .limit(1);
  return row;
}

/** Marks the token used; false when another request used it first (single use under races). */
async function consumeToken(tx: Tx, id: number): Promise<boolean> {
  const rows = await tx.update(oneTimeTokens).set({ usedAt: new Date() }).where(and(eq(oneTimeTokens.id, id), isNull(oneTimeTokens.usedAt))).returning({ id: oneTimeTokens.id });
  return rows.length === 1;
}

async function insertToken(tx: Tx, kind: 'register' | 'change', mailAddr: string, ttlMs: number, createdBy: number | null) {
  const token = newToken();
  await tx.insert(oneTimeTokens).values({ kind, mailAddr, tokenHash: hashToken(token), createdBy, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export const authHandlers: Handlers = {
  async login(req, ctx) {
    const mailAddr = normalizeMail(String(req.query.mailAddr ?? ''));
    const pwd = String(req.query.pwd ?? '');
    if (!mailAddr || !pwd) throw badRequest('用户名或密码错误');
    const { byAddress, byIp } = ctx.loginFailures;
    if (byAddress.isBlocked(mailAddr) || byIp.isBlocked(req.ip)) throw tooMany('登录失败次数过多，请15分钟后再试');
    const fail = () => {
      byAddress.fail(mailAddr);
      byIp.fail(req.ip);
    };

    const [user] = await ctx.db.select().from(users).where(eq(users.mailAddr, mailAddr)).limit(1);
    if (!user) {
      fail();
      return ok({ status: 'user_not_exist' }, '用户不存在');
    }
    if (!(await verifyPassword(pwd, user.passwordHash))) {
      fail();
      return ok({ status: 'failed' }, '密码错误');
    }
    if (user.roleType === 'user') {
      const [member] = await ctx.db.select({ g: userGroupMembers.groupId }).from(userGroupMembers).where(eq(userGroupMembers.userId, user.id)).limit(1);
      if (!member) return ok({ status: 'no_group' }, '您不属于任何用户组，无法登录，请联系管理员');
    }
    byAddress.reset(mailAddr);
    const token = await createSession(ctx.db, user.id, req.query.keepflag === true);
    return ok({ status: 'succ', userName: user.nickName, roleType: user.roleType, token }, '登录成功');
  },

  async logout(req, ctx) {
    await revokeSession(ctx.db, me(req).sessionId);
    ctx.sessions.forgetSession(me(req).sessionId);
    return ok({ status: 'succ' }, '已退出登录');
  },

  async getUserInfo(req, ctx) {
    const [u] = await ctx.db
      .select({ id: users.id, nickName: users.nickName, mailAddr: users.mailAddr, phoneNo: users.phoneNo, qq: users.qq, roleType: users.roleType })
      .from(users)
      .where(eq(users.id, me(req).id));
    if (!u) throw badRequest('用户不存在');
    return ok(u);
  },

  async checkMailExists(req, ctx) {
    const mailAddr = normalizeMail(String(req.query.mailAddr ?? ''));
    if (!mailAddr) throw badRequest('邮箱为必填项');
    const [u] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.mailAddr, mailAddr)).limit(1);
    return u ? ok({ status: 'already_exist' }, `用户名${mailAddr}已被占用`) : ok({ status: 'succ' }, '');
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
    return ctx.db.transaction(async (tx) => {
      const tokenRow = await findToken(tx, body.token.trim(), 'register');
      if (!tokenRow || tokenRow.mailAddr !== mailAddr) return ok({ status: 'failed' }, 'token已失效');
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.mailAddr, mailAddr)).limit(1);
      if (taken) return ok({ status: 'already_exist' }, `用户名${mailAddr}已被占用`);
      if (!(await consumeToken(tx, tokenRow.id))) return ok({ status: 'failed' }, 'token已失效');
      try {
        await tx.insert(users).values({
          mailAddr,
          nickName: body.nickName.trim(),
          phoneNo: body.phoneNo.trim(),
          qq: body.qq.trim(),
          roleType: 'user',
          passwordHash: await hashPassword(body.pwd),
        });
      } catch (err) {
        if (isUniqueViolation(err)) return ok({ status: 'already_exist' }, `用户名${mailAddr}已被占用`);
        throw err;
      }
      return ok({ status: 'succ' }, '注册成功，请使用注册的账户登录');
    });
  },

  async forgotPassword(req, ctx) {
    const mail = normalizeMail(String(req.body.mail ?? ''));
    if (!mail) throw badRequest('邮箱为必填项');
    // Same answer whether or not the address exists (DECISIONS), so the form cannot probe accounts.
    const answer = ok({ sendStatus: 'succ' as const, msg: '如果该邮箱已注册，重置密码邮件已发送，请查收邮箱' }, '提交成功，请查收邮箱');
    await ctx.db.transaction(async (tx) => {
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.mailAddr, mail)).limit(1);
      if (!user) return;
      const [recent] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(oneTimeTokens)
        .where(and(eq(oneTimeTokens.mailAddr, mail), eq(oneTimeTokens.kind, 'change'), gt(oneTimeTokens.createdAt, new Date(Date.now() - 3_600_000))));
      if ((recent?.n ?? 0) >= RESET_MAILS_PER_HOUR) return;
      const token = await insertToken(tx, 'change', mail, RESET_HOURS * 3_600_000, user.id);
      await enqueueMail(tx, 'reset', [resetMail(ctx.config.appUrl, mail, token)]);
    });
    ctx.outbox.kick();
    return answer;
  },

  async resetPassword(req, ctx) {
    const body = req.body;
    requireFilled(body, { pwd: '密码', token: 'token', mailAddr: '邮箱' });
    checkPassword(body.pwd);
    const mailAddr = normalizeMail(body.mailAddr);
    const hash = await hashPassword(body.pwd);
    const userId = await ctx.db.transaction(async (tx) => {
      const row = await findToken(tx, body.token.trim(), 'change');
      if (!row || row.mailAddr !== mailAddr || !(await consumeToken(tx, row.id))) return null;
      const updated = await tx.update(users).set({ passwordHash: hash, updatedAt: new Date() }).where(eq(users.mailAddr, mailAddr)).returning({ id: users.id });
      const user = updated[0];
      if (!user) return null;
      await revokeUserSessions(tx, user.id);
      return user.id;
    });
    if (userId === null) return ok({ status: 'failed' }, '链接已失效');
    ctx.sessions.forgetUser(userId);
    return ok({ status: 'succ' }, '提交成功，请使用新密码登录');
  },

  async inviteUsers(req, ctx) {
    const inviter = me(req);
    const mails = [...new Set(String(req.body.mails ?? '').split(/[,;\s]+/).map(normalizeMail).filter(Boolean))];
    if (mails.length === 0) throw badRequest('请填写邮箱');
    if (mails.length > MAX_INVITES_PER_CALL) throw badRequest(`一次最多邀请${MAX_INVITES_PER_CALL}个邮箱`);
    const rows: { mail: string; sendStatus: 'succ' | 'failed'; msg: string }[] = [];
    // Sent one by one and reported per address: the admin sees which mail actually went out.
    for (const mail of mails) {
      if (!MAIL_RE.test(mail) || mail.length > 254) {
        rows.push({ mail, sendStatus: 'failed', msg: '邮箱格式错误' });
        continue;
      }
      const [exists] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.mailAddr, mail)).limit(1);
      if (exists) {
        rows.push({ mail, sendStatus: 'failed', msg: '该邮箱已注册' });
        continue;
      }
      const token = await insertToken(ctx.db, 'register', mail, INVITE_DAYS * 86_400_000, inviter.id);
      try {
        await ctx.mailer.send(invitationMail(ctx.config.appUrl, mail, token, inviter.nickName));
        rows.push({ mail, sendStatus: 'succ', msg: '邀请已发送' });
      } catch (err) {
        ctx.log.warn({ err, mail }, 'invitation mail failed');
        await ctx.db.delete(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, hashToken(token)));
        rows.push({ mail, sendStatus: 'failed', msg: '邮件发送失败' });
      }
    }
    return ok(rows);
  },
};
