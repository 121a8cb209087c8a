// @vitest-environment happy-dom
// Live updates in the pages (src/web/live): a page that listens reloads its data when the server's
// stream says something of its kinds changed - once for a burst, not for other kinds, on the admin's
// board page only for that board - and again after the stream was broken and came back; the tab
// keeps one stream for its pages and lets it go when none listens. The stream is the harness's
// fake (support/fake-live.ts); the real one is proven by tests/server/live and tests/e2e/live.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { RETRY_FIRST_MS } from '../../../src/web/live/live-connection';
import { LIVE_REFRESH_DELAY_MS } from '../../../src/web/live/use-live';
import { renderApp, userOf } from '../app-harness';
import { aBoard, aBoardTask, aTask as aBoardClaim, createBoardsFake } from '../boards/boards-fake';
import { aTask, createTasksFake } from '../tasks/tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function openMyTasks() {
  const server = createTasksFake({ tasks: [aTask({ id: 100, mainId: 100, itemName: '蓝牙耳机', count: 2, status: 'open' })] });
  const app = renderApp('/user/my-task', { loggedInAs: userOf('user'), handlers: server.handlers });
  const loads = () => server.calls.filter((c) => c.path === '/api/task/info/user/list').length;
  return { ...app, server, loads };
}

async function rowOf(itemName: string) {
  const table = await screen.findByRole('table', { name: '我的任务列表' });
  return (await within(table).findByText(itemName)).closest('tr')!;
}

describe('/user/my-task', () => {
  it('shows a task that arrived when the stream says so, without a reload of the page', async () => {
    const { server, live, loads } = openMyTasks();
    expect(within(await rowOf('蓝牙耳机')).getByText('进行中')).toBeTruthy();
    await waitFor(() => expect(live.open).toBe(1));

    Object.assign(server.tasks[0]!, { status: 'locked', productCount: 2 });
    live.change({ kind: 'task', ids: [100] });
    await waitFor(async () => expect(within(await rowOf('蓝牙耳机')).getByText('已锁定')).toBeTruthy(), { timeout: 2_000 });
    expect(loads()).toBe(2);
  });

  it('reloads once for a burst of its kinds, and not for the kinds it does not show', async () => {
    const { live, loads } = openMyTasks();
    await rowOf('蓝牙耳机');
    await waitFor(() => expect(live.open).toBe(1));

    live.change({ kind: 'withdraw', ids: [1] });
    live.change({ kind: 'claim', ids: [1] });
    await pause(LIVE_REFRESH_DELAY_MS * 2);
    expect(loads()).toBe(1);

    for (let i = 0; i < 5; i++) live.change({ kind: i % 2 ? 'apply' : 'task', ids: [100 + i] });
    await waitFor(() => expect(loads()).toBe(2));
    await pause(LIVE_REFRESH_DELAY_MS * 2);
    expect(loads()).toBe(2);
  });

  it('opens the stream again after it broke, and reads the page again (changes may have been missed)', async () => {
    const { live, loads } = openMyTasks();
    await rowOf('蓝牙耳机');
    await waitFor(() => expect(live.open).toBe(1));
    live.drop();
    await waitFor(() => expect(live.opened).toBe(2), { timeout: RETRY_FIRST_MS * 3 });
    await waitFor(() => expect(loads()).toBe(2));
  });

  it('keeps one stream while it listens and lets it go on a page that does not', async () => {
    const { live, router } = openMyTasks();
    await rowOf('蓝牙耳机');
    await waitFor(() => expect(live.open).toBe(1));
    await router.navigate({ to: '/user/my-task', search: { page: 1 } });
    await pause(50);
    expect([live.opened, live.open]).toEqual([1, 1]);
    await router.navigate({ to: '/me' });
    await waitFor(() => expect(live.open).toBe(0));
  });
});

describe('/admin/board/{id}', () => {
  it("reloads the claim progress for a claim on its board, not on another's", async () => {
    const fake = createBoardsFake({
      boards: [aBoard({ id: 1, status: 'open' })],
      boardTasks: [aBoardTask({ id: 11, boardId: 1, show: 10 })],
      tasks: [aBoardClaim({ id: 501, boardTaskId: 11, count: 2 })],
    });
    const { live } = renderApp('/admin/board/1', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const progress = async () => (await screen.findByRole('table', { name: /看板任务/ })).querySelector('[role="progressbar"]')!;
    await waitFor(async () => expect((await progress()).getAttribute('aria-valuenow')).toBe('20'));
    await waitFor(() => expect(live.open).toBe(1));
    const loads = () => fake.calls.filter((c) => c.path === '/api/boardtask/1/list').length;

    fake.state.tasks.push(aBoardClaim({ id: 502, boardTaskId: 11, count: 3 }));
    live.change({ kind: 'claim', ids: [2] });
    await pause(LIVE_REFRESH_DELAY_MS * 2);
    expect(loads()).toBe(1);

    live.change({ kind: 'claim', ids: [1] });
    await waitFor(async () => expect((await progress()).getAttribute('aria-valuenow')).toBe('50'), { timeout: 2_000 });
    expect(loads()).toBe(2);
  });
});
