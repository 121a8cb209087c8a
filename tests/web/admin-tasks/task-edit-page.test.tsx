// @vitest-environment happy-dom
// /admin/task/{id} through the real router, with the HTTP boundary faked (admin-tasks-fake.ts).
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { refuse } from '../support/fake-api';
import { aTask, createAdminTasksFake, type Task } from './admin-tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const BACK = '/admin/tasks?taskStatus=open';

function renderEdit(path: string, task: Task = aTask({ id: 501, status: 'open' })) {
  const fake = createAdminTasksFake({ tasks: [task] });
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

/** The bodies of the saves (updateTask) the page sent. */
const sentBodies = (fake: ReturnType<typeof createAdminTasksFake>) => fake.callsTo('/api/task/info', 'POST').map((call) => call.body);

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('the form', () => {
  it('shows the task read-only and its editable fields prefilled', async () => {
    renderEdit(
      '/admin/task/502',
      aTask({
        id: 502,
        mainId: 501,
        subId: 1,
        status: 'locked',
        count: 3,
        labelCount: 2,
        price: null,
        buyIn: 12.5,
        bonus: 1,
        punish: 0.5,
        isHome: true,
        state: 'CA',
        zipCode: '90001',
        trackingId: 'TRK1,TRK2',
      }),
    );
    expect(await screen.findByRole('heading', { name: '编辑用户任务 501-1' })).toBeTruthy();
    const info = screen.getByRole('heading', { name: '任务信息' }).closest('section')!;
    const pairs = [...info.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(Object.fromEntries(pairs)).toMatchObject({
      任务ID: '501-1',
      状态: '已锁定',
      用户: 'alice（#21）',
      看板: '一月采购',
      看板任务: '#11',
      商品: '蓝牙耳机（0123456789）',
      寄到家: '是',
      州: 'CA',
      邮编: '90001',
      快递单号: 'TRK1, TRK2',
    });
    expect(within(info).getByRole('link', { name: '一月采购' }).getAttribute('href')).toBe('/admin/board/1');
    expect([field('认领数量').value, field('标签数量').value, field('价格').value, field('回收价').value, field('奖励').value, field('折扣').value]).toEqual([
      '3',
      '2',
      '',
      '12.50',
      '1.00',
      '0.50',
    ]);
  });

  it("requires count: 'count必填', and sends nothing", async () => {
    const { user, fake } = renderEdit('/admin/task/501');
    await user.clear(await screen.findByLabelText('认领数量'));
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect((await screen.findAllByRole('alert')).map((a) => a.textContent)).toEqual(['count必填']);
    expect(sentBodies(fake)).toEqual([]);
  });

  it('checks numbers: a whole count of at least 1, money with at most two places', async () => {
    const { user, fake } = renderEdit('/admin/task/501');
    await user.clear(await screen.findByLabelText('认领数量'));
    await user.type(field('认领数量'), '0');
    await user.clear(field('标签数量'));
    await user.type(field('标签数量'), '1.5');
    await user.clear(field('奖励'));
    await user.type(field('奖励'), '1.234');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect((await screen.findAllByRole('alert')).map((a) => a.textContent)).toEqual([
      '认领数量必须大于0',
      '标签数量必须为非负整数',
      '奖励必须为数字，最多两位小数',
    ]);
    expect(sentBodies(fake)).toEqual([]);
  });

  it("saves the fields updateTask allows, says '保存成功' and goes back", async () => {
    const { user, router, fake } = renderEdit(`/admin/task/501?back=${encodeURIComponent(BACK)}`);
    await user.clear(await screen.findByLabelText('认领数量'));
    await user.type(field('认领数量'), '5');
    await user.clear(field('标签数量'));
    await user.type(field('标签数量'), '1');
    await user.clear(field('价格'));
    await user.clear(field('奖励'));
    await user.type(field('奖励'), '2.5');
    await user.clear(field('折扣'));
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    // A blank price keeps the stored one; a blank discount is 0.
    expect(sentBodies(fake)).toEqual([{ id: 501, count: 5, labelCount: 1, buyIn: 80, bonus: 2.5, punish: 0 }]);
    expect(fake.state.tasks[0]).toMatchObject({ count: 5, labelCount: 1, bonus: 2.5, price: 99.5 });
    await waitFor(() => expect(router.state.location.href).toBe(BACK));
  });

  it('stays when the server refuses, showing its msg', async () => {
    const { user, router, fake } = renderEdit('/admin/task/501', aTask({ id: 501 }));
    fake.answer.save = () => refuse('数量不能少于已到货数量');
    await user.click(await screen.findByRole('button', { name: '保存' }));
    expect(await screen.findByText('数量不能少于已到货数量')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/task/501');
  });

  it.each([
    ['pending', '待审核或已删除的任务不能修改'],
    ['deleted', '待审核或已删除的任务不能修改'],
  ] as const)('a %s task cannot be edited (the task machine says why)', async (status, message) => {
    renderEdit('/admin/task/501', aTask({ id: 501, status }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    expect(field('认领数量').disabled).toBe(true);
  });
});

describe('back (optional query)', () => {
  it.each([
    ['a path of the app', '/admin/tasks?page=1&taskStatus=open', '/admin/tasks?page=1&taskStatus=open'],
    ['absent', undefined, '/admin/tasks'],
    ['another site', 'https://evil.example/steal', '/admin/tasks'],
    ['a server path', '/api/task/list/page', '/admin/tasks'],
  ])('%s: returns to %s after saving', async (_case, back, expected) => {
    const { user, router } = renderEdit(`/admin/task/501${back ? `?back=${encodeURIComponent(back)}` : ''}`);
    await user.click(await screen.findByRole('button', { name: '保存' }));
    await screen.findByText('保存成功');
    await waitFor(() => expect(router.state.location.href).toBe(expected));
  });

  it('the back button returns without saving', async () => {
    const { user, router, fake } = renderEdit(`/admin/task/501?back=${encodeURIComponent(BACK)}`);
    await user.click(await screen.findByRole('button', { name: '返回' }));
    await waitFor(() => expect(router.state.location.href).toBe(BACK));
    expect(sentBodies(fake)).toEqual([]);
  });
});
