// @vitest-environment happy-dom
// /user/withdraw-request through the real router, with the HTTP boundary faked (withdraw-fake.ts):
// the balance, the table, the filters, the buttons the withdraw machine allows, the request dialog's
// checks (machines/withdraw.machine.ts withdrawRequestError: SPEC §5 messages, sums in cents, each
// card once), the bodies sent and the toasts (SPEC §8; change card's failure only logged).
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { ok } from '../support/fake-api';
import { aLine, anApply, createWithdrawFake, NOW, refuse, type WithdrawFake, type WithdrawRequest } from './withdraw-fake';
import { cellsOf, dataRows, urlParams } from '../support/table-reading';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

afterEach(() => {
  cleanup();
  clearToasts();
  vi.restoreAllMocks();
});

function open(fake: WithdrawFake = createWithdrawFake(), path = '/user/withdraw-request') {
  const app = renderApp(path, { loggedInAs: userOf('user'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: '提现记录' });
const bodyRows = () => dataRows(table());
const rowOf = (id: number) => bodyRows().find((row) => within(row).getAllByRole('cell')[0]!.textContent === String(id))!;
const buttonsOf = (row: HTMLElement) =>
  within(row)
    .queryAllByRole('button')
    .map((b) => b.textContent);
const listQueries = (fake: WithdrawFake) => fake.server.callsTo('/api/withdraw/user/requests').map((c) => c.query);
const bodiesTo = (fake: WithdrawFake, path: string) => fake.server.callsTo(path, 'POST').map((c) => c.body);

async function confirm(user: ReturnType<typeof userEvent.setup>, button = '确定') {
  const dialog = await screen.findByRole('dialog', { name: '提示' });
  await user.click(within(dialog).getByRole('button', { name: button }));
}

const LINES: WithdrawRequest[] = [
  aLine({ id: 501, orderId: 9001, status: 'waited', cancelFlag: true, createdAt: NOW + 5 }),
  aLine({ id: 502, orderId: 9002, status: 'waited', cancelFlag: false, withdrawAmount: 3, createdAt: NOW + 4 }),
  aLine({ id: 503, orderId: 9003, status: 'requestedCancel', cancelFlag: true, createdAt: NOW + 3 }),
  aLine({ id: 504, orderId: 9004, status: 'paid', cancelFlag: false, createdAt: NOW + 2 }),
  aLine({ id: 505, orderId: 9005, status: 'canceled', cancelFlag: false, createdAt: NOW + 1 }),
];

describe('/user/withdraw-request: the page', () => {
  it('shows the balance, the lines (SPEC §2 columns) newest first, the withdraw page sizes and a link to the orders', async () => {
    const { fake } = open(createWithdrawFake({ lines: LINES, balance: 1234.5 }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(screen.getByRole('heading', { name: '可提现余额：1234.50' })).toBeTruthy();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', '订单号', '付款方式', '户名', '卡号/账号', '地址', '提现金额', '用户备注', '状态', '操作']);
    expect(cellsOf(rowOf(501)).slice(0, 9)).toEqual(['501', '9001', '电汇', '****blic', '****1111', '1 Main St', '12.50', '月结', '待付款']);
    expect(cellsOf(rowOf(502))[6]).toBe('3.00');
    expect(bodyRows().map((row) => cellsOf(row)[8])).toEqual(['待付款', '待付款', '申请取消', '已付款', '已取消']);
    expect(listQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true' }]);
    expect([...(screen.getByLabelText('每页') as HTMLSelectElement).options].map((o) => o.value)).toEqual(['20', '50', '100', '500', '1000']);
    expect(screen.getByRole('link', { name: '提现订单' }).getAttribute('href')).toBe('/user/withdraw-orders');
  });

  it('offers on each row exactly what the withdraw machine allows', async () => {
    open(createWithdrawFake({ lines: LINES }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(buttonsOf(rowOf(501))).toEqual(['更换银行卡', '申请取消', '确认到账']);
    // cancelFlag cleared (payment has started): no cancel.
    expect(buttonsOf(rowOf(502))).toEqual(['更换银行卡', '确认到账']);
    expect(buttonsOf(rowOf(503))).toEqual([]);
    expect(buttonsOf(rowOf(504))).toEqual([]);
    expect(buttonsOf(rowOf(505))).toEqual([]);
  });

  it('filters by the sort switch, status, card and order id, in the URL and the call; reset clears them', async () => {
    const { fake, user, router } = open(createWithdrawFake({ lines: LINES }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    const sort = screen.getByRole('switch', { name: '按创建时间倒序' });
    expect(sort.getAttribute('aria-checked')).toBe('true');
    await user.click(sort);
    await user.selectOptions(screen.getByLabelText('状态'), 'waited');
    const card = screen.getByLabelText('银行卡') as HTMLSelectElement;
    expect([...card.options].map((o) => o.textContent)).toEqual([
      '全部银行卡',
      '#31 · 电汇 · ****1111 · ****blic',
      '#32 · PayPal · ****.com · ****Ann',
      '#33 · Zelle · ****5555 · ****Bob',
    ]);
    await user.selectOptions(card, '31');
    await user.type(screen.getByLabelText('订单号'), '9002');
    await user.click(screen.getByRole('button', { name: '查询' }));
    const expected = { isDesc: 'false', status: 'waited', cardId: '31', orderId: '9002' };
    await waitFor(() => expect(urlParams(router)).toEqual(expected));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(listQueries(fake).at(-1)).toEqual({ ...expected, page: '0', size: '20' });

    await user.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(urlParams(router)).toEqual({}));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(listQueries(fake).at(-1)).toEqual({ page: '0', size: '20', isDesc: 'true' });
  });

  it('asks for a whole number as the order id', async () => {
    const { fake, user } = open(createWithdrawFake({ lines: LINES }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.type(screen.getByLabelText('订单号'), '9x');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('请输入正整数')).toBeTruthy();
    expect(listQueries(fake)).toHaveLength(1);
  });
});

describe('/user/withdraw-request: row actions', () => {
  it("requests cancel of the line's order after a confirmation; the server's msg is the toast", async () => {
    const { fake, user } = open(createWithdrawFake({ lines: LINES }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(within(rowOf(501)).getByRole('button', { name: '申请取消：提现 #501（订单 9001）' }));
    expect((await screen.findByRole('dialog', { name: '提示' })).textContent).toContain('确定申请取消订单 9001 吗？');
    await confirm(user);
    expect(await screen.findByText('已申请取消')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/user/cancel/order')).toEqual([{ orderId: 9001 }]);
    await waitFor(() => expect(cellsOf(rowOf(501))[8]).toBe('申请取消'));
    expect(buttonsOf(rowOf(501))).toEqual([]);
  });

  it("shows the server's refusal of a cancel or a paid (SPEC §8)", async () => {
    const fake = createWithdrawFake({ lines: LINES });
    fake.answer.cancel = () => refuse('该提现已开始付款，不能取消');
    fake.answer.userPaid = () => ok({ status: 'failed', msg: '只有待付款的提现可以标记为已付款' });
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(within(rowOf(501)).getByRole('button', { name: /^申请取消/ }));
    await confirm(user);
    expect(await screen.findByText('该提现已开始付款，不能取消')).toBeTruthy();
    await user.click(within(rowOf(502)).getByRole('button', { name: '确认到账：提现 #502' }));
    await confirm(user);
    expect(await screen.findByText('只有待付款的提现可以标记为已付款')).toBeTruthy();
  });

  it('marks a line paid after a confirmation, and asks nothing when it is declined', async () => {
    const { fake, user } = open(createWithdrawFake({ lines: LINES }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(within(rowOf(502)).getByRole('button', { name: '确认到账：提现 #502' }));
    expect((await screen.findByRole('dialog', { name: '提示' })).textContent).toContain('确定提现 #502（3.00）的款项已到账吗？');
    await confirm(user, '取消');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodiesTo(fake, '/api/withdraw/user/paid/request')).toEqual([]);

    await user.click(within(rowOf(502)).getByRole('button', { name: '确认到账：提现 #502' }));
    await confirm(user);
    expect(await screen.findByText('已标记为已付款')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/user/paid/request')).toEqual([{ id: 502 }]);
    await waitFor(() => expect(cellsOf(rowOf(502))[8]).toBe('已付款'));
  });

  it('changes the card of a waited line: a card is required, the body names the line and the card', async () => {
    const { fake, user } = open(createWithdrawFake({ lines: LINES }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(within(rowOf(501)).getByRole('button', { name: '更换银行卡：提现 #501' }));
    const dialog = await screen.findByRole('dialog', { name: '更换银行卡：提现 #501' });
    const select = within(dialog).getByLabelText('新的银行卡') as HTMLSelectElement;
    // The line's own card is not offered.
    expect([...select.options].map((o) => o.value)).toEqual(['', '32', '33']);
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('请要更换的银行卡')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/user/change/card')).toEqual([]);
    await user.selectOptions(select, '33');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('更换成功')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/user/change/card')).toEqual([{ requestId: 501, cardId: 33 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(cellsOf(rowOf(501)).slice(2, 5)).toEqual(['Zelle', '****Bob', '****5555']));
  });

  it('only logs a failed change of card: no toast (SPEC §8); the list reloads', async () => {
    const fake = createWithdrawFake({ lines: LINES });
    fake.answer.changeCard = () => refuse('只有待付款的提现可以更换银行卡');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    const before = listQueries(fake).length;
    await user.click(within(rowOf(502)).getByRole('button', { name: '更换银行卡：提现 #502' }));
    const dialog = await screen.findByRole('dialog', { name: '更换银行卡：提现 #502' });
    await user.selectOptions(within(dialog).getByLabelText('新的银行卡'), '32');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(warn).toHaveBeenCalled());
    await waitFor(() => expect(listQueries(fake).length).toBe(before + 1));
    expect(screen.queryByText('只有待付款的提现可以更换银行卡')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('/user/withdraw-request: confirming receipt of a paid line (确认收款)', () => {
  /** Order 9004 is paid: its applications 711 (paid) and 712 (receipt already confirmed); 9001 waits. */
  function receiptWorld() {
    const fake = createWithdrawFake({ lines: LINES });
    const applies = [
      anApply({ id: 711, taskId: 811, mainId: 811, itemName: '蓝牙耳机', income: 10, status: 'paid' }),
      anApply({ id: 712, taskId: 812, mainId: 811, subId: 1, itemName: '保温杯', income: 5, status: 'collected' }),
    ];
    const orderOf: Record<number, number> = { 711: 9004, 712: 9004 };
    fake.server.on('GET', '/api/apply/list/page', ({ query }) => {
      const rows = applies.filter((a) => (!query.orderId || orderOf[a.id] === Number(query.orderId)) && (!query.status || a.status === query.status));
      return ok({ content: rows.slice(0, Number(query.size ?? 20)), totalPages: Math.ceil(rows.length / Number(query.size ?? 20)) });
    });
    fake.server.on('POST', '/api/trade/user/collect/confirm', ({ body }) => {
      const apply = applies.find((a) => a.id === (body as { paymentApplyId: number }).paymentApplyId)!;
      apply.status = 'collected';
      return ok({ status: 'succ', msg: '操作成功', paymentApply: apply });
    });
    return fake;
  }

  it("offers 确认收款 on a paid line and confirms receipt of its order's paid applications", async () => {
    const fake = receiptWorld();
    const { user } = open(fake);
    await waitFor(() => expect(buttonsOf(rowOf(504))).toEqual(['确认收款']));
    expect(buttonsOf(rowOf(501))).not.toContain('确认收款');
    await user.click(within(rowOf(504)).getByRole('button', { name: '确认收款：提现 #504（订单 9004）' }));
    const dialog = within(await screen.findByRole('dialog', { name: '确认收款：订单 9004' }));
    const rows = await dialog.findAllByRole('row');
    expect(rows.slice(1).map((row) => cellsOf(row))).toEqual([
      ['811', '蓝牙耳机', '10.00', '已付款'],
      ['811-1', '保温杯', '5.00', '已收款'],
    ]);
    expect(dialog.getByText('待确认合计：10.00')).toBeTruthy();
    expect(fake.server.callsTo('/api/apply/list/page').at(-1)!.query).toMatchObject({ orderId: '9004' });
    await user.click(dialog.getByRole('button', { name: '确认收款（1 笔）' }));
    expect(await screen.findByText('已确认收款 1 笔')).toBeTruthy();
    expect(bodiesTo(fake, '/api/trade/user/collect/confirm')).toEqual([{ paymentApplyId: 711 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Nothing waits for its receipt any more: the button goes.
    await waitFor(() => expect(buttonsOf(rowOf(504))).toEqual([]));
  });
});

describe('/user/withdraw-request at a phone width', () => {
  afterEach(atDesktopWidth);

  it('shows each line as a card: amount, status, its fields and its actions', async () => {
    atPhoneWidth();
    open(createWithdrawFake({ lines: LINES }));
    const list = await screen.findByRole('list', { name: '提现记录' });
    expect(screen.queryByRole('table', { name: '提现记录' })).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(5);
    const first = within(cards[0]!);
    expect(first.getByText('12.50')).toBeTruthy();
    expect(first.getByText('待付款')).toBeTruthy();
    expect(first.getByText('订单号').nextElementSibling!.textContent).toBe('9001');
    expect(first.getAllByRole('button').map((b) => b.textContent)).toEqual(['更换银行卡', '申请取消', '确认到账']);
  });
});

describe('/user/withdraw-request: the request dialog', () => {
  const APPLIES = [
    anApply({ id: 701, taskId: 801, mainId: 801, subId: 0, itemName: '蓝牙耳机', income: 0.1 }),
    anApply({ id: 702, taskId: 802, mainId: 801, subId: 1, itemName: '保温杯', income: 0.2 }),
    anApply({ id: 703, taskId: 803, mainId: 803, subId: 0, itemName: '台灯', income: 100 }),
  ];

  async function openDialog(fake = createWithdrawFake({ lines: [], applies: APPLIES, balance: 100.3 })) {
    const app = open(fake);
    await app.user.click(await screen.findByRole('button', { name: '申请提现' }));
    const dialog = await screen.findByRole('dialog', { name: '申请提现' });
    await within(dialog).findByText(/^任务合计/);
    return { ...app, dialog: within(dialog) };
  }

  const problem = (d: ReturnType<typeof within>) =>
    d
      .queryAllByRole('alert')
      .map((a: HTMLElement) => a.textContent)
      .join('|');
  const line = (d: ReturnType<typeof within>, n: number) => within(d.getByRole('group', { name: `第 ${n} 行` }));

  it('lists the withdrawable tasks (mainId-subId, item, income) and shows both sums in cents', async () => {
    const { dialog: d, user } = await openDialog();
    const tasks = d.getByRole('table', { name: '可提现的任务' });
    expect(
      within(tasks)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['', '801', '蓝牙耳机', '0.10'],
      ['', '801-1', '保温杯', '0.20'],
      ['', '803', '台灯', '100.00'],
    ]);
    // Every withdrawable task starts ticked, and the one line's amount is their total.
    expect(d.getAllByRole('checkbox').every((box) => (box as HTMLInputElement).checked)).toBe(true);
    expect(d.getByText('已默认选择全部可提现的任务，取消勾选的任务会留到下次提现。')).toBeTruthy();
    expect(d.getByText('任务合计：100.30')).toBeTruthy();
    await waitFor(() => expect(d.getByText('提现合计：100.30')).toBeTruthy());
    await user.click(d.getByRole('checkbox', { name: '选择全部任务' }));
    expect(d.getByText('任务合计：0.00')).toBeTruthy();
    expect((line(d, 1).getByLabelText('金额') as HTMLInputElement).value).toBe('');
    await user.click(d.getByRole('checkbox', { name: '选择任务 801' }));
    await user.click(d.getByRole('checkbox', { name: '选择任务 801-1' }));
    // 0.1 + 0.2 in cents is 30, not 0.30000000000000004; the one line's amount is that total.
    expect(d.getByText('任务合计：0.30')).toBeTruthy();
    expect((line(d, 1).getByLabelText('金额') as HTMLInputElement).value).toBe('0.30');
    expect(d.getByText('提现合计：0.30')).toBeTruthy();
    await user.click(d.getByRole('checkbox', { name: '选择全部任务' }));
    expect(d.getByText('任务合计：100.30')).toBeTruthy();
    await waitFor(() => expect(d.getByText('提现合计：100.30')).toBeTruthy());
  });

  it('checks in the order of SPEC §5: a task, a card, a numeric amount, each card once, equal sums', async () => {
    const { dialog: d, user, fake } = await openDialog();
    const submit = () => user.click(screen.getByRole('button', { name: '提交' }));
    // Nothing ticked and an amount typed (the case): the task check, under the task table.
    await user.click(d.getByRole('checkbox', { name: '选择全部任务' }));
    await user.type(line(d, 1).getByLabelText('金额'), '48');
    await submit();
    await waitFor(() => expect(problem(d)).toBe('请填写需要提现的任务：在上表勾选要提现的任务'));
    const taskSection = d.getByRole('table', { name: '可提现的任务' }).closest('section')!;
    expect(within(taskSection).getByRole('alert').textContent).toBe(problem(d));
    expect(within(taskSection).getByText('任务合计：0.00')).toBeTruthy();
    expect(d.getByText('提现合计：48.00')).toBeTruthy();
    await user.click(d.getByRole('checkbox', { name: '选择任务 803' }));
    await submit();
    await waitFor(() => expect(problem(d)).toBe('请填写银行卡'));
    await user.selectOptions(line(d, 1).getByLabelText('银行卡'), '31');
    // The amount came filled with the total; emptied, it is asked for.
    await user.clear(line(d, 1).getByLabelText('金额'));
    await submit();
    await waitFor(() => expect(problem(d)).toBe('请填写金额，金额必须为数字'));
    await user.type(line(d, 1).getByLabelText('金额'), 'abc');
    await submit();
    await waitFor(() => expect(problem(d)).toBe('请填写金额，金额必须为数字'));
    await user.clear(line(d, 1).getByLabelText('金额'));
    await user.type(line(d, 1).getByLabelText('金额'), '60');
    await user.click(d.getByRole('button', { name: '添加一行' }));
    await user.selectOptions(line(d, 2).getByLabelText('银行卡'), '31');
    await user.type(line(d, 2).getByLabelText('金额'), '40');
    await submit();
    await waitFor(() => expect(problem(d)).toBe('同一张银行卡只能填写一次'));
    await user.selectOptions(line(d, 2).getByLabelText('银行卡'), '32');
    await user.clear(line(d, 2).getByLabelText('金额'));
    await user.type(line(d, 2).getByLabelText('金额'), '39.99');
    await submit();
    await waitFor(() => expect(problem(d)).toBe('"提现合计"必须与"任务合计"金额相同'));
    expect(d.getByText('提现合计：99.99')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/user/request')).toEqual([]);
  });

  it('sends {requests, taskIds}, says the server msg, closes and reloads the list and the balance', async () => {
    const { dialog: d, user, fake } = await openDialog();
    const balanceCalls = fake.server.callsTo('/api/user/balance').length;
    await user.selectOptions(line(d, 1).getByLabelText('银行卡'), '31');
    await user.clear(line(d, 1).getByLabelText('金额'));
    await user.type(line(d, 1).getByLabelText('金额'), '100.1');
    await user.type(line(d, 1).getByLabelText('备注'), ' 月结 ');
    await user.click(d.getByRole('button', { name: '添加一行' }));
    await user.click(d.getByRole('button', { name: '添加一行' }));
    await user.click(line(d, 3).getByRole('button', { name: '删除第 3 行' }));
    await user.selectOptions(line(d, 2).getByLabelText('银行卡'), '33');
    await user.type(line(d, 2).getByLabelText('金额'), '0.20');
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('提交成功')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/user/request')).toEqual([
      {
        requests: [
          { cardId: 31, withdrawAmount: 100.1, userNote: '月结' },
          { cardId: 33, withdrawAmount: 0.2 },
        ],
        taskIds: [801, 802, 803],
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    expect(fake.server.callsTo('/api/user/balance').length).toBe(balanceCalls + 1);
    expect(screen.getByRole('heading', { name: '可提现余额：0.00' })).toBeTruthy();
  });

  it("blocks a second submit while sending; a refusal toasts the server's msg and keeps the dialog", async () => {
    const fake = createWithdrawFake({ lines: [], applies: APPLIES });
    let release: (r: Response) => void = () => {};
    fake.answer.request = () => new Promise<Response>((resolve) => (release = resolve));
    const { dialog: d, user } = await openDialog(fake);
    await user.selectOptions(line(d, 1).getByLabelText('银行卡'), '32');
    const submit = screen.getByRole('button', { name: '提交' });
    await user.click(submit);
    await waitFor(() => expect(bodiesTo(fake, '/api/withdraw/user/request')).toHaveLength(1));
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    await user.type(line(d, 1).getByLabelText('金额'), '{Enter}');
    expect(bodiesTo(fake, '/api/withdraw/user/request')).toHaveLength(1);
    release(refuse('所选任务已在其他提现中，请刷新后重试', 409, 'A00004'));
    expect(await screen.findByText('所选任务已在其他提现中，请刷新后重试')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: '申请提现' })).toBeTruthy();
  });

  it('with one card, one line is made for it with the selected total: submitting is the whole request', async () => {
    const fake = createWithdrawFake({ lines: [], applies: APPLIES, cards: [] });
    fake.cards.push({
      id: 32,
      paymentType: 'Paypal',
      accountName: '****Ann',
      cardNo: '****.com',
      routingNumber: '',
      bankInfo: '',
      cardType: '',
      address: 'x',
      createdAt: NOW,
    });
    const { dialog: d, user } = await openDialog(fake);
    expect(d.getAllByRole('group', { name: /^第 \d+ 行$/ })).toHaveLength(1);
    expect((line(d, 1).getByLabelText('银行卡') as HTMLSelectElement).value).toBe('32');
    await waitFor(() => expect((line(d, 1).getByLabelText('金额') as HTMLInputElement).value).toBe('100.30'));
    await user.click(d.getByRole('checkbox', { name: '选择任务 801' }));
    expect((line(d, 1).getByLabelText('金额') as HTMLInputElement).value).toBe('100.20');
    // Unticking follows too.
    await user.click(d.getByRole('checkbox', { name: '选择任务 801-1' }));
    expect((line(d, 1).getByLabelText('金额') as HTMLInputElement).value).toBe('100.00');
    await user.click(d.getByRole('checkbox', { name: '选择任务 801-1' }));
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('提交成功')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/user/request')).toEqual([{ requests: [{ cardId: 32, withdrawAmount: 100.2 }], taskIds: [802, 803] }]);
  });

  it('with two lines, the member divides the total: a change of selection leaves their amounts alone', async () => {
    const { dialog: d, user } = await openDialog();
    await user.click(d.getByRole('checkbox', { name: '选择全部任务' }));
    await user.click(d.getByRole('checkbox', { name: '选择任务 803' }));
    expect((line(d, 1).getByLabelText('金额') as HTMLInputElement).value).toBe('100.00');
    await user.click(d.getByRole('button', { name: '添加一行' }));
    await user.clear(line(d, 1).getByLabelText('金额'));
    await user.type(line(d, 1).getByLabelText('金额'), '60');
    await user.click(d.getByRole('checkbox', { name: '选择任务 801' }));
    expect((line(d, 1).getByLabelText('金额') as HTMLInputElement).value).toBe('60');
    expect((line(d, 2).getByLabelText('金额') as HTMLInputElement).value).toBe('');
  });

  it('with a single withdrawable task, it is ticked and the request is one submit', async () => {
    const single = createWithdrawFake({
      lines: [],
      applies: [anApply({ id: 709, taskId: 809, mainId: 809, subId: 0, itemName: '台灯', income: 48 })],
      cards: [],
    });
    single.cards.push({
      id: 32,
      paymentType: 'Paypal',
      accountName: '****Ann',
      cardNo: '****.com',
      routingNumber: '',
      bankInfo: '',
      cardType: '',
      address: 'x',
      createdAt: NOW,
    });
    const { dialog: d, fake, user } = await openDialog(single);
    expect((d.getByRole('checkbox', { name: '选择任务 809' }) as HTMLInputElement).checked).toBe(true);
    expect(d.getByText('任务合计：48.00')).toBeTruthy();
    await waitFor(() => expect(d.getByText('提现合计：48.00')).toBeTruthy());
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('提交成功')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/user/request')).toEqual([{ requests: [{ cardId: 32, withdrawAmount: 48 }], taskIds: [809] }]);
  });

  it('with one card, that card is the line’s already; with none, says where to add one', async () => {
    const one = createWithdrawFake({ lines: [], applies: APPLIES, cards: [] });
    one.cards.push({
      id: 32,
      paymentType: 'Paypal',
      accountName: '****Ann',
      cardNo: '****.com',
      routingNumber: '',
      bankInfo: '',
      cardType: '',
      address: 'x',
      createdAt: NOW,
    });
    const { dialog: d } = await openDialog(one);
    expect((line(d, 1).getByLabelText('银行卡') as HTMLSelectElement).value).toBe('32');
    cleanup();
    const none = createWithdrawFake({ lines: [], applies: [], cards: [] });
    const { dialog: d2 } = await openDialog(none);
    expect(d2.getByText('还没有银行卡，请先在「银行卡」页面添加')).toBeTruthy();
    expect(d2.getByText('没有可提现的任务')).toBeTruthy();
  });
});
