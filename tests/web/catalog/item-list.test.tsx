// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { createCatalogFake, item } from './catalog-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

function seed() {
  const items = Array.from({ length: 24 }, (_, i) => item(i + 1, { status: i % 4 === 3 ? 'close' : 'open', price: i === 0 ? 12.5 : null }));
  items[1] = item(2, { itemName: 'Sony 耳机', upc: '027242923782', productId: 'B0863TXGM3' });
  items[2] = item(3, { url: 'javascript:alert(1)' });
  return createCatalogFake(items);
}

const pageRequests = (requests: Request[]) => requests.map((r) => new URL(r.url)).filter((u) => u.pathname === '/api/item/page');

describe('/admin/item-list', () => {
  it('shows 10 items by default with the page-size options of SPEC §9', async () => {
    const fake = seed();
    const { requests } = renderApp('/admin/item-list', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const table = await screen.findByRole('table', { name: '商品列表' });
    await within(table).findByText('商品24');
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('共 24 条')).toBeTruthy();

    const first = pageRequests(requests)[0]!;
    expect(first.searchParams.get('size')).toBe('10');
    expect(first.searchParams.get('page')).toBe('0');
    expect(first.searchParams.get('isDesc')).toBe('true');

    const sizes = screen.getByLabelText('每页') as HTMLSelectElement;
    expect(sizes.value).toBe('10');
    expect([...sizes.options].map((o) => Number(o.value))).toEqual([10, 15, 20, 40, 60, 100, 200, 500]);
  });

  it('shows the columns: link only for http(s) urls, status badge, price, edit and add links', async () => {
    const fake = seed();
    renderApp('/admin/item-list?size=40', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const table = await screen.findByRole('table', { name: '商品列表' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['ID', '商品名称', 'UPC', '链接', '状态', '商品ID', '价格', '操作']);
    const sony = (await within(table).findByText('Sony 耳机')).closest('tr')!;
    expect(within(sony).getByText('027242923782')).toBeTruthy();
    expect(within(sony).getByText('B0863TXGM3')).toBeTruthy();
    const link = within(sony).getByRole('link', { name: 'https://shop.example.com/p/2' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(within(sony).getByText('启用')).toBeTruthy();
    expect(within(sony).getByRole('link', { name: '编辑 Sony 耳机' }).getAttribute('href')).toBe('/admin/item/2');

    const unsafe = within(table).getByText('javascript:alert(1)');
    expect(unsafe.closest('a')).toBeNull();
    const closed = within(table).getByText('商品4').closest('tr')!;
    expect(within(closed).getByText('停用')).toBeTruthy();
    expect(within(within(table).getByText('商品1').closest('tr')!).getByText('12.50')).toBeTruthy();
    expect(screen.getByRole('link', { name: '新增商品' }).getAttribute('href')).toBe('/admin/item/new');
  });

  it('puts keyword, status and sort into the request and the URL; a size change goes back to page 1', async () => {
    const fake = seed();
    const { router, requests } = renderApp('/admin/item-list', { loggedInAs: userOf('lowerAdmin'), handlers: fake.handlers });
    await screen.findByText('商品24');
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 2 }));
    await screen.findByText('商品4');

    const filters = screen.getByRole('form', { name: '筛选条件' });
    await user.type(within(filters).getByLabelText('关键字'), ' sony ');
    await user.selectOptions(within(filters).getByLabelText('状态'), '启用');
    await user.selectOptions(within(filters).getByLabelText('排序'), '最早创建在前');
    await user.click(within(filters).getByRole('button', { name: '查询' }));

    await waitFor(() => expect(router.state.location.search).toEqual({ productIdLike: 'sony', status: 'open', sort: 'oldest' }));
    const filtered = pageRequests(requests).at(-1)!;
    expect(filtered.searchParams.get('productIdLike')).toBe('sony');
    expect(filtered.searchParams.get('status')).toBe('open');
    expect(filtered.searchParams.get('isDesc')).toBe('false');
    expect(filtered.searchParams.get('page')).toBe('0');
    await waitFor(() => expect(screen.queryByText('商品24')).toBeNull());
    expect(screen.getByText('Sony 耳机')).toBeTruthy();

    await user.click(within(filters).getByRole('button', { name: '重置' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await user.click(screen.getByRole('button', { name: '第 2 页' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 1 }));
    await user.selectOptions(screen.getByLabelText('每页'), '20');
    await waitFor(() => expect(router.state.location.search).toEqual({ size: 20 }));
    const resized = pageRequests(requests).at(-1)!;
    expect(resized.searchParams.get('size')).toBe('20');
    expect(resized.searchParams.get('page')).toBe('0');
    await waitFor(() => expect(within(screen.getByRole('table', { name: '商品列表' })).getAllByRole('row')).toHaveLength(21));
  });

  it('reads status, sort, page and size from the URL', async () => {
    const fake = seed();
    const { requests } = renderApp('/admin/item-list?status=close&sort=oldest&size=15', {
      loggedInAs: userOf('admin'),
      handlers: fake.handlers,
    });
    await screen.findByText('商品4');
    const first = pageRequests(requests)[0]!;
    expect(first.searchParams.get('status')).toBe('close');
    expect(first.searchParams.get('isDesc')).toBe('false');
    expect(first.searchParams.get('size')).toBe('15');
    expect((screen.getByLabelText('状态') as HTMLSelectElement).value).toBe('close');
    expect((screen.getByLabelText('排序') as HTMLSelectElement).value).toBe('oldest');
    expect((screen.getByLabelText('每页') as HTMLSelectElement).value).toBe('15');
  });
});
