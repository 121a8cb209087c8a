// A newcomer's first hour, in a real browser against the real server: the bootstrap admin logs in
// and sees the admin sidebar, invites an address; the invitee opens the mailed link, registers and
// is told no_group at login; forgot password -> reset -> login with the new password; logout.
import { describe, expect, it } from 'vitest';
import { logIn, newPage as newBrowserPage, shot, useStage } from './setup.ts';

const ADMIN = { mail: 'boss@e2e.test', password: 'boss-pass-1' };
const stage = useStage({ admin: ADMIN });
const { server, sink, browser } = stage;

const newPage = () => newBrowserPage(browser, { width: 1280, height: 800 });

describe('accounts in the browser', () => {
  it('admin logs in through the callback, sees the admin sidebar and invites; the invitee registers and meets no_group', async () => {
    const { page, errors, close } = await newPage();
    await page.goto(`${server.url}/admin/invite`);
    await page.waitForURL(/\/login\?callback=/);
    expect(new URL(page.url()).searchParams.get('callback')).toBe('/admin/invite');
    await page.getByLabel('用户名（邮箱）').waitFor();
    await shot(page, '01-login');

    await logIn(page, ADMIN.mail, ADMIN.password);
    await page.waitForURL(`${server.url}/admin/invite`);
    const nav = page.getByRole('navigation');
    for (const label of ['用户组', '用户列表', '商品列表', '看板管理', '提现管理', '邀请用户', '个人中心']) {
      await nav.getByRole('link', { name: label, exact: true }).waitFor();
    }
    await expect(nav.getByRole('link', { name: '我的任务' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: '退出登录' }).isVisible()).resolves.toBe(true);

    await page.getByLabel('邮箱（每行一个）').fill('newbie@e2e.test\nboss@e2e.test');
    await page.getByRole('button', { name: '发送邀请' }).click();
    const table = page.getByRole('table');
    await table.getByText('newbie@e2e.test').waitFor();
    await expect(table.getByText('该邮箱已注册').isVisible()).resolves.toBe(true);
    await shot(page, '02-invite-result');

    const invitation = await sink.waitFor('newbie@e2e.test');
    const link = invitation.links.find((l) => l.includes('/signup?'))!;
    expect(link.startsWith(`${server.url}/signup?`)).toBe(true);

    const invitee = await newPage();
    await invitee.page.goto(link);
    await expect(invitee.page.getByLabel('邮箱', { exact: true }).inputValue()).resolves.toBe('newbie@e2e.test');
    await expect(invitee.page.getByLabel('邮箱', { exact: true }).getAttribute('readonly')).resolves.not.toBeNull();
    await invitee.page.getByLabel('用户名', { exact: true }).fill('新手小张');
    await invitee.page.getByLabel('电话').fill('13900001111');
    await invitee.page.getByLabel('QQ').fill('556677');
    await invitee.page.getByLabel('密码', { exact: true }).fill('newbie-pass-1');
    await invitee.page.getByLabel('确认密码').fill('newbie-pass-2');
    await invitee.page.getByRole('button', { name: '注册' }).click();
    await invitee.page.getByText('两次密码不一致').waitFor();
    await invitee.page.getByLabel('确认密码').fill('newbie-pass-1');
    await shot(invitee.page, '03-signup');
    await invitee.page.getByRole('button', { name: '注册' }).click();
    await invitee.page.getByText('注册成功，请使用注册的账户登录').waitFor();
    await invitee.page.waitForURL(/\/login/);

    await logIn(invitee.page, 'newbie@e2e.test', 'newbie-pass-1');
    await invitee.page.getByText('您不属于任何用户组，无法登录，请联系管理员').waitFor();
    expect(new URL(invitee.page.url()).pathname).toBe('/login');
    await shot(invitee.page, '04-no-group');

    // The invitation link works once only.
    await invitee.page.goto(link);
    await invitee.page.getByText('token已失效').first().waitFor();
    expect(errors).toEqual([]);
    expect(invitee.errors).toEqual([]);
    await invitee.close();
    await close();
  });

  it('forgot password -> mailed link -> reset -> login with the new password -> logout', async () => {
    const { page, errors, close } = await newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: '忘记密码？' }).click();
    await page.waitForURL(/\/forgot-password/);
    // Exact: '用户名（邮箱）' of the login page also contains 邮箱, and the login page may stay on
    // screen a moment after the URL changes (the next page loads); a loose match once filled the
    // login form just before it was replaced, and the reset form was sent empty.
    await page.getByLabel('邮箱', { exact: true }).fill(ADMIN.mail);
    await page.getByRole('button', { name: '发送重置邮件' }).click();
    await page.getByText('申请已提交，请查收邮箱中的重置密码邮件。').waitFor();
    await shot(page, '05-forgot-submitted');

    const mail = await sink.waitFor(ADMIN.mail, 15_000);
    const link = mail.links.find((l) => l.includes('/reset?'))!;
    await page.goto(link);
    await expect(page.getByLabel('邮箱', { exact: true }).inputValue()).resolves.toBe(ADMIN.mail);
    await page.getByLabel('密码', { exact: true }).fill('boss-pass-2');
    await page.getByLabel('确认密码').fill('boss-pass-2');
    await shot(page, '06-reset');
    await page.getByRole('button', { name: '提交' }).click();
    await page.getByText('提交成功，请使用新密码登录').waitFor();
    await page.waitForURL(/\/login/);

    await logIn(page, ADMIN.mail, ADMIN.password);
    await page.getByText('密码错误').waitFor();
    await logIn(page, ADMIN.mail, 'boss-pass-2');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.getByRole('button', { name: '退出登录' }).waitFor();
    await shot(page, '07-logged-in');

    await page.getByRole('button', { name: '退出登录' }).click();
    await page.waitForURL(/\/login/);
    await expect(page.getByRole('button', { name: '退出登录' }).count()).resolves.toBe(0);
    // The token is gone from storage: a protected page sends us back to login.
    await page.goto(`${server.url}/me`);
    await page.waitForURL(/\/login\?callback=%2Fme|\/login\?callback=\/me/);
    await page.getByLabel('用户名（邮箱）').waitFor();
    await shot(page, '08-logged-out');

    // An old reset link no longer works.
    await page.goto(link);
    await page.getByText('链接已失效').first().waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
