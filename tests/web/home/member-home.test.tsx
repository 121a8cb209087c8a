// @vitest-environment happy-dom
// The member home (/user/home, where `/` and a login without callback lead a member) through the real
// router with the HTTP boundary faked: one call (getMemberHome) with the last visit kept in this
// browser, each part's items linking to where they are dealt with, the boards' live countdown (a
// board past its deadline is never shown as open), and a failed load said in place.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../../src/api/schema';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { json, ok, type Handler } from '../support/fake-api';

afterEach(() => {
  cleanup();
  clearToasts();
  localStorage.clear();
});

type MemberHome = components['schemas']['MemberHome'];
type HomeTask = components['schemas']['MemberHomeTask'];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const member = userOf('user');
const LAST_VISIT_KEY = `home.lastVisit.${member.id}`;

const aTask = (over: Partial<HomeTask>): HomeTask => ({
  id: 801,
  mainId: 801,
  subId: 0,
  itemName: '蓝牙耳机',
  count: 3,
  productCount: 0,
  recorded: 0,
  status: 'open',
  ...over,
});

/** A home with something in each part; the boards' deadlines are read against the real clock. */
function aHome(over: Partial<MemberHome> = {}): MemberHome {
  const now = Date.now();
  return {
    now,
    since: now - 2 * DAY,
    openBoards: {
      total: 12,
      items: [
        { id: 1, uuid: 'b-soon', boardName: '今晚截止', remark: '快', expireAt: now + 2 * HOUR + 30 * MINUTE },
        { id: 2, uuid: 'b-later', boardName: '十二月采购', remark: '常规', expireAt: now + 2 * DAY + 3 * HOUR + 30 * MINUTE },
      ],
    },
    awaitingTracking: { total: 1, items: [aTask({ id: 801, mainId: 801, recorded: 1 })] },
    arrived: {
      total: 2,
      items: [
        {
          id: 91,
          trackingId: '1Z999AA10123456784',
          upc: '0123',
          itemName: '蓝牙耳机',
          count: 2,
          status: 'match',
          seenAt: now - HOUR,
          taskId: 805,
          mainId: 805,
          subId: 1,
        },
        {
          id: 92,
          trackingId: 'TBA000111',
          upc: '0999',
          itemName: '',
          count: 1,
          status: 'unmatch',
          seenAt: now - 2 * HOUR,
          taskId: null,
          mainId: null,
          subId: null,
        },
      ],
    },
    disagreeing: {
      total: 1,
      items: [aTask({ id: 806, mainId: 806, itemName: '保温杯', productCount: 1, recorded: 3, trackingIds: 'TBA000222', reason: '已到货1件，记录3件' })],
    },
    payable: {
      total: 2,
      amount: 62.5,
      items: [
        aTask({ id: 807, mainId: 807, itemName: '台灯', status: 'locked', productCount: 2, recorded: 2, count: 2, amount: 50, partial: false }),
        aTask({ id: 806, mainId: 806, itemName: '保温杯', productCount: 1, recorded: 3, amount: 12.5, partial: true }),
      ],
    },
    balance: 321.5,
    missingParcels: { total: 0, lost: 0, days: 7 },
    totals: {
      claimed: { units: 16, amount: 207.5 },
      recorded: { units: 8, amount: 100 },
      arrived: { units: 7, amount: 87.5 },
      paid: { units: 1, amount: 12.5 },
      withdrawable: { units: 3, amount: 321.5 },
    },
    ...over,
  };
}

function openHome(answer: Handler, path = '/') {
  const calls: URL[] = [];
  const app = renderApp(path, {
    loggedInAs: member,
    handlers: {
      'GET /api/home/user': (request) => {
        calls.push(new URL(request.url));
        return answer(request);
      },
    },
  });
  return { ...app, calls, user: userEvent.setup() };
}

/** The home, and /user/my-task's list call answered by `list`. */
function renderAppWithList(list: Handler) {
  const app = renderApp('/', { loggedInAs: member, handlers: { 'GET /api/home/user': () => ok(aHome()), 'GET /api/task/info/user/list': list } });
  return { ...app, user: userEvent.setup() };
}

const part = (name: RegExp | string) => screen.getByRole('region', { name });
const linksOf = (region: HTMLElement) =>
  within(region)
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);

describe('the member home', () => {
  it('is where / leads a member, first in the sidebar, loaded in one call', async () => {
    const { router, calls } = openHome(() => ok(aHome()));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/home'));
    expect(await screen.findByRole('heading', { name: '首页', level: 1 })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('首页 - 采购任务协作平台'));
    const nav = screen.getByRole('navigation', { name: '主菜单' });
    expect(within(nav).getAllByRole('link')[0]!.getAttribute('href')).toBe('/user/home');
    await screen.findByText('今晚截止');
    expect(calls).toHaveLength(1);
  });

  it('links every item to where it is dealt with', async () => {
    openHome(() => ok(aHome()));
    await screen.findByText('今晚截止');

    expect(linksOf(part(/开放的看板/))).toEqual([
      [expect.stringContaining('今晚截止'), '/user/board/b-soon'],
      [expect.stringContaining('十二月采购'), '/user/board/b-later'],
      ['全部看板（12） →', '/user/board-list'],
    ]);
    const awaiting = part(/待填写快递单号/);
    expect(linksOf(awaiting)).toEqual([[expect.stringContaining('蓝牙耳机'), '/user/my-task?taskId=801']]);
    expect(within(awaiting).getByText('已填写 1 / 3 件')).toBeTruthy();

    const arrived = part(/新到的包裹/);
    expect(linksOf(arrived)).toEqual([
      [expect.stringContaining('1Z999AA10123456784'), '/user/my-task?trackingId=1Z999AA10123456784'],
      [expect.stringContaining('TBA000111'), '/user/my-task?trackingId=TBA000111'],
    ]);
    expect(within(arrived).getByText(/任务 805-1/)).toBeTruthy();
    expect(within(arrived).getByText(/未匹配到任务/)).toBeTruthy();

    const disagreeing = part(/到货与记录不一致/);
    expect(linksOf(disagreeing)).toEqual([[expect.stringContaining('保温杯'), '/user/my-task?taskId=806']]);
    expect(within(disagreeing).getByText('已到货1件，记录3件')).toBeTruthy();
    expect(within(disagreeing).getByText('到货 1 件 · 记录 3 件')).toBeTruthy();

    const payable = part(/可申请付款/);
    expect(within(payable).getByText('合计 62.50')).toBeTruthy();
    expect(linksOf(payable).map(([, href]) => href)).toEqual(['/user/my-task?taskId=807', '/user/my-task?taskId=806']);
    expect(within(payable).getByText('部分到货')).toBeTruthy();

    const balance = part('可提现余额');
    expect(within(balance).getByText('321.50')).toBeTruthy();
    expect(within(balance).getByRole('link', { name: '去提现' }).getAttribute('href')).toBe('/user/withdraw-request');
  });

  it('shows the totals in units and yuan, each linking to its list with the filter in the URL', async () => {
    const { user, router } = openHome(() => ok(aHome()));
    await screen.findByText('今晚截止');
    const totals = part('我的数据');
    expect(linksOf(totals)).toEqual([
      ['已认领16 件¥207.50', '/user/my-task?claimed=true'],
      ['已购买（已填单号）8 件¥100.00', '/user/my-task?recorded=true'],
      ['已到货7 件¥87.50', '/user/my-task?status=locked'],
      ['已付款1 件¥12.50', '/user/apply-list'],
      ['可提现3 件¥321.50', '/user/withdraw-request'],
    ]);
    await user.click(within(totals).getByRole('link', { name: /已到货/ }));
    await waitFor(() => expect(router.state.location.href).toBe('/user/my-task?status=locked'));
  });

  it('opens, from 已购买（已填单号）, my tasks that have records: the tasks the figure sums', async () => {
    const lists: URL[] = [];
    const { user, router } = renderAppWithList((request) => {
      lists.push(new URL(request.url));
      return ok({ content: [], totalPages: 0, totalElements: 0 });
    });
    await screen.findByText('今晚截止');
    await user.click(within(part('我的数据')).getByRole('link', { name: /已购买（已填单号）/ }));
    await waitFor(() => expect(router.state.location.href).toBe('/user/my-task?recorded=true'));
    await waitFor(() => expect(lists.at(-1)?.searchParams.get('recorded')).toBe('true'));
    expect(lists.at(-1)?.searchParams.getAll('taskStatus')).toEqual([]);
  });

  it('counts the boards down, and drops a board the moment its deadline passes: it is never shown as open', async () => {
    const now = Date.now();
    const home = aHome({
      openBoards: {
        total: 3,
        items: [
          // Passed already (a clock ahead of the server's answer): not shown at all.
          { id: 3, uuid: 'b-gone', boardName: '已截止看板', remark: '', expireAt: now - MINUTE },
          { id: 1, uuid: 'b-now', boardName: '马上截止', remark: '', expireAt: now + 1500 },
          { id: 2, uuid: 'b-later', boardName: '十二月采购', remark: '', expireAt: now + 2 * DAY + 3 * HOUR + 30 * MINUTE },
        ],
      },
    });
    openHome(() => ok(home));
    const boards = await waitFor(() => part(/开放的看板/));
    await within(boards).findByText('十二月采购');
    expect(within(boards).queryByText('已截止看板')).toBeNull();
    expect(within(boards).getByText('剩余 2天3小时')).toBeTruthy();
    expect(within(boards).getByText(/^剩余 0分0[01]秒$/)).toBeTruthy();
    await waitFor(() => expect(within(boards).queryByText('马上截止')).toBeNull(), { timeout: 4000 });
    expect(within(boards).getByText('十二月采购')).toBeTruthy();
    expect(within(boards).queryByText('已过期')).toBeNull();
    // The count follows: 3 on the server's answer, less the two past their deadline.
    expect(within(boards).getByTestId('home-boards-total').textContent).toBe('1');
  });

  it('sends the last visit kept in this browser and keeps this one for the next', async () => {
    localStorage.setItem(LAST_VISIT_KEY, '1700000000000');
    const home = aHome();
    const { calls } = openHome(() => ok(home));
    await screen.findByText('今晚截止');
    expect(calls[0]!.searchParams.get('since')).toBe('1700000000000');
    expect(localStorage.getItem(LAST_VISIT_KEY)).toBe(String(home.now));
    expect(within(part(/新到的包裹/)).getByText(/以来$/)).toBeTruthy();
  });

  it('asks without since on a first visit', async () => {
    const { calls } = openHome(() => ok(aHome()));
    await screen.findByText('今晚截止');
    expect(calls[0]!.searchParams.has('since')).toBe(false);
  });

  it('says what is empty, part by part', async () => {
    const empty = { total: 0, items: [] };
    openHome(() => ok(aHome({ openBoards: empty, awaitingTracking: empty, arrived: empty, disagreeing: empty, payable: { ...empty, amount: 0 }, balance: 0 })));
    expect(await screen.findByText('暂无开放的看板')).toBeTruthy();
    expect(screen.getByText('认领的任务都已填写快递单号')).toBeTruthy();
    expect(screen.getByText('上次访问以来没有新到的包裹')).toBeTruthy();
    expect(screen.getByText('没有不一致的任务')).toBeTruthy();
    expect(screen.getByText('暂无可申请付款的任务')).toBeTruthy();
  });

  it('keeps what it shows while it reloads, and shows it at once when the member comes back: nothing moves under the pointer', async () => {
    let answered = 0;
    let release = () => {};
    const { user, router, calls } = openHome(async () => {
      // The first load answers at once; each later one waits until released.
      if (answered++ > 0) await new Promise<void>((resolve) => (release = resolve));
      return ok(aHome());
    });
    await screen.findByText('今晚截止');
    const recorded = () => within(part('我的数据')).getByRole('link', { name: /已购买/ }).textContent;
    expect(recorded()).toBe('已购买（已填单号）8 件¥100.00');

    await user.click(screen.getByRole('button', { name: '刷新' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(recorded()).toBe('已购买（已填单号）8 件¥100.00');
    expect(screen.getByText('今晚截止')).toBeTruthy();
    release();

    await router.navigate({ to: '/user/upload' });
    await router.navigate({ to: '/user/home' });
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(recorded()).toBe('已购买（已填单号）8 件¥100.00');
    release();
  });

  it('says a failed load in place, keeping the title, and loads again on retry', async () => {
    let fail = true;
    const { user, calls } = openHome(() => (fail ? json({ code: 'A00005', msg: '系统繁忙' }, 500) : ok(aHome())));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('首页加载失败');
    expect(alert.textContent).toContain('A00005 系统繁忙');
    expect(screen.getByRole('heading', { name: '首页', level: 1 })).toBeTruthy();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByText('今晚截止')).toBeTruthy();
    expect(calls).toHaveLength(2);
  });
});
