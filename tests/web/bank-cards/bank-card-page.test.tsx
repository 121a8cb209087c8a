// @vitest-environment happy-dom
// /user/bank-card through the real router, with the card calls faked (bank-cards-fake.ts): the
// table, the add dialog's rules (machines/bank-card.ts: SPEC §5 messages per type, a type switch
// clears the card's fields, a second submit is blocked), the body sent, the toasts and the list
// reloading after a failed save or delete (SPEC §8).
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CARD_RULES, KNOWN_PAYMENT_TYPES } from '../../../machines/bank-card';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { ok } from '../support/fake-api';
import { aCard, createBankCardsFake, refuse, type BankCard } from './bank-cards-fake';
import { cellsOf, dataRows } from '../support/table-reading';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

afterEach(() => {
  cleanup();
  clearToasts();
});

function open(cards?: BankCard[]) {
  const fake = createBankCardsFake({ cards });
  const app = renderApp('/user/bank-card', { loggedInAs: userOf('user'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: '银行卡列表' });
const bodyRows = () => dataRows(table());
const listCalls = (fake: ReturnType<typeof createBankCardsFake>) => fake.server.callsTo('/api/withdraw/user/show/cards');
const bindCalls = (fake: ReturnType<typeof createBankCardsFake>) => fake.server.callsTo('/api/withdraw/user/bind/card');
const dialog = () => screen.getByRole('dialog', { name: '添加银行卡' });
const alerts = () =>
  within(dialog())
    .queryAllByRole('alert')
    .map((a) => a.textContent);

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: '添加银行卡' }));
  return screen.findByRole('dialog', { name: '添加银行卡' });
}

describe('/user/bank-card: the table', () => {
  it('shows each card as the server answers it (masked), 20 a page', async () => {
    const cards = Array.from({ length: 23 }, (_, i) => aCard({ id: i + 1, cardNo: `****${1000 + i}` }));
    cards[0] = aCard({ id: 1, paymentType: 'Billpay', cardType: 'visa', routingNumber: '', address: 'PO Box 9' });
    const { user } = open(cards);
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', '付款方式', '户名', '卡号/账号', '路由号', '银行名称', '卡类型', '地址', '操作']);
    expect(cellsOf(bodyRows()[0]!)).toEqual(['1', '账单支付', '****blic', '****1111', '', 'Chase', 'Visa', 'PO Box 9', '删除']);
    expect(cellsOf(bodyRows()[1]!).slice(0, 5)).toEqual(['2', '电汇', '****blic', '****1001', '****0021']);
    await user.click(screen.getByRole('button', { name: '第 2 页' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(cellsOf(bodyRows()[0]!)[0]).toBe('21');
  });
});

describe('/user/bank-card: the add dialog', () => {
  it('offers the six payment types and a typed one; asks for the type and the holder name first', async () => {
    const { user, fake } = open([]);
    await openDialog(user);
    const type = within(dialog()).getByLabelText('付款方式') as HTMLSelectElement;
    expect([...type.options].map((o) => o.textContent)).toEqual(['请选择', '账单支付', '支票', '电汇', 'ACH转账', 'PayPal', 'Zelle', '其他（自行填写）']);
    expect([...type.options].map((o) => o.value)).toEqual(['', ...KNOWN_PAYMENT_TYPES, 'other']);
    await user.click(within(dialog()).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(alerts()).toEqual(['请填写付款方式', '请填写Account Holder Name']));
    expect(bindCalls(fake)).toHaveLength(0);
  });

  it('asks each type for its own fields with the SPEC §5 messages', async () => {
    const { user, fake } = open([]);
    await openDialog(user);
    for (const type of KNOWN_PAYMENT_TYPES) {
      await user.selectOptions(within(dialog()).getByLabelText('付款方式'), type);
      await user.click(within(dialog()).getByRole('button', { name: '保存' }));
      await waitFor(() => expect(alerts(), type).toEqual(['请填写Account Holder Name', ...CARD_RULES[type].map((r) => r.message)]));
      for (const rule of CARD_RULES[type]) expect(within(dialog()).getByLabelText(rule.label), `${type} ${rule.label}`).toBeTruthy();
    }
    expect(alerts()).toEqual(['请填写Account Holder Name', '请填写账户信息', '请填写地址']);
    expect(within(dialog()).queryByLabelText('路由号')).toBeNull();
    expect(bindCalls(fake)).toHaveLength(0);
  });

  it("switching the type clears the card's fields (the holder name stays)", async () => {
    const { user } = open([]);
    await openDialog(user);
    const d = within(dialog());
    await user.selectOptions(d.getByLabelText('付款方式'), 'Wire');
    await user.type(d.getByLabelText('户名'), 'John Q Public');
    await user.type(d.getByLabelText('账号'), '123456789');
    await user.type(d.getByLabelText('银行名称'), 'Chase');
    await user.type(d.getByLabelText('路由号'), '021000021');
    await user.selectOptions(d.getByLabelText('付款方式'), 'ACH');
    expect((d.getByLabelText('账号') as HTMLInputElement).value).toBe('');
    expect((d.getByLabelText('银行名称') as HTMLInputElement).value).toBe('');
    expect((d.getByLabelText('路由号') as HTMLInputElement).value).toBe('');
    expect((d.getByLabelText('户名') as HTMLInputElement).value).toBe('John Q Public');
    await user.selectOptions(d.getByLabelText('付款方式'), 'Check');
    const cardType = d.getByLabelText('卡类型') as HTMLSelectElement;
    expect([...cardType.options].map((o) => o.value)).toEqual(['', 'Personal Checking', 'Personal Saving', 'Business Checking', 'Business Saving']);
    expect([...cardType.options].map((o) => o.textContent)).toEqual(['请选择', '个人支票账户', '个人储蓄账户', '企业支票账户', '企业储蓄账户']);
  });

  it('sends the type, the holder name and the fields of the type; says 保存成功 and lists the new card', async () => {
    const { user, fake } = open([]);
    await openDialog(user);
    const d = within(dialog());
    await user.selectOptions(d.getByLabelText('付款方式'), 'Billpay');
    await user.type(d.getByLabelText('户名'), ' John Q Public ');
    await user.type(d.getByLabelText('卡号'), '4111111111111111');
    await user.type(d.getByLabelText('银行名称'), 'Chase');
    await user.selectOptions(d.getByLabelText('卡类型'), 'amex');
    await user.type(d.getByLabelText('银行地址'), '1 Main St');
    await user.click(d.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bindCalls(fake).map((c) => c.body)).toEqual([
      { paymentType: 'Billpay', accountName: 'John Q Public', cardNo: '4111111111111111', bankInfo: 'Chase', cardType: 'amex', address: '1 Main St' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(cellsOf(bodyRows()[0]!)).toEqual(['100', '账单支付', '****blic', '****1111', '', 'Chase', 'American Express', '1 Main St', '删除']);
  });

  it('takes a typed payment type, which needs the holder name and the account it is paid to', async () => {
    const { user, fake } = open([]);
    await openDialog(user);
    const d = within(dialog());
    expect(d.getByText('请先选择付款方式，再填写对应的信息')).toBeTruthy();
    await user.selectOptions(d.getByLabelText('付款方式'), 'other');
    // The account field shows at once (before the new type is named), and the hint to choose a type goes.
    expect(d.queryByText('请先选择付款方式，再填写对应的信息')).toBeNull();
    expect(d.getByLabelText('账户信息')).toBeTruthy();
    expect(d.getByText('收款的账号、邮箱或手机号（保存后只显示末四位）')).toBeTruthy();
    await user.click(d.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(alerts()).toEqual(['请填写付款方式', '请填写Account Holder Name', '请填写账户信息']));
    await user.type(d.getByLabelText('新的付款方式'), 'Venmo');
    await user.type(d.getByLabelText('户名'), 'Ann');
    await user.click(d.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(alerts()).toEqual(['请填写账户信息']));
    expect(bindCalls(fake)).toEqual([]);
    await user.type(d.getByLabelText('账户信息'), '@ann-99');
    await user.click(d.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bindCalls(fake).map((c) => c.body)).toEqual([{ paymentType: 'Venmo', accountName: 'Ann', cardNo: '@ann-99' }]);
  });

  it('blocks a second submit while saving', async () => {
    const { user, fake } = open([]);
    let release: (r: Response) => void = () => {};
    fake.answer.bind = () => new Promise<Response>((resolve) => (release = resolve));
    await openDialog(user);
    const d = within(dialog());
    await user.selectOptions(d.getByLabelText('付款方式'), 'Zelle');
    await user.type(d.getByLabelText('户名'), 'Ann');
    await user.type(d.getByLabelText('账户信息'), 'ann@example.com');
    await user.type(d.getByLabelText('地址'), '2 Elm St');
    const save = d.getByRole('button', { name: '保存' });
    await user.click(save);
    await waitFor(() => expect(bindCalls(fake)).toHaveLength(1));
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await user.click(save);
    await user.type(d.getByLabelText('地址'), '{Enter}');
    expect(bindCalls(fake)).toHaveLength(1);
    release(ok({ status: 'succ', msg: '保存成功' }, '保存成功'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bindCalls(fake)).toHaveLength(1);
  });

  it("shows the server's refusal, keeps the dialog and reloads the list", async () => {
    const { user, fake } = open([aCard()]);
    fake.answer.bind = () => refuse('最多绑定50张银行卡');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const before = listCalls(fake).length;
    await openDialog(user);
    const d = within(dialog());
    await user.selectOptions(d.getByLabelText('付款方式'), 'Paypal');
    await user.type(d.getByLabelText('户名'), 'Ann');
    await user.type(d.getByLabelText('账户信息'), 'ann@example.com');
    await user.type(d.getByLabelText('地址'), '2 Elm St');
    await user.click(d.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('最多绑定50张银行卡')).toBeTruthy();
    await waitFor(() => expect(listCalls(fake).length).toBe(before + 1));
    expect(screen.getByRole('dialog', { name: '添加银行卡' })).toBeTruthy();
    // No words from the server: SPEC §8's own.
    fake.answer.bind = () => ok({ status: 'failed' });
    await user.click(d.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存失败')).toBeTruthy();
    await waitFor(() => expect(listCalls(fake).length).toBe(before + 2));
  });
});

describe('/user/bank-card: delete', () => {
  it('deletes a card after a confirmation and says 删除成功', async () => {
    const { user, fake } = open([aCard({ id: 31 }), aCard({ id: 32, cardNo: '****2222' })]);
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: '删除银行卡 #32' }));
    const question = await screen.findByRole('dialog', { name: '删除银行卡' });
    expect(question.textContent).toContain('#32 电汇 ****2222');
    await user.click(within(question).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(fake.server.callsTo('/api/withdraw/user/unbind/card').map((c) => c.body)).toEqual([{ cardId: 32 }]);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
  });

  it('asks nothing of the server when the confirmation is declined', async () => {
    const { user, fake } = open([aCard({ id: 31 })]);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '删除银行卡 #31' }));
    await user.click(within(await screen.findByRole('dialog', { name: '删除银行卡' })).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.server.callsTo('/api/withdraw/user/unbind/card')).toHaveLength(0);
  });

  it("shows the server's refusal (or 删除失败) and reloads the list", async () => {
    const { user, fake } = open([aCard({ id: 31 })]);
    fake.answer.unbind = () => refuse('该银行卡有未完成的提现，不能删除');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const before = listCalls(fake).length;
    await user.click(screen.getByRole('button', { name: '删除银行卡 #31' }));
    await user.click(within(await screen.findByRole('dialog', { name: '删除银行卡' })).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('该银行卡有未完成的提现，不能删除')).toBeTruthy();
    await waitFor(() => expect(listCalls(fake).length).toBe(before + 1));

    fake.answer.unbind = () => ok({ status: 'failed' });
    await user.click(screen.getByRole('button', { name: '删除银行卡 #31' }));
    await user.click(within(await screen.findByRole('dialog', { name: '删除银行卡' })).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('删除失败')).toBeTruthy();
    await waitFor(() => expect(listCalls(fake).length).toBe(before + 2));
    expect(bodyRows()).toHaveLength(1);
  });
});

describe('/user/bank-card at a phone width', () => {
  afterEach(atDesktopWidth);

  it('shows each card as a card: its type, masked fields and the delete button', async () => {
    atPhoneWidth();
    open([aCard({ id: 41, paymentType: 'Zelle', cardNo: '****5555' }), aCard({ id: 42, paymentType: 'Wire', cardNo: '****1111' })]);
    const list = await screen.findByRole('list', { name: '银行卡列表' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByText('Zelle')).toBeTruthy();
    expect(first.getByText('****5555')).toBeTruthy();
    expect(first.getByRole('button', { name: /删除/ })).toBeTruthy();
  });
});
