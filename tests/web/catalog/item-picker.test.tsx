// @vitest-environment happy-dom
// The reusable product picker, mounted alone under a minimal router whose context carries an API
// client on a fake fetch (the same boundary the app harness fakes).
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryHistory, createRootRouteWithContext, createRouter } from '@tanstack/react-router';
import { useState, type JSX } from 'react';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../src/api/client';
import { Button } from '../../../src/web/components/ui/button';
import { Form, useValibotForm } from '../../../src/web/components/ui/form';
import { ItemPicker, ItemPickerField } from '../../../src/web/components/item-picker';
import { ItemFilterField } from '../../../src/web/components/item-filter-field';
import type { Item } from '../../../src/web/features/catalog/items';
import { fakeApiClient, type Routes } from '../support/fake-api';
import { createCatalogFake, item } from './catalog-fake';

afterEach(cleanup);

function renderWithApi(ui: () => JSX.Element, handlers: Routes) {
  const { api, requests } = fakeApiClient(handlers);
  const root = createRootRouteWithContext<{ api: ApiClient }>()({ component: ui });
  const router = createRouter({ routeTree: root, context: { api }, history: createMemoryHistory({ initialEntries: ['/'] }) });
  render(<RouterProvider router={router} />);
  return { requests };
}

function catalog() {
  return createCatalogFake([
    item(1, { itemName: 'Sony 耳机', upc: '027242923782', productId: 'B0863TXGM3', price: 199 }),
    item(2, { itemName: 'Sony 音箱', upc: '', status: 'close' }),
    item(5, { itemName: '键盘', upc: '111' }),
  ]);
}

describe('<ItemPicker>', () => {
  it('searches by name, UPC or productId and hands back the whole item', async () => {
    const fake = catalog();
    const onChange = vi.fn<(item: Item | null) => void>();
    function Harness() {
      const [value, setValue] = useState<number | null>(null);
      return (
        <ItemPicker
          value={value}
          onChange={(picked) => {
            onChange(picked);
            setValue(picked?.id ?? null);
          }}
        />
      );
    }
    const { requests } = renderWithApi(Harness, fake.handlers);
    // Keys as a quick typist sends them: no timer runs between them however busy the machine is, so
    // the debounce alone decides how many searches go out.
    const user = userEvent.setup({ delay: null });
    const input = await screen.findByRole('combobox', { name: '商品' });

    await user.type(input, 'sony');
    const option = await screen.findByRole('option', { name: /Sony 耳机/ });
    expect(option.textContent).toContain('UPC 027242923782');
    const closed = screen.getByRole('option', { name: /Sony 音箱/ });
    expect(closed.textContent).toContain('已停用');
    // Debounced: one search for the whole word.
    const paths = requests.map((r) => new URL(r.url).pathname);
    expect(paths.filter((p) => p.startsWith('/api/item/info/like/'))).toEqual(['/api/item/info/like/sony']);

    await user.click(option);
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ id: 1, itemName: 'Sony 耳机', price: 199 }));
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('Sony 耳机（027242923782）'));

    await user.click(screen.getByRole('button', { name: '清除所选商品' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    await waitFor(() => expect((input as HTMLInputElement).value).toBe(''));

    await user.type(input, '0272');
    expect(await screen.findByRole('option', { name: /Sony 耳机/ })).toBeTruthy();
  });

  it('shows the name of an item given only by id, and leaves closed items out with openOnly', async () => {
    const fake = catalog();
    function Harness() {
      const [value, setValue] = useState<number | null>(5);
      return <ItemPicker label="商品选择" value={value} onChange={(picked) => setValue(picked?.id ?? null)} openOnly />;
    }
    renderWithApi(Harness, fake.handlers);
    const input = await screen.findByRole('combobox', { name: '商品选择' });
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('键盘（111）'));

    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, 'sony');
    expect(await screen.findByRole('option', { name: /Sony 耳机/ })).toBeTruthy();
    expect(screen.queryByRole('option', { name: /Sony 音箱/ })).toBeNull();

    await user.clear(input);
    await user.type(input, 'zzz');
    expect(await screen.findByText('没有找到匹配的商品')).toBeTruthy();
  });

  it('binds to a form field holding the item id, with the field message', async () => {
    const fake = catalog();
    const schema = v.object({ itemId: v.number('请选择商品') });
    const submitted = vi.fn();
    const picked = vi.fn();
    function Harness() {
      const form = useValibotForm(schema, { defaultValues: { itemId: undefined as unknown as number } });
      return (
        <Form form={form} onSubmit={submitted}>
          <ItemPickerField<v.InferInput<typeof schema>, 'itemId'> name="itemId" onItemChange={picked} />
          <Button type="submit">提交</Button>
        </Form>
      );
    }
    renderWithApi(Harness, fake.handlers);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '提交' }));
    expect(await screen.findByText('请选择商品')).toBeTruthy();
    const input = screen.getByRole('combobox', { name: '商品' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe('请选择商品');

    await user.type(screen.getByRole('combobox', { name: '商品' }), '键');
    await user.click(await screen.findByRole('option', { name: /键盘/ }));
    expect(picked).toHaveBeenLastCalledWith(expect.objectContaining({ id: 5 }));
    await user.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(submitted).toHaveBeenCalled());
    expect(submitted.mock.calls[0]![0]).toEqual({ itemId: 5 });
  });

  it("a list's product filter: labelled from its first paint, then the picker, bound to the form like ItemPickerField", async () => {
    const fake = catalog();
    const schema = v.object({ itemId: v.optional(v.number()) });
    const submitted = vi.fn();
    function Harness() {
      const form = useValibotForm(schema, { defaultValues: { itemId: undefined } });
      return (
        <Form form={form} onSubmit={submitted}>
          <ItemFilterField<v.InferInput<typeof schema>, 'itemId'> name="itemId" label="商品筛选" />
          <Button type="submit">查询</Button>
        </Form>
      );
    }
    renderWithApi(Harness, fake.handlers);
    // Before the picker's code is there, the stand-in already carries the label (the bar does not move).
    expect(await screen.findByLabelText('商品筛选')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(await screen.findByRole('combobox', { name: '商品筛选' }), 'Sony');
    await user.click(await screen.findByRole('option', { name: /Sony 耳机/ }));
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(submitted).toHaveBeenCalled());
    expect(submitted.mock.calls[0]![0]).toEqual({ itemId: 1 });
  });
});
