// @vitest-environment happy-dom
// /admin/boardtask/{boardId}/{taskId|new} through the real router, with the HTTP boundary faked.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { json, type Handler } from '../support/fake-api';
import { aBoard, aBoardTask, createBoardsFake } from './boards-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const BACK = '/admin/board/1';

function renderForm(path: string, overrides: Record<string, Handler> = {}) {
  const fake = createBoardsFake({ boards: [aBoard()], boardTasks: [aBoardTask({ id: 11 })] });
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: { ...fake.handlers, ...overrides } });
  return { ...app, fake, user: userEvent.setup() };
}

async function sentBodies(requests: Request[]) {
  const saves = requests.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/boardtask/1/info');
  return Promise.all(saves.map((r) => r.json() as Promise<Record<string, unknown>>));
}

/** Picks a product in the catalog's picker by searching its productId. */
async function pickItem(user: ReturnType<typeof userEvent.setup>, productId: string, name: RegExp) {
  await user.type(screen.getByRole('combobox', { name: '商品' }), productId);
  await user.click(await screen.findByRole('option', { name }));
}

const alerts = async () => (await screen.findAllByRole('alert')).map((a) => a.textContent);

describe('full form (an existing task opens in it)', () => {
  it("requires every field but price, note and address: '<label>必填'; an empty address is the default one", async () => {
    const { user, requests } = renderForm(`/admin/boardtask/1/new?back=${encodeURIComponent(BACK)}`);
    await user.click(await screen.findByRole('radio', { name: '完整表单' }));
    // Defaults: the address empty, read as 默认地址 (never the English code), status normal.
    const address = screen.getByLabelText('地址') as HTMLInputElement;
    expect(address.value).toBe('');
    expect(address.placeholder).toBe('默认地址');
    expect((screen.getByLabelText('状态') as HTMLSelectElement).value).toBe('normal');

    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await alerts()).toEqual(['商品必填', '链接必填', '回收价必填', '需求数量必填', '实际需求必填', '平均成本必填', '商品来源必填']);
    expect(await sentBodies(requests)).toEqual([]);
  });

  it('opens an existing task in the full form, its default address shown as 默认地址 and kept', async () => {
    const { user, requests } = renderForm('/admin/boardtask/1/11');
    expect(((await screen.findByRole('radio', { name: '完整表单' })) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('地址') as HTMLInputElement).value).toBe('');
    await user.click(screen.getByRole('button', { name: '保存' }));
    await screen.findByText('保存成功');
    expect((await sentBodies(requests))[0]).toMatchObject({ id: 11, address: 'DEFAULT' });
  });

  it("prefixes 'http://' to a url without it, leaves out an empty price, then goes back", async () => {
    const { user, requests, router } = renderForm(`/admin/boardtask/1/new?back=${encodeURIComponent(BACK)}`);
    await user.click(await screen.findByRole('radio', { name: '完整表单' }));
    await pickItem(user, 'P8', /保温杯/); // its url prefills the empty url field; it has no price
    expect((screen.getByLabelText('链接') as HTMLInputElement).value).toBe('shop.example.com/cup');
    await user.type(screen.getByLabelText('回收价'), '12.5');
    await user.type(screen.getByLabelText('需求数量'), '30');
    await user.type(screen.getByLabelText('实际需求'), '40');
    await user.type(screen.getByLabelText('平均成本'), '10');
    await user.selectOptions(screen.getByLabelText('状态'), 'urgent');
    await user.type(screen.getByLabelText('商品来源'), 'Walmart');
    await user.click(screen.getByRole('button', { name: '保存' }));

    expect(await screen.findByText('创建成功')).toBeTruthy();
    expect(await sentBodies(requests)).toEqual([
      {
        itemId: 8,
        url: 'http://shop.example.com/cup',
        buyIn: 12.5,
        show: 30,
        need: 40,
        averageCost: 10,
        address: 'DEFAULT',
        status: 'urgent',
        note: '',
        itemSource: 'Walmart',
      },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe(BACK));
  });

  it('keeps a url that starts with http and checks the numbers', async () => {
    const { user, requests } = renderForm('/admin/boardtask/1/11');
    const url = await screen.findByLabelText('链接');
    expect((url as HTMLInputElement).value).toBe('https://shop.example.com/earbuds');
    const buyIn = screen.getByLabelText('回收价');
    await user.clear(buyIn);
    await user.type(buyIn, '1.234');
    const show = screen.getByLabelText('需求数量');
    await user.clear(show);
    await user.type(show, 'x');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await alerts()).toEqual(['回收价最多两位小数', '需求数量必须为非负整数']);

    await user.clear(buyIn);
    await user.type(buyIn, '81');
    await user.clear(show);
    await user.type(show, '90');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    const [body] = await sentBodies(requests);
    expect(body).toMatchObject({ id: 11, itemId: 7, url: 'https://shop.example.com/earbuds', price: 99.5, buyIn: 81, show: 90, note: '限新品' });
  });
});

describe('simple form (a new task opens in it)', () => {
  it('asks only for item, buyIn and show; the item fills the price, which saves at the first try', async () => {
    const { user, requests } = renderForm('/admin/boardtask/1/new');
    expect(((await screen.findByRole('radio', { name: '简易表单' })) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('链接')).toBeNull();
    expect(screen.queryByLabelText('实际需求')).toBeNull();
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await alerts()).toEqual(['商品必填', '回收价必填', '需求数量必填']);

    await pickItem(user, 'P7', /蓝牙耳机/);
    expect((screen.getByLabelText('价格') as HTMLInputElement).value).toBe('99.5');
    await user.type(screen.getByLabelText('回收价'), '80');
    await user.type(screen.getByLabelText('需求数量'), '10');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('创建成功')).toBeTruthy();
    expect(await sentBodies(requests)).toEqual([{ itemId: 7, price: 99.5, buyIn: 80, show: 10 }]);
  });

  it("leaves out a price emptied (the server takes the item's) and keeps a price typed before the item", async () => {
    const { user, requests } = renderForm('/admin/boardtask/1/new');
    await user.type(await screen.findByLabelText('价格'), '88');
    await pickItem(user, 'P7', /蓝牙耳机/);
    expect((screen.getByLabelText('价格') as HTMLInputElement).value).toBe('88');
    await user.clear(screen.getByLabelText('价格'));
    await user.type(screen.getByLabelText('回收价'), '80');
    await user.type(screen.getByLabelText('需求数量'), '10');
    await user.click(screen.getByRole('button', { name: '保存' }));
    await screen.findByText('创建成功');
    expect(await sentBodies(requests)).toEqual([{ itemId: 7, buyIn: 80, show: 10 }]);
  });

  it('sends a price that is given', async () => {
    const { user, requests } = renderForm('/admin/boardtask/1/new');
    await screen.findByRole('radio', { name: '简易表单' });
    await pickItem(user, 'P7', /蓝牙耳机/);
    await user.clear(screen.getByLabelText('价格'));
    await user.type(screen.getByLabelText('价格'), '59.9');
    await user.type(screen.getByLabelText('回收价'), '50');
    await user.type(screen.getByLabelText('需求数量'), '5');
    await user.click(screen.getByRole('button', { name: '保存' }));
    await screen.findByText('创建成功');
    expect(await sentBodies(requests)).toEqual([{ itemId: 7, price: 59.9, buyIn: 50, show: 5 }]);
  });
});

describe('back (optional query)', () => {
  it.each([
    ['a path of the app', '/admin/board-list?page=1', '/admin/board-list'],
    ['absent', undefined, '/admin/board/1'],
    ['another site', 'https://evil.example/steal', '/admin/board/1'],
    ['a server path', '/api/board/list/admin', '/admin/board/1'],
  ])('%s: returns to %s after saving', async (_case, back, expected) => {
    const { user, router } = renderForm(`/admin/boardtask/1/11${back ? `?back=${encodeURIComponent(back)}` : ''}`);
    await screen.findByLabelText('链接');
    await user.click(screen.getByRole('button', { name: '保存' }));
    await screen.findByText('保存成功');
    await waitFor(() => expect(router.state.location.pathname).toBe(expected));
  });

  it('the back button returns without saving', async () => {
    const { user, router, requests } = renderForm(`/admin/boardtask/1/11?back=${encodeURIComponent(BACK)}`);
    await user.click(await screen.findByRole('button', { name: '返回' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(BACK));
    expect(await sentBodies(requests)).toEqual([]);
  });

  it('stays when the server refuses, showing its msg', async () => {
    const { user, router } = renderForm('/admin/boardtask/1/11', {
      'POST /api/boardtask/1/info': () => json({ code: 'A00000', data: { status: 'failed', msg: '商品已下架' } }),
    });
    await screen.findByLabelText('链接');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('商品已下架')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/boardtask/1/11');
  });
});
