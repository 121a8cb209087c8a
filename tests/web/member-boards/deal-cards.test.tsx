// @vitest-environment happy-dom
// /user/board-list's cards view (decision 111): each board with its tasks as deal cards (item, price,
// what a unit earns, units left, the claim progress colour of SPEC §4, the time to the deadline),
// claimable from the card by keyboard through the claim dialog; the table one toggle away, the
// choice kept in the URL.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { BOARDS_PER_DEALS_CALL, loadBoardDeals } from '../../../src/web/features/member-boards/member-boards-api';
import { fakeApiClient, ok } from '../support/fake-api';
import { aBoard, aBoardTask, createMemberBoardsFake, type MemberBoardsFake } from './member-boards-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const member = userOf('user');
const open = (server: MemberBoardsFake, path = '/user/board-list') => ({
  ...renderApp(path, { loggedInAs: member, handlers: server.handlers }),
  user: userEvent.setup(),
});
const cardOf = async (board: string, item: string) =>
  within(await screen.findByRole('list', { name: `${board} 的任务` }))
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(item))!;
const toneOf = (card: HTMLElement) => card.querySelector('[data-tone]')?.getAttribute('data-tone');

function twoBoards() {
  return createMemberBoardsFake({
    boards: [
      aBoard(),
      aBoard({ id: 2, uuid: 'b-2', boardName: '十二月采购', remark: '' }),
      aBoard({ id: 3, uuid: 'b-3', boardName: '已过期的', expire: true }),
    ],
    boardTasks: [
      aBoardTask(), // 4 of 10: 40 % green
      aBoardTask({ id: 13, itemName: '保温杯', price: 30, buyIn: 33, claimCount: 7 }), // 70 % orange
      aBoardTask({ id: 21, boardId: 2, itemName: '台灯', claimCount: 9 }), // 90 % red
      aBoardTask({ id: 22, boardId: 2, itemName: '已满商品', status: 'full', claimCount: 10 }), // nothing left
      aBoardTask({ id: 31, boardId: 3, itemName: '过期商品' }),
    ],
  });
}

describe('/user/board-list as deal cards', () => {
  it("shows each board's tasks as cards: item, price, what a unit earns, units left, progress colour, time left", async () => {
    open(twoBoards());
    const card = await cardOf('十一月采购', '蓝牙耳机');
    expect(within(card).getByText('19.99')).toBeTruthy();
    expect(within(card).getByText('21.50')).toBeTruthy();
    expect(within(card).getByText('6 件')).toBeTruthy();
    expect(within(card).getByText('40%')).toBeTruthy();
    expect(toneOf(card)).toBe('green');
    expect(within(card).getByText(/^剩余 (7天|6天23小时)/)).toBeTruthy();
    expect(within(card).getByRole('link', { name: '蓝牙耳机' }).getAttribute('href')).toBe('/user/boardtask/1/12');
    expect(toneOf(await cardOf('十一月采购', '保温杯'))).toBe('orange');
    expect(toneOf(await cardOf('十二月采购', '台灯'))).toBe('red');
    // Nothing left: the card offers no claim (the claim machine's answer, as on the board page).
    const full = await cardOf('十二月采购', '已满商品');
    expect(within(full).queryByRole('button')).toBeNull();
    expect(within(full).getByText('不可认领')).toBeTruthy();
    expect(within(full).getByText('0 件')).toBeTruthy();
    // Past the deadline the board says 已过期; a claim there still opens (it waits for approval).
    const expiredBoard = (await screen.findByRole('heading', { name: '已过期的', level: 2 })).closest('section')!;
    expect(within(expiredBoard).getAllByText('已过期').length).toBeGreaterThan(0);
    expect(within(await cardOf('已过期的', '过期商品')).getByRole('button', { name: '认领 过期商品' })).toBeTruthy();
  });

  it("loads the page's boards' tasks in one call, not one per board", async () => {
    const server = twoBoards();
    open(server);
    await cardOf('已过期的', '过期商品');
    expect(server.calls.filter((c) => c.path === '/api/boardtask/list/boards')).toHaveLength(1);
    expect(server.calls.filter((c) => c.path.startsWith('/api/boardtask/uuid/'))).toHaveLength(0);
  });

  it('asks for a page of more than a hundred boards in calls of at most a hundred (the contract’s limit)', async () => {
    const boards = Array.from({ length: 150 }, (_, i) => aBoard({ id: i + 1, uuid: `b-${i + 1}` }));
    const server = createMemberBoardsFake({ boards, boardTasks: [aBoardTask({ id: 12, boardId: 150 })] });
    const { api, requests } = fakeApiClient(server.handlers);
    const deals = await loadBoardDeals(api, boards);
    expect(requests.map((r) => new URL(r.url).searchParams.getAll('boardId').length)).toEqual([BOARDS_PER_DEALS_CALL, 50]);
    expect(deals[150]!.map((bt) => bt.id)).toEqual([12]);
    expect(deals[1]).toEqual([]);
  });

  it('says so in its own group when a board’s tasks are not in the answer; the other boards still show', async () => {
    const server = twoBoards();
    // Closed after the list was read: the board's tasks are no longer the member's to see.
    server.handlers['GET /api/boardtask/list/boards'] = () =>
      ok([
        { boardId: 1, boardTasks: server.boardTasks.filter((bt) => bt.boardId === 1) },
        { boardId: 3, boardTasks: server.boardTasks.filter((bt) => bt.boardId === 3) },
      ]);
    open(server);
    await cardOf('十一月采购', '蓝牙耳机');
    const second = (await screen.findByRole('heading', { name: '十二月采购', level: 2 })).closest('section')!;
    expect(within(second).getByRole('alert').textContent).toBe('任务加载失败');
    await cardOf('已过期的', '过期商品');
  });

  it('claims from a card by keyboard, and the card shows the claim', async () => {
    const server = twoBoards();
    const { user } = open(server);
    const claimButton = within(await cardOf('十一月采购', '蓝牙耳机')).getByRole('button', { name: '认领 蓝牙耳机' });
    claimButton.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    const count = within(dialog).getByLabelText('认领数量');
    await user.clear(count);
    await user.type(count, '2{Enter}');
    await waitFor(() => expect(server.claims.map((c) => [c.boardTaskId, c.count])).toEqual([[12, 2]]));
    await waitFor(async () => expect(within(await cardOf('十一月采购', '蓝牙耳机')).getByText('4 件')).toBeTruthy());
  });

  it('switches to the table and back, keeping the choice in the URL', async () => {
    const { user, router } = open(twoBoards());
    await cardOf('十一月采购', '蓝牙耳机');
    await user.click(screen.getByRole('button', { name: '表格' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ view: 'table' }));
    expect(await screen.findByRole('table', { name: '看板列表' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: '十一月采购 的任务' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '卡片' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await cardOf('十一月采购', '蓝牙耳机');
  });
});
