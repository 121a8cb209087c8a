// @vitest-environment happy-dom
// /admin/apply-list through the real router, with the HTTP boundary faked (payments-fake.ts).
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { json } from '../support/fake-api';
import { anApply, createPaymentsFake, NOW, type PaymentApply } from './payments-fake';
import { cellsOf, dataRows, urlParams } from '../support/table-reading';

afterEach(() => {
  cleanup();
  clearToasts();
});

/** Typing into several filters through the router takes a while in happy-dom. */
const SLOW = 20_000;

function renderList(applies?: PaymentApply[], path = '/admin/apply-list') {
  const fake = createPaymentsFake({ applies, viewer: 'admin' });
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: '付款申请列表' });
const bodyRows = () => dataRows(table());
const listQueries = (fake: ReturnType<typeof createPaymentsFake>) => fake.callsTo('/api/apply/list/page').map((c) => c.query);

const ROWS = [
  anApply({ id: 1, taskId: 101, mainId: 101, userId: 3, status: 'applied', createdAt: NOW + 5 }),
  anApply({ id: 2, taskId: 102, mainId: 101, subId: 1, userId: 7, status: 'agreed', createdAt: NOW + 4 }),
  anApply({ id: 3, taskId: 103, mainId: 103, userId: 7, status: 'withdrawing', income: 120, createdAt: NOW + 3 }),
  anApply({ id: 4, taskId: 104, mainId: 104, userId: 3, status: 'paid', createdAt: NOW + 2 }),
  anApply({ id: 5, taskId: 105, mainId: 105, userId: 3, status: 'collected', createdAt: NOW + 1 }),
];

describe('/admin/apply-list: the table', () => {
  it('shows every application with its applicant; 同意 only where applied, 确认付款 only where withdrawing', async () => {
    const { fake } = renderList(ROWS);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['任务ID', '申请人', '商品名称', '价格', '回收价', '数量', '奖励', '折扣', '收入', '备注', '状态', '申请时间', '操作']);
    expect(cellsOf(bodyRows()[0]!)).toEqual([
      '101',
      'alice#3',
      '蓝牙耳机',
      '19.99',
      '21.50',
      '2',
      '1.00',
      '0.50',
      '43.50',
      '',
      '已申请',
      expect.stringMatching(/^2026-11-2\d \d\d:\d\d$/),
      '同意',
    ]);
    expect(
      bodyRows().map((row) => [
        cellsOf(row)[0],
        cellsOf(row)[10],
        within(row)
          .queryAllByRole('button')
          .map((b) => b.textContent),
      ]),
    ).toEqual([
      ['101', '已申请', ['同意']],
      ['101-1', '已同意', []],
      ['103', '提现中', ['确认付款']],
      ['104', '已付款', []],
      ['105', '已收款', []],
    ]);
    expect(listQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true' }]);
  });

  it(
    'filters by status, applicant, task (mainId) and sort, in the URL and the call; reset clears them',
    async () => {
      const { fake, user, router } = renderList(ROWS);
      await waitFor(() => expect(bodyRows()).toHaveLength(5));
      const status = screen.getByLabelText('状态');
      expect(
        within(status)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['全部状态', '已申请', '已同意', '提现中', '已付款', '已收款']);
      await user.selectOptions(status, 'agreed');
      await user.selectOptions(screen.getByLabelText('申请人'), '7');
      await user.type(screen.getByLabelText('任务ID'), '101');
      await user.selectOptions(screen.getByLabelText('排序'), 'asc');
      await user.click(screen.getByRole('button', { name: '查询' }));

      await waitFor(() => expect(urlParams(router)).toEqual({ status: 'agreed', userId: '7', mainId: '101', isDesc: 'false' }));
      await waitFor(() => expect(bodyRows()).toHaveLength(1));
      expect(listQueries(fake).at(-1)).toEqual({ status: 'agreed', userId: '7', mainId: '101', isDesc: 'false', page: '0', size: '20' });

      await user.click(screen.getByRole('button', { name: '重置' }));
      await waitFor(() => expect(urlParams(router)).toEqual({}));
      await waitFor(() => expect(bodyRows()).toHaveLength(5));
      expect(listQueries(fake).at(-1)).toEqual({ page: '0', size: '20', isDesc: 'true' });
    },
    SLOW,
  );

  it('refuses a task id that is not a whole number', async () => {
    const { fake, user } = renderList(ROWS);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.type(screen.getByLabelText('任务ID'), '10x');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('请输入正整数')).toBeTruthy();
    expect(listQueries(fake)).toHaveLength(1);
  });
});

describe('/admin/apply-list: agree', () => {
  it('checks the bonus: a number of at least 0 with at most two places', async () => {
    const { fake, user } = renderList(ROWS);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(screen.getByRole('button', { name: '同意付款申请：任务 101' }));
    const dialog = await screen.findByRole('dialog', { name: /同意付款申请/ });
    const bonus = within(dialog).getByLabelText('奖励');
    for (const bad of ['abc', '-1', '1.234']) {
      await user.clear(bonus);
      await user.type(bonus, bad);
      await user.click(within(dialog).getByRole('button', { name: '同意' }));
      expect(await within(dialog).findByText('奖励必须是数字（不小于0，最多两位小数）')).toBeTruthy();
    }
    expect(fake.callsTo('/api/trade/admin/pay/agree')).toHaveLength(0);
  });

  it('blank keeps the bonus asked for: only the id is sent; 操作成功, the row is agreed', async () => {
    const { fake, user } = renderList(ROWS);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(screen.getByRole('button', { name: '同意付款申请：任务 101' }));
    const dialog = await screen.findByRole('dialog', { name: /同意付款申请/ });
    expect(within(dialog).getByText('留空则保持原奖励 1.00')).toBeTruthy();
    expect(within(dialog).getByText('alice')).toBeTruthy();
    expect(within(dialog).getByText('同意后收入：43.50')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '同意' }));
    expect(await screen.findByText('操作成功')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('/api/trade/admin/pay/agree').map((c) => c.body)).toEqual([{ paymentApplyId: 1 }]);
    await waitFor(() => expect(cellsOf(bodyRows()[0]!)[10]).toBe('已同意'));
    expect(within(bodyRows()[0]!).queryAllByRole('button')).toHaveLength(0);
  });

  it('a typed bonus is sent as a number; the income it leads to shows as it is typed', async () => {
    const { fake, user } = renderList(ROWS);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(screen.getByRole('button', { name: '同意付款申请：任务 101' }));
    const dialog = await screen.findByRole('dialog', { name: /同意付款申请/ });
    await user.type(within(dialog).getByLabelText('奖励'), '0.1');
    // 21.50 x 2 + 0.10 - 0.50, in cents
    expect(within(dialog).getByText('同意后收入：42.60')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '同意' }));
    await waitFor(() => expect(fake.callsTo('/api/trade/admin/pay/agree').map((c) => c.body)).toEqual([{ paymentApplyId: 1, bonus: 0.1 }]));
    await waitFor(() => expect(cellsOf(bodyRows()[0]!).slice(6, 11)).toEqual(['0.10', '0.50', '42.60', '', '已同意']));
  });

  it("keeps the dialog open and toasts the server's msg when it refuses", async () => {
    const { fake, user } = renderList(ROWS);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    fake.answer.agree = () => json({ code: 'A00001', msg: '只有已申请的记录可以同意' }, 400);
    await user.click(screen.getByRole('button', { name: '同意付款申请：任务 101' }));
    const dialog = await screen.findByRole('dialog', { name: /同意付款申请/ });
    await user.click(within(dialog).getByRole('button', { name: '同意' }));
    const toast = await screen.findByText('只有已申请的记录可以同意');
    expect(toast.closest('[data-tone]')?.getAttribute('data-tone')).toBe('error');
    expect(screen.getByRole('dialog', { name: /同意付款申请/ })).toBeTruthy();
  });
});

describe('/admin/apply-list: confirm payment', () => {
  it('asks first; cancelling sends nothing, confirming sends the id, toasts 操作成功 and shows the row paid', async () => {
    const { fake, user } = renderList(ROWS);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(screen.getByRole('button', { name: '确认付款：任务 103' }));
    expect(await screen.findByText('确认任务 103（bob）的 120.00 已付款吗？')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('/api/trade/admin/pay/confirm')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: '确认付款：任务 103' }));
    await screen.findByText('确认任务 103（bob）的 120.00 已付款吗？');
    await user.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(fake.callsTo('/api/trade/admin/pay/confirm').map((c) => c.body)).toEqual([{ paymentApplyId: 3 }]);
    await waitFor(() => expect(cellsOf(bodyRows()[2]!)[10]).toBe('已付款'));
    expect(screen.queryByRole('button', { name: /确认付款/ })).toBeNull();
  });

  it('a failed status toasts its msg', async () => {
    const { fake, user } = renderList(ROWS);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    fake.answer.confirm = () => json({ code: 'A00000', data: { status: 'failed', msg: '付款申请不存在' } });
    await user.click(screen.getByRole('button', { name: '确认付款：任务 103' }));
    await user.click(await screen.findByRole('button', { name: '确定' }));
    const toast = await screen.findByText('付款申请不存在');
    expect(toast.closest('[data-tone]')?.getAttribute('data-tone')).toBe('error');
  });
});
