// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../src/web/components/ui/toast';
import { loadedPage, renderApp, renderLoginPage, resetLoadedPage, userOf } from './app-harness';
import { json, ok } from './support/fake-api';

afterEach(() => {
  cleanup();
  clearToasts();
  sessionStorage.clear();
  resetLoadedPage();
});

const validInvite = { 'GET /ext/login/token/exist': () => ok({ status: 'succ', mail: 'new@example.com' }) };

describe('/signup', () => {
  it('shows the address and the token read-only', async () => {
    const { requests } = renderApp('/signup?mailAddr=new%40example.com&token=abc123', { handlers: validInvite });
    const mail = await screen.findByLabelText('邮箱');
    expect((mail as HTMLInputElement).value).toBe('new@example.com');
    expect(mail.hasAttribute('readonly')).toBe(true);
    const token = screen.getByLabelText('邀请码');
    expect((token as HTMLInputElement).value).toBe('abc123');
    expect(token.hasAttribute('readonly')).toBe(true);
    const check = new URL(requests[0]!.url);
    expect(Object.fromEntries(check.searchParams)).toEqual({ token: 'abc123', type: 'register' });
    expect(screen.getByRole('link', { name: '去登录' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('navigation', { name: '主菜单' })).toBeNull();
  });

  it("an invalid token shows the server's msg on the page and as a toast", async () => {
    renderApp('/signup?mailAddr=a%40b.c&token=old', {
      handlers: { 'GET /ext/login/token/exist': () => json({ code: 'A00000', msg: '邀请已过期', data: { status: 'failed' } }) },
    });
    const messages = await screen.findAllByText('邀请已过期');
    expect(messages.length).toBe(2); // the page and the toast
    expect(screen.queryByRole('button', { name: '注册' })).toBeNull();
  });

  it("an invalid token without a msg shows 'token已失效'", async () => {
    renderApp('/signup?mailAddr=a%40b.c&token=old', {
      handlers: { 'GET /ext/login/token/exist': () => ok({ status: 'failed' }) },
    });
    expect((await screen.findAllByText('token已失效')).length).toBeGreaterThan(0);
  });

  it('checks the address on blur', async () => {
    renderApp('/signup?mailAddr=taken%40example.com&token=abc', {
      handlers: { ...validInvite, 'GET /ext/login/exist': () => ok({ status: 'already_exist' }) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('邮箱'));
    await user.tab();
    expect(await screen.findByText('用户名taken@example.com已被占用')).toBeTruthy();
  });

  it('requires every field after trimming and matching passwords', async () => {
    const { requests } = renderApp('/signup?mailAddr=new%40example.com&token=abc', { handlers: validInvite });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('用户名'), '   ');
    await user.type(screen.getByLabelText('密码'), 'one');
    await user.type(screen.getByLabelText('确认密码'), 'two');
    await user.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('用户名为必填项')).toBeTruthy();
    expect(screen.getByText('电话为必填项')).toBeTruthy();
    expect(screen.getByText('QQ为必填项')).toBeTruthy();
    expect(screen.getByText('两次密码不一致')).toBeTruthy();
    expect(requests.some((r) => r.url.includes('/ext/login/register'))).toBe(false);
  });

  it('registers and loads the login page, which toasts the success', async () => {
    let sent: unknown;
    renderApp('/signup?mailAddr=new%40example.com&token=abc', {
      handlers: {
        ...validInvite,
        'POST /ext/login/register': async (request) => {
          sent = await request.json();
          return ok({ status: 'succ' });
        },
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('用户名'), ' 新用户 ');
    await user.type(screen.getByLabelText('电话'), '123');
    await user.type(screen.getByLabelText('QQ'), '456');
    await user.type(screen.getByLabelText('密码'), 'pw');
    await user.type(screen.getByLabelText('确认密码'), 'pw');
    await user.click(screen.getByRole('button', { name: '注册' }));
    await waitFor(() => expect(loadedPage()).toBe('/login'));
    expect(sent).toEqual({ mailAddr: 'new@example.com', pwd: 'pw', nickName: '新用户', phoneNo: '123', qq: '456', token: 'abc' });
    cleanup(); // the page is left; the login page draws the toast
    renderLoginPage();
    expect(await screen.findByText('注册成功，请使用注册的账户登录')).toBeTruthy();
  });

  it("shows the server's msg for another outcome", async () => {
    renderApp('/signup?mailAddr=new%40example.com&token=abc', {
      handlers: { ...validInvite, 'POST /ext/login/register': () => json({ code: 'A00000', msg: '注册失败', data: { status: 'failed' } }) },
    });
    const user = userEvent.setup();
    for (const label of ['用户名', '电话', 'QQ', '密码', '确认密码']) await user.type(await screen.findByLabelText(label), 'x');
    await user.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('注册失败')).toBeTruthy();
  });
});

describe('/reset', () => {
  it("an invalid link shows '链接已失效'", async () => {
    const { requests } = renderApp('/reset?token=old', { handlers: { 'GET /ext/login/token/exist': () => ok({ status: 'failed' }) } });
    expect(await screen.findByText('链接已失效')).toBeTruthy();
    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({ token: 'old', type: 'change' });
  });

  it('a missing token is an invalid link', async () => {
    renderApp('/reset');
    expect(await screen.findByText('链接已失效')).toBeTruthy();
  });

  it('prefills the address, checks the passwords, submits and loads the login page, which toasts the success', async () => {
    let sent: unknown;
    renderApp('/reset?token=good', {
      handlers: {
        'GET /ext/login/token/exist': () => ok({ status: 'succ', mail: 'me@example.com' }),
        'POST /ext/login/reset': async (request) => {
          sent = await request.json();
          return ok({ status: 'succ' });
        },
      },
    });
    const mail = (await screen.findByLabelText('邮箱')) as HTMLInputElement;
    expect(mail.value).toBe('me@example.com');
    expect(mail.readOnly).toBe(true);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('密码'), 'new');
    await user.type(screen.getByLabelText('确认密码'), 'other');
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('两次密码不一致')).toBeTruthy();
    await user.clear(screen.getByLabelText('确认密码'));
    await user.type(screen.getByLabelText('确认密码'), 'new');
    await user.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(loadedPage()).toBe('/login'));
    expect(sent).toEqual({ pwd: 'new', token: 'good', mailAddr: 'me@example.com' });
    cleanup();
    renderLoginPage();
    expect(await screen.findByText('提交成功，请使用新密码登录')).toBeTruthy();
  });
});

describe('/forgot-password', () => {
  it('requires the address, posts it as a form and says to check the mailbox', async () => {
    const bodies: string[] = [];
    renderApp('/forgot-password', {
      handlers: {
        'POST /ext/login/password': async (request) => {
          bodies.push(await request.text());
          return ok({ sendStatus: 'succ', msg: '已发送' });
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '发送重置邮件' }));
    expect(await screen.findByText('邮箱为必填项')).toBeTruthy();
    await user.type(screen.getByLabelText('邮箱'), 'me@example.com');
    await user.click(screen.getByRole('button', { name: '发送重置邮件' }));
    expect(await screen.findByText(/申请已提交.*查收邮箱/)).toBeTruthy();
    expect(bodies).toEqual(['mail=me%40example.com']);
  });
});

describe('/admin/invite', () => {
  it('sends one address per line comma-joined and shows the result rows', async () => {
    const bodies: string[] = [];
    renderApp('/admin/invite', {
      loggedInAs: userOf('admin'),
      handlers: {
        'POST /api/admin/invite': async (request) => {
          bodies.push(await request.text());
          return ok([
            { mail: 'a@x.com', sendStatus: 'succ', msg: '已发送' },
            { mail: 'b@x.com', sendStatus: 'failed', msg: '已注册' },
          ]);
        },
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('邮箱（每行一个）'), ' a@x.com {Enter}{Enter}b@x.com{Enter}a@x.com');
    await user.click(screen.getByRole('button', { name: '发送邀请' }));
    expect(await screen.findByText('已注册')).toBeTruthy();
    expect(new URLSearchParams(bodies[0]).get('mails')).toBe('a@x.com,b@x.com');
    expect(screen.getByRole('columnheader', { name: '邮箱' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '状态' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '信息' })).toBeTruthy();
    expect(screen.getByText('失败')).toBeTruthy();
  });

  it('asks for at least one address', async () => {
    renderApp('/admin/invite', { loggedInAs: userOf('lowerAdmin') });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '发送邀请' }));
    expect(await screen.findByText('请至少填写一个邮箱')).toBeTruthy();
  });
});
