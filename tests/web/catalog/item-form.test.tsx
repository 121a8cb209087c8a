// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { createCatalogFake, item } from './catalog-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const field = (name: string) => screen.getByRole('textbox', { name });

describe('/admin/item/new', () => {
  it('requires every field except upc and url, then creates the item and returns to the list', async () => {
    const fake = createCatalogFake([item(1)]);
    const { router } = renderApp('/admin/item/new', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: '新增商品' })).toBeTruthy();
    expect((screen.getByRole('combobox', { name: '状态' }) as HTMLSelectElement).value).toBe('open');

    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('商品名称为必填项')).toBeTruthy();
    expect(screen.getByText('商品ID为必填项')).toBeTruthy();
    expect(screen.queryByText('UPC为必填项')).toBeNull();
    expect(screen.queryByText('链接为必填项')).toBeNull();
    expect(screen.queryByText('参考价格为必填项')).toBeNull();
    expect(fake.saved).toHaveLength(0);

    await user.type(field('商品名称'), '  Sony 耳机 ');
    await user.type(field('商品ID'), 'B0863TXGM3');
    await user.type(field('参考价格'), '12.345');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('价格必须是不小于0的数字，最多两位小数')).toBeTruthy();
    expect(fake.saved).toHaveLength(0);

    await user.clear(field('参考价格'));
    await user.type(field('参考价格'), '12.5');
    await user.selectOptions(screen.getByRole('combobox', { name: '状态' }), '停用');
    await user.click(screen.getByRole('button', { name: '保存' }));

    expect(await screen.findByText('创建成功')).toBeTruthy();
    expect(fake.saved).toEqual([{ itemName: 'Sony 耳机', productId: 'B0863TXGM3', upc: '', url: '', status: 'close', price: 12.5 }]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/item-list'));
    expect(await screen.findByText('Sony 耳机')).toBeTruthy();
  });
});

describe('/admin/item/{id}', () => {
  it('loads the item, saves it with its id and says 保存成功', async () => {
    const fake = createCatalogFake([item(7, { itemName: '旧名称', price: 3, upc: '123', url: 'https://a.example/x' })]);
    const { router } = renderApp('/admin/item/7', { loggedInAs: userOf('lowerAdmin'), handlers: fake.handlers });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: '编辑商品：旧名称' })).toBeTruthy();
    expect((field('商品名称') as HTMLInputElement).value).toBe('旧名称');
    expect((field('参考价格') as HTMLInputElement).value).toBe('3');

    await user.clear(field('商品名称'));
    await user.type(field('商品名称'), '新名称');
    await user.clear(field('参考价格'));
    await user.clear(screen.getByRole('textbox', { name: /链接/ }));
    await user.click(screen.getByRole('button', { name: '保存' }));

    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(fake.saved).toEqual([{ id: 7, itemName: '新名称', productId: 'P-7', upc: '123', url: '', status: 'open', price: null }]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/item-list'));
  });

  it('says so when the item does not exist', async () => {
    const fake = createCatalogFake([]);
    renderApp('/admin/item/99', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    expect(await screen.findByText('商品不存在或已被删除。')).toBeTruthy();
    expect(screen.getByRole('link', { name: '返回列表' }).getAttribute('href')).toBe('/admin/item-list');
  });
});

describe('the UPC check digit (decision 074)', () => {
  it('warns under the field while the check digit fails, and saves the item all the same', async () => {
    const fake = createCatalogFake([item(7, { itemName: 'Switch', upc: '045496883387' })]);
    renderApp('/admin/item/7', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: '编辑商品：Switch' })).toBeTruthy();
    const upc = field('UPC');
    expect(upc.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(upc.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe('UPC校验位不正确，请核对');

    await user.clear(upc);
    await user.type(upc, '045496883386');
    await waitFor(() => expect(screen.queryByText('UPC校验位不正确，请核对')).toBeNull());
    await user.clear(upc);
    await user.type(upc, '4901234567895');
    expect(await screen.findByText('UPC校验位不正确，请核对')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(fake.saved).toMatchObject([{ id: 7, upc: '4901234567895' }]);
  });
});
