// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../src/web/components/ui/toast';
import { renderApp, userOf } from './app-harness';
import { json, ok, type Handler } from './support/fake-api';

afterEach(() => {
  cleanup();
  clearToasts();
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
  it('has the fields, the keep-me-logged-in box and the forgot-password link, and no sidebar', async () => {
    renderApp('/login');
    expect(await screen.findByLabelText('用户名（邮箱）')).toBeTruthy();
    expect(screen.getByLabelText('密码')).toBeTruthy();
    expect(screen.getByLabelText('保持登录')).toBeTruthy();
    expect(screen.getByRole('link', { name: '忘记密码？' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.queryByRole('navigation', { name: '主菜单' })).toBeNull();
    expect(screen.queryByRole('button', { name: '退出登录' })).toBeNull();
    await waitFor(() => expect(document.title).toBe('登录 - 采购任务协作平台'));
  });

  it('requires both fields', async () => {
    const { requests } = renderApp('/login');
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
    renderApp('/login', { handlers: loginAnswer(() => ok({ status })) });
    await fillAndSubmit();
    const alert = await screen.findByText(message);
    expect(alert.getAttribute('role')).toBe('alert');
  });

  it('no_group names the user group and the administrator', async () => {
    renderApp('/login', { handlers: loginAnswer(() => ok({ status: 'no_group' })) });
    await fillAndSubmit();
    const alert = await screen.findByText(/用户组/);
    expect(alert.textContent).toContain('管理员');
  });

  it("code A00001 shows '用户名或密码错误'", async () => {
    renderApp('/login', { handlers: loginAnswer(() => json({ code: 'A00001', msg: 'pwd: 参数错误' }, 400)) });
    await fillAndSubmit();
    expect(await screen.findByText('用户名或密码错误')).toBeTruthy();
  });

  it('another error code shows code and message', async () => {
    renderApp('/login', { handlers: loginAnswer(() => json({ code: 'A00005', msg: '系统错误' }, 500)) });
    await fillAndSubmit();
    expect(await screen.findByText('A00005 系统错误')).toBeTruthy();
  });

  it('sends mailAddr, pwd and keepflag as the query', async () => {
    const { requests } = renderApp('/login', { handlers: loginAnswer(() => ok({ status: 'failed' })) });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('保持登录'));
    await fillAndSubmit('bob@example.com', 'p w');
    await screen.findByText('密码错误');
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe('/ext/login/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({ mailAddr: 'bob@example.com', pwd: 'p w', keepflag: 'true' });
  });

  it('Enter in the password field submits', async () => {
    const { requests } = renderApp('/login', { handlers: loginAnswer(() => ok({ status: 'failed' })) });
    await fillAndSubmit('alice@example.com', 'secret', 'enter');
    expect(await screen.findByText('密码错误')).toBeTruthy();
    expect(requests.filter((r) => r.url.includes('/ext/login/login'))).toHaveLength(1);
  });

  it('on success stores the token, loads the user and goes to the callback', async () => {
    const admin = userOf('admin');
    const { router, tokenStore, session } = renderApp('/login?callback=%2Fadmin%2Finvite', {
      handlers: {
        ...loginAnswer(() => ok({ status: 'succ', token: 'new-token', userName: 'alice', roleType: 'admin' })),
        'GET /api/user/info': () => ok(admin),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('保持登录'));
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/invite'));
    expect(tokenStore.read()).toEqual({ token: 'new-token', keep: true });
    expect(session.getSnapshot().context.user).toEqual(admin);
    expect(await screen.findByRole('heading', { name: '邀请用户' })).toBeTruthy();
  });

  it.each([
    ['no callback', '/login'],
    ['a callback back to /login', '/login?callback=%2Flogin%3Fcallback%3D%252Fme'],
    ['an off-site callback', '/login?callback=https%3A%2F%2Fevil.example%2F'],
  ])("with %s goes to / (and on to the member's home)", async (_, start) => {
    const { router } = renderApp(start, {
      handlers: {
        ...loginAnswer(() => ok({ status: 'succ', token: 't' })),
        'GET /api/user/info': () => ok(userOf('user')),
      },
    });
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/home'));
    expect(await screen.findByRole('heading', { name: '首页' })).toBeTruthy();
  });

  it.each(['admin', 'lowerAdmin'] as const)('without a callback takes %s to the admin home', async (role) => {
    const { router } = renderApp('/login', {
      handlers: {
        ...loginAnswer(() => ok({ status: 'succ', token: 't' })),
        'GET /api/user/info': () => ok(userOf(role)),
      },
    });
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
    expect(await screen.findByRole('heading', { name: '首页' })).toBeTruthy();
  });
});

describe('route guards', () => {
  it('a login-required route without a user goes to /login with the wanted path as callback', async () => {
    const { router } = renderApp('/admin/invite');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ callback: '/admin/invite' });
  });

  it('an unknown path goes to /me (and so to the login page without a user)', async () => {
    const { router } = renderApp('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ callback: '/me' });
  });

  it('a stale stored token is dropped quietly and the login page shows', async () => {
    const { router, tokenStore } = renderApp('/me', {
      loggedInAs: userOf('user'),
      handlers: { 'GET /api/user/info': () => json({ code: 'A00002', msg: 'expired' }, 401) },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(tokenStore.read()).toBeNull();
  });

  it("a user on an admin page goes to the member's home", async () => {
    const { router } = renderApp('/admin/invite', { loggedInAs: userOf('user') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/home'));
  });

  it('an admin on a user page goes to the admin home', async () => {
    const { router } = renderApp('/user/board-list', { loggedInAs: userOf('admin') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
  });

  it('/ without a user goes to the login page, with / as callback', async () => {
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ callback: '/' });
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
