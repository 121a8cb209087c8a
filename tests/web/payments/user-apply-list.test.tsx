// @vitest-environment happy-dom
// /user/apply-list through the real router, with the HTTP boundary faked (payments-fake.ts).
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { json } from '../support/fake-api';
import { anApply, createPaymentsFake, NOW, type PaymentApply } from './payments-fake';
import { cellsOf, dataRows } from '../support/table-reading';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

afterEach(() => {
  cleanup();
  clearToasts();
});

function renderList(applies?: PaymentApply[], path = '/user/apply-list') {
  const fake = createPaymentsFake({ applies, viewer: 'user' });
  const app = renderApp(path, { loggedInAs: userOf('user'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: '我的付款申请列表' });
const bodyRows = () => dataRows(table());
const listQueries = (fake: ReturnType<typeof createPaymentsFake>) => fake.callsTo('/api/apply/list/page').map((c) => c.query);

const ALL_STATUSES = [
  anApply({ id: 1, taskId: 101, mainId: 101, subId: 0, status: 'applied', createdAt: NOW + 5 }),
  anApply({ id: 2, taskId: 102, mainId: 101, subId: 2, status: 'agreed', createdAt: NOW + 4 }),
  anApply({ id: 3, taskId: 103, mainId: 103, status: 'withdrawing', createdAt: NOW + 3 }),
  anApply({ id: 4, taskId: 104, mainId: 104, status: 'paid', createdAt: NOW + 2, note: '请尽快' }),
  anApply({ id: 5, taskId: 105, mainId: 105, status: 'collected', createdAt: NOW + 1 }),
];

describe('/user/apply-list', () => {
  it('shows the columns of SPEC §2 with money in two decimals, the task as mainId[-subId] and the status in Chinese', async () => {
    const { fake } = renderList([
      anApply({
        id: 1,
        mainId: 88,
        subId: 0,
        itemName: '保温杯',
        price: 10,
        buyIn: 12.5,
        count: 3,
        bonus: 2,
        punish: 0.3,
        income: 39.2,
        note: '第一批',
        status: 'applied',
      }),
    ]);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['任务ID', '商品名称', '价格', '回收价', '数量', '奖励', '折扣', '收入', '备注', '状态', '操作']);
    expect(cellsOf(bodyRows()[0]!)).toEqual(['88', '保温杯', '10.00', '12.50', '3', '2.00', '0.30', '39.20', '第一批', '已申请', '']);
    expect(listQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true' }]);
  });

  it("offers '确认收款' only on the paid row (the payment machine's pay.collect)", async () => {
    renderList(ALL_STATUSES);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(
      bodyRows().map((row) => [
        cellsOf(row)[0],
        cellsOf(row)[9],
        within(row)
          .queryAllByRole('button')
          .map((b) => b.textContent),
      ]),
    ).toEqual([
      ['101', '已申请', []],
      ['101-2', '已同意', []],
      ['103', '提现中', []],
      ['104', '已付款', ['确认收款']],
      ['105', '已收款', []],
    ]);
  });

  it('confirms receipt: sends the application id, toasts the server msg and shows the row collected', async () => {
    const { fake, user } = renderList(ALL_STATUSES);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(screen.getByRole('button', { name: '确认收款：任务 104' }));
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(fake.callsTo('/api/trade/user/collect/confirm').map((c) => c.body)).toEqual([{ paymentApplyId: 4 }]);
    await waitFor(() => expect(cellsOf(bodyRows()[3]!)[9]).toBe('已收款'));
    expect(screen.queryByRole('button', { name: /确认收款/ })).toBeNull();
  });

  it("toasts the server's refusal (an error code with the machine's words) and reloads", async () => {
    const { fake, user } = renderList(ALL_STATUSES);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    fake.answer.collect = () => json({ code: 'A00001', msg: '只有已付款的记录可以确认收款' }, 400);
    await user.click(screen.getByRole('button', { name: '确认收款：任务 104' }));
    const toast = await screen.findByText('只有已付款的记录可以确认收款');
    expect(toast.closest('[data-tone]')?.getAttribute('data-tone')).toBe('error');
    await waitFor(() => expect(listQueries(fake)).toHaveLength(2));
  });

  it('pages 20 at a time on the server', async () => {
    const many = Array.from({ length: 45 }, (_, i) => anApply({ id: i + 1, taskId: i + 1, mainId: i + 1, createdAt: NOW + 100 - i }));
    const { fake, user, router } = renderList(many);
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    await user.click(screen.getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(router.state.location.search).toEqual({ page: 2 });
    expect(listQueries(fake).at(-1)).toEqual({ page: '2', size: '20', isDesc: 'true' });
    expect(cellsOf(bodyRows()[0]!)[0]).toBe('41');
  });

  it('says so when there is no application', async () => {
    renderList([]);
    expect(await screen.findByText('暂无付款申请')).toBeTruthy();
  });
});

describe('/user/apply-list at a phone width', () => {
  afterEach(atDesktopWidth);

  it('shows each application as a card: item, status, the amounts and the 确认收款 button', async () => {
    atPhoneWidth();
    renderList(ALL_STATUSES);
    const list = await screen.findByRole('list', { name: '我的付款申请列表' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(5);
    const paid = within(cards[3]!);
    expect(paid.getByText('已付款')).toBeTruthy();
    expect(paid.getByText('任务ID', { selector: 'dt' }).nextElementSibling!.textContent).toBe('104');
    expect(paid.getByText('收入', { selector: 'dt' })).toBeTruthy();
    expect(paid.getByRole('button', { name: /确认收款/ })).toBeTruthy();
    expect(within(cards[0]!).queryByRole('button')).toBeNull();
  });
});
