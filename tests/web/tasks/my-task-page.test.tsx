// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { ok } from '../support/fake-api';
import { aBoardTask, aTask, createTasksFake, refuse, type TasksFake } from './tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
  vi.restoreAllMocks();
});

const member = userOf('user');

function openMyTasks(server: TasksFake, path = '/user/my-task') {
  return renderApp(path, { loggedInAs: member, handlers: server.handlers });
}

async function taskRow(itemName: string) {
  const table = await screen.findByRole('table', { name: '我的任务列表' });
  return (await within(table).findByText(itemName)).closest('tr')!;
}

async function clickAction(itemName: string, action: string) {
  const user = userEvent.setup();
  await user.click(within(await taskRow(itemName)).getByRole('button', { name: action }));
  return user;
}

/** Answers the confirmation dialog. */
async function confirm(user: ReturnType<typeof userEvent.setup>, button = '确定') {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: button }));
}

const listCalls = (server: TasksFake) => server.calls.filter((c) => c.path === '/api/task/info/user/list');

describe('/user/my-task: the list', () => {
  it('shows every column of a task; ids read mainId or mainId-subId', async () => {
    const server = createTasksFake({
      tasks: [
        aTask({ id: 101, mainId: 101, subId: 0, itemName: '主任务', trackingId: '1Z1,1Z2', count: 3, productCount: 1, status: 'locked' }),
        aTask({ id: 102, mainId: 101, subId: 1, itemName: '拆分任务' }),
      ],
    });
    openMyTasks(server);
    const table = await screen.findByRole('table', { name: '我的任务列表' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['任务ID', '商品', '到货/认领', '价格/回收价', '奖励', '折扣', '状态', '快递单号', '认领时间', '操作']);
    const cells = within(await taskRow('主任务'))
      .getAllByRole('cell')
      .map((td) => td.textContent);
    // The item with its board and UPC, arrived/claimed, price over buyIn, the bonuses asked and agreed.
    expect(cells.slice(0, 8)).toEqual(['101', '主任务十一月采购 · 0123456789012', '1/3', '19.9921.50', '申请奖励—同意奖励—', '0.50', '已锁定', '1Z1,1Z2']);
    expect(
      within(await taskRow('主任务'))
        .getByRole('link', { name: '十一月采购' })
        .getAttribute('href'),
    ).toBe('/user/board/b-1');
    expect(within(await taskRow('拆分任务')).getAllByRole('cell')[0]!.textContent).toBe('101-1');
    expect(listCalls(server)[0]!.query).toEqual({ page: '0', size: '20', isDesc: 'true' });
  });

  it('offers the status filter all, open, locked, unmatch and sends it as taskStatus; filters go to the URL', async () => {
    const server = createTasksFake({
      tasks: [aTask({ id: 1, mainId: 1, itemName: '进行中任务' }), aTask({ id: 2, mainId: 2, itemName: '锁定任务', status: 'locked' })],
    });
    const { router } = openMyTasks(server);
    await taskRow('进行中任务');
    const user = userEvent.setup();
    const status = screen.getByLabelText('状态') as HTMLSelectElement;
    expect([...status.options].map((o) => o.textContent)).toEqual(['全部', '进行中', '已锁定', '不匹配']);
    await user.selectOptions(status, '已锁定');
    await user.type(screen.getByLabelText('商品名称'), '任务');
    await user.type(screen.getByLabelText('快递单号'), '1Z9');
    await user.type(screen.getByLabelText('任务ID'), '2-1');
    await user.click(screen.getByRole('button', { name: '查询' }));

    await waitFor(() => expect(router.state.location.search).toEqual({ status: 'locked', itemName: '任务', trackingId: '1Z9', taskId: 2 }));
    await waitFor(() =>
      expect(listCalls(server).at(-1)!.query).toEqual({
        page: '0',
        size: '20',
        isDesc: 'true',
        taskStatus: 'locked',
        itemName: '任务',
        trackingId: '1Z9',
        taskId: '2',
      }),
    );
  });

  it('reads filters, page and size from the URL; reset clears them', async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 7, mainId: 7, itemName: '未匹配', status: 'unmatch' })] });
    const { router } = openMyTasks(server, '/user/my-task?status=unmatch&itemName=%22%E6%9C%AA%22&page=0&size=40');
    await taskRow('未匹配');
    expect(listCalls(server)[0]!.query).toEqual({ page: '0', size: '40', isDesc: 'true', taskStatus: 'unmatch', itemName: '未' });
    expect((screen.getByLabelText('状态') as HTMLSelectElement).value).toBe('unmatch');
    expect((screen.getByLabelText('商品名称') as HTMLInputElement).value).toBe('未');

    await userEvent.setup().click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ size: 40 }));
  });

  it('shows the home tile’s 只看已填单号 as a filter, keeps it with another filter, and reset clears it', async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 7, mainId: 7, itemName: '已填单号' })] });
    const { router } = openMyTasks(server, '/user/my-task?recorded=true');
    await taskRow('已填单号');
    expect(listCalls(server)[0]!.query).toMatchObject({ recorded: 'true' });
    const box = screen.getByRole('checkbox', { name: '只看已填单号' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('商品名称'), '已填');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ recorded: true, itemName: '已填' }));
    await waitFor(() => expect(listCalls(server).at(-1)!.query).toMatchObject({ recorded: 'true', itemName: '已填' }));
    await user.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(box.checked).toBe(false);
  });

  it('shows the home tile’s 不看已删除 as a filter: the list call asks for the tasks not deleted', async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 8, mainId: 8, itemName: '认领中' })] });
    const { router } = openMyTasks(server, '/user/my-task?claimed=true');
    await taskRow('认领中');
    expect(listCalls(server)[0]!.query).toMatchObject({ claimed: 'true' });
    const box = screen.getByRole('checkbox', { name: '不看已删除' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    const user = userEvent.setup();
    await user.click(box);
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await waitFor(() => expect(listCalls(server).at(-1)!.query).not.toHaveProperty('claimed'));
  });

  it("refuses a task id that is neither mainId nor mainId-subId ('任务ID格式不正确')", async () => {
    const server = createTasksFake();
    openMyTasks(server);
    await taskRow('蓝牙耳机');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('任务ID'), 'abc');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('任务ID格式不正确')).toBeTruthy();
  });

  it('exports the filtered tasks to Excel: a token issued for the filters, then /ext/excel/user-task/{token}', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: window.location.origin, assign } as Location);
    const server = createTasksFake({ tasks: [aTask({ trackingId: '1Z5' })] });
    openMyTasks(server, '/user/my-task?status=open&trackingId=%221Z5%22');
    await taskRow('蓝牙耳机');
    await userEvent.setup().click(screen.getByRole('button', { name: '导出Excel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/ext/excel/user-task/xls-token'));
    const tokenCall = server.calls.find((c) => c.path === '/api/download/excel/user-task/token')!;
    expect(tokenCall.query).toMatchObject({ isDesc: 'true', taskStatus: 'open', trackingId: '1Z5' });
    expect(Number(tokenCall.query.timezone)).toBe(0 - new Date().getTimezoneOffset() / 60);
  });
});

describe('/user/my-task: row actions', () => {
  it("delete asks first, then DELETE /api/task/info/user/{id}, '删除成功' and a reload", async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 41, mainId: 41, itemName: '待删除' })] });
    openMyTasks(server);
    const user = await clickAction('待删除', '删除');
    expect(await screen.findByText('确定删除任务 41 吗？')).toBeTruthy();
    await confirm(user);
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/task/info/user/41')).toBe(true);
    await waitFor(async () => expect(within(await taskRow('待删除')).getByText('已删除')).toBeTruthy());
  });

  it('cancelling the confirmation deletes nothing', async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 41, mainId: 41, itemName: '待删除' })] });
    openMyTasks(server);
    const user = await clickAction('待删除', '删除');
    await confirm(user, '取消');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it("a refused delete says '删除失败' with the server's reason", async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 41, mainId: 41, itemName: '待删除' })] });
    server.answer.delete = () => refuse('只有进行中或不匹配且未到货的任务可以删除');
    openMyTasks(server);
    const user = await clickAction('待删除', '删除');
    await confirm(user);
    expect(await screen.findByText('删除失败：只有进行中或不匹配且未到货的任务可以删除')).toBeTruthy();
  });

  it('split posts /api/task/user/split?taskId and names the resulting tasks', async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 51, mainId: 51, itemName: '部分到货', count: 5, productCount: 2, canSplit: true })] });
    openMyTasks(server);
    const user = await clickAction('部分到货', '拆分');
    await confirm(user);
    expect(await screen.findByText('拆分成功：51、51-1')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/task/user/split')!.query).toEqual({ taskId: '51' });
    const table = screen.getByRole('table', { name: '我的任务列表' });
    await waitFor(() => expect(within(table).getByText('51-1')).toBeTruthy());
  });

  it("a failed split toasts '拆分失败'", async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 51, mainId: 51, itemName: '部分到货', count: 5, productCount: 2, canSplit: true })] });
    server.answer.split = () => refuse('', 500, 'A00005');
    openMyTasks(server);
    const user = await clickAction('部分到货', '拆分');
    await confirm(user);
    const toast = await screen.findByText('拆分失败');
    expect(toast.closest('[data-tone]')?.getAttribute('data-tone')).toBe('error');
  });

  it("a split refused in a success envelope (status 'failed') also toasts '拆分失败'", async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 51, mainId: 51, itemName: '部分到货', count: 5, productCount: 2, canSplit: true })] });
    server.answer.split = () => ok({ status: 'failed' });
    openMyTasks(server);
    const user = await clickAction('部分到货', '拆分');
    await confirm(user);
    expect(await screen.findByText('拆分失败')).toBeTruthy();
  });

  it('match calls the member match call and shows where the task now stands', async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 61, mainId: 61, itemName: '待匹配', count: 2, productCount: 2 })] });
    server.matchOutcome = 'locked';
    openMyTasks(server);
    await clickAction('待匹配', '匹配');
    expect(await screen.findByText('匹配完成；任务状态：已锁定，到货 2/2 件')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/match/user/task/match')!.body).toEqual({ taskId: 61 });
    expect(server.calls.find((c) => c.path === '/api/task/part/match')!.query).toEqual({ taskIds: '61' });
    await waitFor(async () => expect(within(await taskRow('待匹配')).getByText('已锁定')).toBeTruthy());
    // A locked task offers no match any more.
    expect(within(await taskRow('待匹配')).queryByRole('button', { name: '匹配' })).toBeNull();
  });

  it('the label PDF opens /ext/pdf/{id}/{token} in a new tab', async () => {
    const tab = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const server = createTasksFake({ tasks: [aTask({ id: 71, mainId: 71, itemName: '寄到家', isHome: true, state: 'NY', zipCode: '10001', labelCount: 2 })] });
    openMyTasks(server);
    await clickAction('寄到家', '标签PDF');
    await waitFor(() => expect(tab.location.href).toBe('/ext/pdf/71/pdf-token-71'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('the label PDF tab closes again when no token comes', async () => {
    const tab = { opener: null, location: { href: '' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const server = createTasksFake({ tasks: [aTask({ id: 71, mainId: 71, itemName: '寄到家', isHome: true, state: 'NY', zipCode: '10001', labelCount: 2 })] });
    server.answer.pdfToken = () => refuse('任务不存在', 404, 'A00004');
    openMyTasks(server);
    await clickAction('寄到家', '标签PDF');
    await waitFor(() => expect(tab.close).toHaveBeenCalled());
    expect(tab.location.href).toBe('');
  });

  it('upload goes to /user/upload', async () => {
    const server = createTasksFake();
    const { router } = openMyTasks(server);
    await userEvent.setup().click(within(await taskRow('蓝牙耳机')).getByRole('link', { name: '上传' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/upload'));
  });
});

describe('/user/my-task: applying for payment', () => {
  it("offers '申请付款' on a locked task only, posts bonus and note, then shows '已申请付款'", async () => {
    const server = createTasksFake({
      tasks: [
        aTask({ id: 101, mainId: 101, subId: 0, itemName: '已锁定任务', status: 'locked', productCount: 3 }),
        aTask({ id: 102, mainId: 102, subId: 0, itemName: '进行中任务', status: 'open' }),
      ],
    });
    openMyTasks(server);
    expect(within(await taskRow('进行中任务')).queryByRole('button', { name: /申请付款/ })).toBeNull();
    const user = userEvent.setup();
    await user.click(await within(await taskRow('已锁定任务')).findByRole('button', { name: '申请付款：任务 101' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/奖励/), '2.5');
    await user.type(within(dialog).getByLabelText(/备注/), '加急');
    await user.click(within(dialog).getByRole('button', { name: '提交申请' }));
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api/trade/user/pay/apply')).toHaveLength(1));
    expect(server.calls.filter((c) => c.path === '/api/trade/user/pay/apply')[0]!.body).toEqual({ taskId: 101, bonus: 2.5, note: '加急' });
    expect(await screen.findByText('申请成功')).toBeTruthy();
    // The list reloads: the task is now being paid and its button is the disabled one.
    const applied = await within(await taskRow('已锁定任务')).findByRole('button', { name: '已申请付款' });
    expect((applied as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('/user/my-task: the edit-count dialog', () => {
  async function openEdit(server: TasksFake, itemName = '蓝牙耳机') {
    openMyTasks(server);
    const user = await clickAction(itemName, '编辑');
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByLabelText('认领数量');
    return { user, dialog };
  }

  it('edits the count through /qty/{n}; the limit is the remaining quantity plus the own units', async () => {
    // show 10, claimed 4 (of which 2 are this task's): at most 8.
    const server = createTasksFake({ tasks: [aTask({ id: 81, mainId: 81, count: 2 })], boardTasks: [aBoardTask({ show: 10, claimCount: 4 })] });
    const { user, dialog } = await openEdit(server);
    expect(within(dialog).getByText('最多 8 件')).toBeTruthy();
    const count = within(dialog).getByLabelText('认领数量') as HTMLInputElement;
    expect(count.value).toBe('2');
    expect(within(dialog).queryByLabelText('州')).toBeNull();

    await user.clear(count);
    await user.type(count, '9');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('不能认领超过8件')).toBeTruthy();
    expect(server.calls.some((c) => c.path.includes('/qty/'))).toBe(false);

    await user.clear(count);
    await user.type(count, '8');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(server.calls.some((c) => c.method === 'POST' && c.path === '/api/task/info/user/81/qty/8')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(async () => expect(within(await taskRow('蓝牙耳机')).getAllByRole('cell')[2]!.textContent).toBe('0/8'));
  });

  it('shows isHome, state and zipCode read-only and edits labelCount through /qty/{n}/label/{m}', async () => {
    const server = createTasksFake({
      tasks: [aTask({ id: 82, mainId: 82, count: 2, isHome: true, state: 'NY', zipCode: '10001', labelCount: 2 })],
    });
    const { user, dialog } = await openEdit(server);
    const isHome = within(dialog).getByLabelText('寄到家（需要标签）') as HTMLInputElement;
    expect(isHome.checked).toBe(true);
    await user.click(isHome);
    expect(isHome.checked).toBe(true);
    expect((within(dialog).getByLabelText('州') as HTMLInputElement).readOnly).toBe(true);
    expect((within(dialog).getByLabelText('邮编') as HTMLInputElement).readOnly).toBe(true);
    const labelCount = within(dialog).getByLabelText('标签数量') as HTMLInputElement;
    expect(labelCount.readOnly).toBe(false);

    await user.clear(labelCount);
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('请填写标签数量')).toBeTruthy();

    await user.type(labelCount, '3');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(server.calls.some((c) => c.path === '/api/task/info/user/82/qty/2/label/3')).toBe(true);
  });

  it("shows the server's refusal in the dialog", async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 83, mainId: 83, count: 2 })] });
    server.answer.qty = () => refuse('不能认领超过3件');
    const { user, dialog } = await openEdit(server);
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('不能认领超过3件')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(document.querySelector('[data-tone="error"]')).toBeNull();
  });
});
