// @vitest-environment happy-dom
// /admin/withdraw-list through the real router, with the HTTP boundary faked (withdraw-fake.ts): the
// table, the filters, the buttons the withdraw machine allows (agree / reject cancel per order, mark
// paid), the card's full details (收款信息), choosing the lines to pay for a bulk pay or the payment
// file, the notes, the export (token kind withdraw, the filters on the link) and the Excel confirm
// upload with its per-row report ('上传错误' on failure, SPEC §8). Admin only.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { ok } from '../support/fake-api';
import { aLine, createWithdrawFake, NOW, refuse, type WithdrawFake } from './withdraw-fake';
import { cellsOf, dataRows, urlParams } from '../support/table-reading';

afterEach(() => {
  cleanup();
  clearToasts();
  vi.restoreAllMocks();
});

const LINES = [
  aLine({ id: 501, orderId: 9001, userId: 21, status: 'requestedCancel', createdAt: NOW + 4 }),
  aLine({ id: 502, orderId: 9001, userId: 21, status: 'requestedCancel', cardId: 32, withdrawAmount: 1, createdAt: NOW + 3 }),
  aLine({
    id: 503,
    orderId: 9002,
    userId: 22,
    status: 'waited',
    cancelFlag: false,
    withdrawAmount: 88.8,
    adminNote: '工行',
    adminNote2: '3/12',
    createdAt: NOW + 2,
  }),
  aLine({ id: 504, orderId: 9003, userId: 22, status: 'paid', cancelFlag: false, createdAt: NOW + 1 }),
];

function open(fake: WithdrawFake = createWithdrawFake({ lines: LINES }), role: 'admin' | 'lowerAdmin' = 'admin') {
  const app = renderApp('/admin/withdraw-list', { loggedInAs: userOf(role), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: '提现列表' });
const bodyRows = () => dataRows(table());
/** A row's cells after the checkbox column. */
const fieldsOf = (row: HTMLElement) => cellsOf(row).slice(1);
const rowOf = (id: number) => bodyRows().find((row) => fieldsOf(row)[0] === String(id))!;
const buttonsOf = (row: HTMLElement) =>
  within(row)
    .queryAllByRole('button')
    .map((b) => b.textContent);
const listQueries = (fake: WithdrawFake) => fake.server.callsTo('/api/withdraw/admin/requests').map((c) => c.query);
const bodiesTo = (fake: WithdrawFake, path: string) => fake.server.callsTo(path, 'POST').map((c) => c.body);

async function confirm(user: ReturnType<typeof userEvent.setup>, button = '确定') {
  const dialog = await screen.findByRole('dialog', { name: '提示' });
  const question = dialog.textContent ?? '';
  await user.click(within(dialog).getByRole('button', { name: button }));
  return question;
}

describe('/admin/withdraw-list: the table', () => {
  it("shows every member's lines with user, card, amount, notes and status", async () => {
    const { fake } = open();
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      '',
      'ID',
      '订单号',
      '用户',
      '付款方式',
      '户名',
      '卡号/账号',
      '地址',
      '提现金额',
      '用户备注',
      '状态',
      '账户备注',
      '日期备注',
      '创建时间',
      '操作',
    ]);
    expect(fieldsOf(rowOf(503)).slice(0, 12)).toEqual([
      '503',
      '9002',
      'bob#22',
      '电汇',
      '****blic',
      '****1111',
      '1 Main St',
      '88.80',
      '月结',
      '待付款',
      '工行',
      '3/12',
    ]);
    expect(fieldsOf(rowOf(503))[12]).toMatch(/^2025-03-1\d \d\d:\d\d$/);
    expect(listQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true' }]);
    expect([...(screen.getByLabelText('每页') as HTMLSelectElement).options].map((o) => o.value)).toEqual(['20', '50', '100', '500', '1000']);
  });

  it('offers on each row exactly what the withdraw machine allows, and the notes always', async () => {
    open();
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    expect(buttonsOf(rowOf(501))).toEqual(['同意取消', '拒绝取消', '收款信息', '备注']);
    expect(buttonsOf(rowOf(503))).toEqual(['标记已付款', '收款信息', '备注']);
    expect(buttonsOf(rowOf(504))).toEqual(['收款信息', '备注']);
  });

  it('filters by order, status, user, card and sort, in the URL and the call', async () => {
    const { fake, user, router } = open();
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await user.type(screen.getByLabelText('订单号'), '9001');
    await user.selectOptions(screen.getByLabelText('状态'), 'requestedCancel');
    await user.selectOptions(screen.getByLabelText('用户'), '21');
    await user.type(screen.getByLabelText('银行卡ID'), '32');
    await user.click(screen.getByRole('switch', { name: '按创建时间倒序' }));
    await user.click(screen.getByRole('button', { name: '查询' }));
    const expected = { orderId: '9001', status: 'requestedCancel', userId: '21', cardId: '32', isDesc: 'false' };
    await waitFor(() => expect(urlParams(router)).toEqual(expected));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(listQueries(fake).at(-1)).toEqual({ ...expected, page: '0', size: '20' });
  });

  it('is not open to a lowerAdmin (SPEC §2: the withdraw list is admin only): it goes to the admin home', async () => {
    const { fake, router } = open(createWithdrawFake({ lines: LINES }), 'lowerAdmin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
    expect(listQueries(fake)).toEqual([]);
  });
});

describe('/admin/withdraw-list: actions', () => {
  it("agrees to a requested cancel for the line's whole order after a confirmation", async () => {
    const { fake, user } = open();
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await user.click(within(rowOf(502)).getByRole('button', { name: '同意取消：提现 #502（订单 9001）' }));
    expect(await confirm(user)).toContain('同意取消 alice 的订单 9001 吗？');
    expect(await screen.findByText('已同意取消')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/admin/agree/cancel')).toEqual([{ orderId: 9001 }]);
    await waitFor(() => expect([fieldsOf(rowOf(501))[9], fieldsOf(rowOf(502))[9]]).toEqual(['已取消', '已取消']));
    expect(buttonsOf(rowOf(501))).toEqual(['收款信息', '备注']);
  });

  it('rejects a requested cancel: the order is waited again', async () => {
    const { fake, user } = open();
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await user.click(within(rowOf(501)).getByRole('button', { name: '拒绝取消：提现 #501（订单 9001）' }));
    await confirm(user);
    expect(await screen.findByText('已拒绝取消')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/admin/reject/cancel')).toEqual([{ orderId: 9001 }]);
    await waitFor(() => expect(fieldsOf(rowOf(501))[9]).toBe('待付款'));
    expect(buttonsOf(rowOf(501))).toEqual(['标记已付款', '收款信息', '备注']);
  });

  it("marks a waited line paid; a refusal toasts the server's msg", async () => {
    const fake = createWithdrawFake({ lines: LINES });
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    fake.answer.adminPaid = () => refuse('只有待付款的提现可以标记为已付款');
    await user.click(within(rowOf(503)).getByRole('button', { name: '标记已付款：提现 #503' }));
    expect(await confirm(user)).toContain('确定提现 #503（bob，88.80）已付款吗？');
    expect(await screen.findByText('只有待付款的提现可以标记为已付款')).toBeTruthy();
    delete fake.answer.adminPaid;
    await user.click(within(rowOf(503)).getByRole('button', { name: '标记已付款：提现 #503' }));
    await confirm(user);
    expect(await screen.findByText('已标记为已付款')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/admin/paid')).toEqual([{ id: 503 }, { id: 503 }]);
    await waitFor(() => expect(fieldsOf(rowOf(503))[9]).toBe('已付款'));
  });

  it('edits the account and date notes of a line', async () => {
    const { fake, user } = open();
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await user.click(within(rowOf(503)).getByRole('button', { name: '编辑备注：提现 #503' }));
    const dialog = within(await screen.findByRole('dialog', { name: '编辑备注：提现 #503' }));
    expect((dialog.getByLabelText('账户备注') as HTMLTextAreaElement).value).toBe('工行');
    await user.clear(dialog.getByLabelText('账户备注'));
    await user.type(dialog.getByLabelText('账户备注'), '招行 尾号1111');
    await user.clear(dialog.getByLabelText('日期备注'));
    await user.type(dialog.getByLabelText('日期备注'), '3/15');
    await user.click(dialog.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/admin/adminnote/save')).toEqual([{ requestId: 503, adminNote: '招行 尾号1111', adminNote2: '3/15' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(fieldsOf(rowOf(503)).slice(10, 12)).toEqual(['招行 尾号1111', '3/15']));
  });

  it('keeps the notes dialog open on a refusal, with the server msg (or 保存失败)', async () => {
    const fake = createWithdrawFake({ lines: LINES });
    fake.answer.note = () => refuse('提现记录不存在', 404, 'A00004');
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await user.click(within(rowOf(504)).getByRole('button', { name: '编辑备注：提现 #504' }));
    const dialog = await screen.findByRole('dialog', { name: '编辑备注：提现 #504' });
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('提现记录不存在')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: '编辑备注：提现 #504' })).toBeTruthy();
  });
});

describe('/admin/withdraw-list: files', () => {
  it('exports what the filters select: a token of kind withdraw, then the link with the filters', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: window.location.origin, assign } as Location);
    const fake = createWithdrawFake({ lines: LINES });
    const app = renderApp('/admin/withdraw-list?status=waited&userId=22', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '导出Excel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/ext/excel/withdraw/wd-token?status=waited&userId=22&isDesc=true'));
    const token = fake.server.callsTo('/api/download/excel/{kind}/token');
    expect(token.map((c) => [c.params.kind, Object.keys(c.query)])).toEqual([['withdraw', ['timezone']]]);
    expect(app.router.state.location.pathname).toBe('/admin/withdraw-list');
  });

  const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const xlsx = () => new File([new Uint8Array(2048)], 'paid.xlsx', { type: XLSX });

  async function sendFile(user: ReturnType<typeof userEvent.setup>) {
    await user.click(screen.getByRole('button', { name: 'Excel确认付款' }));
    await user.upload(screen.getByLabelText('表格文件（.xlsx、.xls、.ods、.csv）'), xlsx());
    await user.click(screen.getByRole('button', { name: '上传并确认付款' }));
  }

  it('confirms paid lines by Excel upload: the per-row report, the server msg, the list reloaded', async () => {
    const fake = createWithdrawFake({ lines: LINES });
    fake.confirmResult = {
      rows: [
        { line: 2, itemId: 503, name: '订单 9002 · Wire · ****1111 · 88.80', opStatus: 'succ', msg: '确认成功' },
        { line: 3, itemId: 504, name: '订单 9003 · Wire · ****1111 · 12.50', opStatus: 'skip', msg: '已付款' },
      ],
      succ: 1,
      skip: 1,
      error: 0,
    };
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    const before = listQueries(fake).length;
    await sendFile(user);
    expect(await screen.findByText('上传完成：成功1条，跳过1条，失败0条')).toBeTruthy();
    const report = await screen.findByRole('table', { name: '上传结果' });
    expect(
      within(report)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell').at(-1)!.textContent),
    ).toEqual(['已付款', '确认成功']); // the rows that need a look first
    expect(fake.server.callsTo('/api/withdraw/admin/confirm').map((c) => c.body)).toEqual([{ file: { name: 'paid.xlsx', size: 2048 } }]);
    await waitFor(() => expect(listQueries(fake).length).toBe(before + 1));
  });

  it('says 上传错误 when a row is wrong (nothing was changed), and shows which', async () => {
    const fake = createWithdrawFake({ lines: LINES });
    fake.confirmResult = {
      rows: [
        { line: 2, itemId: 503, name: '订单 9002', opStatus: 'skip', msg: '未处理：文件中有错误行' },
        { line: 3, itemId: null, opStatus: 'error', msg: '提现记录不存在' },
      ],
      succ: 0,
      skip: 1,
      error: 1,
    };
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    const before = listQueries(fake).length;
    await sendFile(user);
    expect(await screen.findByText('上传错误')).toBeTruthy();
    const report = await screen.findByRole('table', { name: '上传结果' });
    expect(within(report).getByText('提现记录不存在')).toBeTruthy();
    expect(listQueries(fake).length).toBe(before);
  });

  it('says 上传错误 when the file is refused', async () => {
    const fake = createWithdrawFake({ lines: LINES });
    fake.answer.confirm = () => refuse('文件无法读取，请上传 .xlsx 格式的Excel文件');
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await sendFile(user);
    expect(await screen.findByText('上传错误')).toBeTruthy();
    expect(await screen.findByText('上传失败：文件无法读取，请上传 .xlsx 格式的Excel文件')).toBeTruthy();
    expect(screen.queryByRole('table', { name: '上传结果' })).toBeNull();
  });

  it('answers ok without data as a failure too', async () => {
    const fake = createWithdrawFake({ lines: LINES });
    fake.answer.confirm = () => ok(undefined, '');
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await sendFile(user);
    expect(await screen.findByText('上传错误')).toBeTruthy();
  });
});

describe('/admin/withdraw-list: 收款信息 (the card in full)', () => {
  /** The dialog's fields as label -> value. */
  const detailsOf = (dialog: HTMLElement) =>
    Object.fromEntries(
      within(dialog)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );

  it('reveals the full details of the line on the click, each with a copy button, and keeps none after closing', async () => {
    const { fake, user } = open();
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await user.click(within(rowOf(503)).getByRole('button', { name: '收款信息：提现 #503' }));
    const dialog = await screen.findByRole('dialog', { name: '收款信息：提现 #503' });
    await waitFor(() => expect(within(dialog).queryByRole('status')).toBeNull());
    expect(detailsOf(dialog)).toEqual({
      付款方式: '电汇',
      户名: 'Acme Public',
      '卡号/账号': '000123451111',
      路由号: '021000021',
      银行名称: 'Chase',
      卡类型: '—',
      地址: '1 Main St',
    });
    expect(dialog.textContent).toContain('bob · 订单 9002 · 金额 88.80');
    expect(dialog.textContent).toContain('管理员日志');
    expect(bodiesTo(fake, '/api/withdraw/admin/card/reveal')).toEqual([{ id: 503 }]);

    await user.click(within(dialog).getByRole('button', { name: '复制卡号/账号' }));
    expect(await navigator.clipboard.readText()).toBe('000123451111');
    expect(within(dialog).getByRole('button', { name: '复制卡号/账号' }).textContent).toBe('已复制');
    expect(within(dialog).queryByRole('button', { name: '复制卡类型' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain('000123451111');

    await user.click(within(rowOf(502)).getByRole('button', { name: '收款信息：提现 #502' }));
    const second = await screen.findByRole('dialog', { name: '收款信息：提现 #502' });
    await waitFor(() => expect(detailsOf(second)['户名']).toBe('Ann Lee'));
    expect(second.textContent).not.toContain('Acme Public');
    expect(bodiesTo(fake, '/api/withdraw/admin/card/reveal')).toEqual([{ id: 503 }, { id: 502 }]);
  });

  it('says in the dialog when the reveal is refused', async () => {
    const fake = createWithdrawFake({ lines: LINES });
    fake.answer.reveal = () => refuse('提现记录不存在', 404, 'A00004');
    const { user } = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await user.click(within(rowOf(504)).getByRole('button', { name: '收款信息：提现 #504' }));
    const dialog = await screen.findByRole('dialog', { name: '收款信息：提现 #504' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('A00004 提现记录不存在');
    expect(within(dialog).queryAllByRole('term')).toHaveLength(0);
  });
});

describe('/admin/withdraw-list: choosing the lines to pay', () => {
  const PAYABLE = [
    aLine({ id: 501, orderId: 9001, userId: 21, status: 'requestedCancel', createdAt: NOW + 4 }),
    aLine({ id: 503, orderId: 9002, userId: 22, status: 'waited', cancelFlag: false, withdrawAmount: 88.8, createdAt: NOW + 3 }),
    aLine({ id: 505, orderId: 9004, userId: 21, status: 'waited', cardId: 33, withdrawAmount: 12.5, createdAt: NOW + 2 }),
    aLine({ id: 504, orderId: 9003, userId: 22, status: 'paid', cancelFlag: false, createdAt: NOW + 1 }),
  ];
  const checkboxOf = (id: number) => within(rowOf(id)).queryByRole('checkbox', { name: '选择此行' });
  const selectionBar = () => screen.queryByRole('region', { name: /^已选择/ });

  async function chooseTwo(fake = createWithdrawFake({ lines: PAYABLE })) {
    const app = open(fake);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    await app.user.click(checkboxOf(503)!);
    await app.user.click(checkboxOf(505)!);
    return app;
  }

  it('offers a checkbox only on the lines the admin may pay; the header chooses all of them', async () => {
    const { user } = open(createWithdrawFake({ lines: PAYABLE }));
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    expect([501, 503, 505, 504].map((id) => checkboxOf(id) !== null)).toEqual([false, true, true, false]);
    expect(selectionBar()).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: '选择本页全部' }));
    expect(selectionBar()?.textContent).toContain('已选择 2 笔待付款提现，合计 101.30');
  });

  it('pays the chosen lines in one call after a confirmation naming their count and total', async () => {
    const { fake, user } = await chooseTwo();
    expect(selectionBar()?.textContent).toContain('已选择 2 笔待付款提现，合计 101.30');
    await user.click(screen.getByRole('button', { name: '批量标记已付款' }));
    const dialog = await screen.findByRole('dialog', { name: '批量标记已付款' });
    expect(dialog.textContent).toContain('确定这 2 笔提现（合计 101.30）都已付款吗？');
    await user.click(within(dialog).getByRole('button', { name: '标记已付款' }));
    expect(await screen.findByText('已将2笔提现标记为已付款')).toBeTruthy();
    expect(bodiesTo(fake, '/api/withdraw/admin/paid/batch')).toEqual([{ ids: [503, 505] }]);
    await waitFor(() => expect([fieldsOf(rowOf(503))[9], fieldsOf(rowOf(505))[9]]).toEqual(['已付款', '已付款']));
    expect(selectionBar()).toBeNull();
    expect(checkboxOf(503)).toBeNull();
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const { fake, user } = await chooseTwo();
    await user.click(screen.getByRole('button', { name: '批量标记已付款' }));
    await user.click(within(await screen.findByRole('dialog', { name: '批量标记已付款' })).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodiesTo(fake, '/api/withdraw/admin/paid/batch')).toEqual([]);
    expect(selectionBar()).not.toBeNull();
  });

  it('says which lines a refused bulk pay could not pay, and why (nothing was changed)', async () => {
    const fake = createWithdrawFake({ lines: PAYABLE });
    fake.answer.batchPay = () =>
      ok({
        status: 'failed',
        msg: '有不能付款的提现，未做任何修改',
        rows: [
          { id: 503, ok: true, msg: '' },
          { id: 505, ok: false, msg: '只有待付款的提现可以标记为已付款' },
        ],
      });
    const { user } = await chooseTwo(fake);
    await user.click(screen.getByRole('button', { name: '批量标记已付款' }));
    await user.click(within(await screen.findByRole('dialog', { name: '批量标记已付款' })).getByRole('button', { name: '标记已付款' }));
    expect(await screen.findByText('有不能付款的提现，未做任何修改')).toBeTruthy();
    const refused = screen.getAllByRole('alert').find((el) => el.textContent?.includes('以下提现不能标记为已付款'))!;
    expect(
      within(refused)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['提现 #505：只有待付款的提现可以标记为已付款']);
    expect(fieldsOf(rowOf(503))[9]).toBe('待付款');
    expect(selectionBar()?.textContent).toContain('已选择 2 笔');
  });

  function spyOnDownloads() {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: window.location.origin, assign } as Location);
    return assign;
  }

  it('exports the payment file of the chosen lines: their ids go with the token call, then the file downloads', async () => {
    const assign = spyOnDownloads();
    const { fake, user } = await chooseTwo();
    await user.click(within(selectionBar()!).getByRole('button', { name: '导出付款文件' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/ext/excel/withdraw-payment/pay-token'));
    expect(bodiesTo(fake, '/api/withdraw/admin/payment-file/token')).toEqual([{ ids: [503, 505], timezone: expect.any(Number) }]);
    expect(await screen.findByText('付款文件包含 2 笔待付款提现，下载会记录在管理员日志中')).toBeTruthy();
  });

  it("without a choice, the header's 导出付款文件 takes every waited line the filters select", async () => {
    const assign = spyOnDownloads();
    const fake = createWithdrawFake({ lines: PAYABLE });
    renderApp('/admin/withdraw-list?userId=21&isDesc=false', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: '导出付款文件' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/ext/excel/withdraw-payment/pay-token'));
    expect(bodiesTo(fake, '/api/withdraw/admin/payment-file/token')).toEqual([{ userId: 21, isDesc: false, timezone: expect.any(Number) }]);
  });

  it('does not offer the payment file for a status filter other than waited (the file holds waited lines only)', async () => {
    const fake = createWithdrawFake({ lines: PAYABLE });
    renderApp('/admin/withdraw-list?status=paid', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect((screen.getByRole('button', { name: '导出付款文件' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
