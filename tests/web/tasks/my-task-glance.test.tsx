// @vitest-environment happy-dom
// /user/my-task at a glance (decision 106): each tracking id's arrival (icon, colour, the reason on
// hover, focus or tap), the bonuses asked and agreed, 申请付款 of the arrived units in one step
// (decision 053) with 拆分 and 匹配 explained, and the cards a phone gets instead of the table.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { aTask, createTasksFake, type TasksFake } from './tasks-fake';

const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
const setViewport = (v: { width: number; height: number }) =>
  (window as unknown as { happyDOM: { setViewport: (x: typeof v) => void } }).happyDOM.setViewport(v);

afterEach(() => {
  cleanup();
  clearToasts();
  setViewport({ width: 1024, height: 768 });
});

const member = userOf('user');

/** A task of which 2 of 5 units arrived, on three parcels (a fresh one each time: the fake changes its tasks). */
const tracked = () =>
  aTask({
    id: 100,
    mainId: 100,
    itemName: '蓝牙耳机',
    count: 5,
    productCount: 2,
    canSplit: true,
    trackingId: '1Z-IN,1Z-WAIT,1Z-ODD',
    trackings: [
      { trackingId: '1Z-IN', productCount: 2, status: 'match', msg: '' },
      { trackingId: '1Z-WAIT', productCount: 1, status: 'init', msg: '' },
      { trackingId: '1Z-ODD', productCount: 2, status: 'unmatch', msg: '到货1件，记录2件' },
    ],
  });

async function open(server: TasksFake) {
  renderApp('/user/my-task', { loggedInAs: member, handlers: server.handlers });
  const table = await screen.findByRole('table', { name: '我的任务列表' });
  return { table, user: userEvent.setup() };
}

const rowOf = async (table: HTMLElement, itemName: string) => (await within(table).findByText(itemName)).closest('tr')!;

describe('/user/my-task at a glance', () => {
  it('shows each tracking id as arrived, still expected or disagreed, with the reason on hover and on a tap', async () => {
    setViewport(DESKTOP);
    const { table, user } = await open(createTasksFake({ tasks: [tracked()] }));
    const row = await rowOf(table, '蓝牙耳机');
    const chip = (name: string) => within(row).getByRole('button', { name });
    const arrived = chip('1Z-IN：已到货');
    const waiting = chip('1Z-WAIT：待到货');
    const odd = chip('1Z-ODD：不一致（到货1件，记录2件）');
    expect([arrived, waiting, odd].map((b) => b.getAttribute('data-arrival'))).toEqual(['arrived', 'expected', 'disagreed']);
    // Each has its icon and colour; the reason is its tooltip too.
    expect([arrived, waiting, odd].map((b) => b.querySelector('svg') !== null)).toEqual([true, true, true]);
    expect(odd.className).toContain('text-red-800');
    expect(arrived.className).toContain('text-green-800');
    expect(odd.getAttribute('title')).toBe('1Z-ODD：不一致（到货1件，记录2件）');
    // A tap (no hover on a phone) shows the reason under the ids; a second tap hides it.
    await user.click(odd);
    expect(odd.getAttribute('aria-expanded')).toBe('true');
    expect(within(row).getByText('1Z-ODD：不一致（到货1件，记录2件）', { selector: 'p' }).className).not.toContain('sr-only');
    await user.click(odd);
    expect(odd.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows the bonus asked for and the agreed one where it showed the task’s own bonus', async () => {
    setViewport(DESKTOP);
    const { table } = await open(
      createTasksFake({
        tasks: [
          aTask({ id: 100, mainId: 100, itemName: '已申请', bonus: 0, status: 'processing', askedBonus: 5, agreedBonus: null }),
          aTask({ id: 101, mainId: 101, itemName: '已同意', bonus: 0, status: 'processing', askedBonus: 5, agreedBonus: 3.5 }),
        ],
      }),
    );
    const bonusCell = async (name: string) => within(await rowOf(table, name)).getAllByRole('cell')[4]!.textContent;
    expect(await bonusCell('已申请')).toBe('申请奖励5.00同意奖励—');
    expect(await bonusCell('已同意')).toBe('申请奖励5.00同意奖励3.50');
  });

  it('offers 申请付款 of the arrived units in one step on a partly arrived task, and explains 拆分 and 匹配', async () => {
    setViewport(DESKTOP);
    const server = createTasksFake({ tasks: [tracked()] });
    const { table, user } = await open(server);
    const row = await rowOf(table, '蓝牙耳机');
    expect(within(row).getByRole('button', { name: '拆分' }).getAttribute('title')).toBe(
      '把已到货的件数拆成一个已锁定的子任务（可单独申请付款），其余件数留在本任务',
    );
    expect(within(row).getByRole('button', { name: '匹配' }).getAttribute('title')).toBe('按已扫描的包裹重新核对本任务的采购记录，更新到货数量和状态');
    await user.click(await within(row).findByRole('button', { name: '申请付款（已到货部分）：任务 100' }));
    const dialog = await screen.findByRole('dialog', { name: /申请付款（已到货部分）/ });
    await user.click(within(dialog).getByRole('button', { name: '提交申请' }));
    expect(await screen.findByText('申请成功：子任务 100-1')).toBeTruthy();
    expect(server.calls.filter((c) => c.path === '/api/trade/user/pay/apply-arrived').map((c) => c.body)).toEqual([{ taskId: 100, bonus: 0, note: '' }]);
    // The page reloads: the sub-task is there, applied for; the original has nothing arrived left to ask for.
    const sub = await waitFor(() => within(table).getByText('100-1').closest('tr')!);
    await waitFor(() => expect(within(sub).getByRole('button', { name: '已申请付款' })).toBeTruthy());
    const original = within(table).getByText('100', { exact: true }).closest('tr')!;
    expect(within(original).queryByRole('button', { name: /申请付款/ })).toBeNull();
  });

  it('on a phone, shows a card per task with its item, status, arrived/claimed, tracking ids and actions', async () => {
    setViewport(PHONE);
    renderApp('/user/my-task', { loggedInAs: member, handlers: createTasksFake({ tasks: [tracked()] }).handlers });
    const cards = await screen.findByRole('list', { name: '我的任务卡片' });
    expect(screen.queryByRole('table', { name: '我的任务列表' })).toBeNull();
    const card = within(cards).getAllByRole('listitem')[0]!;
    expect(within(card).getByText('蓝牙耳机')).toBeTruthy();
    expect(within(card).getByText('进行中')).toBeTruthy();
    expect(within(card).getByText('到货/认领').nextElementSibling?.textContent).toBe('2/5');
    expect(within(card).getByRole('button', { name: '1Z-ODD：不一致（到货1件，记录2件）' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: '记录' })).toBeTruthy();
    expect(await within(card).findByRole('button', { name: '申请付款（已到货部分）：任务 100' })).toBeTruthy();
  });
});
