// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialogHost } from '../../../src/web/components/ui/confirm';
import { clearToasts, toast, Toaster } from '../../../src/web/components/ui/toast';
import { TaskRecordDialog } from '../../../src/web/features/tasks/task-record-dialog';
import { renderApp, userOf } from '../app-harness';
import { fakeApiClient, json } from '../support/fake-api';
import { aRecord, aTask, createTasksFake, refuse, type TasksFake } from './tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const member = userOf('user');

const RECORDS = [
  aRecord({ id: 1, taskId: 100, trackingId: '1Z-INIT', productCount: 1, status: 'init', msg: '' }),
  aRecord({ id: 2, taskId: 100, trackingId: '1Z-MATCH', productCount: 1, status: 'match', msg: '已到货' }),
  aRecord({ id: 3, taskId: 100, trackingId: '1Z-UNMATCH', productCount: 2, status: 'unmatch', msg: 'UPC不一致' }),
];

/** /user/my-task with the records dialog of its one task open. */
async function openRecords(server: TasksFake) {
  const app = renderApp('/user/my-task', { loggedInAs: member, handlers: server.handlers });
  const table = await screen.findByRole('table', { name: '我的任务列表' });
  const row = (await within(table).findByText('蓝牙耳机')).closest('tr')!;
  const user = userEvent.setup();
  await user.click(within(row).getByRole('button', { name: '记录' }));
  const dialog = await screen.findByRole('dialog');
  await within(dialog).findByText('100 · 蓝牙耳机');
  return { ...app, user, dialog };
}

const recordRow = (dialog: HTMLElement, tracking: string) =>
  within(within(dialog).getByRole('table', { name: '采购记录列表' }))
    .getByText(tracking)
    .closest('tr')!;
const buttonsOf = (row: HTMLElement) =>
  within(row)
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('the task record dialog (member view)', () => {
  it('lists the records; a record in status match can be neither edited nor deleted', async () => {
    const server = createTasksFake({ records: RECORDS });
    const { dialog } = await openRecords(server);
    expect(within(dialog).getByText('采购记录')).toBeTruthy();
    expect(within(dialog).getByText('认领 2 件，已到货 0 件')).toBeTruthy();
    const table = await within(dialog).findByRole('table', { name: '采购记录列表' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['快递单号', '数目', '状态', '信息', '操作']);
    expect(
      within(recordRow(dialog, '1Z-UNMATCH'))
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['1Z-UNMATCH', '2', '不匹配', 'UPC不一致', '编辑删除']);
    expect(buttonsOf(recordRow(dialog, '1Z-INIT'))).toEqual(['编辑', '删除']);
    expect(buttonsOf(recordRow(dialog, '1Z-UNMATCH'))).toEqual(['编辑', '删除']);
    expect(buttonsOf(recordRow(dialog, '1Z-MATCH'))).toEqual([]);
    expect(within(recordRow(dialog, '1Z-MATCH')).getByText('已匹配，不能修改')).toBeTruthy();
  });

  it("requires trackingId ('请填写trackingId') and count ('请填写数目') and sends nothing without them", async () => {
    const server = createTasksFake();
    const { user, dialog } = await openRecords(server);
    await user.click(within(dialog).getByRole('button', { name: '添加' }));
    expect(await within(dialog).findByText('请填写trackingId')).toBeTruthy();
    expect(within(dialog).getByText('请填写数目')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('数目'), 'x');
    await user.click(within(dialog).getByRole('button', { name: '添加' }));
    expect(await within(dialog).findByText('数目须为正整数')).toBeTruthy();
    expect(server.calls.some((c) => c.path.startsWith('/api/purchased/user/'))).toBe(false);
  });

  it("adds a record, toasts '创建成功', reloads the records and the page's table", async () => {
    const server = createTasksFake();
    const { user, dialog } = await openRecords(server);
    const listsBefore = server.calls.filter((c) => c.path === '/api/task/info/user/list').length;
    expect(within(dialog).getByText('暂无采购记录')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('快递单号'), ' 1Z-NEW ');
    await user.type(within(dialog).getByLabelText('数目'), '2');
    await user.click(within(dialog).getByRole('button', { name: '添加' }));
    expect(await screen.findByText('创建成功')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/purchased/user/100/create')!.body).toEqual({ trackingId: '1Z-NEW', productCount: 2 });
    await waitFor(() => expect(recordRow(dialog, '1Z-NEW')).toBeTruthy());
    expect((within(dialog).getByLabelText('快递单号') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api/task/info/user/list').length).toBe(listsBefore + 1));
  });

  // Decision 097: the carrier of the id being typed, and a check-digit warning that refuses nothing.
  it('names the carrier of the id being typed and warns of a failed check digit, and still sends it', async () => {
    const server = createTasksFake();
    const { user, dialog } = await openRecords(server);
    const field = within(dialog).getByLabelText('快递单号');
    expect(within(dialog).queryByTestId('tracking-carrier')).toBeNull();
    await user.type(field, '1z 999 aa1 0123 456 784');
    expect(within(dialog).getByTestId('tracking-carrier').textContent).toBe('承运商：UPS');
    await user.clear(field);
    await user.type(field, '1Z999AA10123456785');
    expect(within(dialog).getByTestId('tracking-carrier').textContent).toBe('承运商：UPS校验位不符，请核对单号（仍可保存）');
    await user.type(within(dialog).getByLabelText('数目'), '1');
    await user.click(within(dialog).getByRole('button', { name: '添加' }));
    expect(await screen.findByText('创建成功')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/purchased/user/100/create')!.body).toEqual({ trackingId: '1Z999AA10123456785', productCount: 1 });
  });

  it('shows a record as the member typed it, with the key it is compared by in its title', async () => {
    const server = createTasksFake({ records: [aRecord({ id: 7, taskId: 100, trackingId: 'TBA123456789000', typedTrackingId: 'tba-123456789-000' })] });
    const { dialog } = await openRecords(server);
    const cell = within(within(dialog).getByRole('table', { name: '采购记录列表' })).getByText('tba-123456789-000');
    expect(cell.getAttribute('title')).toBe('TBA123456789000');
  });

  it('a record whose parcel has not arrived says that a parcel with a near id arrived, naming it (decision 098)', async () => {
    const server = createTasksFake({
      records: [aRecord({ id: 7, taskId: 100, trackingId: '1Z999AA10123456785', status: 'init', nearArrival: '1Z999AA10123456784' })],
    });
    const { dialog } = await openRecords(server);
    const table = within(dialog).getByRole('table', { name: '采购记录列表' });
    expect(within(table).getByText('有快递单号相近的包裹已到货：1Z999AA10123456784，请核对您填写的快递单号')).toBeTruthy();
  });

  it("shows the server's refusal of a new record in the dialog", async () => {
    const server = createTasksFake();
    server.answer.create = () => refuse('该快递单号已记录');
    const { user, dialog } = await openRecords(server);
    await user.type(within(dialog).getByLabelText('快递单号'), '1Z-DUP');
    await user.type(within(dialog).getByLabelText('数目'), '1');
    await user.click(within(dialog).getByRole('button', { name: '添加' }));
    expect(await within(dialog).findByText('操作失败：该快递单号已记录')).toBeTruthy();
  });

  it("edits a record: the form takes its values; saving posts {id, trackingId, productCount} and toasts '保存成功'", async () => {
    const server = createTasksFake({ records: RECORDS });
    const { user, dialog } = await openRecords(server);
    await user.click(within(recordRow(dialog, '1Z-UNMATCH')).getByRole('button', { name: '编辑 1Z-UNMATCH' }));
    const form = within(dialog).getByRole('form', { name: '编辑采购记录 1Z-UNMATCH' });
    const count = within(form).getByLabelText('数目') as HTMLInputElement;
    expect(count.value).toBe('2');
    expect((within(form).getByLabelText('快递单号') as HTMLInputElement).value).toBe('1Z-UNMATCH');
    await user.clear(count);
    await user.type(count, '3');
    await user.click(within(form).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/purchased/user/update')!.body).toEqual({ id: 3, trackingId: '1Z-UNMATCH', productCount: 3 });
    await waitFor(() => expect(within(recordRow(dialog, '1Z-UNMATCH')).getAllByRole('cell')[1]!.textContent).toBe('3'));
    expect(within(dialog).getByRole('form', { name: '添加采购记录' })).toBeTruthy();
  });

  it("removes a record after a confirmation: '删除成功'; a refusal: '删除失败'", async () => {
    const server = createTasksFake({ records: RECORDS });
    const { user, dialog } = await openRecords(server);
    await user.click(within(recordRow(dialog, '1Z-INIT')).getByRole('button', { name: '删除 1Z-INIT' }));
    const confirmation = (await screen.findByText('确定删除采购记录 1Z-INIT 吗？')).closest('[role="dialog"]') as HTMLElement;
    await user.click(within(confirmation).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/purchased/user/remove')!.body).toEqual({ id: 1 });
    await waitFor(() => expect(within(dialog).queryByText('1Z-INIT')).toBeNull());

    server.answer.remove = () => json({ code: 'A00005' }, 500);
    await user.click(within(recordRow(dialog, '1Z-UNMATCH')).getByRole('button', { name: '删除 1Z-UNMATCH' }));
    const again = (await screen.findByText('确定删除采购记录 1Z-UNMATCH 吗？')).closest('[role="dialog"]') as HTMLElement;
    await user.click(within(again).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('删除失败')).toBeTruthy();
  });

  it("offers 'match' (the member's match call) while the task machine allows it, and shows the outcome", async () => {
    const server = createTasksFake({ tasks: [aTask({ count: 2, productCount: 2 })], records: RECORDS });
    server.matchOutcome = 'locked';
    const { user, dialog } = await openRecords(server);
    await user.click(within(dialog).getByRole('button', { name: '匹配' }));
    expect(await screen.findByText('匹配完成；任务状态：已锁定，到货 2/2 件')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/match/user/task/match')!.body).toEqual({ taskId: 100 });
    expect(server.calls.some((c) => c.path === '/api/match/admin/task/match')).toBe(false);
    // Now locked: the machine refuses task.match, so the button goes.
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: '匹配' })).toBeNull());
  });

  it('changes no record of a locked task, and says which tasks take changes', async () => {
    const server = createTasksFake({ tasks: [aTask({ status: 'locked' })], records: RECORDS });
    const { dialog } = await openRecords(server);
    expect(within(dialog).getByText('只有进行中或不匹配的任务可以修改记录')).toBeTruthy();
    expect(within(dialog).queryByRole('form')).toBeNull();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    for (const tracking of ['1Z-INIT', '1Z-UNMATCH', '1Z-MATCH']) expect(buttonsOf(recordRow(dialog, tracking))).toEqual([]);
  });

  it('changes the records of an unmatch task (the member fixes a discrepancy)', async () => {
    const server = createTasksFake({ tasks: [aTask({ status: 'unmatch' })], records: RECORDS });
    const { dialog } = await openRecords(server);
    expect(buttonsOf(recordRow(dialog, '1Z-UNMATCH'))).toEqual(['编辑', '删除']);
    expect(within(dialog).getByRole('textbox', { name: '快递单号' })).toBeTruthy();
  });

  it('offers no match on a locked task', async () => {
    const server = createTasksFake({ tasks: [aTask({ status: 'locked' })] });
    const { dialog } = await openRecords(server);
    expect(within(dialog).queryByRole('button', { name: '匹配' })).toBeNull();
    expect(within(dialog).getAllByRole('button', { name: '关闭' })).toHaveLength(2);
  });
});

describe('the task record dialog (admin view)', () => {
  function renderAdminDialog(server: TasksFake, onChanged = vi.fn()) {
    const { api } = fakeApiClient(server.handlers, {
      readToken: () => ({ token: 'admin-token', keep: false }),
      notifyError: (message) => toast.error(message),
    });
    const root = createRootRoute({
      component: () => (
        <>
          <TaskRecordDialog taskId={100} view="admin" open onClose={() => {}} onChanged={onChanged} />
          <Toaster />
          <ConfirmDialogHost />
        </>
      ),
    });
    const router = createRouter({ routeTree: root, context: { api }, history: createMemoryHistory() });
    return render(<RouterProvider router={router} />);
  }

  it('lists the records read-only: no form, no row actions, no match button', async () => {
    const server = createTasksFake({ records: RECORDS });
    renderAdminDialog(server);
    const dialog = await screen.findByRole('dialog');
    const table = await within(dialog).findByRole('table', { name: '采购记录列表' });
    await within(dialog).findByText('认领 2 件，已到货 0 件');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['快递单号', '数目', '状态', '信息']);
    expect(within(table).getByText('1Z-MATCH')).toBeTruthy();
    expect(within(table).queryAllByRole('button')).toEqual([]);
    expect(within(dialog).queryByRole('form')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: '匹配' })).toBeNull();
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label') ?? b.textContent),
    ).toEqual(['关闭', '关闭']);
  });
});
