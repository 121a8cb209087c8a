// From a locked task to a collected payment, in a real browser against the real server (money,
// end-to-end; SPEC §2 payment and withdraw screens, §5 bank card and withdraw rules, DECISIONS
// "Money"). The setup that is not the subject goes through the API: an admin and a member in a group,
// a published board task the member claimed (2 units) and recorded a purchase of, and the admin's
// scan of that parcel, which locks the task. Then every step a person takes is done on their
// screen, on one server, in order (the steps are listed below the imports).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import { cellText, dismissToasts, inviteAndRegister, logIn, newPage, openLoggedIn, rowWithCell, shot, type BrowserPage, useStage } from './setup.ts';

/*
 *   b) the member applies for payment of the task (bonus and note) at /user/my-task;
 *   c) the admin agrees at /admin/apply-list, raising the bonus;
 *   d) the member binds two cards of different payment types at /user/bank-card (a missing field is
 *      named first) and sees their own name in full, the numbers masked; then, on a phone by
 *      keyboard, a type of their own (其他), which asks for its account;
 *   e) the member requests a withdrawal of the task split over both cards at /user/withdraw-request
 *      (on a phone, by keyboard, the single task comes ticked with both sums equal and the line asks
 *      for a card; a split that does not add up is refused first);
 *   f) the admin logs in, lands on the home, follows its withdrawals count to /admin/withdraw-list,
 *      reveals a line's card, exports the payment file of both lines and marks both paid at once;
 *  f2) the admin log's payout view lists that reveal and the file's lines (keyboard, 1400 px); at
 *      390 px 提现管理 and 用户任务 fold their filters and keep each row's actions in reach;
 *   g) the member confirms receipt at /user/apply-list: collected.
 * The end state is checked through the API too: the application collected, both lines paid, the
 * task finished, its parcel payed, the balance 0.
 */

const ADMIN = { mail: 'treasurer@e2e.test', password: 'treasurer-pass-1' };
const MEMBER = { mail: 'earner@e2e.test', password: 'earner-pass-1', nickName: '采购员小李' };
const ITEM = { itemName: 'E2E 蓝牙耳机', productId: 'E2E-BT-301', upc: '690000000301', price: 15.99 };
const TRACKING = '9400E2E0000000000301';
/** 2 units at 12.50: 25.00; the member asks a 3.00 bonus (28.00), the admin agrees with 5.50 (30.50). */
const BUY_IN = 12.5;
const UNITS = 2;
const ASKED_BONUS = '3';
const AGREED_BONUS = '5.5';
const INCOME = '30.50';
/** The split over the two cards, and a first try that falls 0.50 short. */
const SPLIT = { wire: '20.00', paypal: '10.50' };
const SHORT = { wire: '20.00', paypal: '10.00' };
const NOTE = '两件都已到货，请结算';

/** The two cards, as typed; `masked` is what every screen shows of the number and the holder. */
const WIRE = {
  paymentType: 'Wire',
  accountName: 'Li Xiao Ming',
  cardNo: '000123456789',
  bankInfo: 'E2E First Bank',
  routingNumber: '021000021',
  address: '1 Market St, San Francisco, CA',
  masked: { cardNo: '****6789', accountName: '****Ming', routingNumber: '****0021' },
};
const PAYPAL = {
  paymentType: 'Paypal',
  accountName: 'Li XM',
  cardNo: 'li.xm@pay.example',
  address: '2 Market St, San Francisco, CA',
  masked: { cardNo: '****mple', accountName: '****XM' },
};

/** A payout type of the member's own (其他（自行填写）): the account is all it needs beyond the name. */
const OTHER = { accountName: 'Li XM', cardNo: '@li-xm-0301', maskedCardNo: '****0301' };

const stage = useStage({ admin: ADMIN });
const { server, sink, browser, api } = stage;
let adminToken: string;
let memberToken: string;
/** The member's locked task; `label` is how the screens show it (mainId, subId 0). */
const task = { id: 0, mainId: 0, label: '' };
/** The member's and the admin's browser pages, kept logged in from step to step. */
let member: BrowserPage;
let admin: BrowserPage;

beforeAll(async () => {
  member = await newPage(browser);
  admin = await newPage(browser);
});

afterAll(async () => {
  await member?.close();
  await admin?.close();
});

interface TaskRow {
  id: number;
  mainId: number;
  subId: number;
  status: string;
  productCount: number;
}
interface ApplyRow {
  id: number;
  taskId: number;
  status: string;
  bonus: number;
  existBonus: number;
  income: number;
  note: string;
}
interface LineRow {
  id: number;
  orderId: number;
  cardId: number;
  withdrawAmount: number;
  status: string;
}

const taskNow = () => api.get<TaskRow>(adminToken, `/api/task/info/${task.id}`);
const balanceNow = async () => (await api.get<{ balance: number }>(memberToken, '/api/user/balance')).balance;
const appliesNow = async () => (await api.get<{ content: ApplyRow[] }>(memberToken, '/api/apply/list/page?page=0&size=20')).content;
const linesNow = async () =>
  (await api.get<{ requestPage: { content: LineRow[] } }>(memberToken, '/api/withdraw/user/requests?page=0&size=20')).requestPage.content;

/** Prints the tables on screen when a step fails (what the user saw). */
function whatWasOnScreen(page: Page, step: string) {
  return async () => {
    const tables = await page
      .getByRole('table')
      .evaluateAll((all) => all.map((t) => (t as HTMLElement).innerText))
      .catch(() => []);
    const alerts = await page
      .getByRole('alert')
      .allInnerTexts()
      .catch(() => []);
    console.error(`money ${step}: ${page.url()}\nalerts: ${alerts.join(' | ')}\n${tables.join('\n\n')}\nserver:\n${server.output().slice(-3000)}`);
  };
}

/** How long a wait for a reloaded list may take on a busy machine (a ceiling, not a timing claim). */
const SETTLES = { timeout: 15_000, interval: 50 };

/** Waits until `row`'s cell under `header` reads `text` (a list reloads a moment after a change). */
async function cellBecomes(table: Locator, row: Locator, header: string, text: string) {
  await expect.poll(() => cellText(table, row, header), SETTLES).toBe(text);
}

/** A success toast (looked up among hidden elements too: a dialog makes the page behind it inert). */
const toast = (page: Page, text: string) => page.getByRole('status', { includeHidden: true }).filter({ hasText: text });

/**
 * A screenshot (shot) with every table scrolled back to its first column: clicking a button in the
 * last column of a wide table scrolls it sideways, and the shot would miss the ids and the member.
 */
async function shotOf(page: Page, name: string) {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('*')) if (el.scrollLeft > 0) el.scrollLeft = 0;
  });
  await shot(page, name);
}

/** Opens `path` in `bp`'s tab (already logged in) and waits for the page's heading. */
async function visit(bp: BrowserPage, path: string, heading: string) {
  await bp.page.goto(`${server.url}${path}`);
  await bp.page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/**
 * Setup through the API, as the admin and the member would do it on their screens (those have their
 * own e2e tests): the member (invited, registered, in a group) claims 2 units of a published board
 * task and records the purchase; the admin's scan of the parcel brings the 2 units, which match, and
 * the task is locked.
 */
async function seed() {
  adminToken = stage.adminToken;
  const memberId = await inviteAndRegister(server, sink, adminToken, MEMBER);
  const item = await api.post<{ id: number }>(adminToken, '/api/item/info', { ...ITEM, url: 'shop.example.com/bt-301', status: 'open' });
  const group = await api.post<{ id: number }>(adminToken, '/api/usergroup/update', { groupName: 'E2E 结算组', remark: '' });
  expect(await api.post<boolean>(adminToken, `/api/usergroup/${group.id}/user?uids=${memberId}`)).toBe(true);
  const board = await api.post<{ id: number }>(adminToken, '/api/board/info', {
    boardName: 'E2E 结算看板',
    remark: '耳机',
    publishAt: Date.now() - 3_600_000,
    expireAt: Date.now() + 7 * 86_400_000,
  });
  const { boardTask } = await api.post<{ boardTask: { id: number } }>(adminToken, `/api/boardtask/${board.id}/info`, {
    itemId: item.id,
    buyIn: BUY_IN,
    show: 10,
  });
  expect(await api.post<boolean>(adminToken, `/api/board/${board.id}/add?groupIds=${group.id}`)).toBe(true);
  await api.post(adminToken, `/api/boardtask/publish/${board.id}`);

  memberToken = await api.login(MEMBER.mail, MEMBER.password);
  const claimed = await api.post<{ task: TaskRow }>(memberToken, `/api/task/${boardTask.id}/user/create/${UNITS}`);
  expect(claimed.task).toMatchObject({ status: 'open', subId: 0 });
  Object.assign(task, { id: claimed.task.id, mainId: claimed.task.mainId, label: String(claimed.task.mainId) });
  await api.post(memberToken, `/api/purchased/user/${task.id}/create`, { trackingId: TRACKING, productCount: UNITS });

  // The admin's scan of the parcel: both units, matching the record.
  await api.post(adminToken, `/api/scan/admin/tracking/${TRACKING}/create`, { items: [{ upc: ITEM.upc, count: UNITS, itemId: item.id }] });
  await expect(taskNow()).resolves.toMatchObject({ status: 'locked', productCount: UNITS });
  await expect(balanceNow()).resolves.toBe(0);
}

describe('money in the browser: from a locked task to a collected payment', () => {
  it('a) setup: the task is locked once its parcel is scanned', async () => {
    await seed();
  });

  it('b) /user/my-task: the member applies for payment with a bonus and a note; the button then says it was applied for', async () => {
    const m = member.page;
    onTestFailed(whatWasOnScreen(m, 'b'));
    await openLoggedIn(m, server, '/user/my-task', MEMBER);
    const myTasks = m.getByRole('table', { name: '我的任务列表' });
    const row = rowWithCell(myTasks, task.label);
    await row.waitFor();
    await expect(cellText(myTasks, row, '状态')).resolves.toBe('已锁定');

    await row.getByRole('button', { name: `申请付款：任务 ${task.label}` }).click();
    const dialog = m.getByRole('dialog', { name: /^申请付款/ });
    await dialog.getByText(`回收价 12.50 × 到货 ${UNITS} 件，折扣 0.00`, { exact: true }).waitFor();
    await dialog.getByText('预计收入：25.00', { exact: true }).waitFor(); // a blank bonus is 0
    await dialog.getByLabel('奖励', { exact: true }).fill(ASKED_BONUS);
    await dialog.getByText('预计收入：28.00', { exact: true }).waitFor();
    await dialog.getByLabel('备注', { exact: true }).fill(NOTE);
    await shot(m, 'money-01-apply-dialog');
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(m, '申请成功').waitFor();

    // The task moved on: in payment, and its button is the disabled 'already applied'.
    const applied = row.getByRole('button', { name: '已申请付款' });
    await applied.waitFor();
    await expect(applied.isDisabled()).resolves.toBe(true);
    await expect(row.getByRole('button', { name: `申请付款：任务 ${task.label}` }).count()).resolves.toBe(0);
    await cellBecomes(myTasks, row, '状态', '付款中');
    await dismissToasts(m);
    await shot(m, 'money-02-my-task-applied');

    const [apply] = await appliesNow();
    expect(apply).toMatchObject({ taskId: task.id, status: 'applied', bonus: 3, existBonus: 3, income: 28, note: NOTE });
    await expect(taskNow()).resolves.toMatchObject({ status: 'processing' });
  });

  it('c) /admin/apply-list: the admin agrees, raising the bonus', async () => {
    const a = admin.page;
    onTestFailed(whatWasOnScreen(a, 'c'));
    await openLoggedIn(a, server, '/admin/apply-list', ADMIN);
    const list = a.getByRole('table', { name: '付款申请列表' });
    const row = rowWithCell(list, task.label);
    await row.waitFor();
    await expect(cellText(list, row, '状态')).resolves.toBe('已申请');
    await expect(cellText(list, row, '收入')).resolves.toBe('28.00');
    await expect(cellText(list, row, '备注')).resolves.toBe(NOTE);
    await expect(cellText(list, row, '申请人')).resolves.toContain(MEMBER.nickName);

    await row.getByRole('button', { name: `同意付款申请：任务 ${task.label}` }).click();
    const dialog = a.getByRole('dialog', { name: /^同意付款申请/ });
    await dialog.getByText('留空则保持原奖励 3.00', { exact: true }).waitFor();
    await dialog.getByText('同意后收入：28.00', { exact: true }).waitFor();
    await dialog.getByLabel('奖励', { exact: true }).fill(AGREED_BONUS);
    await dialog.getByText(`同意后收入：${INCOME}`, { exact: true }).waitFor();
    await shot(a, 'money-03-agree-dialog');
    await dialog.getByRole('button', { name: '同意', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await cellBecomes(list, row, '状态', '已同意');
    await expect(cellText(list, row, '收入')).resolves.toBe(INCOME);
    await expect(cellText(list, row, '奖励')).resolves.toContain('5.50');
    await expect(row.getByRole('button', { name: `同意付款申请：任务 ${task.label}` }).count()).resolves.toBe(0);
    await dismissToasts(a);
    await shot(a, 'money-04-apply-list-agreed');

    // existBonus keeps what the member asked for beside the agreed bonus.
    expect((await appliesNow())[0]).toMatchObject({ status: 'agreed', bonus: 5.5, existBonus: 3, income: 30.5 });
    await expect(balanceNow()).resolves.toBe(30.5);
  });

  it('d) /user/bank-card: the member binds a Wire and a Paypal card (a missing field is named first) and sees their name in full, the numbers masked', async () => {
    const m = member.page;
    onTestFailed(whatWasOnScreen(m, 'd'));
    await visit(member, '/user/bank-card', '银行卡');
    const cards = m.getByRole('table', { name: '银行卡列表' });
    await cards.getByText('还没有银行卡，点击「添加银行卡」添加一张').waitFor();

    // The Wire card, first without the holder name and the routing number.
    await m.getByRole('button', { name: '添加银行卡' }).click();
    const dialog = m.getByRole('dialog', { name: '添加银行卡' });
    await dialog.getByLabel('付款方式', { exact: true }).selectOption(WIRE.paymentType);
    await dialog.getByLabel('账号', { exact: true }).fill(WIRE.cardNo);
    await dialog.getByLabel('银行名称', { exact: true }).fill(WIRE.bankInfo);
    await dialog.getByLabel('账单地址', { exact: true }).fill(WIRE.address);
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('请填写Account Holder Name', { exact: true }).waitFor();
    await dialog.getByText('请填写路由号', { exact: true }).waitFor();
    await expect(dialog.getByLabel('户名', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(dialog.getByText('请填写账号', { exact: true }).count()).resolves.toBe(0);
    await shot(m, 'money-05-card-missing-fields');
    await expect(api.get<{ userCardList: unknown[] }>(memberToken, '/api/withdraw/user/show/cards')).resolves.toEqual({ userCardList: [] });

    await dialog.getByLabel('户名', { exact: true }).fill(WIRE.accountName);
    await dialog.getByLabel('路由号', { exact: true }).fill(WIRE.routingNumber);
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toast(m, '保存成功').waitFor();
    const wireRow = rowWithCell(cards, WIRE.masked.cardNo);
    await wireRow.waitFor();

    // The Paypal card.
    await m.getByRole('button', { name: '添加银行卡' }).click();
    await dialog.getByLabel('付款方式', { exact: true }).selectOption(PAYPAL.paymentType);
    await expect(dialog.getByLabel('路由号', { exact: true }).count()).resolves.toBe(0); // Paypal has none
    await dialog.getByLabel('户名', { exact: true }).fill(PAYPAL.accountName);
    await dialog.getByLabel('账户信息', { exact: true }).fill(PAYPAL.cardNo);
    await dialog.getByLabel('地址', { exact: true }).fill(PAYPAL.address);
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'detached' });
    const paypalRow = rowWithCell(cards, PAYPAL.masked.cardNo);
    await paypalRow.waitFor();

    // Both listed: the holder's own name and bank in full (they check it is theirs), numbers masked.
    await expect(cards.getByRole('row').count()).resolves.toBe(1 + 2);
    await expect(cellText(cards, wireRow, '付款方式')).resolves.toBe('电汇');
    await expect(cellText(cards, wireRow, '户名')).resolves.toBe(WIRE.accountName);
    await expect(cellText(cards, wireRow, '路由号')).resolves.toBe(WIRE.masked.routingNumber);
    await expect(cellText(cards, wireRow, '银行名称')).resolves.toBe(WIRE.bankInfo);
    await expect(cellText(cards, paypalRow, '付款方式')).resolves.toBe('PayPal');
    await expect(cellText(cards, paypalRow, '户名')).resolves.toBe(PAYPAL.accountName);
    const shown = await cards.innerText();
    for (const secret of [WIRE.cardNo, WIRE.routingNumber, PAYPAL.cardNo]) expect(shown).not.toContain(secret);
    await dismissToasts(m);
    await shot(m, 'money-06-bank-cards');

    // On a phone, by keyboard: a type of their own (其他) asks for the account the money goes to, as
    // soon as 其他 is chosen; saved with Enter, the account listed masked like every number.
    await m.setViewportSize({ width: 390, height: 844 });
    await m.getByRole('button', { name: '添加银行卡' }).click();
    await dialog.getByLabel('付款方式', { exact: true }).selectOption('other');
    await expect(dialog.getByText('请先选择付款方式，再填写对应的信息').count()).resolves.toBe(0);
    await dialog.getByLabel('新的付款方式', { exact: true }).fill('Venmo');
    await dialog.getByLabel('户名', { exact: true }).focus();
    await m.keyboard.type(OTHER.accountName);
    await m.keyboard.press('Enter');
    await dialog.getByText('请填写账户信息', { exact: true }).waitFor();
    await shot(m, 'money-06a-card-other-390');
    await dialog.getByLabel('账户信息', { exact: true }).focus();
    await m.keyboard.type(OTHER.cardNo);
    await m.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await m.setViewportSize({ width: 1400, height: 900 });
    const otherRow = rowWithCell(cards, OTHER.maskedCardNo);
    await otherRow.waitFor();
    await expect(cellText(cards, otherRow, '付款方式')).resolves.toBe('Venmo');
    expect(await cards.innerText()).not.toContain(OTHER.cardNo);
  });

  it('e) /user/withdraw-request: the balance is the income; the withdrawal is split over both cards (a wrong sum is refused first)', async () => {
    const m = member.page;
    onTestFailed(whatWasOnScreen(m, 'e'));
    await visit(member, '/user/withdraw-request', '提现申请');
    await m.getByRole('heading', { name: `可提现余额：${INCOME}`, exact: true }).waitFor();
    const lines = m.getByRole('table', { name: '提现记录' });
    await lines.getByText('暂无提现记录').waitFor();

    // On a phone, by keyboard: the single withdrawable task comes ticked, its income is already the
    // one line's amount, so both sums agree before anything is typed.
    await m.setViewportSize({ width: 390, height: 844 });
    await m.getByRole('button', { name: '申请提现', exact: true }).focus();
    await m.keyboard.press('Enter');
    const dialog = m.getByRole('dialog', { name: '申请提现' });
    const pick = dialog.getByRole('checkbox', { name: `选择任务 ${task.label}` });
    await pick.waitFor();
    const tasks = dialog.getByRole('table', { name: '可提现的任务' });
    await expect(tasks.getByRole('row').count()).resolves.toBe(1 + 1);
    await expect(rowWithCell(tasks, task.label).getByRole('cell', { name: INCOME, exact: true }).count()).resolves.toBe(1);
    await expect(pick.isChecked()).resolves.toBe(true);
    await dialog.getByText(`任务合计：${INCOME}`, { exact: true }).waitFor();
    await dialog.getByText(`提现合计：${INCOME}`, { exact: true }).waitFor();
    // Two cards: the one line asks which (Enter in the amount submits).
    await dialog.getByRole('group', { name: '第 1 行' }).getByLabel('金额', { exact: true }).press('Enter');
    await dialog.getByRole('alert').filter({ hasText: '请填写银行卡' }).waitFor();
    await shot(m, 'money-07a-withdraw-dialog-390');
    await m.setViewportSize({ width: 1400, height: 900 });

    // Two lines, one per card, 0.50 short of the task.
    const cardsNow = (await api.get<{ userCardList: { id: number; cardNo: string }[] }>(memberToken, '/api/withdraw/user/show/cards')).userCardList;
    const wireId = cardsNow.find((c) => c.cardNo === WIRE.masked.cardNo)!.id;
    const paypalId = cardsNow.find((c) => c.cardNo === PAYPAL.masked.cardNo)!.id;
    await dialog.getByRole('button', { name: '添加一行' }).click();
    const line1 = dialog.getByRole('group', { name: '第 1 行' });
    const line2 = dialog.getByRole('group', { name: '第 2 行' });
    await line1.getByLabel('银行卡', { exact: true }).selectOption(String(wireId));
    await line1.getByLabel('金额', { exact: true }).fill(SHORT.wire);
    await line1.getByLabel('备注', { exact: true }).fill('Wire 部分');
    await line2.getByLabel('银行卡', { exact: true }).selectOption(String(paypalId));
    await line2.getByLabel('金额', { exact: true }).fill(SHORT.paypal);
    await dialog.getByText('提现合计：30.00', { exact: true }).waitFor();
    await line2.getByLabel('金额', { exact: true }).press('Enter');
    await dialog.getByRole('alert').filter({ hasText: '"提现合计"必须与"任务合计"金额相同' }).waitFor();
    await shot(m, 'money-07-withdraw-wrong-sum');
    await expect(linesNow()).resolves.toEqual([]);

    // The right split.
    await line2.getByLabel('金额', { exact: true }).fill(SPLIT.paypal);
    await dialog.getByText(`提现合计：${INCOME}`, { exact: true }).waitFor();
    await line2.getByLabel('金额', { exact: true }).press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await toast(m, '提交成功').waitFor(); // the server's msg

    // Two waited lines; the balance is spent.
    const wireLine = rowWithCell(lines, WIRE.masked.cardNo);
    const paypalLine = rowWithCell(lines, PAYPAL.masked.cardNo);
    await wireLine.waitFor();
    await paypalLine.waitFor();
    await expect(lines.getByRole('row').count()).resolves.toBe(1 + 2);
    await expect(cellText(lines, wireLine, '提现金额')).resolves.toBe(SPLIT.wire);
    await expect(cellText(lines, paypalLine, '提现金额')).resolves.toBe(SPLIT.paypal);
    await expect(cellText(lines, wireLine, '用户备注')).resolves.toBe('Wire 部分');
    for (const line of [wireLine, paypalLine]) await expect(cellText(lines, line, '状态')).resolves.toBe('待付款');
    await expect(cellText(lines, wireLine, '订单号')).resolves.toBe(await cellText(lines, paypalLine, '订单号')); // one order
    await m.getByRole('heading', { name: '可提现余额：0.00', exact: true }).waitFor();
    await dismissToasts(m);
    await shot(m, 'money-08-withdraw-requested');

    const saved = await linesNow();
    expect(saved.map((l) => [l.cardId, l.withdrawAmount, l.status]).sort()).toEqual(
      [
        [wireId, 20, 'waited'],
        [paypalId, 10.5, 'waited'],
      ].sort(),
    );
    expect((await appliesNow())[0]).toMatchObject({ status: 'withdrawing' });
  });

  it("f) the admin's desk: from the home's withdrawals count to the line's card, the payment file and both lines paid at once", async () => {
    const lineOf = async (amount: number) => (await linesNow()).find((l) => l.withdrawAmount === amount)!;
    const wireLine = await lineOf(20);
    const paypalLine = await lineOf(10.5);

    // A login without a callback lands on the admin's home, which counts the two waited lines.
    const desk = await newPage(browser);
    const d = desk.page;
    onTestFailed(whatWasOnScreen(d, 'f-desk'));
    try {
      await d.goto(`${server.url}/login`);
      await logIn(d, ADMIN.mail, ADMIN.password);
      await d.waitForURL(`${server.url}/admin/home`);
      const waiting = d.getByRole('link', { name: /待付款的提现/ });
      await expect.poll(() => waiting.innerText(), SETTLES).toContain(INCOME);
      expect(await waiting.innerText()).toMatch(/\b2\b/);
      await shot(d, 'money-09-admin-home');
      await waiting.click();
      await d.waitForURL(/\/admin\/withdraw-list\?status=waited/);

      // The Wire line's card in full, to pay it (the reveal is logged on the server).
      const list = d.getByRole('table', { name: '提现列表' });
      const row = (id: number) => rowWithCell(list, id === wireLine.id ? WIRE.masked.cardNo : PAYPAL.masked.cardNo);
      await row(wireLine.id).waitFor();
      await row(wireLine.id)
        .getByRole('button', { name: `收款信息：提现 #${wireLine.id}` })
        .click();
      const card = d.getByRole('dialog', { name: `收款信息：提现 #${wireLine.id}` });
      for (const value of [WIRE.accountName, WIRE.cardNo, WIRE.routingNumber, WIRE.bankInfo]) await card.getByText(value, { exact: true }).waitFor();
      await shot(d, 'money-10-admin-card-revealed');
      await card.getByRole('button', { name: '关闭' }).first().click();
      await card.waitFor({ state: 'detached' });

      // Both lines chosen: the payment file holds each with its full details, then both are paid at once.
      for (const id of [wireLine.id, paypalLine.id]) await row(id).getByRole('checkbox', { name: '选择此行' }).check();
      await d.getByText('已选择 2 笔待付款提现，合计 30.50').waitFor();
      const [download] = await Promise.all([d.waitForEvent('download'), d.getByRole('button', { name: '导出付款文件' }).click()]);
      const sheet = XLSX.read(fs.readFileSync(await download.path()), { type: 'buffer' });
      const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet.Sheets[sheet.SheetNames[0]!]!, { header: 1 }).slice(1);
      expect(rows.map((r) => r[0]).sort()).toEqual([wireLine.id, paypalLine.id].sort());
      const fileText = JSON.stringify(rows);
      for (const value of [WIRE.cardNo, WIRE.routingNumber, WIRE.accountName, PAYPAL.cardNo]) expect(fileText).toContain(value);

      await d.getByRole('button', { name: '批量标记已付款' }).click();
      const ask = d.getByRole('dialog', { name: '批量标记已付款' });
      await ask.getByText(/确定这 2 笔提现（合计 30.50）都已付款吗/).waitFor();
      await ask.getByRole('button', { name: '标记已付款', exact: true }).click();
      await ask.waitFor({ state: 'detached' });
      await expect.poll(async () => (await linesNow()).map((l) => l.status), SETTLES).toEqual(['paid', 'paid']);
      await d.goto(`${server.url}/admin/withdraw-list`);
      for (const id of [wireLine.id, paypalLine.id]) await cellBecomes(list, row(id), '状态', '已付款');
      await expect(list.getByRole('checkbox', { name: '选择此行' }).count()).resolves.toBe(0); // nothing left to pay
      await dismissToasts(d);
      await shotOf(d, 'money-11a-admin-paid-both');
      expect(desk.errors).toEqual([]);
    } finally {
      await desk.close();
    }
    expect((await appliesNow())[0]).toMatchObject({ status: 'paid' });
  });

  it('f2) the admin log names who read whose payout details; 提现管理 and 用户任务 on a phone: filters folded, actions in reach', async () => {
    const wire = (await linesNow()).find((l) => l.withdrawAmount === 20)!;
    const desk = await newPage(browser);
    const d = desk.page;
    onTestFailed(whatWasOnScreen(d, 'f2-log'));
    try {
      await d.goto(`${server.url}/login`);
      await logIn(d, ADMIN.mail, ADMIN.password);
      await d.waitForURL(`${server.url}/admin/home`);
      await visit(desk, '/admin/tracking-audit', '管理员日志');
      // By keyboard: the payout view's tab, then its kind filter (查看收款信息) applied with Enter.
      await d.getByRole('link', { name: '收款信息查看' }).focus();
      await d.keyboard.press('Enter');
      const log = d.getByRole('table', { name: '收款信息查看记录' });
      // Step f: one reveal (the Wire line) and a payment file of both lines.
      await expect.poll(() => log.getByRole('row').count(), SETTLES).toBe(4);
      await d.getByLabel('类型', { exact: true }).focus();
      await d.getByLabel('类型', { exact: true }).selectOption('reveal');
      await d.getByRole('button', { name: '查询' }).press('Enter');
      await d.waitForURL(/action=reveal/);
      await expect.poll(() => log.getByRole('row').count(), SETTLES).toBe(2);
      const revealed = log.getByRole('row').nth(1);
      for (const text of ['查看收款信息', MEMBER.nickName, WIRE.masked.cardNo, '20.00']) await revealed.getByText(text, { exact: true }).waitFor();
      expect(await cellText(log, revealed, '提现ID')).toBe(String(wire.id));
      expect(await log.innerText()).not.toContain(WIRE.cardNo);
      await shot(d, 'money-11b-admin-payout-log');
      expect(desk.errors).toEqual([]);
    } finally {
      await desk.close();
    }

    const phone = await newPage(browser, { width: 390, height: 844 });
    const p = phone.page;
    onTestFailed(whatWasOnScreen(p, 'f2-phone'));
    /**
     * Nothing scrolls sideways, and `target` lies wholly inside the window: as the page opens (the
     * first screen), or once scrolled down to (`scroll`), never sideways.
     */
    const inReach = async (target: Locator, scroll = false) => {
      if (scroll) await target.scrollIntoViewIfNeeded();
      expect(await p.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await p.evaluate(() => window.scrollX)).toBe(0);
      const box = (await target.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(844);
    };
    try {
      await p.goto(`${server.url}/login`);
      await logIn(p, ADMIN.mail, ADMIN.password);
      await p.waitForURL(`${server.url}/admin/home`);
      await visit(phone, '/admin/withdraw-list?status=waited', '提现管理');
      // No line waits any more: the empty state is on the first screen, under the folded filters (1 set).
      const folded = p.getByRole('button', { name: '筛选（已设 1 项）' });
      await folded.waitFor();
      expect(await folded.getAttribute('aria-expanded')).toBe('false');
      await inReach(p.getByText('没有符合条件的提现记录'));
      await shot(p, 'money-11c-phone-withdraw-empty');
      await folded.press('Enter');
      await p.getByLabel('状态').waitFor();
      await visit(phone, '/admin/withdraw-list', '提现管理');
      const lines = p.getByRole('list', { name: '提现列表' });
      await inReach(
        lines
          .getByRole('listitem')
          .first()
          .getByText(/^\d+\.\d{2}$/)
          .first(),
      ); // the first line on the first screen
      await inReach(p.getByRole('button', { name: `收款信息：提现 #${wire.id}` }), true);
      await shot(p, 'money-11d-phone-withdraw-cards');

      await visit(phone, '/admin/tasks', '用户任务');
      const card = p.getByRole('list', { name: '用户任务列表' }).getByRole('listitem').first();
      await inReach(card.getByText(ITEM.itemName)); // the first task on the first screen
      await inReach(card.getByRole('button').or(card.getByRole('link')).last(), true);
      expect(await p.getByLabel('商品名称').isVisible()).toBe(false); // the ~10 filter fields are folded away
      await shot(p, 'money-11e-phone-admin-tasks');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it('g) /user/apply-list: the member confirms receipt; collected, and the money is settled everywhere', async () => {
    const m = member.page;
    onTestFailed(whatWasOnScreen(m, 'g'));
    await visit(member, '/user/apply-list', '我的付款申请');
    const list = m.getByRole('table', { name: '我的付款申请列表' });
    const row = rowWithCell(list, task.label);
    await row.waitFor();
    await expect(cellText(list, row, '状态')).resolves.toBe('已付款');
    await expect(cellText(list, row, '收入')).resolves.toBe(INCOME);
    await expect(cellText(list, row, '奖励')).resolves.toBe('5.50');
    await shot(m, 'money-11-apply-list-paid');

    await row.getByRole('button', { name: `确认收款：任务 ${task.label}` }).click();
    await cellBecomes(list, row, '状态', '已收款');
    await expect(row.getByRole('button', { name: `确认收款：任务 ${task.label}` }).count()).resolves.toBe(0);
    await dismissToasts(m);
    await shot(m, 'money-12-apply-list-collected');

    // The balance is 0, and the task is finished on the member's task page.
    await visit(member, '/user/withdraw-request', '提现申请');
    await m.getByRole('heading', { name: '可提现余额：0.00', exact: true }).waitFor();
    await visit(member, '/user/my-task', '我的任务');
    const myTasks = m.getByRole('table', { name: '我的任务列表' });
    await cellBecomes(myTasks, rowWithCell(myTasks, task.label), '状态', '已完成');
    await shot(m, 'money-13-my-task-finished');

    // The server agrees: collected, both lines paid, the task finished, its parcel payed, nothing left.
    const applies = await appliesNow();
    expect(applies).toHaveLength(1);
    expect(applies[0]).toMatchObject({ taskId: task.id, status: 'collected', income: 30.5 });
    expect((await linesNow()).map((l) => [l.withdrawAmount, l.status]).sort()).toEqual([
      [10.5, 'paid'],
      [20, 'paid'],
    ]);
    await expect(taskNow()).resolves.toMatchObject({ status: 'finished', productCount: UNITS });
    const parcel = await api.get<{ scanTrackingList: { status: string; taskId: number | null }[] }>(adminToken, `/api/scan/admin/tracking/${TRACKING}/list`);
    expect(parcel.scanTrackingList.map((r) => [r.status, r.taskId])).toEqual([['payed', task.id]]);
    await expect(balanceNow()).resolves.toBe(0);

    expect(member.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
  });
});
