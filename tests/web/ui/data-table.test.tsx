// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, columnHelper, type RowSelectionState } from '../../../src/web/components/ui/data-table';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

afterEach(cleanup);

interface Item {
  id: number;
  name: string;
  price: number;
}

const helper = columnHelper<Item>();
const columns = helper.columns([
  helper.accessor('name', { header: '名称' }),
  helper.accessor('price', { header: '价格', cell: (info) => info.getValue().toFixed(2), meta: { align: 'right' } }),
]);

const items: Item[] = [
  { id: 11, name: '键盘', price: 12.5 },
  { id: 12, name: '鼠标', price: 3 },
];

const noop = () => {};

describe('<DataTable>', () => {
  it('renders headers, rows, the total and the pager', () => {
    render(<DataTable columns={columns} data={items} page={0} size={20} totalPages={3} totalElements={42} onPageChange={noop} />);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['名称', '价格']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((td) => td.textContent),
      ),
    ).toEqual([
      ['键盘', '12.50'],
      ['鼠标', '3.00'],
    ]);
    expect(screen.getByText('共 42 条')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '分页' })).toBeTruthy();
    // No size options given: no size select.
    expect(screen.queryByLabelText('每页')).toBeNull();
  });

  it('shows the empty state', () => {
    render(<DataTable columns={columns} data={[]} page={0} size={20} totalPages={0} onPageChange={noop} />);
    expect(screen.getByText('暂无数据')).toBeTruthy();
    render(<DataTable columns={columns} data={[]} page={0} size={20} totalPages={0} onPageChange={noop} emptyText="没有包裹" />);
    expect(screen.getByText('没有包裹')).toBeTruthy();
  });

  it('shows a loading overlay', () => {
    render(<DataTable columns={columns} data={items} page={0} size={20} totalPages={1} onPageChange={noop} loading />);
    expect(screen.getByRole('status').textContent).toContain('加载中…');
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
  });

  it('reports page and size changes (the server pages, so rows are not sliced)', async () => {
    const onPageChange = vi.fn();
    const onSizeChange = vi.fn();
    const many = Array.from({ length: 25 }, (_, i) => ({ id: i, name: `n${i}`, price: i }));
    render(
      <DataTable
        columns={columns}
        data={many}
        page={0}
        size={10}
        totalPages={10}
        onPageChange={onPageChange}
        onSizeChange={onSizeChange}
        sizeOptions={[10, 15, 20]}
      />,
    );
    expect(screen.getAllByRole('row')).toHaveLength(26);
    await userEvent.click(screen.getByRole('button', { name: '第 2 页' }));
    expect(onPageChange).toHaveBeenCalledWith(1);
    await userEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(onPageChange).toHaveBeenLastCalledWith(1);
    await userEvent.selectOptions(screen.getByLabelText('每页'), '15');
    expect(onSizeChange).toHaveBeenCalledWith(15);
  });

  it('selects rows by id, one at a time or the whole page', async () => {
    const seen: RowSelectionState[] = [];
    function Harness() {
      const [selection, setSelection] = useState<RowSelectionState>({});
      return (
        <DataTable
          columns={columns}
          data={items}
          page={0}
          size={20}
          totalPages={1}
          onPageChange={noop}
          rowSelection={selection}
          onRowSelectionChange={(next) => {
            seen.push(next);
            setSelection(next);
          }}
        />
      );
    }
    render(<Harness />);
    const [first] = screen.getAllByRole('checkbox', { name: '选择此行' });
    await userEvent.click(first!);
    expect(seen.at(-1)).toEqual({ '11': true });
    const all = screen.getByRole('checkbox', { name: '选择本页全部' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(true);

    await userEvent.click(all);
    expect(seen.at(-1)).toEqual({ '11': true, '12': true });
    expect(screen.getAllByRole('checkbox', { name: '选择此行' }).map((c) => (c as HTMLInputElement).checked)).toEqual([true, true]);

    await userEvent.click(all);
    expect(seen.at(-1)).toEqual({});
  });

  it('offers no checkbox on a row it may not select, and the header selects only the others', async () => {
    const seen: RowSelectionState[] = [];
    function Harness() {
      const [selection, setSelection] = useState<RowSelectionState>({});
      return (
        <DataTable
          columns={columns}
          data={items}
          page={0}
          size={20}
          totalPages={1}
          onPageChange={noop}
          rowSelection={selection}
          onRowSelectionChange={(next) => {
            seen.push(next);
            setSelection(next);
          }}
          canSelectRow={(row) => row.price > 5}
        />
      );
    }
    render(<Harness />);
    const [keyboard, mouse] = screen.getAllByRole('row').slice(1);
    expect(within(mouse!).queryByRole('checkbox')).toBeNull();
    expect(within(keyboard!).getByRole('checkbox', { name: '选择此行' })).toBeTruthy();
    const all = screen.getByRole('checkbox', { name: '选择本页全部' }) as HTMLInputElement;
    await userEvent.click(all);
    expect(seen.at(-1)).toEqual({ '11': true });
    expect(all.checked).toBe(true);
  });

  it('uses a custom id accessor', async () => {
    const onRowSelectionChange = vi.fn();
    render(
      <DataTable
        columns={columns}
        data={items}
        page={0}
        size={20}
        totalPages={1}
        onPageChange={noop}
        rowId={(row) => `item-${row.id}`}
        rowSelection={{}}
        onRowSelectionChange={onRowSelectionChange}
      />,
    );
    await userEvent.click(screen.getAllByRole('checkbox', { name: '选择此行' })[1]!);
    expect(onRowSelectionChange).toHaveBeenCalledWith({ 'item-12': true });
  });

  it('expands a row into a sub row', async () => {
    render(<DataTable columns={columns} data={items} page={0} size={20} totalPages={1} onPageChange={noop} renderSubRow={(row) => <p>详情：{row.name}</p>} />);
    expect(screen.queryByText('详情：鼠标')).toBeNull();
    const [, second] = screen.getAllByRole('button', { name: '展开' });
    await userEvent.click(second!);
    expect(screen.getByText('详情：鼠标')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '收起' }));
    expect(screen.queryByText('详情：鼠标')).toBeNull();
  });
});

describe('<DataTable> loading and failing in place', () => {
  it('shows skeleton rows under the headers while the first page loads, and says it is loading', () => {
    render(<DataTable columns={columns} data={[]} page={0} size={3} totalPages={0} onPageChange={noop} loading caption="商品" />);
    const table = screen.getByRole('table', { name: '商品' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['名称', '价格']);
    expect(table.querySelectorAll('tr[data-skeleton]')).toHaveLength(3);
    expect(screen.getByRole('status').textContent).toBe('加载中…');
    // Not the empty state: nothing is known yet.
    expect(screen.queryByText('暂无数据')).toBeNull();
  });

  it('says a failure in place of the rows, with a retry', async () => {
    const retry = vi.fn();
    render(
      <DataTable
        columns={columns}
        data={[]}
        page={0}
        size={20}
        totalPages={0}
        onPageChange={noop}
        failure={{ message: '加载失败：A00005 系统繁忙', onRetry: retry }}
      />,
    );
    const alert = within(screen.getByRole('table')).getByRole('alert');
    expect(alert.textContent).toContain('加载失败：A00005 系统繁忙');
    await userEvent.click(within(alert).getByRole('button', { name: '重试' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('暂无数据')).toBeNull();
  });
});

describe('<DataTable cards> at a phone width', () => {
  afterEach(atDesktopWidth);

  interface Line {
    id: number;
    name: string;
    price: number;
    status: string;
    code: string;
  }
  const h = columnHelper<Line>();
  const cardColumns = h.columns([
    h.accessor('id', { header: 'ID', meta: { card: 'hidden' } }),
    h.accessor('name', { header: '名称', meta: { card: 'title' } }),
    h.accessor('status', { header: '状态', cell: (info) => <span data-badge="">{info.getValue()}</span>, meta: { card: 'badge' } }),
    h.accessor('price', { header: '价格', cell: (info) => info.getValue().toFixed(2) }),
    h.display({ id: 'deadline', header: '截止', cell: () => '明天', meta: { cardOnly: true } }),
    // A display column with nothing to show for a row (no one matched yet): no label over nothing.
    h.display({ id: 'owner', header: '负责人', cell: ({ row }) => (row.original.id === 2 ? '小王' : null) }),
    h.accessor('code', { header: () => <abbr title="编码">码</abbr>, meta: { cardLabel: '编码' } }),
    h.display({ id: 'actions', header: '操作', cell: ({ row }) => <button type="button">编辑 {row.original.id}</button>, meta: { card: 'actions' } }),
  ]);
  const lines: Line[] = [
    { id: 1, name: '键盘', price: 12.5, status: '正常', code: 'K-1' },
    { id: 2, name: '鼠标', price: 3, status: '售罄', code: 'M-2' },
  ];

  it('keeps the table at a desktop width, without the card-only columns', () => {
    render(<DataTable columns={cardColumns} data={lines} page={0} size={20} totalPages={1} onPageChange={noop} cards caption="商品" />);
    expect(
      within(screen.getByRole('table', { name: '商品' }))
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['ID', '名称', '状态', '价格', '负责人', '码', '操作']);
  });

  it('lays each row out as a card: title and badge on top, labelled values, actions at the foot; hidden columns and blank values left off', () => {
    atPhoneWidth();
    const selection: RowSelectionState = {};
    render(
      <DataTable
        columns={cardColumns}
        data={lines}
        page={0}
        size={20}
        totalPages={3}
        totalElements={42}
        onPageChange={noop}
        cards
        caption="商品"
        rowSelection={selection}
        onRowSelectionChange={noop}
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: '商品' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const card = within(cards[0]!);
    expect(card.getByText('键盘')).toBeTruthy();
    expect(card.getByText('正常').hasAttribute('data-badge')).toBe(true);
    const values = [...cards[0]!.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]);
    expect(values).toEqual([
      ['价格', '12.50'],
      ['截止', '明天'],
      ['编码', 'K-1'],
    ]);
    expect([...cards[1]!.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['价格', '截止', '负责人', '编码']);
    expect(card.getByRole('button', { name: '编辑 1' })).toBeTruthy();
    expect(card.getByRole('checkbox', { name: '选择此行' })).toBeTruthy();
    expect(card.queryByText('ID')).toBeNull();
    // The pager and the total stay under the cards.
    expect(screen.getByText('共 42 条')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '分页' })).toBeTruthy();
  });

  it('turns into cards and back as the window narrows and widens', async () => {
    render(<DataTable columns={cardColumns} data={lines} page={0} size={20} totalPages={1} onPageChange={noop} cards caption="商品" />);
    expect(screen.getByRole('table')).toBeTruthy();
    atPhoneWidth();
    expect(await screen.findByRole('list', { name: '商品' })).toBeTruthy();
    atDesktopWidth();
    expect(await screen.findByRole('table')).toBeTruthy();
  });

  it('a list that does not ask for cards stays a table on a phone', () => {
    atPhoneWidth();
    render(<DataTable columns={cardColumns} data={lines} page={0} size={20} totalPages={1} onPageChange={noop} caption="商品" />);
    expect(screen.getByRole('table', { name: '商品' })).toBeTruthy();
  });
});
