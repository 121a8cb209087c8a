// Accounts and sessions through the real API on a real database (SPEC §5, §7 Auth; DECISIONS).
import { randomBytes, scryptSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { oneTimeTokens, sessions, users } from '../../../src/server/db/schema/accounts.ts';
import { buildApp } from '../../../src/server/app.ts';
import { parseTrustProxy } from '../../../src/server/config.ts';
import { LOGIN_PAIR_MAX_UNDER_ATTACK, RATE_LIMITS } from '../../../src/server/auth/rate-limit.ts';
import { hashesComputed, hashToken } from '../../../src/server/auth/secrets.ts';
import { call, createUser, login, TEST_PASSWORD, useTestApp } from '../support/harness.ts';
import { signIn } from '../support/board-fixtures.ts';
import { client } from '../support/task-fixtures.ts';
import { useSmtpSink } from '../support/smtp-sink.ts';

const sink = useSmtpSink();
const t = useTestApp({ smtpUrl: () => sink.url });

const loginUrl = (mail: string, pwd: string, keep = false) =>
  `/ext/login/login?mailAddr=${encodeURIComponent(mail)}&pwd=${encodeURIComponent(pwd)}&keepflag=${keep}`;

async function invite(adminToken: string, mails: string) {
  return call<{ mail: string; sendStatus: string; msg: string }[]>(t().app, {
    method: 'POST',
    url: '/api/admin/invite',
    headers: { 'x-token': adminToken, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ mails }).toString(),
  });
}

const tokenFrom = (link: string) => new URL(link).searchParams.get('token') ?? '';

describe('login', () => {
  it('answers user_not_exist, failed, no_group and succ as SPEC §5 names them', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'lonely@x.test' });
    await createUser(database, { mailAddr: 'member@x.test', inGroup: true, nickName: '小王' });
    await createUser(database, { mailAddr: 'boss@x.test', roleType: 'admin' });

    expect((await call(app, { method: 'POST', url: loginUrl('nobody@x.test', 'whatever') })).body.data).toMatchObject({ status: 'user_not_exist' });
    expect((await call(app, { method: 'POST', url: loginUrl('member@x.test', 'wrong-password') })).body.data).toMatchObject({ status: 'failed' });
    const noGroup = await call(app, { method: 'POST', url: loginUrl('lonely@x.test', TEST_PASSWORD) });
    expect(noGroup.body.data).toMatchObject({ status: 'no_group' });
    expect(noGroup.body.data).not.toHaveProperty('token');

    const ok = await call<{ status: string; userName: string; roleType: string; token: string }>(app, {
      method: 'POST',
      url: loginUrl('Member@X.test ', TEST_PASSWORD),
    });
    expect(ok.body).toMatchObject({ code: 'A00000', data: { status: 'succ', userName: '小王', roleType: 'user' } });
    expect(ok.body.data!.token.length).toBeGreaterThanOrEqual(43);

    // Admins need no group.
    expect((await call(app, { method: 'POST', url: loginUrl('boss@x.test', TEST_PASSWORD) })).body.data).toMatchObject({ status: 'succ', roleType: 'admin' });
  });

  it('stores only a hash of the session token, valid 12 hours or 30 days with keepflag', async () => {
    const { app, database } = t();
    const u = await createUser(database, { mailAddr: 'm@x.test', inGroup: true });
    const short = await login(app, 'm@x.test');
    const long = await login(app, 'm@x.test', TEST_PASSWORD, true);
    const rows = await database.db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(rows).toHaveLength(2);
    for (const r of rows) expect([short, long]).not.toContain(r.tokenHash);
    const hours = rows.map((r) => (r.expiresAt.getTime() - r.createdAt.getTime()) / 3_600_000).sort((a, b) => a - b);
    expect(hours[0]).toBeCloseTo(12, 1);
    expect(hours[1]).toBeCloseTo(30 * 24, 1);
  });

  it('gives the user info for a token, 401 A00002 without one or after expiry, and logout ends the session', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'm@x.test', inGroup: true, nickName: 'M' });
    const token = await login(app, 'm@x.test');
    const info = await call(app, { method: 'GET', url: '/api/user/info', headers: { 'x-token': token } });
    expect(info.body).toMatchObject({ code: 'A00000', data: { mailAddr: 'm@x.test', nickName: 'M', roleType: 'user' } });
    expect(info.body.data).not.toHaveProperty('passwordHash');

    expect(await call(app, { method: 'GET', url: '/api/user/info' })).toMatchObject({ status: 401, body: { code: 'A00002' } });

    // Twelve hours later the session has ended, although the server has just answered it (and may
    // keep it in its session cache for a few seconds).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 12 * 3_600_000 + 1000 });
    try {
      expect(await call(app, { method: 'GET', url: '/api/user/info', headers: { 'x-token': token } })).toMatchObject({ status: 401, body: { code: 'A00002' } });
    } finally {
      vi.useRealTimers();
    }

    const again = await login(app, 'm@x.test');
    expect((await call(app, { method: 'POST', url: '/ext/login/logout', headers: { 'x-token': again } })).body.code).toBe('A00000');
    expect((await call(app, { method: 'GET', url: '/api/user/info', headers: { 'x-token': again } })).status).toBe(401);
  });

  it('refuses an empty password with A00001 and rate-limits repeated failures of an address from one IP', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'm@x.test', inGroup: true });
    expect(await call(app, { method: 'POST', url: '/ext/login/login?mailAddr=m%40x.test&pwd=&keepflag=false' })).toMatchObject({
      status: 400,
      body: { code: 'A00001' },
    });
    for (let i = 0; i < 10; i++)
      expect((await call(app, { method: 'POST', url: loginUrl('m@x.test', `bad${i}`) })).body.data).toMatchObject({ status: 'failed' });
    // Even the right password is refused from that IP while it is blocked (see 'rate limits').
    const blocked = await call(app, { method: 'POST', url: loginUrl('m@x.test', TEST_PASSWORD) });
    expect(blocked.status).toBe(429);
    expect(blocked.body.msg).toContain('登录失败次数过多');
  });

  it('never logs or echoes the password from the query', async () => {
    const { app } = t();
    const res = await call(app, { method: 'POST', url: loginUrl('nobody@x.test', 'S3cret-visible') });
    expect(JSON.stringify(res.body)).not.toContain('S3cret-visible');
  });
});

describe('invitation and registration', () => {
  it('invites by mail, checks the token on load and the address on blur, registers once, then no_group', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'admin@x.test', roleType: 'admin', nickName: '管理员' });
    await createUser(database, { mailAddr: 'taken@x.test', inGroup: true });
    const admin = await login(app, 'admin@x.test');

    const res = await invite(admin, 'new@x.test, taken@x.test,not-an-address');
    expect(res.body.data).toEqual([
      { mail: 'new@x.test', sendStatus: 'succ', msg: '邀请已发送' },
      { mail: 'taken@x.test', sendStatus: 'failed', msg: '该邮箱已注册' },
      { mail: 'not-an-address', sendStatus: 'failed', msg: '邮箱格式错误' },
    ]);
    const mail = await sink.waitFor('new@x.test');
    expect(mail.subject).toBe('采购任务平台注册邀请');
    const link = mail.links.find((l) => l.includes('/signup?'))!;
    expect(link.startsWith('http://app.test/signup?mailAddr=new%40x.test&token=')).toBe(true);
    const token = tokenFrom(link);

    expect((await call(app, { method: 'GET', url: `/ext/login/token/exist?token=${token}&type=register` })).body.data).toEqual({
      status: 'succ',
      mail: 'new@x.test',
    });
    const bad = await call(app, { method: 'GET', url: `/ext/login/token/exist?token=nope&type=register` });
    expect(bad.body).toMatchObject({ data: { status: 'failed' }, msg: 'token已失效' });
    // A register token is not a reset token.
    expect((await call(app, { method: 'GET', url: `/ext/login/token/exist?token=${token}&type=change` })).body.data).toMatchObject({ status: 'failed' });

    expect((await call(app, { method: 'GET', url: '/ext/login/exist?mailAddr=new%40x.test' })).body.data).toEqual({ status: 'succ' });
    const takenCheck = await call(app, { method: 'GET', url: '/ext/login/exist?mailAddr=taken%40x.test' });
    expect(takenCheck.body).toMatchObject({ data: { status: 'already_exist' }, msg: '用户名taken@x.test已被占用' });

    const form = { mailAddr: 'new@x.test', pwd: 'new-pass-1', nickName: '新人', phoneNo: '13900000000', qq: '123', token };
    const blank = await call(app, { method: 'POST', url: '/ext/login/register', payload: { ...form, nickName: '   ' } });
    expect(blank).toMatchObject({ status: 400, body: { code: 'A00001', msg: '用户名为必填项' } });

    const reg = await call(app, { method: 'POST', url: '/ext/login/register', payload: form });
    expect(reg.body).toMatchObject({ code: 'A00000', data: { status: 'succ' }, msg: '注册成功，请使用注册的账户登录' });
    const again = await call(app, { method: 'POST', url: '/ext/login/register', payload: form });
    expect(again.body.data).toMatchObject({ status: 'failed' });
    expect(again.body.msg).toBe('token已失效');

    const [created] = await database.db.select().from(users).where(eq(users.mailAddr, 'new@x.test'));
    expect(created).toMatchObject({ nickName: '新人', roleType: 'user' });
    expect(created!.passwordHash).toMatch(/^scrypt\$/);
    expect((await call(app, { method: 'POST', url: loginUrl('new@x.test', 'new-pass-1') })).body.data).toMatchObject({ status: 'no_group' });
  });

  it('refuses a token used for another address and an expired invitation', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'admin@x.test', roleType: 'admin' });
    const admin = await login(app, 'admin@x.test');
    await invite(admin, 'a@x.test');
    const token = tokenFrom((await sink.waitFor('a@x.test')).links[0]!);
    const other = await call(app, {
      method: 'POST',
      url: '/ext/login/register',
      payload: { mailAddr: 'b@x.test', pwd: 'pass-123', nickName: 'b', phoneNo: '1', qq: '1', token },
    });
    expect(other.body).toMatchObject({ data: { status: 'failed' }, msg: 'token已失效' });
    const { oneTimeTokens } = await import('../../../src/server/db/schema/accounts.ts');
    await database.db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1) });
    const late = await call(app, {
      method: 'POST',
      url: '/ext/login/register',
      payload: { mailAddr: 'a@x.test', pwd: 'pass-123', nickName: 'a', phoneNo: '1', qq: '1', token },
    });
    expect(late.body.data).toMatchObject({ status: 'failed' });
    expect((await database.db.select().from(users).where(eq(users.mailAddr, 'a@x.test'))).length).toBe(0);
  });

  it('lets only admins and lowerAdmins invite', async () => {
    const { app, database } = t();
    await createUser(database, { mailAddr: 'lower@x.test', roleType: 'lowerAdmin' });
    await createUser(database, { mailAddr: 'u@x.test', inGroup: true });
    expect((await invite(await login(app, 'u@x.test'), 'z@x.test')).status).toBe(403);
    expect((await invite(await login(app, 'lower@x.test'), 'z@x.test')).body.data).toMatchObject([{ mail: 'z@x.test', sendStatus: 'succ' }]);
  });
});

describe('forgot and reset password', () => {
  it('mails a one-hour single-use link, answers the same for unknown addresses, and ends old sessions', async () => {
    const { app, database, outbox } = t();
    await createUser(database, { mailAddr: 'm@x.test', inGroup: true });
    const oldSession = await login(app, 'm@x.test');
    expect((await call(app, { method: 'GET', url: '/api/user/info', headers: { 'x-token': oldSession } })).status).toBe(200);
    const form = (mail: string) => ({
      method: 'POST' as const,
      url: '/ext/login/password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `mail=${encodeURIComponent(mail)}`,
    });

    const unknown = await call(app, form('ghost@x.test'));
    const known = await call(app, form('m@x.test'));
    expect(unknown.body).toEqual(known.body);
    expect(known.body.data).toMatchObject({ sendStatus: 'succ' });
    await outbox.drain();
    const mail = await sink.waitFor('m@x.test');
    expect(sink.mails.some((m) => m.to === 'ghost@x.test')).toBe(false);
    const token = tokenFrom(mail.links.find((l) => l.includes('/reset?'))!);

    expect((await call(app, { method: 'GET', url: `/ext/login/token/exist?token=${token}&type=change` })).body.data).toEqual({
      status: 'succ',
      mail: 'm@x.test',
    });
    const reset = await call(app, { method: 'POST', url: '/ext/login/reset', payload: { pwd: 'brand-new-1', token, mailAddr: 'm@x.test' } });
    expect(reset.body).toMatchObject({ data: { status: 'succ' }, msg: '提交成功，请使用新密码登录' });
    const reuse = await call(app, { method: 'POST', url: '/ext/login/reset', payload: { pwd: 'other-pass-2', token, mailAddr: 'm@x.test' } });
    expect(reuse.body).toMatchObject({ data: { status: 'failed' }, msg: '链接已失效' });

    expect((await call(app, { method: 'POST', url: loginUrl('m@x.test', TEST_PASSWORD) })).body.data).toMatchObject({ status: 'failed' });
    expect((await call(app, { method: 'POST', url: loginUrl('m@x.test', 'brand-new-1') })).body.data).toMatchObject({ status: 'succ' });
    expect((await call(app, { method: 'GET', url: '/api/user/info', headers: { 'x-token': oldSession } })).status).toBe(401);
  });
});

describe('notice', () => {
  it('is read by everyone, saved by admins, and mass-mailed through the outbox after the request', async () => {
    const { app, database, outbox } = t();
    await createUser(database, { mailAddr: 'admin@x.test', roleType: 'admin' });
    await createUser(database, { mailAddr: 'u1@x.test', inGroup: true });
    await createUser(database, { mailAddr: 'u2@x.test', inGroup: true });
    const admin = await login(app, 'admin@x.test');
    const user = await login(app, 'u1@x.test');

    const denied = await call(app, { method: 'POST', url: '/api/notice/save', headers: { 'x-token': user }, payload: { content: 'hack', isMail: false } });
    expect(denied).toMatchObject({ status: 403, body: { code: 'A00003' } });

    const saved = await call(app, {
      method: 'POST',
      url: '/api/notice/save',
      headers: { 'x-token': admin },
      payload: { content: '本周五停止收货', isMail: true },
    });
    expect(saved.body).toMatchObject({ code: 'A00000', msg: '保存成功', data: { content: '本周五停止收货', mailQueued: 2 } });
    expect((await call(app, { method: 'GET', url: '/api/notice/get', headers: { 'x-token': user } })).body.data).toEqual({ content: '本周五停止收货' });

    await outbox.drain();
    const got = await Promise.all([sink.waitFor('u1@x.test'), sink.waitFor('u2@x.test')]);
    expect(got.map((m) => m.text.includes('本周五停止收货'))).toEqual([true, true]);
    expect(sink.mails.some((m) => m.to === 'admin@x.test')).toBe(false);
  });
});

describe('mail without SMTP_URL', () => {
  it('is written as .eml files under DATA_DIR/mail', async () => {
    // The harness wires the SMTP sink; the file transport is the default when none is configured.
    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-eml-'));
    const { createMailer } = await import('../../../src/server/mail/mailer.ts');
    const pino = (await import('pino')).default;
    const fileMailer = createMailer({ from: 'x@y.z', dataDir: mailDir, log: pino({ level: 'silent' }) });
    await fileMailer.send({ to: 'a@b.test', subject: 'hello', text: 'link http://app.test/reset?token=abc' });
    const files = fs.readdirSync(path.join(mailDir, 'mail'));
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(mailDir, 'mail', files[0]!), 'utf8')).toContain('http://app.test/reset?token=abc');
  });
});

// Clients are told apart by their socket address (app.inject's remoteAddress).
const ATTACKER = '203.0.113.9';
const OWNER = '198.51.100.7';
const loginFrom = (ip: string, mail: string, pwd: string, headers: Record<string, string> = {}) =>
  call<{ status: string }>(t().app, { method: 'POST', url: loginUrl(mail, pwd), remoteAddress: ip, headers });
const resetFrom = (ip: string, body: { pwd: string; token: string; mailAddr: string }) =>
  call<{ status: string }>(t().app, { method: 'POST', url: '/ext/login/reset', remoteAddress: ip, payload: body });
const forgotFrom = (ip: string, mail: string) =>
  call<{ sendStatus: string }>(t().app, {
    method: 'POST',
    url: '/ext/login/password',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `mail=${encodeURIComponent(mail)}`,
  });
const refusedTooMany = (what: string) => ({
  status: 429,
  body: { code: 'A00004', msg: expect.stringMatching(new RegExp(`^${what}次数过多，请\\d+分钟后再试$`)) },
});

/**
 * A member whose stored hash has tiny scrypt parameters (verifyPassword reads them from the hash),
 * so the tests that fail many logins count attempts without spending seconds hashing.
 */
async function createCheapUser(mailAddr: string) {
  const u = await createUser(t().database, { mailAddr, inGroup: true });
  const salt = randomBytes(16);
  const key = scryptSync(TEST_PASSWORD, salt, 32, { N: 16, r: 1, p: 1 });
  const passwordHash = ['scrypt', 16, 1, 1, salt.toString('base64'), key.toString('base64')].join('$');
  await t().database.db.update(users).set({ passwordHash }).where(eq(users.id, u.id));
}

/** Mails a reset link to `mail` through the API and returns its token. */
async function resetLink(mail: string, ip = OWNER) {
  const before = sink.mails.length;
  expect((await forgotFrom(ip, mail)).body.data).toMatchObject({ sendStatus: 'succ' });
  await t().outbox.drain();
  await sink.waitForCount(before + 1);
  return tokenFrom(sink.mails[before]!.links.find((l) => l.includes('/reset?'))!);
}

describe('rate limits without lockout', () => {
  it('refuses an IP that keeps failing on an account, even with the right password, but not the owner on another IP', async () => {
    await createCheapUser('m@x.test');
    for (let i = 0; i < RATE_LIMITS.loginPair.max; i++)
      expect((await loginFrom(ATTACKER, 'm@x.test', `guess-${i}`)).body.data).toMatchObject({ status: 'failed' });
    // Decided: a blocked IP is refused without its password being checked, so guessing cannot go on.
    expect(await loginFrom(ATTACKER, 'm@x.test', TEST_PASSWORD)).toMatchObject(refusedTooMany('登录失败'));
    expect((await loginFrom(OWNER, 'm@x.test', TEST_PASSWORD)).body.data).toMatchObject({ status: 'succ' });
    expect(await loginFrom(ATTACKER, 'm@x.test', TEST_PASSWORD)).toMatchObject({ status: 429 });
  });

  it('says in how many minutes the IP may try again', async () => {
    await createCheapUser('m@x.test');
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    try {
      for (let i = 0; i < RATE_LIMITS.loginPair.max; i++) await loginFrom(ATTACKER, 'm@x.test', `guess-${i}`);
      vi.setSystemTime(start + 5 * 60_000);
      expect((await loginFrom(ATTACKER, 'm@x.test', TEST_PASSWORD)).body.msg).toBe('登录失败次数过多，请10分钟后再试');
      vi.setSystemTime(start + 15 * 60_000);
      expect((await loginFrom(ATTACKER, 'm@x.test', TEST_PASSWORD)).body.data).toMatchObject({ status: 'succ' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('under attack from many IPs, tightens the failing IPs only: a clean IP still logs in', async () => {
    await createCheapUser('m@x.test');
    const perIp = LOGIN_PAIR_MAX_UNDER_ATTACK - 1;
    const ips = Math.ceil(RATE_LIMITS.loginAddress.max / perIp);
    for (let k = 0; k < ips; k++) {
      for (let j = 0; j < perIp; j++) expect((await loginFrom(`203.0.113.${k}`, 'm@x.test', `guess-${k}-${j}`)).body.data).toMatchObject({ status: 'failed' });
    }
    // Below loginPair's usual max, but the address is under attack: one more failure and it is out.
    expect((await loginFrom('203.0.113.0', 'm@x.test', 'guess-last')).body.data).toMatchObject({ status: 'failed' });
    expect(await loginFrom('203.0.113.0', 'm@x.test', TEST_PASSWORD)).toMatchObject({ status: 429 });
    expect((await loginFrom(OWNER, 'm@x.test', TEST_PASSWORD)).body.data).toMatchObject({ status: 'succ' });
  });

  it('refuses an IP that sprays many accounts', async () => {
    await createCheapUser('m@x.test');
    for (let i = 0; i < RATE_LIMITS.loginIp.max; i++)
      expect((await loginFrom(ATTACKER, `nobody${i}@x.test`, 'x')).body.data).toMatchObject({ status: 'user_not_exist' });
    expect(await loginFrom(ATTACKER, 'm@x.test', TEST_PASSWORD)).toMatchObject({ status: 429 });
    expect((await loginFrom(OWNER, 'm@x.test', TEST_PASSWORD)).body.data).toMatchObject({ status: 'succ' });
  });

  it('counts a burst sent at once: only the allowed number of passwords is checked', async () => {
    await createCheapUser('m@x.test');
    const hashes = hashesComputed();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => loginFrom(ATTACKER, 'm@x.test', `guess-${i}`)));
    expect(answers.filter((a) => a.body.data?.status === 'failed')).toHaveLength(RATE_LIMITS.loginPair.max);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30 - RATE_LIMITS.loginPair.max);
    expect(hashesComputed() - hashes).toBe(RATE_LIMITS.loginPair.max);
  });

  it('lets an owner who locked their own IP out reset the password and log in from it', async () => {
    await createCheapUser('m@x.test');
    for (let i = 0; i < RATE_LIMITS.loginPair.max; i++) await loginFrom(OWNER, 'm@x.test', `typo-${i}`);
    expect(await loginFrom(OWNER, 'm@x.test', TEST_PASSWORD)).toMatchObject({ status: 429 });
    const token = await resetLink('m@x.test');
    expect((await resetFrom(OWNER, { pwd: 'brand-new-1', token, mailAddr: 'm@x.test' })).body.data).toMatchObject({ status: 'succ' });
    expect((await loginFrom(OWNER, 'm@x.test', 'brand-new-1')).body.data).toMatchObject({ status: 'succ' });
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
    const { database, config, mailer, outbox } = t();
    await createCheapUser('m@x.test');
    for (let i = 0; i < RATE_LIMITS.loginPair.max; i++) {
      expect((await loginFrom(ATTACKER, 'm@x.test', `guess-${i}`, { 'x-forwarded-for': `10.0.0.${i}` })).body.data).toMatchObject({ status: 'failed' });
    }
    // Every attempt counted on the socket's address, whatever the header claimed.
    expect(await loginFrom(ATTACKER, 'm@x.test', TEST_PASSWORD, { 'x-forwarded-for': '10.0.0.99' })).toMatchObject({ status: 429 });

    // Behind a configured proxy, the address the proxy reports is the client's.
    const proxied = await buildApp({ db: database.db, config: { ...config, trustProxy: parseTrustProxy(ATTACKER) }, mailer, outbox });
    try {
      const viaProxy = (ip: string, pwd: string) =>
        call<{ status: string }>(proxied, { method: 'POST', url: loginUrl('m@x.test', pwd), remoteAddress: ATTACKER, headers: { 'x-forwarded-for': ip } });
      for (let i = 0; i < RATE_LIMITS.loginPair.max; i++) expect((await viaProxy('10.0.0.1', `guess-${i}`)).body.data).toMatchObject({ status: 'failed' });
      expect(await viaProxy('10.0.0.1', TEST_PASSWORD)).toMatchObject({ status: 429 });
      expect((await viaProxy('10.0.0.2', TEST_PASSWORD)).body.data).toMatchObject({ status: 'succ' });
    } finally {
      await proxied.close();
    }
  });

  it('reads TRUST_PROXY as off by default, true, or proxy addresses, and refuses anything else', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'loopback']);
    // Fastify 5 trusts no proxy for a hop count; refused rather than silently counting the proxy's IP.
    expect(() => parseTrustProxy('1')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('proxy.local')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
  });

  it('limits bogus resets per (address, IP) and per IP without hashing them, and a real link still works from another IP', async () => {
    await createCheapUser('m@x.test');
    const hashes = hashesComputed();
    const bogus = (ip: string, mailAddr = 'm@x.test') => resetFrom(ip, { pwd: 'abcdefgh', token: 'bogus', mailAddr });
    for (let i = 0; i < RATE_LIMITS.resetPair.max; i++) expect((await bogus(ATTACKER)).body).toMatchObject({ data: { status: 'failed' }, msg: '链接已失效' });
    expect(await bogus(ATTACKER)).toMatchObject(refusedTooMany('重置密码失败'));
    for (let i = RATE_LIMITS.resetPair.max; i < RATE_LIMITS.resetIp.max; i++)
      expect((await bogus(ATTACKER, `other${i}@x.test`)).body.data).toMatchObject({ status: 'failed' });
    expect(await bogus(ATTACKER, 'fresh@x.test')).toMatchObject({ status: 429 });
    expect(hashesComputed() - hashes).toBe(0);

    expect((await bogus(OWNER)).body.data).toMatchObject({ status: 'failed' });
    const token = await resetLink('m@x.test');
    expect((await resetFrom(OWNER, { pwd: 'brand-new-1', token, mailAddr: 'm@x.test' })).body.data).toMatchObject({ status: 'succ' });
  });

  it('limits bogus registrations, forgot-password mails and mail checks per IP', async () => {
    const hashes = hashesComputed();
    const form = { mailAddr: 'new@x.test', pwd: 'new-pass-1', nickName: '新人', phoneNo: '13900000000', qq: '123', token: 'bogus' };
    const register = (ip: string) => call<{ status: string }>(t().app, { method: 'POST', url: '/ext/login/register', remoteAddress: ip, payload: form });
    for (let i = 0; i < RATE_LIMITS.registerPair.max; i++)
      expect((await register(ATTACKER)).body).toMatchObject({ data: { status: 'failed' }, msg: 'token已失效' });
    expect(await register(ATTACKER)).toMatchObject(refusedTooMany('注册失败'));
    expect((await register(OWNER)).body.data).toMatchObject({ status: 'failed' });
    expect(hashesComputed() - hashes).toBe(0);

    for (let i = 0; i < RATE_LIMITS.forgotIp.max; i++) expect((await forgotFrom(ATTACKER, `x${i}@x.test`)).body.data).toMatchObject({ sendStatus: 'succ' });
    expect(await forgotFrom(ATTACKER, 'x@x.test')).toMatchObject(refusedTooMany('重置密码邮件请求'));
    expect((await forgotFrom(OWNER, 'x@x.test')).body.data).toMatchObject({ sendStatus: 'succ' });

    const check = (ip: string) => call(t().app, { method: 'GET', url: '/ext/login/exist?mailAddr=a%40x.test', remoteAddress: ip });
    for (let i = 0; i < RATE_LIMITS.mailCheckIp.max; i++) expect((await check(ATTACKER)).body.data).toEqual({ status: 'succ' });
    expect(await check(ATTACKER)).toMatchObject(refusedTooMany('邮箱查询'));
    expect((await check(OWNER)).body.data).toEqual({ status: 'succ' });
  });
});

describe('reset links', () => {
  it('a newer reset mail ends the older link', async () => {
    await createUser(t().database, { mailAddr: 'm@x.test', inGroup: true });
    const first = await resetLink('m@x.test');
    const second = await resetLink('m@x.test');
    expect((await call(t().app, { method: 'GET', url: `/ext/login/token/exist?token=${first}&type=change` })).body).toMatchObject({
      data: { status: 'failed' },
      msg: '链接已失效',
    });
    expect((await resetFrom(OWNER, { pwd: 'from-old-link', token: first, mailAddr: 'm@x.test' })).body).toMatchObject({
      data: { status: 'failed' },
      msg: '链接已失效',
    });
    expect((await resetFrom(OWNER, { pwd: 'from-new-link', token: second, mailAddr: 'm@x.test' })).body.data).toMatchObject({ status: 'succ' });
    expect((await loginFrom(OWNER, 'm@x.test', 'from-new-link')).body.data).toMatchObject({ status: 'succ' });
  });

  it('a link still works once when two resets with it race (the token is consumed after hashing, in the transaction)', async () => {
    await createUser(t().database, { mailAddr: 'm@x.test', inGroup: true });
    const token = await resetLink('m@x.test');
    const answers = await Promise.all(['first-pass-1', 'second-pass-2'].map((pwd) => resetFrom(OWNER, { pwd, token, mailAddr: 'm@x.test' })));
    expect(answers.map((a) => a.body.data?.status).sort()).toEqual(['failed', 'succ']);
    const winner = answers[0]!.body.data?.status === 'succ' ? 'first-pass-1' : 'second-pass-2';
    expect((await loginFrom(OWNER, 'm@x.test', winner)).body.data).toMatchObject({ status: 'succ' });
  });

  it('a reset ends every other live link of the account', async () => {
    const { database } = t();
    const u = await createUser(database, { mailAddr: 'm@x.test', inGroup: true });
    // Two live links at once (as links mailed before this rule existed could be).
    const expiresAt = new Date(Date.now() + 3_600_000);
    for (const token of ['link-one', 'link-two']) {
      await database.db.insert(oneTimeTokens).values({ kind: 'change', mailAddr: 'm@x.test', tokenHash: hashToken(token), createdBy: u.id, expiresAt });
    }
    expect((await resetFrom(OWNER, { pwd: 'brand-new-1', token: 'link-one', mailAddr: 'm@x.test' })).body.data).toMatchObject({ status: 'succ' });
    expect((await call(t().app, { method: 'GET', url: '/ext/login/token/exist?token=link-two&type=change' })).body.data).toMatchObject({ status: 'failed' });
    expect((await resetFrom(OWNER, { pwd: 'other-pass-2', token: 'link-two', mailAddr: 'm@x.test' })).body).toMatchObject({
      data: { status: 'failed' },
      msg: '链接已失效',
    });
    expect((await loginFrom(OWNER, 'm@x.test', 'brand-new-1')).body.data).toMatchObject({ status: 'succ' });
  });
});

describe('caching of personal data', () => {
  it('answers user info, bank cards and withdrawals with Cache-Control: no-store', async () => {
    const { app, database } = t();
    const member = await signIn(app, database, 'a@x.test');
    const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
    const a = client(app, member.token);
    expect(
      (await a.post('/api/withdraw/user/bind/card', { paymentType: 'Zelle', accountName: 'Ann Lee', address: '1 Main St', cardNo: '4111111111111111' })).body
        .code,
    ).toBe('A00000');
    for (const res of [
      await a.get('/api/user/info'),
      await a.get('/api/withdraw/user/show/cards'),
      await a.get('/api/withdraw/user/requests'),
      await client(app, admin.token).get('/api/withdraw/admin/requests'),
    ]) {
      expect(res.body.code).toBe('A00000');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // Errors too: an answer of the API is never cached.
    expect((await call(app, { method: 'GET', url: '/api/user/info' })).headers['cache-control']).toBe('no-store');
  });
});
