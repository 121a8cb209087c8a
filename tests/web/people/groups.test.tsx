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
      { id: 1, groupName: '华东采购一组', remark: '上海' },
      { id: 2, groupName: '华南采购组', remark: '' },
    ],
    users: [
      adminUser(3, { nickName: 'alice', mailAddr: 'alice@example.com', groupIds: [1] }),
      adminUser(4, { nickName: 'bob', mailAddr: 'bob@example.com', groupIds: [1] }),
      adminUser(5, { nickName: 'carol', mailAddr: 'carol@example.com' }),
      adminUser(6, { nickName: 'dave', mailAddr: 'dave@example.com' }),
    ],
  });
}

describe('/admin/group-list', () => {
  it('lists the groups with new and edit links', async () => {
    const fake = seed();
    const { router } = renderApp('/admin/group-list', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const table = await screen.findByRole('table', { name: '用户组列表' });
    const row = within(table).getByText('华东采购一组').closest('tr')!;
    expect(within(row).getByText('上海')).toBeTruthy();
    expect(screen.getByRole('link', { name: '新建用户组' }).getAttribute('href')).toBe('/admin/group/new');

    const user = userEvent.setup();
    await user.click(within(row).getByRole('link', { name: '编辑 华东采购一组' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/group/1'));
    expect(await screen.findByRole('heading', { name: '用户组：华东采购一组' })).toBeTruthy();
  });
});

describe('/admin/group/new', () => {
  it("requires the name ('组名称必填') and creates the group, then moves to its page", async () => {
    const fake = seed();
    const { router } = renderApp('/admin/group/new', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: '新建用户组' })).toBeTruthy();
    expect(screen.getByText('保存用户组后即可添加成员。')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: '组名称' }), '   ');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('组名称必填')).toBeTruthy();
    expect(fake.callsTo('/api/usergroup/update', 'POST')).toHaveLength(0);

    await user.clear(screen.getByRole('textbox', { name: '组名称' }));
    await user.type(screen.getByRole('textbox', { name: '组名称' }), ' 华北组 ');
    await user.type(screen.getByRole('textbox', { name: '备注' }), '北京');
    await user.click(screen.getByRole('button', { name: '保存' }));

    expect(await screen.findByText('创建成功')).toBeTruthy();
    expect(fake.callsTo('/api/usergroup/update', 'POST')[0]!.body).toEqual({ groupName: '华北组', remark: '北京' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/group/3'));
    expect(await screen.findByRole('heading', { name: '用户组：华北组' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '添加成员' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: '组名称' }) as HTMLInputElement).value).toBe('华北组');
  });
});

describe('/admin/group/{id}', () => {
  it('saves the name and remark with the id', async () => {
    const fake = seed();
    renderApp('/admin/group/1', { loggedInAs: userOf('lowerAdmin'), handlers: fake.handlers });
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: '组名称' });
    expect((name as HTMLInputElement).value).toBe('华东采购一组');
    await user.clear(screen.getByRole('textbox', { name: '备注' }));
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(fake.callsTo('/api/usergroup/update', 'POST')[0]!.body).toEqual({
      id: 1,
      groupName: '华东采购一组',
      remark: '',
    });
  });

  it('lists the members and adds several at once with uids comma-joined', async () => {
    const fake = seed();
    renderApp('/admin/group/1', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    const members = await screen.findByRole('table', { name: '用户组成员' });
    expect(within(members).getByText('alice@example.com')).toBeTruthy();
    expect(within(members).getByText('bob@example.com')).toBeTruthy();
    expect(screen.getByText('成员（2）')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '添加成员' }));
    const dialog = await screen.findByRole('dialog', { name: '添加成员' });
    // Users already in the group are not offered.
    await within(dialog).findByRole('checkbox', { name: /carol/ });
    expect(within(dialog).queryByRole('checkbox', { name: /alice/ })).toBeNull();
    expect((within(dialog).getByRole('button', { name: '添加（0）' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(dialog).getByRole('checkbox', { name: /carol/ }));
    await user.type(within(dialog).getByRole('searchbox'), 'dav');
    expect(within(dialog).queryByRole('checkbox', { name: /carol/ })).toBeNull();
    await user.click(within(dialog).getByRole('checkbox', { name: /dave/ }));
    await user.click(within(dialog).getByRole('button', { name: '添加（2）' }));

    expect(await screen.findByText('操作成功')).toBeTruthy();
    const add = fake.callsTo('/api/usergroup/1/user', 'POST');
    expect(add).toHaveLength(1);
    expect(add[0]!.query.uids).toBe('5,6');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(screen.getByRole('table', { name: '用户组成员' })).findByText('dave@example.com')).toBeTruthy();
    expect(screen.getByText('成员（4）')).toBeTruthy();
  });

  it('removes one member per row, and a selection at once, with uids comma-joined', async () => {
    const fake = seed();
    fake.users.find((u) => u.id === 5)!.groupIds = [1];
    renderApp('/admin/group/1', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '移除 alice@example.com' }));
    const confirmation = await screen.findByRole('dialog');
    expect(within(confirmation).getByText('确定将 alice 移出该用户组吗？')).toBeTruthy();
    await user.click(within(confirmation).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('alice@example.com')).toBeNull());
    expect(fake.callsTo('/api/usergroup/1/user', 'DELETE')[0]!.query.uids).toBe('3');

    const table = screen.getByRole('table', { name: '用户组成员' });
    for (const mail of ['bob@example.com', 'carol@example.com']) {
      const row = within(table).getByText(mail).closest('tr')!;
      await user.click(within(row).getByRole('checkbox', { name: '选择此行' }));
    }
    await user.click(screen.getByRole('button', { name: '移除所选（2）' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(fake.callsTo('/api/usergroup/1/user', 'DELETE')).toHaveLength(2));
    expect(fake.callsTo('/api/usergroup/1/user', 'DELETE')[1]!.query.uids).toBe('4,5');
    expect(await screen.findByText('该组还没有成员')).toBeTruthy();
  });

  it("shows 'operation failed' when adding or removing answers a falsy result", async () => {
    const fake = seed();
    fake.memberResult = false;
    renderApp('/admin/group/1', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: '移除 bob@example.com' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    expect((await screen.findByRole('alert')).textContent).toContain('operation failed');
    expect(screen.getByText('bob@example.com')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '添加成员' }));
    const dialog = await screen.findByRole('dialog', { name: '添加成员' });
    await user.click(await within(dialog).findByRole('checkbox', { name: /carol/ }));
    await user.click(within(dialog).getByRole('button', { name: '添加（1）' }));
    await waitFor(() => expect(screen.getAllByText('operation failed')).toHaveLength(2));
    // The dialog stays open so the choice can be retried.
    expect(screen.getByRole('dialog', { name: '添加成员' })).toBeTruthy();
  });

  it('says so when the group does not exist', async () => {
    const fake = seed();
    renderApp('/admin/group/40', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    expect(await screen.findByText('用户组不存在或已被删除。')).toBeTruthy();
  });
});
