// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { json, ok } from '../support/fake-api';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';
import { createTasksFake } from '../tasks/tasks-fake';
import { aBoard, aBoardTask, aTask, createMemberBoardsFake, type MemberBoardsFake } from './member-boards-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const member = userOf('user');

function openBoard(server: MemberBoardsFake, uuid = 'b-1') {
  return renderApp(`/user/board/${uuid}`, { loggedInAs: member, handlers: server.handlers });
}

/** The row of the board-task table whose item is `itemName`. */
async function boardTaskRow(itemName: string) {
  const table = await screen.findByRole('table', { name: '任务列表' });
  const cell = await within(table).findByText(itemName);
  return cell.closest('tr')!;
}

async function openClaimDialog(itemName = '蓝牙耳机') {
  const user = userEvent.setup();
  await user.click(within(await boardTaskRow(itemName)).getByRole('button', { name: '认领' }));
  const dialog = await screen.findByRole('dialog');
  return { user, dialog };
}

const progressTone = (row: HTMLElement) => row.querySelector('[data-tone] [role="progressbar"]')?.parentElement?.getAttribute('data-tone');

describe('/user/board/{uuid}: board and board tasks', () => {
  it('shows the board info and every board-task column', async () => {
    const server = createMemberBoardsFake();
    const { requests } = openBoard(server);
    expect(await screen.findByRole('heading', { name: '十一月采购', level: 1 })).toBeTruthy();
    expect(screen.getAllByText('本周截止').length).toBeGreaterThan(0);
    expect(screen.getByText('已发布')).toBeTruthy();
    expect(screen.getByText(/^剩余 (7天|6天23小时)/)).toBeTruthy();

    const table = screen.getByRole('table', { name: '任务列表' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['ID', '商品名称', 'UPC', '价格', '回收价', '需求数量', '剩余数量', '链接', '地址', '状态', '认领进度', '备注', '操作']);
    const row = await boardTaskRow('蓝牙耳机');
    const cells = within(row)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    // 数量 is what the board task shows in all; 剩余数量 what is left after the 4 claimed.
    expect(cells).toEqual(['12', '蓝牙耳机', '0123456789012', '19.99', '21.50', '10', '6', '打开', 'NJ-01', '正常', '40%', '限购2件', '认领']);

    const link = within(row).getByRole('link', { name: '打开' });
    expect(link.getAttribute('href')).toBe('https://shop.example.com/p/5');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(within(row).getByRole('link', { name: '任务 12 详情' }).getAttribute('href')).toBe('/user/boardtask/1/12');

    const myTasksCall = requests.find((r) => r.url.includes('/api/task/info/user/board/list'));
    expect(new URL(myTasksCall!.url).searchParams.get('boardUuid')).toBe('b-1');
  });

  it('shows an open board past its deadline as 已过期, never as 已发布', async () => {
    openBoard(createMemberBoardsFake({ boards: [aBoard({ expire: true })] }));
    const info = (await screen.findByRole('heading', { name: '看板信息' })).closest('section')!;
    expect(within(info).getAllByText('已过期')).toHaveLength(2);
    expect(within(info).queryByText('已发布')).toBeNull();
  });

  it('a board the member cannot see says so', async () => {
    openBoard(createMemberBoardsFake(), 'not-mine');
    expect(await screen.findByText('看板不存在或未向您开放')).toBeTruthy();
  });

  it('offers claim only when the board task can be claimed (not full, not deleted)', async () => {
    const server = createMemberBoardsFake({
      boardTasks: [
        aBoardTask({ id: 11, itemName: '正常任务', status: 'normal' }),
        aBoardTask({ id: 12, itemName: '紧急任务', status: 'urgent' }),
        aBoardTask({ id: 13, itemName: '关闭任务', status: 'closed' }),
        aBoardTask({ id: 14, itemName: '已满任务', status: 'full', claimCount: 10 }),
        aBoardTask({ id: 15, itemName: '删除任务', status: 'deleted' }),
      ],
    });
    openBoard(server);
    const claimable = async (name: string) => within(await boardTaskRow(name)).queryByRole('button', { name: '认领' }) !== null;
    expect(await claimable('正常任务')).toBe(true);
    expect(await claimable('紧急任务')).toBe(true);
    expect(await claimable('关闭任务')).toBe(true);
    expect(await claimable('已满任务')).toBe(false);
    expect(await claimable('删除任务')).toBe(false);
  });

  it('colours the progress: up to 50% green, up to 80% orange, above red', async () => {
    const server = createMemberBoardsFake({
      boardTasks: [
        aBoardTask({ id: 11, itemName: '一半', show: 10, claimCount: 5 }),
        aBoardTask({ id: 12, itemName: '八成', show: 10, claimCount: 8 }),
        aBoardTask({ id: 13, itemName: '九成', show: 10, claimCount: 9 }),
      ],
    });
    openBoard(server);
    expect(progressTone(await boardTaskRow('一半'))).toBe('green');
    expect(progressTone(await boardTaskRow('八成'))).toBe('orange');
    expect(progressTone(await boardTaskRow('九成'))).toBe('red');
  });
});

describe('/user/board/{uuid}: the claim dialog', () => {
  it('warns that a closed board task needs admin approval', async () => {
    openBoard(createMemberBoardsFake({ boardTasks: [aBoardTask({ status: 'closed' })] }));
    const { dialog } = await openClaimDialog();
    expect(within(dialog).getByText('该任务已关闭或看板已过期，认领后需管理员审核通过')).toBeTruthy();
  });

  it('warns that a claim on an expired board needs admin approval', async () => {
    openBoard(createMemberBoardsFake({ boards: [aBoard({ expire: true })] }));
    const { dialog } = await openClaimDialog();
    expect(within(dialog).getByText('该任务已关闭或看板已过期，认领后需管理员审核通过')).toBeTruthy();
  });

  it('shows no warning for an ordinary claim; count defaults to 1', async () => {
    openBoard(createMemberBoardsFake());
    const { dialog } = await openClaimDialog();
    expect(within(dialog).queryByText('该任务已关闭或看板已过期，认领后需管理员审核通过')).toBeNull();
    expect((within(dialog).getByLabelText('认领数量') as HTMLInputElement).value).toBe('1');
    expect(within(dialog).getByText('最多可认领 6 件')).toBeTruthy();
    expect(within(dialog).queryByLabelText('州')).toBeNull();
  });

  it("refuses more than the remaining quantity with '不能认领超过N件' and sends nothing", async () => {
    const server = createMemberBoardsFake({ boardTasks: [aBoardTask({ show: 10, claimCount: 7 })] });
    openBoard(server);
    const { user, dialog } = await openClaimDialog();
    const count = within(dialog).getByLabelText('认领数量');
    await user.clear(count);
    await user.type(count, '4');
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await within(dialog).findByText('不能认领超过3件')).toBeTruthy();
    expect(count.getAttribute('aria-invalid')).toBe('true');
    expect(server.claims).toHaveLength(0);
  });

  it("refuses a count that is not a number with '请输入数字'", async () => {
    const server = createMemberBoardsFake();
    openBoard(server);
    const { user, dialog } = await openClaimDialog();
    const count = within(dialog).getByLabelText('认领数量');
    await user.clear(count);
    await user.type(count, 'abc');
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await within(dialog).findByText('请输入数字')).toBeTruthy();
    expect(server.claims).toHaveLength(0);
  });

  it('with isHome on, state, zipCode and labelCount are required', async () => {
    const server = createMemberBoardsFake();
    openBoard(server);
    const { user, dialog } = await openClaimDialog();
    await user.click(within(dialog).getByLabelText('寄到家（需要标签）'));
    expect(within(dialog).getByLabelText('州')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await within(dialog).findByText('请填写州')).toBeTruthy();
    expect(within(dialog).getByText('请填写邮编')).toBeTruthy();
    expect(within(dialog).getByText('请填写标签数量')).toBeTruthy();
    expect(server.claims).toHaveLength(0);

    // Turning isHome off again drops the requirement.
    await user.click(within(dialog).getByLabelText('寄到家（需要标签）'));
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    await waitFor(() => expect(server.claims).toHaveLength(1));
    expect(server.claims[0]!.path).toBe('/api/task/12/user/create/1');
  });

  it('claims with labels: POST .../create/{count}/label/{labelCount} with {isHome, state, zipCode}', async () => {
    const server = createMemberBoardsFake();
    const { requests } = openBoard(server);
    const { user, dialog } = await openClaimDialog();
    const count = within(dialog).getByLabelText('认领数量');
    await user.clear(count);
    await user.type(count, '3');
    await user.click(within(dialog).getByLabelText('寄到家（需要标签）'));
    await user.type(within(dialog).getByLabelText('州'), ' CA ');
    await user.type(within(dialog).getByLabelText('邮编'), '94105');
    await user.type(within(dialog).getByLabelText('标签数量'), '2');
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));

    await waitFor(() => expect(server.claims).toHaveLength(1));
    expect(server.claims[0]).toMatchObject({
      path: '/api/task/12/user/create/3/label/2',
      body: { isHome: true, state: 'CA', zipCode: '94105' },
    });
    const call = requests.find((r) => r.method === 'POST' && r.url.includes('/user/create/'));
    expect(call?.headers.get('x-token')).toBe('test-token');
    expect(call?.headers.get('content-type')).toContain('application/json');
  });

  it("a plain claim posts to .../create/{count} without a body, toasts '认领成功', reloads and recolours the progress", async () => {
    const server = createMemberBoardsFake({ boardTasks: [aBoardTask({ show: 10, claimCount: 4 })] });
    const { requests } = openBoard(server);
    expect(progressTone(await boardTaskRow('蓝牙耳机'))).toBe('green');
    const loadsBefore = requests.filter((r) => r.url.includes('/api/boardtask/uuid/b-1/list')).length;

    const { user, dialog } = await openClaimDialog();
    const count = within(dialog).getByLabelText('认领数量');
    await user.clear(count);
    await user.type(count, '5');
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));

    expect(await screen.findByText('认领成功')).toBeTruthy();
    expect(server.claims).toEqual([{ path: '/api/task/12/user/create/5', boardTaskId: 12, count: 5, labelCount: null, body: undefined }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(async () => expect(progressTone(await boardTaskRow('蓝牙耳机'))).toBe('red'));
    expect(requests.filter((r) => r.url.includes('/api/boardtask/uuid/b-1/list')).length).toBe(loadsBefore + 1);
    expect(within(await boardTaskRow('蓝牙耳机')).getByText('90%')).toBeTruthy();
    // The quantity shown stays 10; what is left falls from 6 to 1.
    const cells = within(await boardTaskRow('蓝牙耳机'))
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells.slice(5, 7)).toEqual(['10', '1']);

    // The new task shows in "my tasks".
    const myTasks = screen.getByRole('table', { name: '我在此看板的任务' });
    expect(await within(myTasks).findByText('201')).toBeTruthy();
  });

  it("shows the server's success msg when it gives one", async () => {
    const server = createMemberBoardsFake();
    server.claimAnswer = () => ok({ status: 'succ', msg: '认领成功，等待审核' });
    openBoard(server);
    const { user, dialog } = await openClaimDialog();
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await screen.findByText('认领成功，等待审核')).toBeTruthy();
  });

  it("shows the server's msg in the dialog on failure, with no error toast", async () => {
    const server = createMemberBoardsFake();
    server.claimAnswer = () => json({ code: 'A00004', msg: '不能认领超过2件' }, 409);
    openBoard(server);
    const { user, dialog } = await openClaimDialog();
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await within(dialog).findByText('不能认领超过2件')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(document.querySelector('[data-tone="error"]')).toBeNull();
  });

  it("shows '操作失败' when the failure has no msg", async () => {
    const server = createMemberBoardsFake();
    server.claimAnswer = () => json({ code: 'A00005' }, 500);
    openBoard(server);
    const { user, dialog } = await openClaimDialog();
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await within(dialog).findByText('操作失败')).toBeTruthy();
    expect(document.querySelector('[data-tone="error"]')).toBeNull();
  });

  it("a refusal inside a success envelope (data.status 'failed') shows its msg", async () => {
    const server = createMemberBoardsFake();
    server.claimAnswer = () => ok({ status: 'failed', msg: '该任务已满，无法认领' });
    openBoard(server);
    const { user, dialog } = await openClaimDialog();
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    expect(await within(dialog).findByText('该任务已满，无法认领')).toBeTruthy();
  });

  it('cancel closes the dialog without claiming', async () => {
    const server = createMemberBoardsFake();
    openBoard(server);
    const { user, dialog } = await openClaimDialog();
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.claims).toHaveLength(0);
  });
});

describe('/user/board/{uuid}: my tasks', () => {
  const tasks = [
    aTask({ id: 1, mainId: 101, subId: 0, status: 'pending', itemName: '待审核任务' }),
    aTask({ id: 2, mainId: 102, subId: 0, status: 'open', productCount: 0, itemName: '开放任务' }),
    aTask({ id: 3, mainId: 102, subId: 1, status: 'open', productCount: 2, canSplit: true, itemName: '部分到货' }),
    aTask({ id: 4, mainId: 104, subId: 0, status: 'unmatch', productCount: 0, itemName: '不匹配任务' }),
    aTask({ id: 5, mainId: 105, subId: 0, status: 'unmatch', productCount: 1, itemName: '不匹配到货' }),
    aTask({ id: 6, mainId: 106, subId: 0, status: 'locked', productCount: 2, itemName: '锁定任务' }),
    aTask({ id: 7, mainId: 107, subId: 0, status: 'open', isHome: true, state: 'NY', zipCode: '10001', labelCount: 3, itemName: '寄到家任务' }),
  ];

  /** The board page with the task calls answered too (features/tasks runs the row actions). */
  function openBoardWithTasks() {
    const server = createMemberBoardsFake({ myTasks: tasks.map((t) => ({ ...t })) });
    const taskServer = createTasksFake({ tasks: server.myTasks, boardTasks: [] });
    return { server, taskServer, ...renderApp('/user/board/b-1', { loggedInAs: member, handlers: { ...taskServer.handlers, ...server.handlers } }) };
  }

  async function myTaskRow(itemName: string) {
    const table = await screen.findByRole('table', { name: '我在此看板的任务' });
    return (await within(table).findByText(itemName)).closest('tr')!;
  }
  /** The buttons and links of the row's actions cell (the last one). */
  const actionsOf = (row: HTMLElement) => {
    const cell = within(row).getAllByRole('cell').at(-1)!;
    return [...cell.querySelectorAll('button, a')].map((el) => el.textContent);
  };

  it('offers records for every task but a pending one, upload while open or unmatch, edit when open, delete when open or unmatch with nothing arrived', async () => {
    openBoard(createMemberBoardsFake({ myTasks: tasks }));
    expect(actionsOf(await myTaskRow('待审核任务'))).toEqual([]);
    expect(actionsOf(await myTaskRow('开放任务'))).toEqual(['上传', '记录', '编辑', '删除']);
    expect(actionsOf(await myTaskRow('部分到货'))).toEqual(['上传', '记录', '编辑']);
    expect(actionsOf(await myTaskRow('不匹配任务'))).toEqual(['上传', '记录', '删除']);
    expect(actionsOf(await myTaskRow('不匹配到货'))).toEqual(['上传', '记录']);
    expect(actionsOf(await myTaskRow('锁定任务'))).toEqual(['记录']);
    expect(actionsOf(await myTaskRow('寄到家任务'))).toEqual(['上传', '记录', '编辑', '删除']);
  });

  it('shows the task id as mainId or mainId-subId, and the home-delivery fields', async () => {
    openBoard(createMemberBoardsFake({ myTasks: tasks }));
    expect(within(await myTaskRow('开放任务')).getAllByRole('cell')[0]!.textContent).toBe('102');
    expect(within(await myTaskRow('部分到货')).getAllByRole('cell')[0]!.textContent).toBe('102-1');
    const home = within(await myTaskRow('寄到家任务'))
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(home.slice(0, 9)).toEqual(['107', '寄到家任务', '2', '0', '进行中', '是', 'NY', '10001', '3']);
    expect(within(await myTaskRow('待审核任务')).getByText('待审核')).toBeTruthy();
  });

  it('edit opens the edit-count dialog; records the task record dialog', async () => {
    openBoardWithTasks();
    const user = userEvent.setup();
    await user.click(within(await myTaskRow('开放任务')).getByRole('button', { name: '编辑' }));
    const edit = await screen.findByRole('dialog');
    expect(within(edit).getByText('修改认领数量')).toBeTruthy();
    expect(((await within(edit).findByLabelText('认领数量')) as HTMLInputElement).value).toBe('2');
    await user.click(within(edit).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(await myTaskRow('锁定任务')).getByRole('button', { name: '记录' }));
    const records = await screen.findByRole('dialog');
    expect(within(records).getByText('采购记录')).toBeTruthy();
    expect(await within(records).findByText('暂无采购记录')).toBeTruthy();
  });

  it("delete asks, deletes, toasts '删除成功' and reloads the board's tasks", async () => {
    const { taskServer, requests } = openBoardWithTasks();
    await myTaskRow('开放任务');
    const loadsBefore = requests.filter((r) => r.url.includes('/api/task/info/user/board/list')).length;
    const user = userEvent.setup();
    await user.click(within(await myTaskRow('开放任务')).getByRole('button', { name: '删除' }));
    const ask = await screen.findByRole('dialog');
    expect(within(ask).getByText('确定删除任务 102 吗？')).toBeTruthy();
    await user.click(within(ask).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(taskServer.calls.some((c) => c.method === 'DELETE' && c.path === '/api/task/info/user/2')).toBe(true);
    await waitFor(() => expect(requests.filter((r) => r.url.includes('/api/task/info/user/board/list')).length).toBe(loadsBefore + 1));
    await waitFor(async () => expect(actionsOf(await myTaskRow('开放任务'))).toEqual([]));
  });
});

describe('/user/board/{uuid} at a phone width', () => {
  afterEach(atDesktopWidth);

  it('shows each of my tasks on this board as a card: the whole item name (wrapped, not clipped), its status and its actions', async () => {
    atPhoneWidth();
    const long = 'Apple AirPods Pro 第二代 主动降噪无线蓝牙耳机 USB-C 充电盒 MagSafe 国行正品';
    const server = createMemberBoardsFake({
      boardTasks: [aBoardTask()],
      myTasks: [aTask({ id: 2, mainId: 102, subId: 0, status: 'open', productCount: 0, itemName: long })],
    });
    openBoard(server);
    const list = await screen.findByRole('list', { name: '我在此看板的任务' });
    expect(screen.queryByRole('table', { name: '我在此看板的任务' })).toBeNull();
    const card = within(within(list).getAllByRole('listitem')[0]!);
    const title = card.getByText(long);
    expect(title.closest('.break-words')).not.toBeNull();
    expect(title.closest('.truncate, .line-clamp-1, .line-clamp-2')).toBeNull();
    expect(card.getByText('进行中')).toBeTruthy();
    expect(card.getByRole('button', { name: /编辑/ })).toBeTruthy();
  });

  it('shows each board task as a card: item, state, price, buyIn, what is left, the deadline and the claim button', async () => {
    atPhoneWidth();
    const server = createMemberBoardsFake({ boardTasks: [aBoardTask({ show: 10, claimCount: 4 })] });
    openBoard(server);
    const list = await screen.findByRole('list', { name: '任务列表' });
    expect(screen.queryByRole('table', { name: '任务列表' })).toBeNull();
    const card = within(within(list).getAllByRole('listitem')[0]!);
    const value = (label: string) => card.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(card.getByText('蓝牙耳机')).toBeTruthy();
    expect(card.getByText('正常')).toBeTruthy();
    expect(value('价格')).toBe('19.99');
    expect(value('回收价')).toBe('21.50');
    expect(value('剩余数量')).toBe('6');
    expect(value('截止时间')).toMatch(/^剩余 (7天|6天23小时)/);
    expect(card.queryByText('UPC', { selector: 'dt' })).toBeNull();

    // A claim: what is left falls on the card too.
    const user = userEvent.setup();
    await user.click(card.getByRole('button', { name: '认领' }));
    const dialog = await screen.findByRole('dialog');
    const count = within(dialog).getByLabelText('认领数量');
    await user.clear(count);
    await user.type(count, '4');
    await user.click(within(dialog).getByRole('button', { name: '确认认领' }));
    await waitFor(() =>
      expect(
        within(within(screen.getByRole('list', { name: '任务列表' })).getAllByRole('listitem')[0]!).getByText('剩余数量').nextElementSibling!.textContent,
      ).toBe('2'),
    );
  });
});
