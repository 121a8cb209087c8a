// From an admin's published board to a member's claimed task, in a real browser against the real
// server with a real SMTP sink (end to end): the admin creates an item, a group
// with a member, a board with two board tasks, binds the group and publishes; the member finds the
// notification mail, opens the board through login, claims, and sees the progress colour change;
// a claim above what remains is refused in the dialog without reaching the server.
import { describe, expect, it } from 'vitest';
import { dismissToasts, inviteAndRegister, logIn, newPage as newBrowserPage, shot, useStage } from './setup.ts';

const ADMIN = { mail: 'chief@e2e.test', password: 'chief-pass-1' };
const MEMBER = { mail: 'buyer@e2e.test', password: 'buyer-pass-1', nickName: '采购员小李' };
const ITEM = { name: 'E2E 蓝牙耳机', productId: 'E2E-BT-001', upc: '012345678905', price: '19.99' };
const GROUP = '华南采购E2E组';
const BOARD = { name: 'E2E 十二月看板', remark: '本周优先处理耳机' };

const stage = useStage({ admin: ADMIN });
const { server, sink, browser } = stage;
const newPage = () => newBrowserPage(browser);

/** Setup through the API: the admin invites the member, who registers from the mailed link. */
async function inviteAndRegisterMember() {
  const adminToken = stage.adminToken;
  await inviteAndRegister(server, sink, adminToken, { ...MEMBER, phoneNo: '13800002222', qq: '889900' });
  sink.mails.length = 0; // from here on the member's only mail is the board notification
}

describe('boards and claims in the browser', () => {
  it('admin builds and publishes a board; the member opens the mailed link, claims, and sees the progress change', async () => {
    const started = Date.now();
    await inviteAndRegisterMember();

    // ------------------------------------------------------------ admin: item
    const admin = await newPage();
    const a = admin.page;
    await a.goto(`${server.url}/admin/item/new`);
    await a.waitForURL(/\/login\?callback=/);
    await logIn(a, ADMIN.mail, ADMIN.password);
    await a.waitForURL(`${server.url}/admin/item/new`);
    const itemForm = a.getByRole('form', { name: '新增商品' });
    await itemForm.getByLabel('商品名称').fill(ITEM.name);
    await itemForm.getByLabel('商品ID').fill(ITEM.productId);
    await itemForm.getByLabel('UPC').fill(ITEM.upc);
    await itemForm.getByLabel('链接', { exact: true }).fill('shop.example.com/bt-001');
    await itemForm.getByLabel('参考价格').fill(ITEM.price);
    await itemForm.getByRole('button', { name: '保存' }).click();
    await a.getByRole('status').filter({ hasText: '创建成功' }).waitFor();
    await a.waitForURL(/\/admin\/item-list/);
    const itemRow = a.getByRole('row').filter({ hasText: ITEM.name });
    await itemRow.waitFor();
    await expect(itemRow.textContent()).resolves.toContain(ITEM.upc);
    await shot(a, '11-item');

    // ------------------------------------------------------------ admin: group with the member
    await a.goto(`${server.url}/admin/group/new`);
    await a.getByLabel('组名称').fill(GROUP);
    await a.getByLabel('备注').fill('端到端测试用户组');
    await a.getByRole('button', { name: '保存', exact: true }).click();
    await a.waitForURL(/\/admin\/group\/\d+$/);
    await a.getByRole('heading', { name: `用户组：${GROUP}` }).waitFor();
    await a.getByRole('button', { name: '添加成员' }).click();
    const memberChoice = a.getByRole('checkbox', { name: new RegExp(MEMBER.nickName) });
    await memberChoice.waitFor();
    await memberChoice.check();
    await a.getByRole('button', { name: '添加（1）' }).click();
    await a.getByRole('status').filter({ hasText: '操作成功' }).waitFor();
    const members = a.getByRole('table', { name: '用户组成员' });
    await members.getByRole('cell', { name: MEMBER.mail, exact: true }).waitFor();
    await a.getByRole('heading', { name: '成员（1）' }).waitFor();
    await shot(a, '12-group');

    // ------------------------------------------------------------ admin: board with two board tasks
    // A new board is published now (the publish time comes filled in): name, deadline and remark,
    // then Enter, and it is created at the first try.
    await a.goto(`${server.url}/admin/board/new`);
    const publishAt = await a.getByLabel('发布时间').inputValue();
    expect(Math.abs(new Date(publishAt).getTime() - Date.now())).toBeLessThan(5 * 60_000);
    await a.getByLabel('截止时间').fill('2099-12-31T18:00');
    await a.getByLabel('备注').fill(BOARD.remark);
    await a.getByLabel('看板名称').fill(BOARD.name);
    await shot(a, '13a-new-board');
    await a.getByLabel('看板名称').press('Enter');
    await a.waitForURL(/\/admin\/board\/\d+$/);
    const boardUrl = a.url();
    await a.getByRole('heading', { name: new RegExp(BOARD.name) }).waitFor();
    // Not publishable yet: no board task, no group.
    await expect(a.getByRole('button', { name: '发布', exact: true }).count()).resolves.toBe(0);

    // Two board tasks by keyboard, the second on a phone: a new one opens in the simple form, the
    // item picked by keyboard fills the price, and Enter saves it at the first try.
    const boardTasks = a.getByRole('table', { name: '看板任务列表' });
    for (const [show, buyIn, width, height] of [
      ['10', '12.50', 1400, 900],
      ['4', '8.00', 390, 844],
    ] as const) {
      await a.setViewportSize({ width, height });
      await a.getByRole('link', { name: '新建看板任务' }).click();
      await a.waitForURL(/\/admin\/boardtask\/\d+\/new/);
      await a.getByRole('heading', { name: '新建看板任务' }).waitFor();
      await expect(a.getByLabel('简易表单').isChecked()).resolves.toBe(true);
      await a.getByLabel('需求数量').waitFor();
      await expect(a.getByLabel('实际需求').count()).resolves.toBe(0);
      const picker = a.getByLabel('商品', { exact: true });
      await picker.focus();
      await a.keyboard.type('蓝牙');
      await a.getByRole('option', { name: new RegExp(ITEM.name) }).waitFor();
      await a.keyboard.press('ArrowDown');
      await a.keyboard.press('Enter');
      await expect(picker.inputValue()).resolves.toBe(`${ITEM.name}（${ITEM.upc}）`);
      await expect(a.getByLabel('价格').inputValue()).resolves.toBe(ITEM.price);
      await a.getByLabel('回收价').focus();
      await a.keyboard.type(buyIn);
      await a.keyboard.press('Tab');
      await a.keyboard.type(show);
      await shot(a, `13b-new-board-task-${width}`);
      await a.keyboard.press('Enter');
      await a.waitForURL(boardUrl);
      await boardTasks
        .getByRole('row')
        .filter({ has: a.getByRole('cell', { name: buyIn, exact: true }) })
        .waitFor();
    }
    await a.setViewportSize({ width: 1400, height: 900 });
    // The simple form took the item's price for both; the default address reads 默认地址.
    await expect(boardTasks.getByRole('cell', { name: ITEM.price, exact: true }).count()).resolves.toBe(2);
    await expect(boardTasks.getByRole('cell', { name: '默认地址', exact: true }).count()).resolves.toBe(2);
    await expect(boardTasks.textContent()).resolves.not.toContain('DEFAULT');

    // Bind the group with the transfer.
    await a.getByRole('group', { name: '可绑定的用户组' }).getByLabel(GROUP).check();
    await a.getByRole('button', { name: '绑定 →' }).click();
    await a.getByRole('group', { name: '已绑定的用户组' }).getByLabel(GROUP).waitFor();
    await expect(a.getByRole('group', { name: '可绑定的用户组' }).getByLabel(GROUP).count()).resolves.toBe(0);
    const publish = a.getByRole('button', { name: '发布', exact: true });
    await publish.waitFor();
    await dismissToasts(a);
    await shot(a, '13-board');

    // Publish, answering the confirmation.
    await publish.click();
    await a.getByText('确定发布此看板吗？绑定用户组的所有成员将收到通知邮件。').waitFor();
    await a.getByRole('button', { name: '确定', exact: true }).click();
    await a.getByRole('status').filter({ hasText: '操作成功' }).waitFor();
    await a.getByText('已发布', { exact: true }).waitFor();
    await a.getByRole('button', { name: '关闭看板' }).waitFor();
    const uuid = /^链接ID\s+([0-9a-f-]{36})$/i.exec((await a.getByText(/^链接ID /).textContent()) ?? '')?.[1];
    expect(uuid).toBeTruthy();
    await shot(a, '14-published');
    expect(admin.errors).toEqual([]);

    // ------------------------------------------------------------ member: the notification mail
    const notice = await sink.waitFor(MEMBER.mail, 15_000);
    const boardLink = `${server.url}/user/board/${uuid}`;
    expect(notice.subject).toBe(`新的采购任务：${BOARD.name}`);
    expect(notice.text).toContain(BOARD.remark);
    expect(notice.links).toContain(boardLink);

    // ------------------------------------------------------------ member: login through the link
    const member = await newPage();
    const m = member.page;
    const claimCalls: { url: string; status: number }[] = [];
    m.on('response', (res) => {
      if (/\/api\/task\/\d+\/user\/create\//.test(res.url())) claimCalls.push({ url: res.url(), status: res.status() });
    });
    await m.goto(boardLink);
    await m.waitForURL(/\/login\?callback=/);
    expect(new URL(m.url()).searchParams.get('callback')).toBe(`/user/board/${uuid}`);
    await logIn(m, MEMBER.mail, MEMBER.password);
    await m.waitForURL(boardLink);
    await m.getByRole('heading', { name: BOARD.name, level: 1 }).waitFor();

    const tasks = m.getByRole('table', { name: '任务列表' });
    const rowOf = (show: string) => tasks.getByRole('row').filter({ has: m.getByRole('cell', { name: show, exact: true }) });
    const ten = rowOf('10');
    // The board task showing 4 (once 6 of the ten are claimed, the ten has 4 left too).
    const four = rowOf('4').filter({ hasNot: m.getByRole('cell', { name: '10', exact: true }) });
    await ten.waitFor();
    await four.waitFor();
    // The progress cell (status badges carry a data-tone too).
    const progressOf = (row: typeof ten, tone = '') => row.locator(`[data-tone${tone ? `="${tone}"` : ''}]`).filter({ has: m.getByRole('progressbar') });
    const tenProgress = progressOf(ten);
    await expect(tenProgress.getAttribute('data-tone')).resolves.toBe('green');
    await expect(ten.getByRole('progressbar').getAttribute('aria-valuetext')).resolves.toBe('0%');
    await expect(tenProgress.textContent()).resolves.toBe('0%');
    const myTasks = m.getByRole('table', { name: '我在此看板的任务' });
    await myTasks.getByText('暂无数据').waitFor();
    await shot(m, '15-member-board');

    // ------------------------------------------------------------ member: claim 6 of 10
    await ten.getByRole('button', { name: '认领' }).click();
    const count = m.getByLabel('认领数量');
    await count.waitFor();
    await m.getByText('最多可认领 10 件').waitFor();
    await count.fill('6');
    await m.getByRole('button', { name: '确认认领' }).click();
    await m.getByRole('status').filter({ hasText: '认领成功' }).waitFor();
    await count.waitFor({ state: 'detached' });
    await progressOf(ten, 'orange').waitFor();
    await expect(tenProgress.textContent()).resolves.toBe('60%');
    await expect(ten.getByRole('progressbar').getAttribute('aria-valuetext')).resolves.toBe('60%');
    // The other board task is untouched.
    await expect(progressOf(four).getAttribute('data-tone')).resolves.toBe('green');
    const claimRow = myTasks.getByRole('row').filter({ hasText: ITEM.name });
    await claimRow.waitFor();
    await expect(claimRow.getByRole('cell', { name: '6', exact: true }).count()).resolves.toBe(1);
    await expect(claimRow.getByText('进行中').count()).resolves.toBe(1);
    await shot(m, '16-claimed');
    await dismissToasts(m);
    expect(claimCalls).toHaveLength(1);
    expect(claimCalls[0]!.url).toMatch(/\/create\/6$/);
    expect(claimCalls[0]!.status).toBe(200);

    // ------------------------------------------------------------ member: 5 more is refused in the dialog
    await ten.getByRole('button', { name: '认领' }).click();
    await count.waitFor();
    await m.getByText('最多可认领 4 件').waitFor();
    await count.fill('5');
    await m.getByRole('button', { name: '确认认领' }).click();
    await m.getByRole('alert').filter({ hasText: '不能认领超过4件' }).waitFor();
    await expect(count.getAttribute('aria-invalid')).resolves.toBe('true');
    await shot(m, '17-claim-refused');
    expect(claimCalls).toHaveLength(1); // the refused claim never left the browser
    await m.getByRole('button', { name: '取消' }).click();
    await count.waitFor({ state: 'detached' });
    await expect(tenProgress.textContent()).resolves.toBe('60%');
    await expect(myTasks.getByRole('row').filter({ hasText: ITEM.name }).count()).resolves.toBe(1);

    // One notification, no more.
    expect(sink.mails.filter((mail) => mail.to === MEMBER.mail)).toHaveLength(1);
    expect(member.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await member.close();
    await admin.close();
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
