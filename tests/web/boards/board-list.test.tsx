// @vitest-environment happy-dom
// /admin/board-list through the real router, with the HTTP boundary faked (boards-fake.ts).
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { aBoard, aBoardTask, createBoardsFake, type BoardsSeed } from './boards-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const DAY = 24 * 60 * 60 * 1000;

function manyBoards(n: number) {
  return Array.from({ length: n }, (_, i) => aBoard({ id: i + 1, uuid: `u${i + 1}`, boardName: `看板${i + 1}`, createdAt: Date.UTC(2025, 0, 1) + i * DAY }));
}

function renderList(path = '/admin/board-list', seed: BoardsSeed = {}) {
  const fake = createBoardsFake(seed);
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

function listQueries(requests: Request[]) {
  return requests.filter((r) => new URL(r.url).pathname === '/api/board/list/admin').map((r) => Object.fromEntries(new URL(r.url).searchParams));
}

/** The search params as written in the address bar. */
function urlParams(router: ReturnType<typeof renderApp>['router']) {
  return Object.fromEntries(new URLSearchParams(router.state.location.searchStr));
}

const table = () => screen.getByRole('table', { name: '看板列表' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);

describe('/admin/board-list', () => {
  it('shows the boards with one state each, edit and new links; 10 per page, newest first', async () => {
    const { requests } = renderList('/admin/board-list', {
      boards: [
        aBoard({ id: 1, boardName: '一月采购', status: 'open', expireAt: Date.now() - DAY, expire: true, createdAt: 1 }),
        aBoard({ id: 2, boardName: '二月采购', status: 'unpublish', createdAt: 2 }),
        aBoard({ id: 3, boardName: '三月采购', status: 'open', expireAt: Date.now() + 7 * DAY, createdAt: 3 }),
        aBoard({ id: 4, boardName: '四月采购', status: 'close', expireAt: Date.now() - DAY, expire: true, createdAt: 4 }),
      ],
    });
    await screen.findByRole('table', { name: '看板列表' });
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', '看板名称', '备注', '发布时间', '截止时间', '状态', '操作']);
    // One badge per board: an open board past its deadline reads 已过期, never a green 已发布.
    const states = bodyRows().map((row) => [...row.querySelectorAll('[data-tone]')].map((b) => `${b.textContent}:${b.getAttribute('data-tone')}`));
    expect(states).toEqual([['已关闭:neutral'], ['已发布:success'], ['未发布:neutral'], ['已过期:warning']]);
    const first = bodyRows()[3]!;
    expect(within(first).getByRole('link', { name: '编辑' }).getAttribute('href')).toBe('/admin/board/1');
    expect(screen.getByRole('link', { name: '新建看板' }).getAttribute('href')).toBe('/admin/board/new');
    expect(listQueries(requests)).toEqual([{ page: '0', size: '10', isDesc: 'true' }]);
  });

  it('offers the SPEC page sizes and keeps page and size in the URL', async () => {
    const { user, router, requests } = renderList('/admin/board-list', { boards: manyBoards(25) });
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
    const sizeSelect = screen.getByRole('combobox', { name: '每页' });
    expect(
      within(sizeSelect)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['10', '15', '20', '40', '60', '100', '200', '500']);

    await user.click(screen.getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(urlParams(router)).toEqual({ page: '2' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));

    await user.selectOptions(sizeSelect, '20');
    await waitFor(() => expect(urlParams(router)).toEqual({ size: '20' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    expect(listQueries(requests).at(-1)).toEqual({ page: '0', size: '20', isDesc: 'true' });
  });

  it('puts the filters into the URL and the call, and resets them', async () => {
    const { user, router, requests } = renderList('/admin/board-list', {
      boards: manyBoards(3),
      boardTasks: [aBoardTask({ id: 11, boardId: 2, itemId: 7 })],
    });
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    await user.type(screen.getByLabelText('看板ID'), '2');
    await user.type(screen.getByLabelText('看板任务ID'), '11');
    await user.type(screen.getByRole('combobox', { name: '商品' }), 'P7');
    await user.click(await screen.findByRole('option', { name: /蓝牙耳机/ }));
    await user.selectOptions(screen.getByLabelText('排序'), 'asc');
    await user.click(screen.getByRole('button', { name: '查询' }));

    await waitFor(() => expect(urlParams(router)).toEqual({ boardId: '2', boardTaskId: '11', itemId: '7', isDesc: 'false' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(listQueries(requests).at(-1)).toEqual({ page: '0', size: '10', isDesc: 'false', boardId: '2', boardTaskId: '11', itemId: '7' });

    await user.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(urlParams(router)).toEqual({}));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect((screen.getByLabelText('看板ID') as HTMLInputElement).value).toBe('');
  });

  it('reads the filters from the URL and refuses an id that is not a number', async () => {
    const { user, requests } = renderList('/admin/board-list?boardId=3&page=0', { boards: manyBoards(5) });
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect((screen.getByLabelText('看板ID') as HTMLInputElement).value).toBe('3');
    expect(listQueries(requests)[0]).toMatchObject({ boardId: '3' });

    const id = screen.getByLabelText('看板ID');
    await user.clear(id);
    await user.type(id, 'abc');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('请输入正整数')).toBeTruthy();
  });
});
