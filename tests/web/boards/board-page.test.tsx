// @vitest-environment happy-dom
// /admin/board/{id|new} through the real router, with the HTTP boundary faked (boards-fake.ts).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boardMachine, type BoardEvent, type BoardStatus } from '../../../machines/board.machine';
import { allowedEvents } from '../../../machines/stored-state';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { fromDateTimeLocal } from '../../../src/web/components/ui/format';
import { renderApp, userOf } from '../app-harness';
import { json, type Handler } from '../support/fake-api';
import { aBoard, aBoardTask, aTask, createBoardsFake, type BoardsSeed } from './boards-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

function renderBoardPage(seed: BoardsSeed = {}, overrides: Record<string, Handler> = {}, path = '/admin/board/1') {
  const fake = createBoardsFake(seed);
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: { ...fake.handlers, ...overrides } });
  return { ...app, fake, user: userEvent.setup() };
}

/** Answers the open confirmation with 确定. */
async function confirm(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: '确定' }));
}

function requestsTo(requests: Request[], method: string, path: string) {
  return requests.filter((r) => r.method === method && new URL(r.url).pathname === path);
}

const BUTTONS = ['发布', '发布给指定用户', '备用发布', '关闭看板', '重新开启'] as const;

/** The machine's own answer, for the same board: which of the five events it accepts. */
function machineButtons(status: BoardStatus, taskCount: number, groupCount: number): string[] {
  const events: Array<[string, BoardEvent]> = [
    ['发布', { type: 'board.publish', mode: 'all' }],
    ['发布给指定用户', { type: 'board.publish', mode: 'users', userIds: [21] }],
    ['备用发布', { type: 'board.publish', mode: 'backup' }],
    ['关闭看板', { type: 'board.close' }],
    ['重新开启', { type: 'board.reopen' }],
  ];
  const allowed = allowedEvents(
    boardMachine,
    status,
    { taskCount, groupCount },
    events.map(([, e]) => e),
  );
  return events.filter(([, e]) => allowed.includes(e)).map(([label]) => label);
}

describe('status buttons follow the board machine', () => {
  it.each([
    ['unpublish', 0, 0, []],
    ['unpublish', 1, 0, ['发布给指定用户']],
    ['unpublish', 0, 1, []],
    ['unpublish', 1, 1, ['发布', '发布给指定用户', '备用发布']],
    ['open', 0, 0, ['关闭看板']],
    ['open', 1, 0, ['发布给指定用户', '关闭看板']],
    ['open', 0, 1, ['关闭看板']],
    ['open', 1, 1, ['发布', '发布给指定用户', '备用发布', '关闭看板']],
    ['close', 0, 0, ['重新开启']],
    ['close', 1, 0, ['重新开启']],
    ['close', 0, 1, ['重新开启']],
    ['close', 1, 1, ['重新开启']],
  ] as const)('%s board with %i task(s) and %i group(s): %j', async (status, taskCount, groupCount, expected) => {
    expect(machineButtons(status, taskCount, groupCount)).toEqual(expected);
    renderBoardPage({
      boards: [aBoard({ status })],
      // A deleted board task never counts.
      boardTasks: [aBoardTask({ id: 19, status: 'deleted' }), ...(taskCount ? [aBoardTask()] : [])],
      bound: { 1: groupCount ? [1] : [] },
    });
    await screen.findByRole('heading', { name: /一月采购/ });
    const shown = BUTTONS.filter((label) => screen.queryByRole('button', { name: label }) !== null);
    expect(shown).toEqual(expected);
  });

  it('shows the board in one state: an open board past its deadline is 已过期, never 已发布, and may still be closed', async () => {
    renderBoardPage({ boards: [aBoard({ status: 'open', expireAt: Date.now() - 60_000, expire: true })], boardTasks: [aBoardTask()], bound: { 1: [1] } });
    const status = (await screen.findByText('看板状态')).parentElement!;
    expect([...status.querySelectorAll('[data-tone]')].map((b) => b.textContent)).toEqual(['已过期']);
    expect(await screen.findByRole('button', { name: '关闭看板' })).toBeTruthy();
  });

  it('says why publishing is not offered', async () => {
    renderBoardPage({ boards: [aBoard()], boardTasks: [], bound: { 1: [1] } });
    expect(await screen.findByText(/看板还没有任务，无法发布/)).toBeTruthy();
  });
});

const publishable: BoardsSeed = { boards: [aBoard()], boardTasks: [aBoardTask()], bound: { 1: [1] } };

describe('publish (SPEC §8: msg or 操作成功 / msg or 操作失败)', () => {
  it('publishes to all after confirmation, shows the server msg and the new status', async () => {
    const { user, requests, fake } = renderBoardPage(publishable, {
      'POST /api/boardtask/publish/1': () => {
        fake.state.boards[0]!.status = 'open';
        return json({ code: 'A00000', msg: '', data: { status: 'succ', msg: '已发布，通知邮件已加入队列', mailQueued: 2 } });
      },
    });
    await user.click(await screen.findByRole('button', { name: '发布' }));
    await confirm(user);
    expect(await screen.findByText('已发布，通知邮件已加入队列')).toBeTruthy();
    expect(requestsTo(requests, 'POST', '/api/boardtask/publish/1')).toHaveLength(1);
    // Reloaded: the open board now offers close.
    expect(await screen.findByRole('button', { name: '关闭看板' })).toBeTruthy();
  });

  it("without a server msg says '操作成功'", async () => {
    const { user } = renderBoardPage(publishable, {
      'POST /api/boardtask/backup/publish/1': () => json({ code: 'A00000', data: { status: 'succ' } }),
    });
    await user.click(await screen.findByRole('button', { name: '备用发布' }));
    await confirm(user);
    const toast = await screen.findByText('操作成功');
    expect(toast.closest('[data-tone]')?.getAttribute('data-tone')).toBe('success');
  });

  it('shows the server msg of an error, without the code', async () => {
    const { user } = renderBoardPage(publishable, {
      'POST /api/boardtask/publish/1': () => json({ code: 'A00001', msg: '请先绑定用户组再发布' }, 400),
    });
    await user.click(await screen.findByRole('button', { name: '发布' }));
    await confirm(user);
    const toast = await screen.findByText('请先绑定用户组再发布');
    expect(toast.closest('[data-tone]')?.getAttribute('data-tone')).toBe('error');
    expect(screen.queryByText(/A00001/)).toBeNull();
  });

  it("says '操作失败' for an error without msg and for a result that is not succ", async () => {
    const { user } = renderBoardPage(publishable, {
      'POST /api/boardtask/publish/1': () => json({ code: 'A00005' }, 500),
      'POST /api/boardtask/backup/publish/1': () => json({ code: 'A00000', data: { status: 'failed' } }),
    });
    await user.click(await screen.findByRole('button', { name: '发布' }));
    await confirm(user);
    expect(await screen.findByText('操作失败')).toBeTruthy();
    clearToasts();
    await user.click(screen.getByRole('button', { name: '备用发布' }));
    await confirm(user);
    expect(await screen.findByText('操作失败')).toBeTruthy();
  });

  it('asks first: cancelling sends nothing', async () => {
    const { user, requests } = renderBoardPage(publishable);
    await user.click(await screen.findByRole('button', { name: '发布' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo(requests, 'POST', '/api/boardtask/publish/1')).toHaveLength(0);
  });

  it('publishes to the chosen users only', async () => {
    const { user, requests, fake } = renderBoardPage({ ...publishable, bound: { 1: [] } });
    await user.click(await screen.findByRole('button', { name: '发布给指定用户' }));
    const dialog = await screen.findByRole('dialog', { name: '发布给指定用户' });
    const submit = within(dialog).getByRole('button', { name: '发布' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(within(dialog).getByText('请选择要发布的用户')).toBeTruthy();

    await user.click(await within(dialog).findByRole('checkbox', { name: /alice/ }));
    await user.type(within(dialog).getByRole('searchbox', { name: '搜索用户' }), 'carol');
    expect(within(dialog).queryByRole('checkbox', { name: /bob/ })).toBeNull();
    await user.click(within(dialog).getByRole('checkbox', { name: /carol/ }));
    expect(within(dialog).getByText('已选择 2 人')).toBeTruthy();
    await user.click(submit);

    expect(await screen.findByText('操作成功')).toBeTruthy();
    const [sent] = requestsTo(requests, 'POST', '/api/boardtask/publish/1/users');
    expect(await sent!.json()).toEqual({ userIds: [21, 23] });
    expect(fake.state.published).toEqual([{ boardId: 1, mode: 'users', userIds: [21, 23] }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes an open board and reopens it through saveBoard with the status', async () => {
    const { user, requests } = renderBoardPage({ ...publishable, boards: [aBoard({ status: 'open' })] });
    await user.click(await screen.findByRole('button', { name: '关闭看板' }));
    await confirm(user);
    // saveBoard's own '保存成功' is not the word for a status change.
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(screen.queryByText('保存成功')).toBeNull();
    await user.click(await screen.findByRole('button', { name: '重新开启' }));
    await confirm(user);
    await screen.findByRole('button', { name: '关闭看板' });
    const bodies = await Promise.all(requestsTo(requests, 'POST', '/api/board/info').map((r) => r.json()));
    expect(bodies.map((b: { id: number; status: string }) => [b.id, b.status])).toEqual([
      [1, 'close'],
      [1, 'open'],
    ]);
  });
});

describe('group-binding transfer', () => {
  it('binds and unbinds the selected groups, groupIds comma-joined', async () => {
    const { user, requests } = renderBoardPage({ ...publishable, bound: { 1: [1] } });
    const available = await screen.findByRole('group', { name: '可绑定的用户组' });
    const bound = screen.getByRole('group', { name: '已绑定的用户组' });
    expect(
      within(bound)
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent),
    ).toEqual(['华东采购一组']);

    await user.click(within(available).getByRole('checkbox', { name: '华南采购组' }));
    await user.click(within(available).getByRole('checkbox', { name: '海外组' }));
    await user.click(screen.getByRole('button', { name: '绑定 →' }));
    expect(await screen.findByText('操作成功')).toBeTruthy();
    const [add] = requestsTo(requests, 'POST', '/api/board/1/add');
    expect(new URL(add!.url).searchParams.get('groupIds')).toBe('2,3');
    await waitFor(() => expect(within(screen.getByRole('group', { name: '已绑定的用户组' })).getAllByRole('checkbox')).toHaveLength(3));

    await user.click(within(screen.getByRole('group', { name: '已绑定的用户组' })).getByRole('checkbox', { name: '华东采购一组' }));
    await user.click(screen.getByRole('button', { name: '← 解绑' }));
    await waitFor(() => expect(requestsTo(requests, 'POST', '/api/board/1/remove')).toHaveLength(1));
    const [remove] = requestsTo(requests, 'POST', '/api/board/1/remove');
    expect(new URL(remove!.url).searchParams.get('groupIds')).toBe('1');
    await waitFor(() =>
      expect(
        within(screen.getByRole('group', { name: '可绑定的用户组' }))
          .getAllByRole('checkbox')
          .map((c) => c.closest('label')?.textContent),
      ).toEqual(['华东采购一组']),
    );
  });

  it("a falsy answer says 'operation failed'", async () => {
    const { user } = renderBoardPage(publishable, {
      'POST /api/board/1/add': () => json({ code: 'A00000', data: false }),
    });
    await user.click(await screen.findByRole('checkbox', { name: '华南采购组' }));
    await user.click(screen.getByRole('button', { name: '绑定 →' }));
    expect(await screen.findByText('operation failed')).toBeTruthy();
  });
});

describe('basic information', () => {
  it("requires every field ('{field}必填') and creates with epoch-ms times", async () => {
    const { user, requests, router } = renderBoardPage({ boards: [aBoard()] }, {}, '/admin/board/new');
    // A new board is published now: its publish time starts at the current minute.
    const opened = Date.now();
    const publishAt = fromDateTimeLocal(((await screen.findByLabelText('发布时间')) as HTMLInputElement).value);
    expect(publishAt).toBeGreaterThan(opened - 60_000);
    expect(publishAt).toBeLessThanOrEqual(Date.now());
    expect(publishAt % 60_000).toBe(0);
    fireEvent.change(screen.getByLabelText('发布时间'), { target: { value: '' } });
    await user.click(await screen.findByRole('button', { name: '创建' }));
    const messages = (await screen.findAllByRole('alert')).map((a) => a.textContent);
    expect(messages).toEqual(['看板名称必填', '发布时间必填', '截止时间必填', '备注必填']);
    expect(screen.getByLabelText('备注').getAttribute('aria-required')).toBe('true');

    await user.type(screen.getByLabelText('看板名称'), '二月采购');
    await user.type(screen.getByLabelText('备注'), '春季');
    fireEvent.change(screen.getByLabelText('发布时间'), { target: { value: '2025-02-01T09:30' } });
    fireEvent.change(screen.getByLabelText('截止时间'), { target: { value: '2025-01-31T09:30' } });
    await user.click(screen.getByRole('button', { name: '创建' }));
    expect(await screen.findByText('截止时间必须晚于发布时间')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('截止时间'), { target: { value: '2025-02-28T18:00' } });
    await user.click(screen.getByRole('button', { name: '创建' }));
    expect(await screen.findByText('创建成功')).toBeTruthy();
    const [sent] = requestsTo(requests, 'POST', '/api/board/info');
    expect(await sent!.json()).toEqual({
      boardName: '二月采购',
      remark: '春季',
      publishAt: new Date(2025, 1, 1, 9, 30).getTime(),
      expireAt: new Date(2025, 1, 28, 18, 0).getTime(),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/board/2'));
    expect(await screen.findByRole('heading', { name: /二月采购/ })).toBeTruthy();
  });

  it("saves an existing board with its id: '保存成功'", async () => {
    const { user, requests } = renderBoardPage();
    const name = await screen.findByLabelText('看板名称');
    await user.clear(name);
    await user.type(name, '一月采购（改）');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    const [sent] = requestsTo(requests, 'POST', '/api/board/info');
    expect(await sent!.json()).toMatchObject({ id: 1, boardName: '一月采购（改）', remark: '年货' });
  });
});

describe('board tasks and their user tasks', () => {
  const seed: BoardsSeed = {
    boards: [aBoard({ status: 'open', expire: true })],
    boardTasks: [aBoardTask({ id: 11, show: 100 }), aBoardTask({ id: 12, itemName: '保温杯', show: 100 })],
    bound: { 1: [1] },
    tasks: [
      aTask({ id: 501, mainId: 501, boardTaskId: 11, count: 50, status: 'open' }),
      aTask({
        id: 502,
        mainId: 502,
        boardTaskId: 12,
        count: 81,
        status: 'pending',
        nickName: 'bob',
        userId: 22,
        isHome: true,
        state: 'CA',
        zipCode: '94016',
        labelCount: 2,
      }),
      aTask({ id: 503, mainId: 501, subId: 1, boardTaskId: 11, count: 1, status: 'pending', nickName: 'carol', userId: 23 }),
    ],
  };

  const tasksTable = () => screen.getByRole('table', { name: '看板任务列表' });
  const rowOf = (id: number) =>
    within(tasksTable())
      .getAllByRole('row')
      .find((row) => within(row).queryAllByRole('cell')[1]?.textContent === String(id))!;

  it('lists the board tasks with the claim progress colour and edit links that come back', async () => {
    renderBoardPage(seed);
    await screen.findByRole('table', { name: '看板任务列表' });
    // 11: 50 + 1 claimed of 100 shown -> 51% orange; 12: 81 -> red
    await waitFor(() => expect(within(rowOf(11)).getByText('51%').closest('[data-tone]')?.getAttribute('data-tone')).toBe('orange'));
    expect(within(rowOf(12)).getByText('81%').closest('[data-tone]')?.getAttribute('data-tone')).toBe('red');
    const headers = within(tasksTable())
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['', 'ID', '商品名称', 'UPC', '价格', '回收价', '需求数量', '实际需求', '已认领', '地址', '状态', '备注', '操作']);
    // The default address code reads 默认地址, never the English code.
    expect(within(rowOf(11)).getAllByRole('cell')[headers.indexOf('地址')]?.textContent).toBe('默认地址');
    expect(tasksTable().textContent).not.toContain('DEFAULT');
    expect(within(rowOf(11)).getByRole('link', { name: '编辑' }).getAttribute('href')).toBe('/admin/boardtask/1/11?back=%2Fadmin%2Fboard%2F1');
    expect(screen.getByRole('link', { name: '新建看板任务' }).getAttribute('href')).toBe('/admin/boardtask/1/new?back=%2Fadmin%2Fboard%2F1');
  });

  it('expands a board task to its user tasks; accept calls /api/task/accept/{id}', async () => {
    const { user, requests } = renderBoardPage(seed);
    await screen.findByRole('table', { name: '看板任务列表' });
    await user.click(within(rowOf(11)).getByRole('button', { name: '展开' }));
    const claims = await screen.findByRole('table', { name: '用户任务' });
    const rows = within(claims).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 4)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['501', 'alice', '50', '进行中'],
      ['501-1', 'carol', '1', '待审核'],
    ]);
    expect(within(rows[0]!).queryByRole('button', { name: '通过' })).toBeNull();

    await user.click(within(rows[1]!).getByRole('button', { name: '通过' }));
    await confirm(user);
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(requestsTo(requests, 'POST', '/api/task/accept/503')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('table', { name: '用户任务' })).queryAllByText('待审核')).toHaveLength(0));
  });

  it('lists the pending claims of the board; reject calls /api/task/reject/{id}', async () => {
    const { user, requests } = renderBoardPage(seed);
    const pending = await screen.findByRole('table', { name: '待审核的认领' });
    await waitFor(() => expect(within(pending).getAllByRole('row')).toHaveLength(3));
    const [list] = requestsTo(requests, 'GET', '/api/task/list/page');
    expect(Object.fromEntries(new URL(list!.url).searchParams)).toMatchObject({ boardId: '1', taskStatus: 'pending' });
    const bobRow = within(pending).getByText('bob').closest('tr')!;
    expect(within(bobRow).getByText('94016')).toBeTruthy();

    await user.click(within(bobRow).getByRole('button', { name: '拒绝' }));
    await confirm(user);
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(requestsTo(requests, 'POST', '/api/task/reject/502')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('table', { name: '待审核的认领' })).queryByText('bob')).toBeNull());
  });
});

describe('export', () => {
  it('asks a board download token with the board and the timezone, then opens /ext/excel/board/{token}?boardId=', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: window.location.origin, assign } as Location);
    const seen: URL[] = [];
    const { user } = renderBoardPage(
      {},
      {
        'GET /api/download/excel/board/token': (request) => {
          seen.push(new URL(request.url));
          return json({ code: 'A00000', msg: '', data: { token: 'brd-token', expireAt: Date.now() + 300_000 } });
        },
      },
    );
    await screen.findByRole('heading', { name: /一月采购/ });
    await user.click(screen.getByRole('button', { name: '导出Excel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/ext/excel/board/brd-token?boardId=1'));
    expect(seen[0]!.searchParams.get('boardId')).toBe('1');
    expect(seen[0]!.searchParams.get('timezone')).toMatch(/^-?\d+(\.\d+)?$/);
    vi.restoreAllMocks();
  });
});
