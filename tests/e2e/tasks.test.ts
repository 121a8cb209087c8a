// A member's purchases of a claimed task, in a real browser against the real server (task
// lifecycle and purchase records, end-to-end): with an admin, an item, a published board and the
// member's claim set up through the API (the board screens have their own e2e test), the member
// records two purchases by hand in the task record dialog (after meeting its validation), adds a
// third by uploading an .xlsx of the template in import mode (a repeated row is skipped), then
// edits one record's count and deletes another; the admin finds each of those changes, with who
// made it and before -> after, in the user log (/admin/task-audit) filtered to the task.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import { dismissToasts, inviteAndRegister, logIn, newPage as newBrowserPage, rowWithCell, shot, useStage } from './setup.ts';

const ADMIN = { mail: 'lead@e2e.test', password: 'lead-pass-1' };
const MEMBER = { mail: 'shopper@e2e.test', password: 'shopper-pass-1', nickName: '采购员小王' };
const ITEM = { itemName: 'E2E 无线鼠标', productId: 'E2E-MS-002', upc: '036000291452', price: 29.9 };
const BOARD = { boardName: 'E2E 一月看板', remark: '鼠标本周到货' };
// Tracking ids nobody has scanned: the records stay unmatched (init), so they can be edited and deleted.
// Written in canonical form (decision 097), so every screen shows them as written here.
const TRACKING = { first: 'TRKE2E0001', second: 'TRKE2E0002', uploaded: 'TRKE2E0003' };
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const stage = useStage({ admin: ADMIN });
const { server, sink, browser, api } = stage;
const newPage = () => newBrowserPage(browser);

/**
 * Setup through the API, as an admin and a member would do it on their screens: the admin invites
 * the member (who registers from the mailed link), creates an item, a group with the member, a
 * board with one board task bound to the group, and publishes it; the member claims 6 units.
 */
async function seedClaimedTask() {
  const adminToken = stage.adminToken;
  const memberId = await inviteAndRegister(server, sink, adminToken, { ...MEMBER, phoneNo: '13800003333', qq: '778899' });
  const item = await api.post<{ id: number }>(adminToken, '/api/item/info', { ...ITEM, url: 'shop.example.com/ms-002', status: 'open' });
  const group = await api.post<{ id: number }>(adminToken, '/api/usergroup/update', { groupName: 'E2E 采购组', remark: '' });
  expect(await api.post<boolean>(adminToken, `/api/usergroup/${group.id}/user?uids=${memberId}`)).toBe(true);
  const board = await api.post<{ id: number }>(adminToken, '/api/board/info', {
    ...BOARD,
    publishAt: Date.now() - 3_600_000,
    expireAt: Date.now() + 7 * 86_400_000,
  });
  const { boardTask } = await api.post<{ boardTask: { id: number } }>(adminToken, `/api/boardtask/${board.id}/info`, {
    itemId: item.id,
    buyIn: 21.5,
    show: 10,
  });
  expect(await api.post<boolean>(adminToken, `/api/board/${board.id}/add?groupIds=${group.id}`)).toBe(true);
  await api.post(adminToken, `/api/boardtask/publish/${board.id}`);

  const memberToken = await api.login(MEMBER.mail, MEMBER.password);
  const claimed = await api.post<{ status: string; task: { id: number; mainId: number; subId: number; status: string } }>(
    memberToken,
    `/api/task/${boardTask.id}/user/create/6`,
  );
  expect(claimed.task).toMatchObject({ status: 'open', subId: 0 });
  return { itemId: item.id, task: claimed.task };
}

/** An .xlsx with the template's header row (src/server/files/purchased-upload.ts) and these rows. */
function purchasesSheet(rows: (string | number)[][]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['任务ID', '商品ID', '商品名称', 'tracking', '快递公司', '数量'], ...rows]), '采购记录');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/**
 * A success toast. Toasts raised while a dialog is open sit in the page behind it, which the dialog
 * makes inert and aria-hidden, so they are looked up among hidden elements too (they are on screen).
 */
const toast = (page: Page, text: string) => page.getByRole('status', { includeHidden: true }).filter({ hasText: text });

describe('task records in the browser', () => {
  it('the member records purchases by hand and by Excel, edits and deletes them; the admin sees each change in the user log', async () => {
    const { itemId, task } = await seedClaimedTask();
    const taskLabel = String(task.mainId); // subId 0: shown as the mainId alone

    // ------------------------------------------------------------ member: my tasks
    const member = await newPage();
    const m = member.page;
    const creates: number[] = []; // responses of the record dialog's create call
    m.on('response', (res) => {
      if (/\/api\/purchased\/user\/\d+\/create$/.test(res.url())) creates.push(res.status());
    });
    await m.goto(`${server.url}/user/my-task`);
    await m.waitForURL(/\/login\?callback=/);
    await logIn(m, MEMBER.mail, MEMBER.password);
    await m.waitForURL(`${server.url}/user/my-task`);
    const myTasks = m.getByRole('table', { name: '我的任务列表' });
    const taskRow = rowWithCell(myTasks, taskLabel);
    await taskRow.waitFor();
    await expect(taskRow.textContent()).resolves.toContain(ITEM.itemName);
    await expect(taskRow.getByText('进行中').count()).resolves.toBe(1);

    // ------------------------------------------------------------ member: two records by hand
    await taskRow.getByRole('button', { name: '记录', exact: true }).click();
    const dialog = m.getByRole('dialog', { name: /采购记录/ });
    await dialog.getByText('暂无采购记录').waitFor();
    await expect(dialog.getByText('认领 6 件，已到货 0 件').count()).resolves.toBe(1);
    const addForm = dialog.getByRole('form', { name: '添加采购记录' });
    const tracking = addForm.getByLabel('快递单号');
    const count = addForm.getByLabel('数目');
    // Empty: both fields say what is missing, and nothing is sent.
    await addForm.getByRole('button', { name: '添加' }).click();
    await addForm.getByText('请填写trackingId').waitFor();
    await addForm.getByText('请填写数目').waitFor();
    await expect(tracking.getAttribute('aria-invalid')).resolves.toBe('true');
    await tracking.fill(TRACKING.first);
    await addForm.getByRole('button', { name: '添加' }).click();
    await addForm.getByText('请填写数目').waitFor();
    await expect(addForm.getByText('请填写trackingId').count()).resolves.toBe(0);
    expect(creates).toEqual([]);
    await shot(m, 'tasks-01-record-dialog');

    const records = dialog.getByRole('table', { name: '采购记录列表' });
    const recordRow = (trackingId: string) => rowWithCell(records, trackingId);
    await count.fill('1');
    await addForm.getByRole('button', { name: '添加' }).click();
    await toast(m, '创建成功').waitFor();
    await recordRow(TRACKING.first).waitFor();
    await expect(tracking.inputValue()).resolves.toBe(''); // the form is ready for the next one
    await tracking.fill(TRACKING.second);
    await count.fill('1');
    await count.press('Enter');
    await recordRow(TRACKING.second).waitFor();
    await expect(records.getByRole('row').count()).resolves.toBe(3); // header + 2
    expect(creates).toEqual([200, 200]);
    for (const trackingId of [TRACKING.first, TRACKING.second]) {
      const row = recordRow(trackingId);
      await expect(row.getByRole('cell', { name: '1', exact: true }).count()).resolves.toBe(1);
      await expect(row.getByText('待匹配').count()).resolves.toBe(1);
    }
    // (The toast stays: closing it is a click outside the dialog, which closes the dialog.)
    await shot(m, 'tasks-02-two-records');
    await dialog.getByRole('button', { name: '关闭' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    // The table lists the task's tracking ids, each still expected.
    const trackingsOfRow = () => taskRow.getByRole('button', { name: /：待到货$/ }).allTextContents();
    await expect.poll(trackingsOfRow).toEqual([TRACKING.first, TRACKING.second]);
    await dismissToasts(m);

    // ------------------------------------------------------------ member: a third by Excel (import)
    await taskRow.getByRole('link', { name: '上传' }).click();
    await m.waitForURL(`${server.url}/user/upload`);
    await m.getByRole('heading', { name: '上传采购记录' }).waitFor();
    const sheet = purchasesSheet([
      [taskLabel, itemId, ITEM.itemName, TRACKING.uploaded, 'UPS', 2],
      [taskLabel, itemId, ITEM.itemName, TRACKING.first, 'UPS', 1], // already recorded by hand: skipped
    ]);
    await m.getByLabel('表格文件（.xlsx、.xls、.ods、.csv）').setInputFiles({ name: 'purchases.xlsx', mimeType: XLSX_TYPE, buffer: sheet });
    await m.getByText(/^purchases\.xlsx（\d+ KB）$/).waitFor();
    await m.getByRole('button', { name: '导入', exact: true }).click();
    await m.getByRole('heading', { name: '导入结果 · purchases.xlsx' }).waitFor();
    await expect(m.getByLabel('统计').textContent()).resolves.toBe('成功1 条跳过1 条失败0 条');
    const result = m.getByRole('table', { name: '上传结果' });
    const uploadedRow = rowWithCell(result, TRACKING.uploaded);
    await uploadedRow.waitFor();
    await expect(uploadedRow.getByText('成功', { exact: true }).count()).resolves.toBe(1);
    await expect(uploadedRow.getByRole('cell', { name: String(itemId), exact: true }).count()).resolves.toBe(1);
    const skippedRow = rowWithCell(result, TRACKING.first);
    await expect(skippedRow.getByText('跳过', { exact: true }).count()).resolves.toBe(1);
    await expect(skippedRow.getByText('该快递单号已记录').count()).resolves.toBe(1);
    await shot(m, 'tasks-03-upload-result');

    // Leaving with the result on screen asks first.
    await m.getByRole('navigation').getByRole('link', { name: '我的任务', exact: true }).click();
    const leave = m.getByRole('dialog', { name: '离开此页面' });
    await leave.getByText('离开后将不再显示本次上传的结果，确定离开吗？').waitFor();
    await leave.getByRole('button', { name: '离开' }).click();
    await m.waitForURL(`${server.url}/user/my-task`);

    // ------------------------------------------------------------ member: edit one record, delete another
    // Each tracking id of the task, none of them arrived yet.
    await expect.poll(trackingsOfRow).toEqual([TRACKING.first, TRACKING.second, TRACKING.uploaded]);
    await taskRow.getByRole('button', { name: '记录', exact: true }).click();
    await recordRow(TRACKING.uploaded).waitFor();
    await expect(records.getByRole('row').count()).resolves.toBe(4); // header + 3
    await expect(recordRow(TRACKING.uploaded).getByRole('cell', { name: '2', exact: true }).count()).resolves.toBe(1);

    await dialog.getByRole('button', { name: `编辑 ${TRACKING.second}` }).click();
    const editForm = dialog.getByRole('form', { name: `编辑采购记录 ${TRACKING.second}` });
    await expect(editForm.getByLabel('数目').inputValue()).resolves.toBe('1');
    await editForm.getByLabel('数目').fill('3');
    await editForm.getByRole('button', { name: '保存' }).click();
    await toast(m, '保存成功').waitFor();
    await recordRow(TRACKING.second).getByRole('cell', { name: '3', exact: true }).waitFor();
    await editForm.waitFor({ state: 'detached' });

    await dialog.getByRole('button', { name: `删除 ${TRACKING.first}` }).click();
    const confirm = m.getByRole('dialog', { name: '提示' });
    await confirm.getByText(`确定删除采购记录 ${TRACKING.first} 吗？`).waitFor();
    await confirm.getByRole('button', { name: '确定' }).click();
    await toast(m, '删除成功').waitFor();
    await recordRow(TRACKING.first).waitFor({ state: 'detached' });
    await expect(records.getByRole('row').count()).resolves.toBe(3); // header + 2
    await shot(m, 'tasks-04-edited-and-deleted');
    await dialog.getByRole('button', { name: '关闭' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    // Recording never changes the task: still open, nothing arrived; two tracking ids left.
    await expect.poll(trackingsOfRow).toEqual([TRACKING.second, TRACKING.uploaded]);
    await expect(taskRow.getByText('进行中').count()).resolves.toBe(1);
    expect(member.errors).toEqual([]);
    await member.close();

    // ------------------------------------------------------------ admin: the user log of the task
    const admin = await newPage();
    const a = admin.page;
    await a.goto(`${server.url}/admin/task-audit`);
    await a.waitForURL(/\/login\?callback=/);
    await logIn(a, ADMIN.mail, ADMIN.password);
    await a.waitForURL(`${server.url}/admin/task-audit`);
    const filters = a.getByRole('form', { name: '筛选条件' });
    await filters.getByLabel('任务ID').fill(taskLabel);
    await filters.getByRole('button', { name: '查询' }).click();
    await a.waitForURL((u) => u.searchParams.get('mainId') === taskLabel);
    const log = a.getByRole('table', { name: '用户日志' });
    const entries = (action: string) => log.getByRole('row').filter({ has: a.getByRole('cell', { name: action, exact: true }) });
    await entries('删除').waitFor();
    // Newest first: delete, edit, three creates (two by hand, one by upload), the claim.
    await expect(entries('新建').count()).resolves.toBe(3);
    await expect(entries('修改').count()).resolves.toBe(1);
    await expect(entries('认领').count()).resolves.toBe(1);
    await expect(log.getByRole('row').count()).resolves.toBe(1 + 6);
    const headers = await log.getByRole('columnheader').allTextContents();
    const column = (entry: Locator, header: string) => entry.getByRole('cell').nth(headers.indexOf(header)).textContent();
    for (const [action, trackingId, n] of [
      ['删除', TRACKING.first, '1'],
      ['修改', TRACKING.second, '3'],
    ] as const) {
      const entry = entries(action);
      await expect(column(entry, '操作人')).resolves.toMatch(new RegExp(`^${MEMBER.nickName}（#\\d+）$`)); // who
      await expect(column(entry, '类型')).resolves.toBe('采购记录');
      await expect(column(entry, '任务')).resolves.toBe(taskLabel);
      await expect(column(entry, '快递单号')).resolves.toBe(trackingId);
      await expect(column(entry, '数量')).resolves.toBe(n);
    }
    await expect(entries('新建').filter({ hasText: TRACKING.uploaded }).count()).resolves.toBe(1);

    // The edit, opened: productCount 1 -> 3, the tracking id unchanged.
    await entries('修改').getByRole('button', { name: '展开' }).click();
    const diff = a.getByRole('table', { name: /^变更内容 #\d+$/ });
    const countChange = diff.getByRole('row').filter({ has: a.getByRole('rowheader', { name: /productCount\s*（已修改）$/ }) });
    await countChange.waitFor();
    await expect(countChange.getByRole('cell').allTextContents()).resolves.toEqual(['1', '3']); // the arrow between is decoration
    await expect(countChange.getAttribute('data-changed')).resolves.toBe('true');
    const trackingSame = diff.getByRole('row').filter({ has: a.getByRole('rowheader', { name: /trackingId$/ }) });
    await expect(trackingSame.getByRole('cell').allTextContents()).resolves.toEqual([TRACKING.second, TRACKING.second]);
    await expect(trackingSame.getAttribute('data-changed')).resolves.toBeNull();
    // The delete, opened (it is the newest entry, so its change comes first): the record before, nothing after.
    await entries('删除').getByRole('button', { name: '展开' }).click();
    await expect(diff.count()).resolves.toBe(2);
    const removed = diff
      .first()
      .getByRole('row')
      .filter({ has: a.getByRole('rowheader', { name: /trackingId\s*（已修改）$/ }) });
    await expect(removed.getByRole('cell').allTextContents()).resolves.toEqual([TRACKING.first, '（空）']);
    await shot(a, 'tasks-05-audit');
    expect(admin.errors).toEqual([]);
    await admin.close();
  });
});
