// @vitest-environment happy-dom
// /admin/tasks through the real router, with the HTTP boundary faked (admin-tasks-fake.ts).
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedEvents } from '../../../machines/stored-state';
import { TASK_STATUSES, taskMachine, type TaskEvent, type TaskStatus } from '../../../machines/task.machine';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { ok } from '../support/fake-api';
import { aTask, createAdminTasksFake, NOW, type AdminTasksSeed } from './admin-tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const DAY = 24 * 60 * 60 * 1000;
/** Pages of a wide table with row actions take a while to render in happy-dom. */
const SLOW = 20_000;

type Fake = ReturnType<typeof createAdminTasksFake>;

function renderList(path = '/admin/tasks', seed: AdminTasksSeed = {}) {
  const fake = createAdminTasksFake(seed);
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const listQueries = (fake: Fake) => fake.callsTo('/api/task/list/page').map((call) => call.query);

/** The search params as written in the address bar. */
function urlParams(router: ReturnType<typeof renderApp>['router']) {
  return Object.fromEntries(new URLSearchParams(router.state.location.searchStr));
}

const table = () => screen.getByRole('table', { name: '用户任务列表' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);
/** The row of a task, found by its id cell (mainId[-subId]). */
const rowOf = (label: string) => bodyRows().find((row) => within(row).getAllByRole('cell')[0]?.textContent === label)!;

async function confirm(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: '确定' }));
}

describe('/admin/tasks table', () => {
  it('shows every task field and asks for page 0 of 20, newest first', async () => {
    const { fake } = renderList('/admin/tasks', {
      tasks: [
        aTask({ id: 501, mainId: 501, subId: 0, createdAt: NOW - DAY }),
        aTask({
          id: 502,
          mainId: 501,
          subId: 1,
          status: 'locked',
          count: 3,
          productCount: 3,
          price: null,
          buyIn: 12.5,
          bonus: 1,
          punish: 0.5,
          isHome: true,
          state: 'CA',
          zipCode: '90001',
          labelCount: 2,
          trackingId: 'TRK1,TRK2',
          createdAt: NOW,
        }),
      ],
    });
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      '任务ID',
      '用户',
      '看板',
      '商品名称',
      'UPC',
      '认领数量',
      '到货数量',
      '价格',
      '回收价',
      '奖励',
      '折扣',
      '状态',
      '快递单号',
      '寄送信息',
      '认领时间',
      '操作',
    ]);
    const [split, claim] = bodyRows();
    const cells = within(split!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 13)).toEqual([
      '501-1',
      'alice',
      '一月采购看板任务 #11',
      '蓝牙耳机',
      '0123456789',
      '3',
      '3',
      '',
      '12.50',
      '1.00',
      '0.50',
      '已锁定',
      'TRK1,TRK2',
    ]);
    expect(cells[13]).toBe('寄到家是州CA邮编90001标签数量2');
    expect(within(claim!).getAllByRole('cell')[0]!.textContent).toBe('501');
    expect(within(claim!).getByText('进行中')).toBeTruthy();
    expect(within(split!).getByRole('link', { name: '一月采购' }).getAttribute('href')).toBe('/admin/board/1');
    expect(listQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true' }]);
  });

  it(
    'keeps page and size in the URL',
    async () => {
      const tasks = Array.from({ length: 25 }, (_, i) => aTask({ id: i + 1, mainId: i + 1, createdAt: NOW + i }));
      const { user, router, fake } = renderList('/admin/tasks', { tasks });
      await waitFor(() => expect(bodyRows()).toHaveLength(20));
      await user.click(screen.getByRole('button', { name: '第 2 页' }));
      await waitFor(() => expect(urlParams(router)).toEqual({ page: '1' }));
      await waitFor(() => expect(bodyRows()).toHaveLength(5));
      const sizeSelect = screen.getByRole('combobox', { name: '每页' });
      expect(
        within(sizeSelect)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['20', '50', '100', '200']);
      await user.selectOptions(sizeSelect, '50');
      await waitFor(() => expect(urlParams(router)).toEqual({ size: '50' }));
      await waitFor(() => expect(bodyRows()).toHaveLength(25));
      expect(listQueries(fake).at(-1)).toEqual({ page: '0', size: '50', isDesc: 'true' });
    },
    SLOW,
  );
});

describe('filters (SPEC §7: every listTasks filter)', () => {
  const tasks = [
    aTask({ id: 501, mainId: 501, userId: 21, nickName: 'alice', status: 'pending', itemId: 7, boardId: 2, boardTaskId: 12, trackingId: 'TRK9,TRK1' }),
    aTask({ id: 502, mainId: 502, userId: 22, nickName: 'bob', status: 'open', itemId: 8, itemName: '保温杯' }),
    aTask({ id: 503, mainId: 503, userId: 21, nickName: 'alice', status: 'open' }),
  ];

  it(
    'puts every filter and the sort into the URL and the call, and resets them',
    async () => {
      const { user, router, fake } = renderList('/admin/tasks', { tasks });
      await waitFor(() => expect(bodyRows()).toHaveLength(3));

      const statusSelect = screen.getByLabelText('状态');
      expect(
        within(statusSelect)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['全部状态', '待审核', '进行中', '已关闭', '已锁定', '付款中', '已完成', '已删除', '不匹配']);
      await user.selectOptions(screen.getByLabelText('用户'), 'alice（alice@demo.local）');
      await user.selectOptions(statusSelect, 'pending');
      await user.type(screen.getByRole('combobox', { name: '商品' }), 'P7');
      await user.click(await screen.findByRole('option', { name: /蓝牙耳机/ }));
      await user.type(screen.getByLabelText('商品名称'), ' 耳机 ');
      await user.type(screen.getByLabelText('看板ID'), '2');
      await user.type(screen.getByLabelText('看板任务ID'), '12');
      await user.type(screen.getByLabelText('任务ID'), '501');
      await user.type(screen.getByLabelText('快递单号'), 'TRK1');
      await user.selectOptions(screen.getByLabelText('排序'), 'asc');
      await user.click(screen.getByRole('button', { name: '查询' }));

      const expected = {
        userId: '21',
        taskStatus: 'pending',
        itemId: '7',
        itemName: '耳机',
        boardId: '2',
        boardTaskId: '12',
        taskId: '501',
        trackingId: 'TRK1',
        isDesc: 'false',
      };
      await waitFor(() => expect(urlParams(router)).toEqual(expected));
      await waitFor(() => expect(bodyRows()).toHaveLength(1));
      expect(listQueries(fake).at(-1)).toEqual({ ...expected, page: '0', size: '20' });

      await user.click(screen.getByRole('button', { name: '重置' }));
      await waitFor(() => expect(urlParams(router)).toEqual({}));
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      expect((screen.getByLabelText('看板ID') as HTMLInputElement).value).toBe('');
      expect(listQueries(fake).at(-1)).toEqual({ page: '0', size: '20', isDesc: 'true' });
    },
    SLOW,
  );

  it('reads the filters from the URL (a numeric tracking id stays text) and refuses an id that is not a number', async () => {
    const { user, fake } = renderList('/admin/tasks?taskStatus=open&userId=21&trackingId=12345&page=0', {
      tasks: [...tasks, aTask({ id: 504, mainId: 504, status: 'open', trackingId: '12345' })],
    });
    await waitFor(() => expect(listQueries(fake)).toHaveLength(1));
    expect(listQueries(fake)[0]).toEqual({ page: '0', size: '20', isDesc: 'true', taskStatus: 'open', userId: '21', trackingId: '12345' });
    expect((screen.getByLabelText('状态') as HTMLSelectElement).value).toBe('open');
    expect((screen.getByLabelText('快递单号') as HTMLInputElement).value).toBe('12345');

    await user.type(screen.getByLabelText('看板ID'), 'abc');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('请输入正整数')).toBeTruthy();
    expect(listQueries(fake)).toHaveLength(1);
  });

  it("shows the home page's not-arrived filter as a checked box naming the server's days, and clears it", async () => {
    const { user, router, fake } = renderList('/admin/tasks?notArrived=true', { tasks, notArrivedIds: [502], notArrivedDays: 9 });
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(listQueries(fake)[0]).toEqual({ page: '0', size: '20', isDesc: 'true', notArrived: 'true' });
    // MISSING_PARCEL_DAYS=9 on the server: the box says 9, not the default 7.
    const notArrived = screen.getByRole('checkbox', { name: '只看超过9天未到货' }) as HTMLInputElement;
    expect(notArrived.checked).toBe(true);

    await user.click(notArrived);
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(urlParams(router)).toEqual({}));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(listQueries(fake).at(-1)).toEqual({ page: '0', size: '20', isDesc: 'true' });
  });
});

// ------------------------------------------------------------------ actions from the task machine

const LIFECYCLE: Array<[string, TaskEvent]> = [
  ['通过', { type: 'task.accept' }],
  ['拒绝', { type: 'task.reject' }],
  ['编辑', { type: 'task.edit', by: 'admin' }],
  ['匹配', { type: 'task.match', outcome: 'open' }],
  ['关闭', { type: 'task.close' }],
  ['删除', { type: 'task.delete', by: 'admin' }],
];

/** The machine's own answer for the row: the labels of the events it accepts, plus records unless pending. */
function machineActions(status: TaskStatus, productCount: number, canSplit: boolean): string[] {
  const allowed = allowedEvents(
    taskMachine,
    status,
    { productCount, canSplit },
    LIFECYCLE.map(([, e]) => e),
  );
  const labels = LIFECYCLE.filter(([, e]) => allowed.includes(e)).map(([label]) => label);
  return status === 'pending' ? labels : [...labels, '采购记录'];
}

const VARIANTS = TASK_STATUSES.flatMap((status, s) =>
  [
    [0, false],
    [1, true],
  ].map(([productCount, canSplit], v) =>
    aTask({
      id: 100 + s * 10 + v,
      mainId: 100 + s * 10 + v,
      status,
      productCount: productCount as number,
      canSplit: canSplit as boolean,
      createdAt: NOW - s * 10 - v,
    }),
  ),
);

describe('per-row actions are exactly what the task machine allows the admin', () => {
  it(
    'for every status, with and without arrived units',
    async () => {
      renderList('/admin/tasks', { tasks: VARIANTS });
      await waitFor(() => expect(bodyRows()).toHaveLength(VARIANTS.length));
      const seen: Record<string, string[]> = {};
      for (const task of VARIANTS) {
        const actions = within(rowOf(String(task.mainId)))
          .getAllByRole('cell')
          .at(-1)!;
        const shown = [...actions.querySelectorAll('a, button')].map((el) => el.textContent ?? '');
        expect(shown, `${task.status} productCount ${task.productCount}`).toEqual(machineActions(task.status, task.productCount, task.canSplit));
        seen[`${task.status}/${task.productCount}`] = shown;
      }
      // The table above is the machine's; spelled out once, so a changed machine is noticed here too.
      expect(seen).toEqual({
        'pending/0': ['通过', '拒绝'],
        'pending/1': ['通过', '拒绝'],
        'open/0': ['编辑', '匹配', '关闭', '删除', '采购记录'],
        'open/1': ['编辑', '匹配', '关闭', '采购记录'],
        'closed/0': ['编辑', '采购记录'],
        'closed/1': ['编辑', '采购记录'],
        'locked/0': ['编辑', '关闭', '采购记录'],
        'locked/1': ['编辑', '关闭', '采购记录'],
        'processing/0': ['编辑', '采购记录'],
        'processing/1': ['编辑', '采购记录'],
        'finished/0': ['编辑', '采购记录'],
        'finished/1': ['编辑', '采购记录'],
        'deleted/0': ['采购记录'],
        'deleted/1': ['采购记录'],
        'unmatch/0': ['编辑', '匹配', '关闭', '删除', '采购记录'],
        'unmatch/1': ['编辑', '匹配', '关闭', '采购记录'],
      });
    },
    SLOW,
  );
});

describe('actions call the contract', () => {
  it('accept: POST /api/task/accept/{id} after confirmation, then the row shows open', async () => {
    const { user, fake } = renderList('/admin/tasks', { tasks: [aTask({ id: 501, status: 'pending' })] });
    await user.click(await screen.findByRole('button', { name: '通过 501' }));
    await confirm(user);
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(fake.callsTo('/api/task/accept/501', 'POST')).toHaveLength(1);
    await waitFor(() => expect(within(rowOf('501')).getByText('进行中')).toBeTruthy());
    expect(within(rowOf('501')).queryByRole('button', { name: '通过 501' })).toBeNull();
  });

  it('reject: POST /api/task/reject/{id}; cancelling the confirmation sends nothing', async () => {
    const { user, fake } = renderList('/admin/tasks', { tasks: [aTask({ id: 501, status: 'pending' })] });
    await user.click(await screen.findByRole('button', { name: '拒绝 501' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('/api/task/reject/501', 'POST')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: '拒绝 501' }));
    await confirm(user);
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(fake.callsTo('/api/task/reject/501', 'POST')).toHaveLength(1);
    await waitFor(() => expect(within(rowOf('501')).getByText('已删除')).toBeTruthy());
  });

  it('match: the admin match call with the task id, and the server msg', async () => {
    const { user, fake } = renderList('/admin/tasks', { tasks: [aTask({ id: 501, status: 'unmatch', count: 2, productCount: 2 })] });
    await user.click(await screen.findByRole('button', { name: '匹配 501' }));
    expect(await screen.findByText('匹配完成')).toBeTruthy();
    const [sent] = fake.callsTo('/api/match/admin/task/match', 'POST');
    expect(sent!.body).toEqual({ taskId: 501 });
    expect(fake.callsTo('/api/match/user/task/match', 'POST')).toHaveLength(0);
    await waitFor(() => expect(within(rowOf('501')).getByText('已锁定')).toBeTruthy());
  });

  it('close and delete: updateTask with the status (and the stored count)', async () => {
    const { user, fake } = renderList('/admin/tasks', {
      tasks: [aTask({ id: 501, mainId: 501, status: 'locked', count: 4, productCount: 4 }), aTask({ id: 502, mainId: 502, status: 'open', count: 2 })],
    });
    await user.click(await screen.findByRole('button', { name: '关闭 501' }));
    await confirm(user);
    await waitFor(() => expect(within(rowOf('501')).getByText('已关闭')).toBeTruthy());
    await user.click(screen.getByRole('button', { name: '删除 502' }));
    await confirm(user);
    await waitFor(() => expect(within(rowOf('502')).getByText('已删除')).toBeTruthy());
    const bodies = fake.callsTo('/api/task/info', 'POST').map((call) => call.body);
    expect(bodies).toEqual([
      { id: 501, count: 4, status: 'closed' },
      { id: 502, count: 2, status: 'deleted' },
    ]);
  });

  it("shows the server's refusal and reloads the row as it now is", async () => {
    const { user, fake } = renderList('/admin/tasks', { tasks: [aTask({ id: 501, status: 'pending' })] });
    await screen.findByRole('button', { name: '通过 501' });
    fake.state.tasks[0]!.status = 'open'; // someone else accepted it meanwhile
    await user.click(screen.getByRole('button', { name: '通过 501' }));
    await confirm(user);
    const toast = await screen.findByText('只有待审核的任务可以审核');
    expect(toast.closest('[data-tone]')?.getAttribute('data-tone')).toBe('error');
    await waitFor(() => expect(within(rowOf('501')).getByText('进行中')).toBeTruthy());
  });

  it("says '操作失败' when the server gives no words", async () => {
    const { user, fake } = renderList('/admin/tasks', { tasks: [aTask({ id: 501, status: 'open' })] });
    fake.answer.match = () => ok({ opStatus: 'failed' });
    await user.click(await screen.findByRole('button', { name: '匹配 501' }));
    expect(await screen.findByText('操作失败')).toBeTruthy();
  });

  it('edit links to /admin/task/{id} with the list URL as back', async () => {
    const { user, router } = renderList('/admin/tasks?taskStatus=open&page=0', { tasks: [aTask({ id: 501, status: 'open' })] });
    const link = await screen.findByRole('link', { name: '编辑 501' });
    const href = new URL(link.getAttribute('href')!, 'http://localhost');
    expect(href.pathname).toBe('/admin/task/501');
    expect(href.searchParams.get('back')).toBe('/admin/tasks?taskStatus=open');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/task/501'));
    await user.click(await screen.findByRole('button', { name: '返回' }));
    await waitFor(() => expect(router.state.location.href).toBe('/admin/tasks?taskStatus=open'));
  });

  it('records opens the purchased-records dialog of the task', async () => {
    const { user, fake } = renderList('/admin/tasks', { tasks: [aTask({ id: 501, status: 'open' })] });
    await user.click(await screen.findByRole('button', { name: '采购记录 501' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    await waitFor(() => expect(fake.callsTo('/api/purchased/501/taskTracking', 'GET')).toHaveLength(1));
  });
});
