// @vitest-environment happy-dom
// The paste box (bulk-records.tsx, decision 105) in the task record dialog and on /user/my-task: a
// live preview of the pasted lines by the parser the server uses, each refused line with its words,
// the button only for a clean paste, the server's per-line answer, and success.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { ok } from '../support/fake-api';
import { aRecord, aTask, createTasksFake, NOW, type TasksFake } from './tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const member = userOf('user');

/** The record dialog of task 100 with its paste box open. */
async function openPasteBox(server: TasksFake) {
  renderApp('/user/my-task', { loggedInAs: member, handlers: server.handlers });
  const table = await screen.findByRole('table', { name: '我的任务列表' });
  const row = (await within(table).findByText('蓝牙耳机')).closest('tr')!;
  const user = userEvent.setup();
  await user.click(within(row).getByRole('button', { name: '记录' }));
  const dialog = await screen.findByRole('dialog');
  await user.click(await within(dialog).findByRole('button', { name: '批量粘贴' }));
  const form = within(dialog).getByRole('form', { name: '批量添加采购记录' });
  return { user, dialog, form, box: within(form).getByLabelText('粘贴单号') as HTMLTextAreaElement };
}

/** The preview's rows as [line, tracking, qty, check]. */
function preview(form: HTMLElement): string[][] {
  const table = within(form).getByRole('table', { name: '粘贴内容预览' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));
}

const bulkCalls = (server: TasksFake) => server.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/bulk'));

describe('the paste box of the record dialog', () => {
  it('previews every line as the server will judge it, marks the refused ones and sends nothing until all pass', async () => {
    const server = createTasksFake({
      tasks: [aTask({ id: 100, count: 5 })],
      records: [aRecord({ id: 1, taskId: 100, trackingId: 'OLD-1', productCount: 1 })],
    });
    const { user, form, box } = await openPasteBox(server);
    // Tabs from a spreadsheet, commas and semicolons from an e-mail, a blank line, a line without a quantity.
    await user.click(box);
    await user.paste('1Z-A\t2\n\n1Z-B, x\n1Z-A;1\nOLD-1\n1Z-C 1 extra\n1Z-D');
    expect(preview(form)).toEqual([
      ['1', '1Z-A', '2', '✓ 可以添加'],
      ['3', '1Z-B', '', '✕ 数目须为1到1000000的整数'],
      ['4', '1Z-A', '1', '✕ 与第1行的单号重复'],
      ['5', 'OLD-1', '1', '✕ 该快递单号已记录'],
      ['6', '1Z-C', '1', '✕ 每行只能有单号和数目两项'],
      ['7', '1Z-D', '1', '✓ 可以添加'],
    ]);
    expect(within(form).getByRole('status').textContent).toBe('共6行，4行有误');
    const send = within(form).getByRole('button', { name: '添加' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);

    // Past the task's count (5, one unit recorded): the fourth new unit is one too many.
    await user.clear(box);
    await user.paste('1Z-A 2\n1Z-B\n1Z-D 2');
    expect(preview(form).map((r) => r[3])).toEqual(['✓ 可以添加', '✓ 可以添加', '✕ 所有记录的数目合计不能超过任务数量5件']);
    expect(bulkCalls(server)).toHaveLength(0);
  });

  it('sends a clean paste in one call, toasts what was added and lists the new records', async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 100, count: 5 })] });
    const { user, dialog, form, box } = await openPasteBox(server);
    await user.click(box);
    await user.paste('1Z-A\t2\r\n1Z-B\r\n');
    expect(within(form).getByRole('status').textContent).toBe('共2行，均可添加');
    await user.click(within(form).getByRole('button', { name: '添加2条记录' }));
    expect(await screen.findByText('已添加2条记录')).toBeTruthy();
    expect(bulkCalls(server).map((c) => [c.path, c.body])).toEqual([['/api/purchased/user/100/bulk', { text: '1Z-A\t2\r\n1Z-B\r\n' }]]);
    const records = await within(dialog).findByRole('table', { name: '采购记录列表' });
    await within(records).findByText('1Z-A');
    expect(within(records).getByText('1Z-B')).toBeTruthy();
    await waitFor(() => expect(box.value).toBe(''));
  });

  it('reads a UPS id pasted whole, spaced as UPS prints it, as one line of one id (decision 105)', async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 100, count: 5 })] });
    const { user, form, box } = await openPasteBox(server);
    await user.click(box);
    await user.paste('1Z 999 AA1 01 2345 6784 2');
    // The carrier's name under the id says it was read as UPS's one number.
    expect(preview(form)).toEqual([['1', '1Z 999 AA1 01 2345 6784承运商：UPS', '2', '✓ 可以添加']]);
    expect(within(form).getByRole('status').textContent).toBe('共1行，均可添加');
    expect((within(form).getByRole('button', { name: '添加1条记录' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows the server's verdict per line when it refuses the paste (nothing added)", async () => {
    const server = createTasksFake({ tasks: [aTask({ id: 100, count: 5 })] });
    server.answer.bulk = () =>
      ok({
        status: 'failed',
        msg: '1行有误，未添加任何记录',
        rows: [
          { line: 1, tracking: '1Z-A', qty: 1, ok: true, msg: '' },
          { line: 2, tracking: '1Z-B', qty: 1, ok: false, msg: '该快递单号已记录' },
        ],
        purchasedItems: [],
      });
    const { user, form, box } = await openPasteBox(server);
    await user.click(box);
    await user.paste('1Z-A\n1Z-B');
    await user.click(within(form).getByRole('button', { name: '添加2条记录' }));
    expect(await within(form).findByText('服务器未添加任何记录，请按每行的提示修改后再提交：1行有误，未添加任何记录')).toBeTruthy();
    expect(preview(form)).toEqual([
      ['1', '1Z-A', '1', '✓ 可以添加'],
      ['2', '1Z-B', '1', '✕ 该快递单号已记录'],
    ]);
    // Editing the text goes back to the live preview.
    await user.type(box, 'X');
    expect(preview(form).map((r) => r[1])).toEqual(['1Z-A', '1Z-BX']);
  });
});

describe('the paste box of /user/my-task', () => {
  it('chooses among the member’s tasks whose records may change, then records the paste on that task', async () => {
    const server = createTasksFake({
      tasks: [
        aTask({ id: 100, mainId: 100, itemName: '蓝牙耳机', count: 3 }),
        aTask({ id: 101, mainId: 101, itemName: '充电器', count: 2, status: 'unmatch' }),
        aTask({ id: 102, mainId: 102, itemName: '已锁定的', status: 'locked', productCount: 2 }),
      ],
    });
    renderApp('/user/my-task', { loggedInAs: member, handlers: server.handlers });
    await screen.findByRole('table', { name: '我的任务列表' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '批量粘贴单号' }));
    const dialog = await screen.findByRole('dialog', { name: '批量添加采购记录' });
    const select = (await within(dialog).findByLabelText('任务')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['请选择任务', '101 · 充电器（还可记录2件）', '100 · 蓝牙耳机（还可记录3件）']);
    await user.click(within(dialog).getByLabelText('粘贴单号'));
    await user.paste('T-1 2');
    // Without a task the paste is previewed, but not sent.
    expect((within(dialog).getByRole('button', { name: '添加' }) as HTMLButtonElement).disabled).toBe(true);
    await user.selectOptions(select, '101 · 充电器（还可记录2件）');
    await user.click(within(dialog).getByRole('button', { name: '添加1条记录' }));
    expect(await screen.findByText('已添加1条记录')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bulkCalls(server).map((c) => c.path)).toEqual(['/api/purchased/user/101/bulk']);
    expect(server.records).toMatchObject([{ taskId: 101, trackingId: 'T-1', productCount: 2 }]);
  });

  it('offers every task of the member that can take records, not only those of the page and filter shown', async () => {
    // The table shows the first 20 locked tasks; the tasks with room for records are on no page of it.
    const locked = Array.from({ length: 22 }, (_, i) =>
      aTask({ id: i + 1, mainId: i + 1, itemName: `已到货${i + 1}`, status: 'locked', count: 2, productCount: 2, createdAt: NOW + i }),
    );
    const server = createTasksFake({
      tasks: [
        ...locked,
        aTask({ id: 30, mainId: 30, itemName: '蓝牙耳机', count: 3, trackings: [], createdAt: NOW + 30 }),
        aTask({
          id: 31,
          mainId: 31,
          itemName: '记满的',
          count: 2,
          status: 'unmatch',
          trackings: [{ trackingId: 'FULL-1', productCount: 2, status: 'unmatch', msg: '' }],
          createdAt: NOW + 31,
        }),
        aTask({
          id: 32,
          mainId: 30,
          subId: 1,
          itemName: '充电器',
          count: 2,
          trackings: [{ trackingId: 'HALF-1', productCount: 1, status: 'init', msg: '' }],
          createdAt: NOW + 32,
        }),
        aTask({
          id: 33,
          mainId: 33,
          itemName: '数据线',
          count: 2,
          status: 'unmatch',
          trackings: [{ trackingId: 'MORE-1', productCount: 1, status: 'unmatch', msg: '' }],
          createdAt: NOW + 33,
        }),
      ],
    });
    renderApp('/user/my-task?status=locked', { loggedInAs: member, handlers: server.handlers });
    const table = await screen.findByRole('table', { name: '我的任务列表' });
    await within(table).findByText('已到货22'); // newest first
    expect(within(table).queryByText('蓝牙耳机')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '批量粘贴单号' }));
    const dialog = await screen.findByRole('dialog', { name: '批量添加采购记录' });
    const select = (await within(dialog).findByLabelText('任务')) as HTMLSelectElement;
    // Newest first, open and unmatch alike; the task whose records are full (2 of 2) is not offered.
    expect([...select.options].map((o) => o.textContent)).toEqual([
      '请选择任务',
      '33 · 数据线（还可记录1件）',
      '30-1 · 充电器（还可记录1件）',
      '30 · 蓝牙耳机（还可记录3件）',
    ]);
    // One list call asks for both recordable statuses (open and unmatch).
    expect(server.calls.filter((c) => c.method === 'GET' && c.path === '/api/task/info/user/list' && c.query.size === '1000')).toHaveLength(1);

    // The preview knows the chosen task's records: HALF-1 is there already, one unit is left.
    await user.selectOptions(select, '30-1 · 充电器（还可记录1件）');
    await user.click(within(dialog).getByLabelText('粘贴单号'));
    await user.paste('HALF-1\nNEW-1 2');
    const form = within(dialog).getByRole('form', { name: '批量添加采购记录' });
    expect(preview(form).map((r) => r[3])).toEqual(['✕ 该快递单号已记录', '✕ 所有记录的数目合计不能超过任务数量2件']);

    await user.selectOptions(select, '30 · 蓝牙耳机（还可记录3件）');
    await user.click(within(dialog).getByRole('button', { name: '添加2条记录' }));
    expect(await screen.findByText('已添加2条记录')).toBeTruthy();
    expect(bulkCalls(server).map((c) => c.path)).toEqual(['/api/purchased/user/30/bulk']);
  });
});
