// Parcels as the world labels them (issue 33, decisions 097 and 096), in a real browser against the
// real server: a member records tracking ids the ways people really enter them, the clerk scans the
// barcode forms the labels carry with scanner keystrokes, and every parcel matches; a parcel two
// members recorded waits for the admin, who assigns its unit on the admin home. Four stories, on one
// server, in order (listed below the imports); each fits its time limit on a busy 2-core host.
import { beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  cellText,
  dismissToasts,
  inviteAndRegister,
  newPage,
  openLoggedIn,
  rowOf,
  rowWithCell,
  says,
  scanKeys,
  scannerReady,
  shot,
  stationKnowsEnter,
  useStage,
} from './setup.ts';
import { SCAN_COMMANDS } from '../../machines/scan.machine.ts';
import { unmatchReasonMessages } from '../../machines/scan-record.machine.ts';
import { GS1_SEPARATOR } from '../../machines/tracking-id.ts';

/*
 *   a) The member records 5 ids in a task's record dialog - spaced as UPS prints them, pasted with a
 *      zero-width space, in full-width digits from a Chinese input method, in lower case, dashed -
 *      and 3 more at once in the paste box; the record list shows each as the member typed it.
 *   b) The clerk scans the labels' barcode forms: on /admin/scan an AIM prefix (]C1), USPS IMpb
 *      (420 + ZIP + id), FedEx's 34-digit barcode, the upper case of the lower-case id and the plain
 *      id of the dashed one; on /admin/scan2 a GS1 read with its FNC1 (the scanner sends GS, as a
 *      keyboard wedge does: Ctrl+]), the upper case of a lower-case paste and a QR code's AIM prefix.
 *      Every parcel matches on the station, and the member's task page shows all 8 arrived.
 *   c) Two members record one parcel of the same product (1 unit each, written two ways); the clerk
 *      scans it with 1 unit: neither task is credited, each member reads only the neutral words; the
 *      admin home lists the parcel at 1400 and 390 px.
 *   d) The admin assigns the unit to one member with the keyboard, and that member's task shows the
 *      arrival while the other's record says it got none.
 */

const ADMIN = { mail: 'labels@e2e.test', password: 'labels-pass-1' };
const WANG = { mail: 'wang@e2e.test', password: 'wang-pass-1', nickName: '会员小王' };
const ZHAO = { mail: 'zhao@e2e.test', password: 'zhao-pass-1', nickName: '会员小赵' };

const CUP = { itemName: 'E2E 保温杯', productId: 'E2E-CUP-330', upc: '690000000330' };
const EARBUDS = { itemName: 'E2E 蓝牙耳机', productId: 'E2E-EAR-331', upc: '690000000331' };

const toFullWidth = (s: string) => s.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));

/**
 * Real ids (tracking_number_data's test numbers, valid check digits; tests/machines/tracking-id.test.ts):
 * how the member writes each, how the clerk's scanner reads its label, and the carrier the record form
 * names under the field.
 */
const TYPED = [
  { key: '1Z5R89390357567127', typed: '1Z 5R8 939 03 5756 7127', how: 'spaced as UPS prints it', scanned: ']C11Z5R89390357567127', carrier: 'UPS' },
  {
    key: '9101026837331000039521',
    typed: '\u200b9101026837331000039521',
    how: 'pasted from a web page with a zero-width space',
    scanned: '420221539101026837331000039521',
    carrier: 'USPS（美国邮政）',
  },
  { key: '986578788855', typed: toFullWidth('986578788855'), how: 'full-width digits', scanned: '9622001900000000000000986578788855', carrier: 'FedEx' },
  { key: 'TBA123456789000', typed: 'tba123456789000', how: 'lower case', scanned: 'TBA123456789000', carrier: '亚马逊物流' },
  { key: '1Z999AA10123456784', typed: '1Z-999-AA1-0123-456-784', how: 'dashed', scanned: '1Z999AA10123456784', carrier: 'UPS' },
] as const;
/**
 * The paste box's lines: full width with a tab before the quantity, lower case with a comma, and an
 * S10 id spaced as a post office prints it, pasted whole (decision 105: one id when its join is a
 * carrier's id whose check digit passes).
 */
const PASTED = [
  {
    key: '9505511069605048600624',
    line: `${toFullWidth('9505511069605048600624')}\t1`,
    // GS1-128 as the label carries it: AI 421 (ship-to country 840 + ZIP, variable length, so FNC1
    // ends it), then the id. Without the GS the fields run together and no rule can take them apart.
    scanned: `]C142184090210${GS1_SEPARATOR}9505511069605048600624`,
  },
  { key: 'SF1234567890123', line: 'sf1234567890123, 1', scanned: 'SF1234567890123' },
  { key: 'RR123456785CN', line: 'rr 123 456 785 cn', scanned: ']Q3RR123456785CN' },
] as const;
/** The parcel both members record (c), as each writes it, and its IMpb barcode. */
const CONTESTED = {
  key: '9400111899223408000000',
  wang: '9400 1118 9922 3408 0000 00',
  zhao: '9400111899223408000000',
  scanned: '420902109400111899223408000000',
};
const WAITING = '该包裹正在核对中，请等待管理员处理';

const stage = useStage({ admin: ADMIN });
const { server, sink, browser, api } = stage;
let adminToken = '';
const itemIds = { cup: 0, earbuds: 0 };
interface ClaimedTask {
  id: number;
  mainId: number;
  subId: number;
}
/** Wang's tasks: `typed` (CUP, 5 units), `pasted` (CUP, 3 units), `contested` (EARBUDS, 1); Zhao's `contested` (EARBUDS, 1). */
const tasks = {} as Record<'typed' | 'pasted' | 'wangContested' | 'zhaoContested', ClaimedTask>;

beforeAll(seed);

/**
 * Setup through the API (the catalog, board and claim screens have their own tests): two products,
 * two members in a group with a published board of both; Wang claims 5 and 3 cups and 1 earbuds,
 * Zhao 1 earbuds; each records the contested parcel, written their own way.
 */
async function seed() {
  adminToken = stage.adminToken;
  const createItem = async (item: typeof CUP) =>
    (await api.post<{ id: number }>(adminToken, '/api/item/info', { ...item, url: `shop.example.com/${item.productId}`, status: 'open' })).id;
  // The two members' invitations go out together (each waits for its own mail).
  const [wangId, zhaoId] = await Promise.all([WANG, ZHAO].map((member) => inviteAndRegister(server, sink, adminToken, member)));
  itemIds.cup = await createItem(CUP);
  itemIds.earbuds = await createItem(EARBUDS);
  const group = await api.post<{ id: number }>(adminToken, '/api/usergroup/update', { groupName: 'E2E 标签组', remark: '' });
  expect(await api.post<boolean>(adminToken, `/api/usergroup/${group.id}/user?uids=${wangId},${zhaoId}`)).toBe(true);
  const board = await api.post<{ id: number }>(adminToken, '/api/board/info', {
    boardName: 'E2E 标签看板',
    remark: '各种写法的快递单号',
    publishAt: Date.now() - 3_600_000,
    expireAt: Date.now() + 7 * 86_400_000,
  });
  const boardTask = async (itemId: number) =>
    (await api.post<{ boardTask: { id: number } }>(adminToken, `/api/boardtask/${board.id}/info`, { itemId, buyIn: 10, show: 10 })).boardTask.id;
  const cupTask = await boardTask(itemIds.cup);
  const earbudsTask = await boardTask(itemIds.earbuds);
  expect(await api.post<boolean>(adminToken, `/api/board/${board.id}/add?groupIds=${group.id}`)).toBe(true);
  await api.post(adminToken, `/api/boardtask/publish/${board.id}`);

  const claim = async (token: string, boardTaskId: number, count: number) =>
    (await api.post<{ task: ClaimedTask }>(token, `/api/task/${boardTaskId}/user/create/${count}`)).task;
  const wang = await api.login(WANG.mail, WANG.password);
  const zhao = await api.login(ZHAO.mail, ZHAO.password);
  tasks.typed = await claim(wang, cupTask, 5);
  tasks.pasted = await claim(wang, cupTask, 3);
  tasks.zhaoContested = await claim(zhao, earbudsTask, 1);
  tasks.wangContested = await claim(wang, earbudsTask, 1);
  await api.post(zhao, `/api/purchased/user/${tasks.zhaoContested.id}/create`, { trackingId: CONTESTED.zhao, productCount: 1 });
  await api.post(wang, `/api/purchased/user/${tasks.wangContested.id}/create`, { trackingId: CONTESTED.wang, productCount: 1 });
}

/** How long a wait for the page to settle may take on a busy machine (a ceiling, not a timing claim). */
const SETTLES = { timeout: 15_000, interval: 50 };

/** On a failure: the page as it was (a screenshot) and its tables, for the report. */
async function whatWasOnScreen(page: Page, name: string) {
  if (page.isClosed()) return;
  await shot(page, `labels-failed-${name}`).catch(() => undefined);
  const tables = await page
    .getByRole('table')
    .allInnerTexts()
    .catch(() => []);
  console.error(`parcels-as-labelled ${name}: on screen at the failure:\n${tables.join('\n\n')}`);
}

/**
 * `account`'s page at `path`, in a browser context of its own (1400 px unless `viewport`), shown in
 * the report as `name` if the test fails; `station`: a scanning station that knows its scanner sends
 * Enter (stationKnowsEnter).
 */
async function opened(
  account: { mail: string; password: string },
  path: string,
  name: string,
  opts: { viewport?: { width: number; height: number }; station?: boolean } = {},
) {
  const tab = await newPage(browser, opts.viewport);
  onTestFailed(() => whatWasOnScreen(tab.page, name));
  if (opts.station) await stationKnowsEnter(tab.page);
  await openLoggedIn(tab.page, server, path, account);
  return tab;
}

/** The member's /user/my-task: the task table, and a task's row by its id. */
function myTasksOf(page: Page) {
  const table = page.getByRole('table', { name: '我的任务列表' });
  return { table, row: (task: ClaimedTask) => rowWithCell(table, String(task.mainId)) };
}

/** Opens a task's record dialog from its row; the dialog and its record list. */
async function openRecords(page: Page, row: Locator) {
  await row.getByRole('button', { name: '记录', exact: true }).click();
  // (The dialog's outer element has no box of its own: wait on what it shows.)
  const dialog = page.getByRole('dialog', { name: /采购记录/ });
  await dialog.getByText(/^认领 \d+ 件，已到货 \d+ 件$/).waitFor();
  return { dialog, records: dialog.getByRole('table', { name: '采购记录列表' }) };
}

async function closeDialog(dialog: Locator) {
  await dialog.getByRole('button', { name: '关闭' }).last().click();
  await dialog.waitFor({ state: 'detached' });
}

describe('parcels as the world labels them, in the browser', () => {
  it('a) the member records ids typed, pasted and spaced the ways people do, and the page shows them as typed', async () => {
    const member = await opened(WANG, '/user/my-task', 'a');
    const m = member.page;
    const mine = myTasksOf(m);
    await mine.row(tasks.typed).waitFor();

    // ------------------------------------------------------------ the record form, one id at a time
    const { dialog, records } = await openRecords(m, mine.row(tasks.typed));
    const form = dialog.getByRole('form', { name: '添加采购记录' });
    const tracking = form.getByLabel('快递单号', { exact: true });
    for (const [i, entry] of TYPED.entries()) {
      await tracking.click();
      if (entry.how === 'full-width digits') {
        // What a Chinese input method commits: the whole composed text at once.
        await m.keyboard.insertText(entry.typed);
      } else if (entry.how === 'lower case' || entry.how === 'spaced as UPS prints it') {
        await tracking.pressSequentially(entry.typed);
      } else {
        await tracking.fill(entry.typed); // a paste
      }
      // The carrier of what was typed is named under the field, its check digit accepted.
      await expect.poll(() => form.getByTestId('tracking-carrier').textContent(), SETTLES).toBe(`承运商：${entry.carrier}`);
      await form.getByLabel('数目', { exact: true }).fill('1');
      await form.getByRole('button', { name: '添加', exact: true }).click();
      // The record is listed as the member wrote it.
      await expect.poll(() => records.getByRole('row').count(), SETTLES).toBe(1 + i + 1);
      await expect.poll(() => tracking.inputValue(), SETTLES).toBe('');
    }
    await dialog.getByText('认领 5 件，已到货 0 件').waitFor();
    const shown = await records.getByRole('row').evaluateAll((rows) => rows.slice(1).map((r) => r.querySelector('td')?.textContent ?? ''));
    expect([...shown].sort()).toEqual(TYPED.map((e) => e.typed).sort());
    // The key it is compared by is the cell's title where the member's writing differs.
    const titles = await records.getByRole('row').evaluateAll((rows) => rows.slice(1).map((r) => r.querySelector('td')?.getAttribute('title') ?? null));
    expect([...titles].sort()).toEqual(TYPED.map((e) => e.key).sort());
    for (const entry of TYPED) expect(await cellText(records, rowWithCell(records, entry.typed), '状态'), entry.how).toBe('待匹配');
    await shot(m, 'labels-01-typed-records');
    await closeDialog(dialog);

    // ------------------------------------------------------------ the paste box, several lines at once
    await m.getByRole('button', { name: '批量粘贴单号' }).click();
    const paste = m.getByRole('dialog', { name: '批量添加采购记录' });
    await paste.getByLabel('任务', { exact: true }).selectOption({ label: `${tasks.pasted.mainId} · ${CUP.itemName}（还可记录3件）` });
    await paste.getByLabel('粘贴单号').fill(PASTED.map((p) => p.line).join('\n'));
    await paste.getByText('共3行，均可添加', { exact: true }).waitFor();
    // The preview shows each id as pasted (full width, lower case), its carrier named under it.
    const preview = paste.getByRole('table', { name: '粘贴内容预览' });
    for (const [p, carrier] of [
      [PASTED[0], 'USPS（美国邮政）'],
      [PASTED[1], '顺丰速运'],
      [PASTED[2], '中国邮政/EMS'],
    ] as const) {
      const row = preview.getByRole('row').filter({ hasText: p.line.split(/[\t,]/)[0]! });
      await row.getByText(`承运商：${carrier}`, { exact: true }).waitFor();
    }
    await shot(m, 'labels-02-paste-preview');
    await paste.getByRole('button', { name: '添加3条记录' }).click();
    await paste.waitFor({ state: 'detached' });
    // The task's ids, each waiting for its parcel (the chips read the key the parcel is matched by).
    const pastedRow = mine.row(tasks.pasted);
    for (const p of PASTED) await pastedRow.getByRole('button', { name: `${p.key}：待到货` }).waitFor(SETTLES);
    expect(member.errors).toEqual([]);
    await member.close();
  });

  it("b) the clerk scans the labels' barcode forms on both stations; every parcel matches and the member's tasks show them arrived", async () => {
    // ------------------------------------------------------------ /admin/scan: the five typed ids
    const admin = await opened(ADMIN, '/admin/scan', 'b-scan', { station: true });
    const a = admin.page;
    const added = a.getByRole('table', { name: '已添加的商品' });
    await scannerReady(a);
    for (const entry of TYPED) {
      await scanKeys(a, entry.scanned);
      // The station names the parcel by its key: the barcode's decorations are gone.
      await says(a, `快递单号 ${entry.key}，请扫描商品`);
      await scanKeys(a, CUP.upc);
      await says(a, `${CUP.upc} 数量 1`);
      await scanKeys(a, SCAN_COMMANDS.submit);
      await says(a, '创建成功，请扫描下一个包裹的快递单号');
      const row = await rowOf(added, CUP.upc);
      await expect.poll(() => cellText(added, row, '状态'), SETTLES).toBe('已匹配');
      await expect(cellText(added, row, '匹配用户')).resolves.toBe(WANG.nickName);
    }
    await dismissToasts(a);
    await shot(a, 'labels-03-scan-matched');
    expect(admin.errors).toEqual([]);

    // ------------------------------------------------------------ /admin/scan2: the three pasted ids
    await a.goto(`${server.url}/admin/scan2`);
    await a.getByRole('heading', { name: '单品扫描' }).waitFor();
    await a.getByLabel('商品', { exact: true }).fill('保温杯');
    await a.getByRole('option', { name: new RegExp(CUP.itemName) }).click();
    await says(a, '请扫描包裹的快递单号');
    await scannerReady(a);
    for (const p of PASTED) {
      await scanKeys(a, p.scanned);
      await says(a, `已扫描 ${p.key}`);
    }
    await a.getByRole('button', { name: '提交待提交（1）' }).click();
    await a.getByText('待提交 0 · 提交中 0 · 失败 0 · 已完成 3', { exact: true }).waitFor(SETTLES);
    const table = a.getByRole('table', { name: '扫描记录' });
    for (const p of PASTED) {
      // The id's cell names its carrier beside it (decision 099).
      const row = table.getByRole('row').filter({ hasText: p.key });
      await row.waitFor();
      await expect(cellText(table, row, '状态'), p.scanned).resolves.toBe('匹配成功');
    }
    await dismissToasts(a);
    await shot(a, 'labels-04-scan2-matched');
    expect(admin.errors).toEqual([]);
    await admin.close();

    // ------------------------------------------------------------ the member: everything arrived
    const member = await opened(WANG, '/user/my-task', 'b-member');
    const m = member.page;
    const mine = myTasksOf(m);
    const typedRow = await rowOf(mine.table, String(tasks.typed.mainId));
    await expect(cellText(mine.table, typedRow, '到货/认领')).resolves.toBe('5/5');
    await expect(cellText(mine.table, typedRow, '状态')).resolves.toBe('已锁定');
    const pastedRow = mine.row(tasks.pasted);
    await expect(cellText(mine.table, pastedRow, '到货/认领')).resolves.toBe('3/3');
    await expect(cellText(mine.table, pastedRow, '状态')).resolves.toBe('已锁定');
    for (const p of PASTED) await pastedRow.getByRole('button', { name: `${p.key}：已到货` }).waitFor();
    for (const e of TYPED) await typedRow.getByRole('button', { name: `${e.key}：已到货` }).waitFor();
    await shot(m, 'labels-05-member-tasks');
    const { dialog, records } = await openRecords(m, typedRow);
    await dialog.getByText('认领 5 件，已到货 5 件').waitFor();
    for (const entry of TYPED) expect(await cellText(records, rowWithCell(records, entry.typed), '状态'), entry.how).toBe('已匹配');
    await shot(m, 'labels-05-member-records');
    expect(member.errors).toEqual([]);
    await member.close();
  });

  it('c) a parcel two members recorded credits neither: each sees it waiting, the admin home lists it at 1400 and 390 px', async () => {
    // ------------------------------------------------------------ the clerk scans it: 1 unit
    const admin = await opened(ADMIN, '/admin/scan', 'c-admin', { station: true });
    const a = admin.page;
    await scannerReady(a);
    await scanKeys(a, CONTESTED.scanned);
    await says(a, `快递单号 ${CONTESTED.key}，请扫描商品`);
    await scanKeys(a, EARBUDS.upc);
    await says(a, `${EARBUDS.upc} 数量 1`);
    await scanKeys(a, SCAN_COMMANDS.submit);
    await expect(says(a, `创建成功，但不匹配：多位会员记录了此商品，到货不足，等待管理员在首页分配（${EARBUDS.upc}）。请将包裹单独放置`)).resolves.toBe('warn');
    const added = a.getByRole('table', { name: '已添加的商品' });
    const scanned = await rowOf(added, EARBUDS.upc);
    await expect.poll(() => cellText(added, scanned, '状态'), SETTLES).toContain('不匹配');
    // The clerk is told why the unit waits (decision 096), and the row names no member.
    await expect.poll(() => scanned.innerText(), SETTLES).toContain(unmatchReasonMessages.contested);
    const stationSays = await cellText(added, scanned, '匹配用户');
    expect(stationSays).not.toContain(WANG.nickName);
    expect(stationSays).not.toContain(ZHAO.nickName);
    await dismissToasts(a);
    await shot(a, 'labels-06-scan-contested');

    // ------------------------------------------------------------ each member: waiting, nothing about the other
    for (const [who, other, task] of [
      [WANG, ZHAO, tasks.wangContested],
      [ZHAO, WANG, tasks.zhaoContested],
    ] as const) {
      const member = await opened(who, '/user/my-task', `c-${who.nickName}-waiting`);
      const m = member.page;
      const mine = myTasksOf(m);
      const row = await rowOf(mine.table, String(task.mainId));
      await expect(cellText(mine.table, row, '到货/认领')).resolves.toBe('0/1');
      await expect(cellText(mine.table, row, '状态')).resolves.toBe('进行中');
      const { dialog, records } = await openRecords(m, row);
      const record = await rowOf(records, who === WANG ? CONTESTED.wang : CONTESTED.zhao);
      // Waiting on the admin, not the member's mistake: 核对中, not a red 不匹配.
      await expect(cellText(records, record, '状态')).resolves.toBe('核对中');
      await expect(cellText(records, record, '信息')).resolves.toBe(WAITING);
      const everything = await m.locator('body').innerText();
      expect(everything).not.toContain(other.nickName);
      await shot(m, `labels-07-waiting-${who === WANG ? 'wang' : 'zhao'}`);
      await closeDialog(dialog);
      expect(member.errors).toEqual([]);
      await member.close();
    }

    // ------------------------------------------------------------ the admin home: the parcel waits; at 1400 and 390 px
    await a.goto(`${server.url}/admin/home`);
    const section = a.getByRole('region', { name: '待核对的包裹' });
    const card = section.getByRole('form', { name: `快递单号 ${CONTESTED.key} · ${EARBUDS.itemName}` });
    await card.waitFor(SETTLES);
    await card.getByText(`UPC ${EARBUDS.upc} · 到货1件`, { exact: true }).waitFor();
    const wangField = card.getByLabel(`分配数量 ${WANG.nickName} ${tasks.wangContested.mainId}`, { exact: true });
    const zhaoField = card.getByLabel(`分配数量 ${ZHAO.nickName} ${tasks.zhaoContested.mainId}`, { exact: true });
    await expect(wangField.inputValue()).resolves.toBe('');
    await expect(zhaoField.inputValue()).resolves.toBe('');
    await section.scrollIntoViewIfNeeded();
    await shot(a, 'labels-08-home-contested-1400');
    const phone = await opened(ADMIN, '/admin/home', 'c-phone', { viewport: { width: 390, height: 844 } });
    await phone.page.getByRole('form', { name: `快递单号 ${CONTESTED.key} · ${EARBUDS.itemName}` }).waitFor(SETTLES);
    await shot(phone.page, 'labels-09-home-contested-390');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    expect(phone.errors).toEqual([]);
    await phone.close();
    expect(admin.errors).toEqual([]);
    await admin.close();
  });

  it('d) the admin assigns the contested unit on the home page by keyboard: one member is credited, the other told it got none', async () => {
    const admin = await opened(ADMIN, '/admin/home', 'd-admin');
    const a = admin.page;
    const section = a.getByRole('region', { name: '待核对的包裹' });
    const card = section.getByRole('form', { name: `快递单号 ${CONTESTED.key} · ${EARBUDS.itemName}` });
    await card.waitFor(SETTLES);
    // The admin gives the unit to Wang and none to Zhao with the keyboard: into the first field,
    // Tab to the next (in the order the card lists them), and Enter sends the form.
    const assigned = { [`分配数量 ${WANG.nickName} ${tasks.wangContested.mainId}`]: '1', [`分配数量 ${ZHAO.nickName} ${tasks.zhaoContested.mainId}`]: '0' };
    const order = await card.getByRole('spinbutton').evaluateAll((fields) => fields.map((f) => f.getAttribute('aria-label') ?? ''));
    expect([...order].sort()).toEqual(Object.keys(assigned).sort());
    await card.getByLabel(order[0]!, { exact: true }).click();
    for (const [i, label] of order.entries()) {
      if (i > 0) await a.keyboard.press('Tab');
      await expect.poll(() => a.evaluate(() => document.activeElement?.getAttribute('aria-label')), SETTLES).toBe(label);
      await a.keyboard.type(assigned[label]!);
    }
    await a.keyboard.press('Enter');
    await a.getByRole('status').filter({ hasText: '分配完成' }).first().waitFor(SETTLES);
    await section.waitFor({ state: 'detached', ...SETTLES });
    expect(admin.errors).toEqual([]);
    await admin.close();

    // ------------------------------------------------------------ Wang's task has its unit; Zhao's record says it got none
    const wang = await opened(WANG, '/user/my-task', 'd-wang-assigned');
    const wangTasks = myTasksOf(wang.page);
    const wangRow = await rowOf(wangTasks.table, String(tasks.wangContested.mainId));
    await expect(cellText(wangTasks.table, wangRow, '到货/认领')).resolves.toBe('1/1');
    await expect(cellText(wangTasks.table, wangRow, '状态')).resolves.toBe('已锁定');
    await wangRow.getByRole('button', { name: `${CONTESTED.key}：已到货` }).waitFor();
    await shot(wang.page, 'labels-10-assigned-wang');
    expect(wang.errors).toEqual([]);
    await wang.close();

    const zhao = await opened(ZHAO, '/user/my-task', 'd-zhao-assigned');
    const zhaoTasks = myTasksOf(zhao.page);
    const zhaoRow = await rowOf(zhaoTasks.table, String(tasks.zhaoContested.mainId));
    await expect(cellText(zhaoTasks.table, zhaoRow, '到货/认领')).resolves.toBe('0/1');
    await expect(cellText(zhaoTasks.table, zhaoRow, '状态')).resolves.toBe('进行中');
    const { records } = await openRecords(zhao.page, zhaoRow);
    const record = await rowOf(records, CONTESTED.zhao);
    await expect(cellText(records, record, '状态')).resolves.toBe('不匹配');
    await expect(cellText(records, record, '信息')).resolves.toBe('管理员核对后为此记录分配了0件');
    expect(await zhao.page.locator('body').innerText()).not.toContain(WANG.nickName);
    await shot(zhao.page, 'labels-11-assigned-zhao');
    expect(zhao.errors).toEqual([]);
    await zhao.close();
  });
});
