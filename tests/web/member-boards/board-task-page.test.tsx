// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { aBoard, aBoardTask, createMemberBoardsFake } from './member-boards-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const member = userOf('user');

const detail = (label: string) => {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
};

describe('/user/boardtask/{boardId}/{taskId}', () => {
  it("shows the board task and its board's link", async () => {
    const server = createMemberBoardsFake({ boardTasks: [aBoardTask({ show: 10, claimCount: 7 })] });
    renderApp('/user/boardtask/1/12', { loggedInAs: member, handlers: server.handlers });
    expect(await screen.findByRole('heading', { name: '看板任务 #12', level: 1 })).toBeTruthy();
    expect(detail('商品名称').textContent).toBe('蓝牙耳机');
    expect(detail('价格').textContent).toBe('19.99');
    expect(detail('回收价').textContent).toBe('21.50');
    expect(detail('需求数量').textContent).toBe('10');
    expect(detail('剩余数量').textContent).toBe('3');
    expect(detail('剩余时间').textContent).toMatch(/^剩余 (7天|6天23小时)/);
    expect(detail('地址').textContent).toBe('NJ-01');
    expect(detail('状态').textContent).toBe('正常');
    expect(detail('备注').textContent).toBe('限购2件');
    expect(detail('认领进度').querySelector('[data-tone]')?.getAttribute('data-tone')).toBe('orange');
    const link = within(detail('链接')).getByRole('link');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: '返回看板' }).getAttribute('href')).toBe('/user/board/b-1');
  });

  it('reads the default address code as 默认地址', async () => {
    const server = createMemberBoardsFake({ boardTasks: [aBoardTask({ address: 'DEFAULT' })] });
    renderApp('/user/boardtask/1/12', { loggedInAs: member, handlers: server.handlers });
    await screen.findByRole('heading', { name: '看板任务 #12', level: 1 });
    expect(detail('地址').textContent).toBe('默认地址');
  });

  it('claims through the same dialog and reloads the progress', async () => {
    const server = createMemberBoardsFake({ boardTasks: [aBoardTask({ show: 10, claimCount: 4 })] });
    renderApp('/user/boardtask/1/12', { loggedInAs: member, handlers: server.handlers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '认领' }));
    const dialog = await screen.findByRole('dialog');
    const count = within(dialog).getByLabelText('认领数量');
    await user.clear(count);
    await user.type(count, '7');
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await within(dialog).findByText('不能认领超过6件')).toBeTruthy();

    await user.clear(count);
    await user.type(count, '4');
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await screen.findByText('认领成功')).toBeTruthy();
    expect(server.claims.map((c) => c.path)).toEqual(['/api/task/12/user/create/4']);
    await waitFor(() => expect(detail('认领进度').textContent).toBe('80%'));
    expect(detail('认领进度').querySelector('[data-tone]')?.getAttribute('data-tone')).toBe('orange');
    expect(detail('剩余数量').textContent).toBe('2');
  });

  it('warns on an expired board and offers no claim on a full board task', async () => {
    const expired = createMemberBoardsFake({ boards: [aBoard({ expire: true })] });
    renderApp('/user/boardtask/1/12', { loggedInAs: member, handlers: expired.handlers });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '认领' }));
    expect(await screen.findByText('该任务已关闭或看板已过期，认领后需管理员审核通过')).toBeTruthy();
    cleanup();

    const full = createMemberBoardsFake({ boardTasks: [aBoardTask({ status: 'full', claimCount: 10 })] });
    renderApp('/user/boardtask/1/12', { loggedInAs: member, handlers: full.handlers });
    expect(await screen.findByRole('heading', { name: '看板任务 #12', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '认领' })).toBeNull();
  });

  it('a board task outside the member’s boards says so', async () => {
    const server = createMemberBoardsFake({ boards: [aBoard({ status: 'close' })] });
    renderApp('/user/boardtask/1/12', { loggedInAs: member, handlers: server.handlers });
    expect(await screen.findByText('任务不存在或所在看板未向您开放')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '认领' })).toBeNull();
  });
});
