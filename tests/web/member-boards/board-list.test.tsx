// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { json, ok, type Handler } from '../support/fake-api';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';
import { aBoard, type Board } from './member-boards-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const member = userOf('user');

/** GET /api/board/list/user over `boards`, paged as the contract says (data + pageNumber). */
function boardList(boards: Board[]): Handler {
  return (request) => {
    const q = new URL(request.url).searchParams;
    const page = Number(q.get('page') ?? 0);
    const size = Number(q.get('size') ?? 10);
    return ok({ data: boards.slice(page * size, page * size + size), pageNumber: Math.ceil(boards.length / size) });
  };
}

const manyBoards = Array.from({ length: 25 }, (_, i) => aBoard({ id: i + 1, uuid: `uuid-${i + 1}`, boardName: `看板${i + 1}`, remark: `备注${i + 1}` }));

function listCalls(requests: Request[]) {
  return requests.filter((r) => new URL(r.url).pathname === '/api/board/list/user').map((r) => Object.fromEntries(new URL(r.url).searchParams));
}

describe('/user/board-list', () => {
  it('lists the first 10 boards with id, boardName, remark, status and a view link', async () => {
    const { requests } = renderApp('/user/board-list?view=table', {
      loggedInAs: member,
      handlers: { 'GET /api/board/list/user': boardList(manyBoards) },
    });
    const table = await screen.findByRole('table', { name: '看板列表' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['ID', '看板名称', '备注', '截止时间', '状态', '操作']);
    const rows = await within(table).findAllByRole('row');
    expect(rows).toHaveLength(11);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['1', '看板1', '备注1', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d剩余 (7天|6天23小时)/), '已发布', '查看']);
    expect(within(rows[1]!).getByRole('link', { name: '查看' }).getAttribute('href')).toBe('/user/board/uuid-1');
    expect(listCalls(requests)).toEqual([{ page: '0', size: '10', isDesc: 'true' }]);
    expect(screen.getByRole('button', { name: '第 3 页' })).toBeTruthy();
  });

  it('offers the page sizes of SPEC §9 and keeps page and size in the URL', async () => {
    const { requests, router } = renderApp('/user/board-list?view=table', {
      loggedInAs: member,
      handlers: { 'GET /api/board/list/user': boardList(manyBoards) },
    });
    await screen.findByText('看板1');
    const user = userEvent.setup();
    const select = screen.getByLabelText('每页') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['10', '15', '20', '40', '60', '100', '200', '500']);

    await user.click(screen.getByRole('button', { name: '第 2 页' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ view: 'table', page: 1 }));
    expect(await screen.findByText('看板11')).toBeTruthy();

    await user.selectOptions(select, '20');
    await waitFor(() => expect(router.state.location.search).toEqual({ view: 'table', size: 20 }));
    expect(await screen.findByText('看板20')).toBeTruthy();
    expect(listCalls(requests).map((q) => [q.page, q.size])).toEqual([
      ['0', '10'],
      ['1', '10'],
      ['0', '20'],
    ]);
  });

  it('reads the filters, page and size from the URL', async () => {
    const { requests } = renderApp('/user/board-list?boardTaskId=7&page=1&size=15&itemId=5', {
      loggedInAs: member,
      handlers: {
        'GET /api/board/list/user': boardList(manyBoards),
        'GET /api/item/info/5': () => ok({ id: 5, itemName: '蓝牙耳机', upc: '0123', url: '', status: 'open', productId: 'P5', price: null, createdAt: 0 }),
      },
    });
    await screen.findByText('看板16');
    expect(listCalls(requests)).toEqual([{ page: '1', size: '15', isDesc: 'true', boardTaskId: '7', itemId: '5' }]);
    expect((screen.getByLabelText('任务ID') as HTMLInputElement).value).toBe('7');
    await waitFor(() => expect((screen.getByRole('combobox', { name: '商品' }) as HTMLInputElement).value).toBe('蓝牙耳机（0123）'));
  });

  it('ignores search values that do not parse', async () => {
    const { requests } = renderApp('/user/board-list?boardId=abc&page=-2&size=0', {
      loggedInAs: member,
      handlers: { 'GET /api/board/list/user': boardList(manyBoards) },
    });
    await screen.findByText('看板1');
    expect(listCalls(requests)).toEqual([{ page: '0', size: '10', isDesc: 'true' }]);
  });

  it('searching by board id and board task id puts them in the URL and starts at page 0', async () => {
    const { requests, router } = renderApp('/user/board-list?page=2', {
      loggedInAs: member,
      handlers: { 'GET /api/board/list/user': boardList(manyBoards) },
    });
    await screen.findByText('看板21');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('看板ID'), '3');
    await user.type(screen.getByLabelText('任务ID'), '12');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ boardId: 3, boardTaskId: 12 }));
    await waitFor(() => expect(listCalls(requests).at(-1)).toEqual({ page: '0', size: '10', isDesc: 'true', boardId: '3', boardTaskId: '12' }));

    await user.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await waitFor(() => expect((screen.getByLabelText('看板ID') as HTMLInputElement).value).toBe(''));
  });

  it('filters by item through the product picker', async () => {
    const { requests, router } = renderApp('/user/board-list', {
      loggedInAs: member,
      handlers: {
        'GET /api/board/list/user': boardList(manyBoards),
        [`GET /api/item/info/like/${encodeURIComponent('耳机')}`]: () =>
          ok([{ id: 5, itemName: '蓝牙耳机', upc: '0123', url: '', status: 'open', productId: 'P5', price: null, createdAt: 0 }]),
      },
    });
    await screen.findByText('看板1');
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: '商品' }), '耳机');
    await user.click(await screen.findByRole('option', { name: /蓝牙耳机/ }));
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ itemId: 5 }));
    await waitFor(() => expect(listCalls(requests).at(-1)).toMatchObject({ itemId: '5', page: '0' }));
  });

  it("refuses an id filter that is not a whole number ('ID须为正整数')", async () => {
    const { requests } = renderApp('/user/board-list', {
      loggedInAs: member,
      handlers: { 'GET /api/board/list/user': boardList(manyBoards) },
    });
    await screen.findByText('看板1');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('看板ID'), 'x1');
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('ID须为正整数')).toBeTruthy();
    expect(listCalls(requests)).toHaveLength(1);
  });

  it('the view link opens the board', async () => {
    const { router } = renderApp('/user/board-list', {
      loggedInAs: member,
      handlers: {
        'GET /api/board/list/user': boardList([aBoard()]),
        'GET /api/board/infouuid/b-1': () => ok(aBoard()),
        'GET /api/boardtask/uuid/b-1/list': () => ok([]),
        'GET /api/task/info/user/board/list': () => ok([]),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: '查看' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/board/b-1'));
    expect(await screen.findByRole('heading', { name: '十一月采购', level: 1 })).toBeTruthy();
  });
});

describe('/user/board-list: expired boards', () => {
  it('shows an open board past its deadline as 已过期, never as a green 已发布', async () => {
    renderApp('/user/board-list?view=table', {
      loggedInAs: member,
      handlers: {
        'GET /api/board/list/user': boardList([aBoard({ id: 1, boardName: '过期看板', expire: true }), aBoard({ id: 2, uuid: 'b-2', boardName: '开放看板' })]),
      },
    });
    const table = await screen.findByRole('table', { name: '看板列表' });
    const row = (name: string) => within(table).getByText(name).closest('tr')!;
    await within(table).findByText('过期看板');
    // The badge says 已过期 (and the deadline's countdown too).
    const badge = within(row('过期看板'))
      .getAllByText('已过期')
      .find((el) => el.hasAttribute('data-tone'));
    expect(badge?.getAttribute('data-tone')).toBe('warning');
    expect(within(row('过期看板')).queryByText('已发布')).toBeNull();
    expect(within(row('开放看板')).getByText('已发布').getAttribute('data-tone')).toBe('success');
  });
});

describe('/user/board-list at a phone width', () => {
  afterEach(atDesktopWidth);

  it('shows each board as a card: name, state, remark, deadline with the time left, and the view link', async () => {
    atPhoneWidth();
    renderApp('/user/board-list?view=table', { loggedInAs: member, handlers: { 'GET /api/board/list/user': boardList(manyBoards.slice(0, 3)) } });
    const list = await screen.findByRole('list', { name: '看板列表' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    const card = within(cards[0]!);
    expect(card.getByText('看板1')).toBeTruthy();
    expect(card.getByText('已发布')).toBeTruthy();
    expect(card.getByText('备注').nextElementSibling!.textContent).toBe('备注1');
    expect(card.getByText('截止时间').nextElementSibling!.textContent).toMatch(/剩余 (7天|6天23小时)/);
    expect(card.getByRole('link', { name: '查看' }).getAttribute('href')).toBe('/user/board/uuid-1');
    // The id is a detail the table has room for.
    expect(card.queryByText('ID')).toBeNull();
  });
});

describe('/user/board-list while it loads, and when it fails', () => {
  it('keeps the title, the filters and the headers, with skeleton rows, until the page comes', async () => {
    let answer: (r: Response) => void = () => {};
    renderApp('/user/board-list?view=table', {
      loggedInAs: member,
      handlers: { 'GET /api/board/list/user': () => new Promise<Response>((resolve) => (answer = resolve)) },
    });
    expect(await screen.findByRole('heading', { name: '任务看板', level: 1 })).toBeTruthy();
    expect(screen.getByLabelText('看板ID')).toBeTruthy();
    const table = screen.getByRole('table', { name: '看板列表' });
    expect(table.getAttribute('aria-busy')).toBe('true');
    expect(within(table).getAllByRole('columnheader')).toHaveLength(6);
    expect(table.querySelectorAll('tr[data-skeleton]').length).toBeGreaterThan(0);
    expect(screen.getByRole('status').textContent).toBe('加载中…');
    answer(ok({ data: manyBoards.slice(0, 2), pageNumber: 1 }));
    const loaded = () => screen.getByRole('table', { name: '看板列表' });
    await waitFor(() => expect(within(loaded()).getByText('看板2')).toBeTruthy());
    expect(loaded().querySelectorAll('tr[data-skeleton]')).toHaveLength(0);
    expect(loaded().hasAttribute('aria-busy')).toBe(false);
  });

  it('says a failed load in place of the rows, keeping the title and filters, and loads again on retry', async () => {
    let fail = true;
    const { requests } = renderApp('/user/board-list?view=table', {
      loggedInAs: member,
      handlers: { 'GET /api/board/list/user': (request) => (fail ? json({ code: 'A00005', msg: '系统繁忙' }, 500) : boardList(manyBoards)(request)) },
    });
    const table = await screen.findByRole('table', { name: '看板列表' });
    const alert = await within(table).findByRole('alert');
    expect(alert.textContent).toContain('加载失败：A00005 系统繁忙');
    expect(screen.getByRole('heading', { name: '任务看板', level: 1 })).toBeTruthy();
    expect(screen.getByLabelText('看板ID')).toBeTruthy();
    // Said once, in place: no toast besides.
    expect(within(screen.getByRole('region', { name: '通知' })).queryByText(/系统繁忙/)).toBeNull();
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: '重试' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: '看板列表' })).getByText('看板1')).toBeTruthy());
    expect(listCalls(requests)).toHaveLength(2);
  });

  it('says a network failure in place too (the cards view)', async () => {
    renderApp('/user/board-list', {
      loggedInAs: member,
      handlers: { 'GET /api/board/list/user': () => Promise.reject(new TypeError('Failed to fetch')) },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('加载失败：网络错误，请稍后重试');
    expect(screen.getByRole('heading', { name: '任务看板', level: 1 })).toBeTruthy();
  });
});
