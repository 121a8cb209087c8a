// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { clearToasts } from '../../src/web/components/ui/toast';
import { sidebarFor } from '../../src/web/shell/sidebar-items';
import { renderApp, renderLoginPage, userOf } from './app-harness';
import { ok } from './support/fake-api';

afterEach(() => {
  cleanup();
  clearToasts();
});

const ADMIN_SIDEBAR = [
  '/admin/home',
  '/admin/group-list',
  '/admin/user-list',
  '/admin/item-list',
  '/admin/board-list',
  '/admin/tracking-list',
  '/admin/scan',
  '/admin/scan2',
  '/admin/tasks',
  '/admin/missing-parcels',
  '/admin/parcel-claims',
  '/admin/apply-list',
  '/admin/withdraw-list',
  '/admin/task-amount-list',
  '/admin/tracking-audit',
  '/admin/task-audit',
  '/admin/invite',
  '/me',
];
const LOWER_ADMIN_SIDEBAR = ADMIN_SIDEBAR.filter((path) => path !== '/admin/withdraw-list');
const USER_SIDEBAR = [
  '/user/home',
  '/user/board-list',
  '/user/my-task',
  '/user/unknown-parcels',
  '/user/apply-list',
  '/user/upload',
  '/user/bank-card',
  '/user/withdraw-request',
  '/me',
];

describe('sidebar by role (SPEC §2)', () => {
  it.each([
    ['admin', ADMIN_SIDEBAR],
    ['lowerAdmin', LOWER_ADMIN_SIDEBAR],
    ['user', USER_SIDEBAR],
  ] as const)('%s gets exactly its list, in order', (role, paths) => {
    expect(sidebarFor(role).map((item) => item.to)).toEqual(paths);
  });

  it('nobody signed in gets no sidebar', () => {
    expect(sidebarFor(null)).toEqual([]);
  });

  it('every label is Chinese text', () => {
    for (const item of [...sidebarFor('admin'), ...sidebarFor('user')]) {
      expect(item.label).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it.each([
    ['admin', ADMIN_SIDEBAR],
    ['lowerAdmin', LOWER_ADMIN_SIDEBAR],
    ['user', USER_SIDEBAR],
  ] as const)('renders the %s sidebar as links', async (role, paths) => {
    renderApp('/me', { loggedInAs: userOf(role) });
    const nav = await screen.findByRole('navigation', { name: '主菜单' });
    const hrefs = within(nav)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(paths);
    expect(within(nav).getByRole('link', { name: '个人中心' }).getAttribute('aria-current')).toBe('page');
  });

  it('every sidebar link opens a page with its title', async () => {
    // A list whose failed load is said in its table (the missing parcels) is given an empty page.
    const handlers = { 'GET /api/admin/purchased/missing': () => ok({ content: [], totalPages: 0, totalElements: 0, days: 7 }) };
    const { router } = renderApp('/me', { loggedInAs: userOf('admin'), handlers });
    const nav = await screen.findByRole('navigation', { name: '主菜单' });
    const user = userEvent.setup();
    for (const item of sidebarFor('admin')) {
      await user.click(within(nav).getByRole('link', { name: item.label }));
      await waitFor(() => expect(router.state.location.pathname).toBe(item.to));
      await waitFor(() => expect(document.title.startsWith(`${item.label} - `)).toBe(true));
    }
  });
});

describe('the menu of a narrow screen (the sidebar is hidden below md)', () => {
  it('opens the links of the role in a dialog; a choice navigates and closes it', async () => {
    const { router } = renderApp('/me', { loggedInAs: userOf('user') });
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: /菜单/ });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: '主菜单' });
    const hrefs = within(dialog)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(USER_SIDEBAR);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await user.click(within(dialog).getByRole('link', { name: '我的任务' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/my-task'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '主菜单' })).toBeNull());
  });

  it('is not offered to someone not signed in, in the app or on the login page', async () => {
    renderApp('/forgot-password');
    expect(await screen.findByRole('button', { name: '发送重置邮件' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /菜单/ })).toBeNull();
    cleanup();
    renderLoginPage();
    expect(await screen.findByRole('button', { name: '登录' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /菜单/ })).toBeNull();
  });
});

describe('header, footer and /me', () => {
  it('shows the user, a logout button and the version; logout ends the session', async () => {
    const { session, effects, tokenStore, requests } = renderApp('/me', { loggedInAs: userOf('user') });
    expect(await screen.findByText('user-name', { selector: 'dd' })).toBeTruthy();
    expect(screen.getByText(new RegExp(`版本 ${version.replace(/\./g, '\\.')}`))).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '退出登录' }));
    expect(session.getSnapshot().value).toBe('noToken');
    expect(tokenStore.read()).toBeNull();
    expect(effects.reloadRoot).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(requests.some((r) => r.url.endsWith('/ext/login/logout'))).toBe(true));
    const logout = requests.find((r) => r.url.endsWith('/ext/login/logout'));
    expect(logout?.headers.get('x-token')).toBe('test-token');
  });

  it('the notice is read-only for role user', async () => {
    renderApp('/me', {
      loggedInAs: userOf('user'),
      handlers: { 'GET /api/notice/get': () => ok({ content: '今日公告' }) },
    });
    const notice = await screen.findByDisplayValue('今日公告');
    expect(notice.hasAttribute('readonly')).toBe(true);
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    expect(screen.queryByRole('button', { name: '保存并群发邮件' })).toBeNull();
  });

  it('admins save the notice, with or without the mass mail', async () => {
    const saved: unknown[] = [];
    renderApp('/me', {
      loggedInAs: userOf('lowerAdmin'),
      handlers: {
        'POST /api/notice/save': async (request) => {
          const body = (await request.json()) as { content: string; isMail: boolean };
          saved.push(body);
          return ok({ content: body.content, mailQueued: body.isMail ? 2 : 0 });
        },
      },
    });
    const user = userEvent.setup();
    const notice = await screen.findByRole('textbox', { name: '公告' });
    await user.type(notice, '新公告');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '保存并群发邮件' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved).toEqual([
      { content: '新公告', isMail: false },
      { content: '新公告', isMail: true },
    ]);
  });
});
