// @vitest-environment happy-dom
// /user/withdraw-orders through the real router, with the HTTP boundary faked (withdraw-fake.ts):
// the SPEC §2 columns, the filters (the status is not sent: it filters the rows on screen), and no
// export (the withdraw export is admin-only in the contract).
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { aLine, createWithdrawFake, NOW, type WithdrawFake } from './withdraw-fake';
import { cellsOf, dataRows, urlParams } from '../support/table-reading';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

afterEach(() => {
  cleanup();
  clearToasts();
});

const LINES = [
  aLine({ id: 501, orderId: 9001, status: 'waited', accountName: '****blic', cardNo: '****1111', createdAt: NOW + 3 }),
  aLine({
    id: 502,
    orderId: 9001,
    status: 'paid',
    cardId: 32,
    accountName: '****Ann',
    cardNo: '****.com',
    withdrawAmount: 7.05,
    userNote: '',
    createdAt: NOW + 2,
  }),
  aLine({ id: 503, orderId: 9002, status: 'canceled', createdAt: NOW + 1 }),
];

function open(fake: WithdrawFake = createWithdrawFake({ lines: LINES })) {
  const app = renderApp('/user/withdraw-orders', { loggedInAs: userOf('user'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: '提现订单' });
const bodyRows = () => dataRows(table());
const orderQueries = (fake: WithdrawFake) => fake.server.callsTo('/api/withdraw/user/request/orders').map((c) => c.query);

describe('/user/withdraw-orders', () => {
  it('shows id, order, holder, card, address, amount, note and status, 20 a page; no export', async () => {
    const { fake } = open();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', '订单号', '户名', '卡号/账号', '地址', '提现金额', '用户备注', '状态']);
    expect(cellsOf(bodyRows()[0]!)).toEqual(['501', '9001', '****blic', '****1111', '1 Main St', '12.50', '月结', '待付款']);
    expect(cellsOf(bodyRows()[1]!)).toEqual(['502', '9001', '****Ann', '****.com', '1 Main St', '7.05', '', '已付款']);
    expect(orderQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true' }]);
    expect(screen.queryByRole('button', { name: /导出/ })).toBeNull();
    expect(screen.getByRole('link', { name: '返回提现申请' }).getAttribute('href')).toBe('/user/withdraw-request');
  });

  it('sends the order id and the sort, not the status, which picks the rows on screen', async () => {
    const { fake, user, router } = open();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(screen.getByText('状态只筛选当前页的记录')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('状态'), 'paid');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(urlParams(router)).toEqual({ status: 'paid' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(cellsOf(bodyRows()[0]!)[0]).toBe('502');
    for (const query of orderQueries(fake)) expect(query).not.toHaveProperty('status');

    await user.click(screen.getByRole('switch', { name: '按创建时间倒序' }));
    await user.type(screen.getByLabelText('订单号'), '9001');
    await user.selectOptions(screen.getByLabelText('状态'), '');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(urlParams(router)).toEqual({ isDesc: 'false', orderId: '9001' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    expect(orderQueries(fake).at(-1)).toEqual({ orderId: '9001', isDesc: 'false', page: '0', size: '20' });
    expect(bodyRows().map((row) => cellsOf(row)[0])).toEqual(['502', '501']);
  });
});

describe('/user/withdraw-orders at a phone width', () => {
  afterEach(atDesktopWidth);

  it('shows each line as a card: amount, status, order and card', async () => {
    atPhoneWidth();
    open();
    const list = await screen.findByRole('list', { name: '提现订单' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    const second = within(cards[1]!);
    expect(second.getByText('7.05')).toBeTruthy();
    expect(second.getByText('已付款')).toBeTruthy();
    expect(second.getByText('订单号', { selector: 'dt' }).nextElementSibling!.textContent).toBe('9001');
    expect(second.getByText('****.com')).toBeTruthy();
  });
});
