// Live updates in a real browser against the real server: a member has /user/my-task open on a task
// whose parcel is on its way; the warehouse scans the parcel (through the API, as the scan station
// does) and the page shows the task arrived within two seconds, without being reloaded. The stream
// goes to /api/events with the session token in its header, never in the address.
import { describe, expect, it } from 'vitest';
import { inviteAndRegister, newPage, openLoggedIn, rowWithCell, shot, useStage } from './setup.ts';

const ADMIN = { mail: 'lead@e2e.test', password: 'lead-pass-1' };
const MEMBER = { mail: 'live@e2e.test', password: 'live-pass-1', nickName: '实时小李' };
const ITEM = { itemName: 'E2E 实时耳机', productId: 'E2E-LV-001', upc: '036000291452', price: 39.9 };
const TRACKING = 'TRKE2ELIVE01'; // canonical form (decision 097)
const UNITS = 2;

const stage = useStage({ admin: ADMIN });
const { server, sink, browser, api } = stage;

/** An admin, a member in a group, a published board; the member's claim of UNITS with their parcel's tracking id recorded. */
async function seedTaskOnItsWay() {
  const adminToken = stage.adminToken;
  const memberId = await inviteAndRegister(server, sink, adminToken, MEMBER);
  const item = await api.post<{ id: number }>(adminToken, '/api/item/info', { ...ITEM, url: 'shop.example.com/lv-001', status: 'open' });
  const group = await api.post<{ id: number }>(adminToken, '/api/usergroup/update', { groupName: 'E2E 实时组', remark: '' });
  expect(await api.post<boolean>(adminToken, `/api/usergroup/${group.id}/user?uids=${memberId}`)).toBe(true);
  const board = await api.post<{ id: number }>(adminToken, '/api/board/info', {
    boardName: 'E2E 实时看板',
    remark: '到货即付',
    publishAt: Date.now() - 3_600_000,
    expireAt: Date.now() + 7 * 86_400_000,
  });
  const { boardTask } = await api.post<{ boardTask: { id: number } }>(adminToken, `/api/boardtask/${board.id}/info`, { itemId: item.id, buyIn: 25, show: 10 });
  expect(await api.post<boolean>(adminToken, `/api/board/${board.id}/add?groupIds=${group.id}`)).toBe(true);
  await api.post(adminToken, `/api/boardtask/publish/${board.id}`);

  const memberToken = await api.login(MEMBER.mail, MEMBER.password);
  const { task } = await api.post<{ task: { id: number; mainId: number } }>(memberToken, `/api/task/${boardTask.id}/user/create/${UNITS}`);
  await api.post(memberToken, `/api/purchased/user/${task.id}/create`, { trackingId: TRACKING, productCount: UNITS });
  return { adminToken, itemId: item.id, task };
}

describe('live updates in the browser', () => {
  it("the member's task list shows the parcel's arrival within two seconds of the scan, without a reload", async () => {
    const { adminToken, itemId, task } = await seedTaskOnItsWay();
    const member = await newPage(browser);
    const m = member.page;
    const streams: { url: string; token: string | undefined }[] = [];
    m.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/events') streams.push({ url: req.url(), token: req.headers()['x-token'] });
    });
    const streamOpen = m.waitForResponse((res) => new URL(res.url()).pathname === '/api/events' && res.status() === 200);

    await openLoggedIn(m, server, '/user/my-task', MEMBER);
    const row = rowWithCell(m.getByRole('table', { name: '我的任务列表' }), String(task.mainId));
    await row.getByText('进行中').waitFor();
    await streamOpen;
    await m.evaluate(() => Object.assign(window, { liveMarker: 'the same page' }));

    await api.post(adminToken, `/api/scan/admin/tracking/${TRACKING}/create`, { items: [{ upc: ITEM.upc, count: UNITS, itemId }] });
    await row.getByText('已锁定').waitFor({ timeout: 2_000 });

    expect(await m.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe('the same page');
    await expect(row.textContent()).resolves.toContain(ITEM.itemName);
    expect(streams.length).toBeGreaterThanOrEqual(1);
    for (const s of streams) {
      expect(new URL(s.url).search).toBe('');
      expect(s.token).toMatch(/^\S{20,}$/);
    }
    await shot(m, 'live-my-task-arrived');
    expect(member.errors).toEqual([]);
    await member.close();
  });
});
