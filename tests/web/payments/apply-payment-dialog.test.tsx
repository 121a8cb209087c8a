// @vitest-environment happy-dom
// The apply-for-payment pieces of /user/my-task (apply-payment-dialog.tsx, use-apply-state.ts),
// mounted under a minimal router whose context carries an API client on the payments fake: a table
// of the member's tasks whose rows render <ApplyPaymentCell>, inside <ApplyPaymentScope>, as the
// my-task page does. The table reloads the tasks from the fake after an application.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryHistory, createRootRouteWithContext, createRouter } from '@tanstack/react-router';
import { useState, type JSX } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client';
import { clearToasts, toast, Toaster } from '../../../src/web/components/ui/toast';
import { ApplyPaymentCell, ApplyPaymentScope, applyBody } from '../../../src/web/features/payments/apply-payment-dialog';
import { applyButtonState } from '../../../src/web/features/payments/use-apply-state';
import { fakeApiClient, json } from '../support/fake-api';
import { aTask, anApply, createPaymentsFake, type PaymentsFake, type Task } from './payments-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

function TaskTable({ fake }: { fake: PaymentsFake }): JSX.Element {
  const [, setVersion] = useState(0);
  const tasks = fake.tasks.map((task) => ({ ...task }));
  return (
    <>
      <ApplyPaymentScope tasks={tasks} onApplied={() => setVersion((v) => v + 1)}>
        <table aria-label="我的任务">
          <tbody>
            {tasks.map((task) => (
              <tr key={task.id}>
                <td>{task.id}</td>
                <td>{task.status}</td>
                <td>
                  <ApplyPaymentCell task={task} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ApplyPaymentScope>
      <Toaster />
    </>
  );
}

function renderTasks(tasks: Task[], applies = [anApply({ id: 1, taskId: 102, mainId: 102 })]) {
  const fake = createPaymentsFake({ tasks, applies });
  const { api } = fakeApiClient(fake.handlers, {
    readToken: () => ({ token: 'test-token', keep: false }),
    notifyError: (message) => toast.error(message),
  });
  const root = createRootRouteWithContext<{ api: ApiClient }>()({ component: () => <TaskTable fake={fake} /> });
  const router = createRouter({ routeTree: root, context: { api }, history: createMemoryHistory({ initialEntries: ['/'] }) });
  render(<RouterProvider router={router} />);
  return { fake, user: userEvent.setup() };
}

const rowOf = (taskId: number) =>
  within(screen.getByRole('table', { name: '我的任务' }))
    .getByText(String(taskId))
    .closest('tr')!;
const buttonOf = (taskId: number) => within(rowOf(taskId)).queryByRole('button') as HTMLButtonElement | null;

const TASKS = [
  aTask({ id: 101, mainId: 101, status: 'locked' }),
  aTask({ id: 102, mainId: 102, status: 'processing' }),
  aTask({ id: 103, mainId: 103, status: 'open', productCount: 1 }),
  aTask({ id: 104, mainId: 100, subId: 1, status: 'finished' }),
];

async function openDialog(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(await screen.findByRole('button', { name: `申请付款：任务 ${label}` }));
  return screen.findByRole('dialog', { name: /申请付款/ });
}

describe('the apply button of a task', () => {
  it("asks once about the page's tasks; 申请付款 where the task machine allows task.apply (locked), a disabled 已申请付款 where an application exists", async () => {
    const { fake } = renderTasks(TASKS, [anApply({ id: 1, taskId: 102, mainId: 102 }), anApply({ id: 2, taskId: 104, mainId: 100, subId: 1 })]);
    await waitFor(() => expect(buttonOf(101)?.textContent).toBe('申请付款'));
    expect(buttonOf(101)?.disabled).toBe(false);
    expect(buttonOf(102)?.textContent).toBe('已申请付款');
    expect(buttonOf(102)?.disabled).toBe(true);
    expect(buttonOf(103)).toBeNull();
    expect(buttonOf(104)?.textContent).toBe('已申请付款');
    expect(fake.callsTo('/api/task/apply/exist').map((c) => c.query)).toEqual([{ taskIds: '101,102,103,104' }]);
  });

  it('when the question fails, the task machine alone decides and no error is toasted', async () => {
    const { fake } = renderTasks(TASKS);
    fake.answer.exist = () => json({ code: 'A00005', msg: '系统错误' }, 500);
    await waitFor(() => expect(buttonOf(101)?.textContent).toBe('申请付款'));
    expect(buttonOf(102)).toBeNull();
    expect(document.querySelector('[data-tone="error"]')).toBeNull();
  });

  it('decides from the machine and the answer', () => {
    const facts = (status: Task['status']) => ({ id: 1, status, count: 2, productCount: 2, canSplit: false });
    expect(applyButtonState(facts('locked'), undefined)).toBe('none');
    expect(applyButtonState(facts('locked'), false)).toBe('apply');
    expect(applyButtonState(facts('locked'), true)).toBe('applied');
    for (const status of ['pending', 'open', 'closed', 'processing', 'finished', 'deleted', 'unmatch'] as const) {
      expect(applyButtonState(facts(status), false)).toBe('none');
      expect(applyButtonState(facts(status), true)).toBe('applied');
    }
    // Some but not all units arrived: the arrived units, in one step (the task machine's canApplyForArrived).
    const partly = (status: Task['status']) => ({ id: 1, status, count: 5, productCount: 2, canSplit: true });
    expect(applyButtonState(partly('open'), false)).toBe('applyArrived');
    expect(applyButtonState(partly('unmatch'), false)).toBe('applyArrived');
    expect(applyButtonState(partly('open'), true)).toBe('applied');
    expect(applyButtonState({ ...partly('open'), productCount: 0, canSplit: false }, false)).toBe('none');
  });
});

describe('the apply dialog', () => {
  it('a blank bonus is 0: sends {taskId, bonus 0, note}, toasts 申请成功 and the task shows 已申请付款', async () => {
    const { fake, user } = renderTasks(TASKS);
    const dialog = await openDialog(user, '101');
    expect(within(dialog).getByText('101 · 蓝牙耳机')).toBeTruthy();
    expect(within(dialog).getByText('回收价 21.50 × 到货 2 件，折扣 0.50')).toBeTruthy();
    expect(within(dialog).getByText('预计收入：42.50')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '提交申请' }));
    const toastText = await screen.findByText('申请成功');
    expect(toastText.closest('[data-tone]')?.getAttribute('data-tone')).toBe('success');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('/api/trade/user/pay/apply').map((c) => c.body)).toEqual([{ taskId: 101, bonus: 0, note: '' }]);
    await waitFor(() => expect(buttonOf(101)?.textContent).toBe('已申请付款'));
    expect(buttonOf(101)?.disabled).toBe(true);
    expect(fake.callsTo('/api/task/apply/exist')).toHaveLength(2);
  });

  it('sends a typed bonus as a number and the trimmed note; the expected income follows the bonus, in cents', async () => {
    const { fake, user } = renderTasks([aTask({ id: 101, mainId: 101, subId: 2, buyIn: 0.1, productCount: 3, punish: 0 })]);
    const dialog = await openDialog(user, '101-2');
    expect(within(dialog).getByText('预计收入：0.30')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('奖励'), '2.5');
    expect(within(dialog).getByText('预计收入：2.80')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('备注'), ' 第一批 ');
    await user.click(within(dialog).getByRole('button', { name: '提交申请' }));
    await waitFor(() => expect(fake.callsTo('/api/trade/user/pay/apply').map((c) => c.body)).toEqual([{ taskId: 101, bonus: 2.5, note: '第一批' }]));
  });

  it('checks the bonus: a number of at least 0 with at most two places', async () => {
    const { fake, user } = renderTasks(TASKS);
    const dialog = await openDialog(user, '101');
    const bonus = within(dialog).getByLabelText('奖励');
    for (const bad of ['abc', '-2', '0.001', '1e3']) {
      await user.clear(bonus);
      await user.type(bonus, bad);
      await user.click(within(dialog).getByRole('button', { name: '提交申请' }));
      expect(await within(dialog).findByText('奖励必须是数字（不小于0，最多两位小数）')).toBeTruthy();
    }
    expect(fake.callsTo('/api/trade/user/pay/apply')).toHaveLength(0);
  });

  it("a refusal toasts the server's msg, keeps the dialog and asks again which tasks have an application", async () => {
    const { fake, user } = renderTasks(TASKS);
    const dialog = await openDialog(user, '101');
    fake.answer.apply = () => json({ code: 'A00000', msg: '该任务已申请付款', data: { status: 'failed', msg: '该任务已申请付款' } });
    await user.click(within(dialog).getByRole('button', { name: '提交申请' }));
    const toastText = await screen.findByText('该任务已申请付款');
    expect(toastText.closest('[data-tone]')?.getAttribute('data-tone')).toBe('error');
    expect(screen.getByRole('dialog', { name: /申请付款/ })).toBeTruthy();
    await waitFor(() => expect(fake.callsTo('/api/task/apply/exist')).toHaveLength(2));
  });

  it('cancel closes without a call', async () => {
    const { fake, user } = renderTasks(TASKS);
    const dialog = await openDialog(user, '101');
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('/api/trade/user/pay/apply')).toHaveLength(0);
  });

  it('builds the body: blank bonus 0', () => {
    expect(applyBody(5, { bonus: '', note: '' })).toEqual({ taskId: 5, bonus: 0, note: '' });
    expect(applyBody(5, { bonus: '0.29', note: 'x' })).toEqual({ taskId: 5, bonus: 0.29, note: 'x' });
    expect(applyBody(5, { bonus: '12', note: '' })).toEqual({ taskId: 5, bonus: 12, note: '' });
  });
});

describe('paying for what arrived, in one step', () => {
  const PARTLY = [aTask({ id: 201, mainId: 201, status: 'open', count: 5, productCount: 2, canSplit: true, punish: 0.5 })];

  it('offers 申请付款 on a partly arrived task, saying what it does; the dialog splits and applies in one call', async () => {
    const { fake, user } = renderTasks(PARTLY, []);
    const button = await screen.findByRole('button', { name: '申请付款（已到货部分）：任务 201' });
    expect(button.textContent).toBe('申请付款');
    expect(button.getAttribute('title')).toBe('已到货 2/5 件：把已到货的部分拆成子任务并为它申请付款');
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: /申请付款（已到货部分）/ });
    expect(within(dialog).getByText('将已到货的 2 件拆分为一个子任务并为它申请付款；其余 3 件留在原任务，到货后可再申请。')).toBeTruthy();
    // 21.50 x 2, the discount staying with the original task.
    expect(within(dialog).getByText('回收价 21.50 × 已到货 2 件')).toBeTruthy();
    expect(within(dialog).getByText('预计收入：43.00')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('奖励'), '5');
    expect(within(dialog).getByText('预计收入：48.00')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '提交申请' }));
    expect(await screen.findByText('申请成功：子任务 201-1')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('/api/trade/user/pay/apply-arrived').map((c) => c.body)).toEqual([{ taskId: 201, bonus: 5, note: '' }]);
    expect(fake.callsTo('/api/trade/user/pay/apply')).toHaveLength(0);
    // The table reloads: the original has nothing arrived now (no button), the sub-task is applied for.
    await waitFor(() => expect(buttonOf(201)).toBeNull());
    await waitFor(() => expect(buttonOf(9100)?.textContent).toBe('已申请付款'));
  });

  it("a refusal toasts the server's words and keeps the dialog open", async () => {
    const { fake, user } = renderTasks(PARTLY, []);
    await user.click(await screen.findByRole('button', { name: '申请付款（已到货部分）：任务 201' }));
    const dialog = await screen.findByRole('dialog', { name: /申请付款/ });
    fake.answer.applyArrived = () => json({ code: 'A00001', msg: '只有部分到货的任务可以申请已到货部分的付款' }, 400);
    await user.click(within(dialog).getByRole('button', { name: '提交申请' }));
    expect(await screen.findByText('只有部分到货的任务可以申请已到货部分的付款')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: /申请付款/ })).toBeTruthy();
  });
});
