// The member's records and payment of what arrived, in a real browser against the real server
// (decisions 053, 105, 106): the member pastes 10 tracking lines on /user/my-task (a preview first,
// a refused line fixed), the admin's scans bring 6 of them, the page shows each id arrived or still
// expected, the member asks for payment of the 6 arrived units in one step, and the row shows the
// bonus asked for and, once the admin agrees, the agreed one. The layout is measured: at 1400 px
// the table needs no sideways scroll (nothing under the sticky actions column); at 390 px each task
// is a card within the screen. Screenshots in test-results/e2e/records-*.png.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, SCREENSHOT_DIR, startServer, type RunningServer } from './server.ts';
import { apiOf, type ApiCalls, dismissToasts, inviteAndRegister, newPage, openLoggedIn, rowWithCell, shot } from './setup.ts';
import { startSmtpSink, type SmtpSink } from '../server/support/smtp-sink.ts';

const ADMIN = { mail: 'desk@e2e.test', password: 'desk-pass-1' };
const MEMBER = { mail: 'paster@e2e.test', password: 'paster-pass-1', nickName: '采购员小李' };
const ITEM = { itemName: 'E2E 蓝牙音箱', productId: 'E2E-SP-010', upc: '036000291452', price: 39.9 };
const TRACKINGS = Array.from({ length: 10 }, (_, i) => `1ZE2E${String(i + 1).padStart(4, '0')}`);
const ARRIVED = TRACKINGS.slice(0, 6);

let server: RunningServer;
let sink: SmtpSink;
let browser: Browser;
let api: ApiCalls;
let adminToken = '';

beforeAll(async () => {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  sink = await startSmtpSink();
  server = await startServer({ SMTP_URL: sink.url, ADMIN_EMAIL: ADMIN.mail, ADMIN_PASSWORD: ADMIN.password });
  browser = await launchChromium();
  api = apiOf(server);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.close();
});

/** A member in a group with an open board of one item; the member claims 10 units and 2 more. */
async function seed() {
  adminToken = await api.login(ADMIN.mail, ADMIN.password);
  const memberId = await inviteAndRegister(server, sink, adminToken, MEMBER);
  const item = await api.post<{ id: number }>(adminToken, '/api/item/info', { ...ITEM, url: 'shop.example.com/sp-010', status: 'open' });
  const group = await api.post<{ id: number }>(adminToken, '/api/usergroup/update', { groupName: 'E2E 粘贴组', remark: '' });
  expect(await api.post<boolean>(adminToken, `/api/usergroup/${group.id}/user?uids=${memberId}`)).toBe(true);
  const board = await api.post<{ id: number }>(adminToken, '/api/board/info', {
    boardName: 'E2E 三月看板',
    remark: '音箱',
    publishAt: Date.now() - 3_600_000,
    expireAt: Date.now() + 7 * 86_400_000,
  });
  const { boardTask } = await api.post<{ boardTask: { id: number } }>(adminToken, `/api/boardtask/${board.id}/info`, {
    itemId: item.id,
    buyIn: 21.5,
    show: 20,
  });
  expect(await api.post<boolean>(adminToken, `/api/board/${board.id}/add?groupIds=${group.id}`)).toBe(true);
  await api.post(adminToken, `/api/boardtask/publish/${board.id}`);
  const memberToken = await api.login(MEMBER.mail, MEMBER.password);
  const claim = (n: number) => api.post<{ task: { id: number; mainId: number } }>(memberToken, `/api/task/${boardTask.id}/user/create/${n}`);
  const other = await claim(2);
  const main = await claim(10);
  return { itemId: item.id, task: main.task, other: other.task };
}

const toast = (page: Page, text: string) => page.getByRole('status', { includeHidden: true }).filter({ hasText: text });

/** How far the page's widest scrolling box overflows sideways (0: everything is in view). */
const sidewaysOverflow = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const box = document.querySelector(sel)?.closest('.overflow-x-auto') ?? document.querySelector(sel);
    return box ? box.scrollWidth - box.clientWidth : -1;
  }, selector);

describe("the member's records and payment of what arrived", () => {
  it('pastes 10 tracking lines, sees 6 arrive, asks for payment of those in one step; fits 1400 px and 390 px', async () => {
    const { itemId, task } = await seed();
    const label = String(task.mainId);
    const desk = await newPage(browser, { width: 1400, height: 900 });
    const m = desk.page;
    await openLoggedIn(m, server, '/user/my-task', MEMBER);
    const myTasks = m.getByRole('table', { name: '我的任务列表' });
    await rowWithCell(myTasks, label).waitFor();

    // ------------------------------------------------------------ the paste box
    await m.getByRole('button', { name: '批量粘贴单号' }).click();
    const dialog = m.getByRole('dialog', { name: '批量添加采购记录' });
    await dialog.getByLabel('任务', { exact: true }).selectOption({ label: `${label} · ${ITEM.itemName}` });
    const box = dialog.getByLabel('粘贴单号');
    // As copied from a spreadsheet (tabs) and an e-mail (commas), with a blank line and one slip.
    const lines = TRACKINGS.map((t, i) => (i % 2 ? `${t}, 1` : `${t}\t1`));
    await box.fill([...lines.slice(0, 5), '', ...lines.slice(5), TRACKINGS[0]].join('\n'));
    await dialog.getByText('共11行，1行有误', { exact: true }).waitFor();
    await dialog.getByRole('cell', { name: '与第1行的单号重复', exact: true }).waitFor();
    await expect(dialog.getByRole('button', { name: '添加', exact: true }).isDisabled()).resolves.toBe(true);
    await shot(m, 'records-01-paste-preview');
    await box.fill([...lines.slice(0, 5), '', ...lines.slice(5)].join('\n'));
    await dialog.getByText('共10行，均可添加', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: '添加10条记录' }).click();
    await toast(m, '已添加10条记录').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = rowWithCell(myTasks, label);
    await expect.poll(() => row.getByRole('button', { name: /：待到货$/ }).count(), { timeout: 15_000 }).toBe(10);

    // ------------------------------------------------------------ the warehouse scans 6 of them
    for (const t of ARRIVED) await api.post(adminToken, `/api/scan/admin/tracking/${t}/create`, { items: [{ upc: ITEM.upc, count: 1, itemId }] });
    await m.reload();
    await row.waitFor();
    await expect(row.getByRole('button', { name: /：已到货$/ }).count()).resolves.toBe(6);
    await expect(row.getByRole('button', { name: /：待到货$/ }).count()).resolves.toBe(4);
    await row.getByRole('cell', { name: '6/10', exact: true }).waitFor();
    await dismissToasts(m);
    expect(await sidewaysOverflow(m, 'table[aria-busy], table')).toBe(0);
    await shot(m, 'records-02-six-arrived-1400');

    // ------------------------------------------------------------ paid for what arrived, in one step
    const pay = row.getByRole('button', { name: `申请付款（已到货部分）：任务 ${label}` });
    await expect(pay.getAttribute('title')).resolves.toBe('已到货 6/10 件：把已到货的部分拆成子任务并为它申请付款');
    await pay.click();
    const apply = m.getByRole('dialog', { name: /申请付款（已到货部分）/ });
    await apply.getByText('将已到货的 6 件拆分为一个子任务并为它申请付款；其余 4 件留在原任务，到货后可再申请。').waitFor();
    await apply.getByLabel('奖励', { exact: true }).fill('5');
    await apply.getByText('预计收入：134.00', { exact: true }).waitFor();
    await apply.getByRole('button', { name: '提交申请' }).click();
    await toast(m, `申请成功：子任务 ${label}-1`).waitFor();
    const sub = rowWithCell(myTasks, `${label}-1`);
    await sub.getByRole('button', { name: '已申请付款' }).waitFor();
    await sub.getByText('付款中', { exact: true }).waitFor();
    await expect(sub.getByRole('button', { name: /：已到货$/ }).count()).resolves.toBe(6);
    await rowWithCell(myTasks, label).getByRole('cell', { name: '0/4', exact: true }).waitFor();

    // The admin agrees with another bonus: the row shows both.
    const applies = await api.get<{ content: { id: number; taskId: number }[] }>(adminToken, '/api/apply/list/page?status=applied');
    await api.post(adminToken, '/api/trade/admin/pay/agree', { paymentApplyId: applies.content[0]!.id, bonus: 4 });
    await m.reload();
    await sub.waitFor();
    await expect(sub.getByRole('cell').nth(4).textContent()).resolves.toBe('申请奖励5.00同意奖励4.00');
    expect(await sidewaysOverflow(m, 'table')).toBe(0);
    await dismissToasts(m);
    await shot(m, 'records-03-applied-1400');
    expect(desk.errors).toEqual([]);
    await desk.close();

    // ------------------------------------------------------------ a phone
    const phone = await newPage(browser, { width: 390, height: 844 });
    const p = phone.page;
    await openLoggedIn(p, server, '/user/my-task', MEMBER);
    const cards = p.getByRole('list', { name: '我的任务卡片' });
    await cards.waitFor();
    await expect(p.getByRole('table', { name: '我的任务列表' }).count()).resolves.toBe(0);
    const cardItems = cards.locator(':scope > li');
    await expect(cardItems.count()).resolves.toBe(3);
    const card = cardItems.filter({ hasText: `${label}-1` });
    await card.getByText(ITEM.itemName, { exact: true }).waitFor();
    await card.getByText('付款中', { exact: true }).waitFor();
    await card.getByText('6/6', { exact: true }).waitFor();
    // Every card within the screen, the page without a sideways scroll.
    for (const right of await cardItems.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))) expect(right).toBeLessThanOrEqual(390);
    expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    // A tap shows where a parcel stands.
    const chip = cardItems.filter({ hasText: '0/4' }).getByRole('button', { name: `${TRACKINGS[9]}：待到货` });
    await chip.click();
    await expect(chip.getAttribute('aria-expanded')).resolves.toBe('true');
    await shot(p, 'records-04-cards-390');
    expect(phone.errors).toEqual([]);
    await phone.close();
  });
});
