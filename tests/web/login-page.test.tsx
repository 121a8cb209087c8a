// @vitest-environment happy-dom
// The login page (login.html's own root, decision 131) and the app's way to it: a full page load to
// /login?callback=<the wanted path>.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../src/web/components/ui/toast';
import { getTokenStore } from '../../src/web/session/token-store';
import { loadedPage, renderApp, renderLoginPage, resetLoadedPage, userOf } from './app-harness';
import { json, ok, type Handler } from './support/fake-api';

afterEach(() => {
  cleanup();
  clearToasts();
  getTokenStore().clear();
  resetLoadedPage();
});

function loginAnswer(handler: Handler) {
  return { 'POST /ext/login/login': handler };
}

async function fillAndSubmit(mail = 'alice@example.com', pwd = 'secret', via: 'button' | 'enter' = 'button') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('用户名（邮箱）'), mail);
  await user.type(screen.getByLabelText('密码'), via === 'enter' ? `${pwd}{Enter}` : pwd);
  if (via === 'button') await user.click(screen.getByRole('button', { name: '登录' }));
  return user;
}

describe('login page', () => {
  // The document is where the server sends login.html: a page load to elsewhere shows in its address.
  beforeEach(() => window.location.replace('http://localhost:3000/login'));

  it('has the fields, the keep-me-logged-in box and the forgot-password link, and no sidebar or user', async () => {
    renderLoginPage();
    expect(await screen.findByLabelText('用户名（邮箱）')).toBeTruthy();
    expect(screen.getByLabelText('密码')).toBeTruthy();
    expect(screen.getByLabelText('保持登录')).toBeTruthy();
    expect(screen.getByRole('link', { name: '忘记密码？' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.getByRole('link', { name: '采购任务协作平台' }).getAttribute('href')).toBe('/');
    expect(screen.getByText(/版本 \d/)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: '主菜单' })).toBeNull();
    expect(screen.queryByRole('button', { name: '退出登录' })).toBeNull();
  });

  it('requires both fields', async () => {
    const { requests } = renderLoginPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByText('用户名（邮箱）为必填项')).toBeTruthy();
    expect(screen.getByText('密码为必填项')).toBeTruthy();
    expect(requests).toHaveLength(0);
  });

  it.each([
    ['user_not_exist', '用户不存在'],
    ['failed', '密码错误'],
    ['no_group', '您不属于任何用户组，无法登录，请联系管理员'],
    ['locked_for_now', 'locked_for_now'],
  ])('status %s shows %s', async (status, message) => {
    renderLoginPage('', { handlers: loginAnswer(() => ok({ status })) });
    await fillAndSubmit();
    const alert = await screen.findByText(message);
    expect(alert.getAttribute('role')).toBe('alert');
    expect(getTokenStore().read()).toBeNull();
    expect(loadedPage()).toBe('/login');
  });

  it('no_group names the user group and the administrator', async () => {
    renderLoginPage('', { handlers: loginAnswer(() => ok({ status: 'no_group' })) });
    await fillAndSubmit();
    const alert = await screen.findByText(/用户组/);
    expect(alert.textContent).toContain('管理员');
  });

  it("code A00001 shows '用户名或密码错误'", async () => {
    renderLoginPage('', { handlers: loginAnswer(() => json({ code: 'A00001', msg: 'pwd: 参数错误' }, 400)) });
    await fillAndSubmit();
    expect(await screen.findByText('用户名或密码错误')).toBeTruthy();
  });

  it('another error code shows code and message', async () => {
    renderLoginPage('', { handlers: loginAnswer(() => json({ code: 'A00005', msg: '系统错误' }, 500)) });
    await fillAndSubmit();
    expect(await screen.findByText('A00005 系统错误')).toBeTruthy();
  });

  it('the database unavailable (503 A00005) shows code and message as a 500 does', async () => {
    renderLoginPage('', { handlers: loginAnswer(() => json({ code: 'A00005', msg: '数据库暂时不可用，请稍后重试' }, 503)) });
    await fillAndSubmit();
    expect(await screen.findByText('A00005 数据库暂时不可用，请稍后重试')).toBeTruthy();
  });

  it('the rate limit answer shows its words', async () => {
    renderLoginPage('', { handlers: loginAnswer(() => json({ code: 'A00004', msg: '登录次数过多，请15分钟后再试' }, 429)) });
    await fillAndSubmit();
    expect(await screen.findByText('A00004 登录次数过多，请15分钟后再试')).toBeTruthy();
  });

  it('sends mailAddr, pwd and keepflag as the query', async () => {
    const { requests } = renderLoginPage('', { handlers: loginAnswer(() => ok({ status: 'failed' })) });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('保持登录'));
    await fillAndSubmit('bob@example.com', 'p w');
    await screen.findByText('密码错误');
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe('/ext/login/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({ mailAddr: 'bob@example.com', pwd: 'p w', keepflag: 'true' });
  });

  it('Enter in the password field submits', async () => {
    const { requests } = renderLoginPage('', { handlers: loginAnswer(() => ok({ status: 'failed' })) });
    await fillAndSubmit('alice@example.com', 'secret', 'enter');
    expect(await screen.findByText('密码错误')).toBeTruthy();
    expect(requests.filter((r) => r.url.includes('/ext/login/login'))).toHaveLength(1);
  });

  it.each([
    [true, { token: 'new-token', keep: true }],
    [false, { token: 'new-token', keep: false }],
  ])('on success (keep me logged in: %s) stores the token as the session does and loads the callback', async (keep, stored) => {
    renderLoginPage('?callback=%2Fadmin%2Finvite%3Fpage%3D2', {
      handlers: loginAnswer(() => ok({ status: 'succ', token: 'new-token', userName: 'alice', roleType: 'admin' })),
    });
    const user = userEvent.setup();
    if (keep) await user.click(await screen.findByLabelText('保持登录'));
    await fillAndSubmit();
    await waitFor(() => expect(loadedPage()).toBe('/admin/invite?page=2'));
    expect(getTokenStore().read()).toEqual(stored);
    expect(localStorage.getItem('token')).toBe('new-token');
  });

  it.each([
    ['no callback', ''],
    ['a callback back to /login', '?callback=%2Flogin%3Fcallback%3D%252Fme'],
    ['an off-site callback', '?callback=https%3A%2F%2Fevil.example%2F'],
  ])("with %s loads / (the role's home)", async (_, search) => {
    renderLoginPage(search, { handlers: loginAnswer(() => ok({ status: 'succ', token: 't' })) });
    await fillAndSubmit();
    await waitFor(() => expect(loadedPage()).toBe('/'));
    expect(getTokenStore().read()).toEqual({ token: 't', keep: false });
  });

  it('shows the toast the page before left for it (registered, then sent here)', async () => {
    sessionStorage.setItem('toast.nextPage', JSON.stringify({ tone: 'success', message: '注册成功，请使用注册的账户登录' }));
    renderLoginPage();
    expect(await screen.findByText('注册成功，请使用注册的账户登录')).toBeTruthy();
    expect(sessionStorage.getItem('toast.nextPage')).toBeNull();
  });
});

describe('route guards', () => {
  it('a login-required route without a user loads /login with the wanted path as callback', async () => {
    renderApp('/admin/invite?page=2');
    await waitFor(() => expect(loadedPage()).toBe('/login?callback=%2Fadmin%2Finvite%3Fpage%3D2'));
  });

  it('an unknown path goes to /me (and so to the login page without a user)', async () => {
    const { router } = renderApp('/no/such/page');
    await waitFor(() => expect(loadedPage()).toBe('/login?callback=%2Fme'));
    expect(router.state.location.pathname).toBe('/me');
  });

  it('a stale stored token is dropped quietly and the login page loads', async () => {
    const { tokenStore } = renderApp('/me', {
      loggedInAs: userOf('user'),
      handlers: { 'GET /api/user/info': () => json({ code: 'A00002', msg: 'expired' }, 401) },
    });
    await waitFor(() => expect(loadedPage()).toBe('/login?callback=%2Fme'));
    expect(tokenStore.read()).toBeNull();
  });

  it("/ with a member goes to the member's home, with an admin or lowerAdmin to the admin home", async () => {
    const member = renderApp('/', { loggedInAs: userOf('user') });
    await waitFor(() => expect(member.router.state.location.pathname).toBe('/user/home'));
    cleanup();
    for (const role of ['admin', 'lowerAdmin'] as const) {
      const admin = renderApp('/', { loggedInAs: userOf(role) });
      await waitFor(() => expect(admin.router.state.location.pathname).toBe('/admin/home'));
      cleanup();
    }
    expect(loadedPage()).toBe('/');
  });

  it("a user on an admin page goes to the member's home", async () => {
    const { router } = renderApp('/admin/invite', { loggedInAs: userOf('user') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/home'));
  });

  it('an admin on a user page goes to the admin home', async () => {
    const { router } = renderApp('/user/board-list', { loggedInAs: userOf('admin') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
  });

  it('/ without a user loads the login page, with / as callback', async () => {
    renderApp('/');
    await waitFor(() => expect(loadedPage()).toBe('/login?callback=%2F'));
  });

  it('the withdraw list is for admin only, not lowerAdmin', async () => {
    const lower = renderApp('/admin/withdraw-list', { loggedInAs: userOf('lowerAdmin') });
    await waitFor(() => expect(lower.router.state.location.pathname).toBe('/admin/home'));
    cleanup();
    const admin = renderApp('/admin/withdraw-list', { loggedInAs: userOf('admin') });
    await waitFor(() => expect(document.title).toBe('提现管理 - 采购任务协作平台'));
    expect(admin.router.state.location.pathname).toBe('/admin/withdraw-list');
  });
});
