// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { adminUser, createPeopleFake } from './people-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

function seed() {
  return createPeopleFake({
    groups: [
      { id: 1, groupName: '华东采购一组', remark: '' },
      { id: 2, groupName: '华南采购组', remark: '周末' },
    ],
    users: [
      adminUser(11, { nickName: 'boss', mailAddr: 'boss@example.com', roleType: 'admin' }),
      adminUser(12, { nickName: 'lower', mailAddr: 'lower@example.com', roleType: 'lowerAdmin' }),
      adminUser(13, { nickName: 'alice', mailAddr: 'alice@example.com', groupIds: [1] }),
      adminUser(14, { nickName: 'bob', mailAddr: 'bob@example.com' }),
    ],
  });
}

const listRequests = (requests: Request[]) => requests.map((r) => new URL(r.url)).filter((u) => u.pathname === '/api/admin/user/list');

describe('/admin/user-list', () => {
  it('lists users with role labels and group names', async () => {
    const fake = seed();
    renderApp('/admin/user-list', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const table = await screen.findByRole('table', { name: '用户列表' });
    const alice = (await within(table).findByText('alice@example.com')).closest('tr')!;
    expect(within(alice).getByText('华东采购一组')).toBeTruthy();
    expect(within(alice).getByText('普通用户')).toBeTruthy();
    const bob = within(table).getByText('bob@example.com').closest('tr')!;
    expect(within(bob).getByText('未分组')).toBeTruthy();
    expect(screen.getByText('共 4 条')).toBeTruthy();
  });

  it('puts the filters into the request query and the URL, and reads them back from the URL', async () => {
    const fake = seed();
    const { router, requests } = renderApp('/admin/user-list', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    await screen.findByText('alice@example.com');
    const first = listRequests(requests)[0]!;
    expect(first.searchParams.get('page')).toBe('0');
    expect(first.searchParams.get('size')).toBe('20');
    expect(first.searchParams.get('roleType')).toBe('all');

    const user = userEvent.setup();
    const filters = screen.getByRole('form', { name: '筛选条件' });
    await user.selectOptions(within(filters).getByLabelText('角色'), '用户');
    await user.type(within(filters).getByLabelText('邮箱'), 'ALI');
    await user.type(within(filters).getByLabelText('用户名'), 'al');
    await user.click(within(filters).getByRole('button', { name: '查询' }));

    await waitFor(() => expect(router.state.location.search).toEqual({ roleType: 'user', mailAddr: 'ALI', nickName: 'al' }));
    await waitFor(() => expect(screen.queryByText('bob@example.com')).toBeNull());
    const last = listRequests(requests).at(-1)!;
    expect(last.searchParams.get('roleType')).toBe('user');
    expect(last.searchParams.get('mailAddr')).toBe('ALI');
    expect(last.searchParams.get('nickName')).toBe('al');
    expect(last.searchParams.get('page')).toBe('0');
    expect(screen.getByText('alice@example.com')).toBeTruthy();

    // Back restores the unfiltered list and its (empty) filters; forward brings the filters back.
    router.history.back();
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await waitFor(() => expect((within(filters).getByLabelText('邮箱') as HTMLInputElement).value).toBe(''));
    expect(await screen.findByText('bob@example.com')).toBeTruthy();
    router.history.forward();
    await waitFor(() => expect((within(filters).getByLabelText('邮箱') as HTMLInputElement).value).toBe('ALI'));
    expect((within(filters).getByLabelText('角色') as HTMLSelectElement).value).toBe('user');

    // The role filter 'admin' is the admin side: admin and lowerAdmin.
    await user.click(within(filters).getByRole('button', { name: '重置' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await user.selectOptions(within(filters).getByLabelText('角色'), '管理员');
    await user.click(within(filters).getByRole('button', { name: '查询' }));
    await waitFor(() => expect(screen.queryByText('alice@example.com')).toBeNull());
    expect(listRequests(requests).at(-1)!.searchParams.get('roleType')).toBe('admin');
    expect(screen.getByText('boss@example.com')).toBeTruthy();
    expect(screen.getByText('lower@example.com')).toBeTruthy();
  });

  it('starts from the filters and page in the URL and pages through the server', async () => {
    const fake = seed();
    for (let id = 15; id <= 40; id += 1) fake.users.push(adminUser(id));
    const { router, requests } = renderApp('/admin/user-list?roleType=user&page=1', {
      loggedInAs: userOf('admin'),
      handlers: fake.handlers,
    });
    expect(await screen.findByText('user35@example.com')).toBeTruthy();
    const first = listRequests(requests)[0]!;
    expect(first.searchParams.get('roleType')).toBe('user');
    expect(first.searchParams.get('page')).toBe('1');
    expect((screen.getByLabelText('角色') as HTMLSelectElement).value).toBe('user');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '第 1 页' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ roleType: 'user' }));
    expect(await screen.findByText('alice@example.com')).toBeTruthy();
    expect(listRequests(requests).at(-1)!.searchParams.get('page')).toBe('0');
  });

  it("an admin changes a user's role and groups", async () => {
    const fake = seed();
    const { requests } = renderApp('/admin/user-list', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '编辑 alice@example.com' }));
    const dialog = await screen.findByRole('dialog');
    const role = within(dialog).getByLabelText('角色') as HTMLSelectElement;
    expect([...role.options].map((o) => o.textContent)).toEqual(['管理员', '次级管理员', '普通用户']);
    expect(role.value).toBe('user');
    expect((within(dialog).getByRole('checkbox', { name: /华东采购一组/ }) as HTMLInputElement).checked).toBe(true);

    await user.selectOptions(role, '次级管理员');
    await user.click(within(dialog).getByRole('checkbox', { name: /华东采购一组/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /华南采购组/ }));
    await user.click(within(dialog).getByRole('button', { name: '保存' }));

    expect(await screen.findByText('保存成功')).toBeTruthy();
    const update = requests.find((r) => new URL(r.url).pathname === '/api/admin/user/update')!;
    expect(await update.json()).toEqual({ id: 13, roleType: 'lowerAdmin', groupIds: [2] });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = (await screen.findByText('华南采购组', { selector: 'span' })).closest('tr')!;
    expect(within(row).getByText('alice@example.com')).toBeTruthy();
    expect(within(row).getByText('次级管理员')).toBeTruthy();
  });

  it('a lowerAdmin cannot pick admin, and cannot edit an admin at all', async () => {
    const fake = seed();
    renderApp('/admin/user-list', { loggedInAs: userOf('lowerAdmin'), handlers: fake.handlers });
    await screen.findByText('boss@example.com');
    expect(screen.queryByRole('button', { name: '编辑 boss@example.com' })).toBeNull();
    expect(screen.getByRole('button', { name: '编辑 lower@example.com' })).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '编辑 bob@example.com' }));
    const dialog = await screen.findByRole('dialog');
    const role = within(dialog).getByLabelText('角色') as HTMLSelectElement;
    expect([...role.options].map((o) => o.value)).toEqual(['lowerAdmin', 'user']);
    expect(within(dialog).queryByRole('option', { name: '管理员' })).toBeNull();
  });

  it('nobody changes their own role: the role is shown fixed and not sent', async () => {
    const fake = seed();
    // userOf() signs in as id 3.
    fake.users.push(adminUser(3, { nickName: 'me', mailAddr: 'me@example.com', roleType: 'lowerAdmin' }));
    const { requests } = renderApp('/admin/user-list', { loggedInAs: userOf('lowerAdmin'), handlers: fake.handlers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '编辑 me@example.com' }));
    const dialog = await screen.findByRole('dialog');
    const role = within(dialog).getByLabelText('角色') as HTMLSelectElement;
    expect(role.disabled).toBe(true);
    expect(role.value).toBe('lowerAdmin');
    expect(within(dialog).getByText('不能修改自己的角色')).toBeTruthy();
    await user.click(within(dialog).getByRole('checkbox', { name: /华南采购组/ }));
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    const update = requests.find((r) => new URL(r.url).pathname === '/api/admin/user/update')!;
    expect(await update.json()).toEqual({ id: 3, groupIds: [2] });
  });
});
