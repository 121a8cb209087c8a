// @vitest-environment happy-dom
// /admin/task-amount-list through the real router, with the HTTP boundary faked (payments-fake.ts).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { json } from '../support/fake-api';
import { anAmount, createPaymentsFake, type TaskAmount } from './payments-fake';
import { cellsOf, dataRows, urlParams } from '../support/table-reading';

afterEach(() => {
  cleanup();
  clearToasts();
  vi.restoreAllMocks();
});

/** Typing into several filters through the router takes a while in happy-dom. */
const SLOW = 20_000;
const TIMEZONE = String(0 - new Date().getTimezoneOffset() / 60);

function renderList(amounts?: TaskAmount[], path = '/admin/task-amount-list') {
  const fake = createPaymentsFake({ amounts });
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: '订单金额列表' });
const bodyRows = () => dataRows(table());
const listQueries = (fake: ReturnType<typeof createPaymentsFake>) => fake.callsTo('/api/statistics/admin/task/amount/list').map((c) => c.query);
const rowOf = (userId: number) => bodyRows().find((row) => cellsOf(row)[1] === String(userId))!;

function spyOnAssign() {
  const assign = vi.fn();
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: window.location.origin, assign } as Location);
  return assign;
}

const AMOUNTS = [
  anAmount({ userId: 3, nickName: 'alice', mailAddr: 'alice@demo.local', amount: 43.5 }),
  anAmount({ userId: 7, nickName: 'bob', mailAddr: 'bob@demo.local', amount: 120 }),
  anAmount({ userId: 12, nickName: 'carol', mailAddr: 'carol@demo.local', amount: 0.3 }),
];

describe('/admin/task-amount-list: the table', () => {
  it('shows userId, nickName, mailAddr and the amount with two decimals, with a checkbox per row; the call carries the timezone', async () => {
    const { fake } = renderList(AMOUNTS);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', '用户ID', '用户名', '邮箱', '金额']);
    expect(within(table()).getByRole('checkbox', { name: '选择本页全部' })).toBeTruthy();
    expect(bodyRows().map((row) => cellsOf(row).slice(1))).toEqual([
      ['12', 'carol', 'carol@demo.local', '0.30'],
      ['7', 'bob', 'bob@demo.local', '120.00'],
      ['3', 'alice', 'alice@demo.local', '43.50'],
    ]);
    expect(listQueries(fake)).toEqual([{ isAsc: 'false', orderItem: '1', page: '0', size: '20', timezone: TIMEZONE }]);
  });

  it('pages 20 at a time on the server', async () => {
    const many = Array.from({ length: 45 }, (_, i) => anAmount({ userId: i + 1, nickName: `u${i + 1}`, mailAddr: `u${i + 1}@demo.local`, amount: i + 1 }));
    const { fake, user, router } = renderList(many);
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    await user.click(screen.getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(urlParams(router)).toEqual({ page: '2' });
    expect(listQueries(fake).at(-1)).toEqual({ isAsc: 'false', orderItem: '1', page: '2', size: '20', timezone: TIMEZONE });
  });
});

describe('/admin/task-amount-list: filters', () => {
  it(
    'puts the ascending switch, sort field, user and dates into the URL and the call; reset clears them',
    async () => {
      const { fake, user, router } = renderList(AMOUNTS);
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      expect(
        within(screen.getByLabelText('排序字段'))
          .getAllByRole('option')
          .map((o) => [(o as HTMLOptionElement).value, o.textContent]),
      ).toEqual([
        ['1', '用户ID'],
        ['2', '金额'],
      ]);
      expect(
        within(screen.getByLabelText('用户'))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['全部用户', 'alice（alice@demo.local）', 'bob（bob@demo.local）', 'admin-name（admin@example.com）']);

      await user.click(screen.getByLabelText('升序'));
      await user.selectOptions(screen.getByLabelText('排序字段'), '2');
      await user.click(screen.getByRole('button', { name: '查询' }));
      await waitFor(() => expect(urlParams(router)).toEqual({ isAsc: 'true', orderItem: '2' }));
      await waitFor(() => expect(bodyRows().map((row) => cellsOf(row)[1])).toEqual(['12', '3', '7']));

      await user.selectOptions(screen.getByLabelText('用户'), '7');
      fireEvent.change(screen.getByLabelText('开始日期'), { target: { value: '2026-11-01' } });
      fireEvent.change(screen.getByLabelText('结束日期'), { target: { value: '2026-11-30' } });
      await user.click(screen.getByRole('button', { name: '查询' }));
      const expected = { isAsc: 'true', orderItem: '2', userId: '7', startTime: '2026-11-01', endTime: '2026-11-30' };
      await waitFor(() => expect(urlParams(router)).toEqual(expected));
      await waitFor(() => expect(bodyRows()).toHaveLength(1));
      expect(listQueries(fake).at(-1)).toEqual({ ...expected, page: '0', size: '20', timezone: TIMEZONE });

      await user.click(screen.getByRole('button', { name: '重置' }));
      await waitFor(() => expect(urlParams(router)).toEqual({}));
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      expect((screen.getByLabelText('升序') as HTMLInputElement).checked).toBe(false);
      expect((screen.getByLabelText('开始日期') as HTMLInputElement).value).toBe('');
      expect(listQueries(fake).at(-1)).toEqual({ isAsc: 'false', orderItem: '1', page: '0', size: '20', timezone: TIMEZONE });
    },
    SLOW,
  );

  it("sends this browser's offset from UTC in hours (UTC+8 -> 8) and says which time the dates are in", async () => {
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-480);
    const { fake } = renderList(AMOUNTS, '/admin/task-amount-list?startTime=2026-11-01');
    await waitFor(() => expect(listQueries(fake)).toHaveLength(1));
    expect(listQueries(fake)[0]).toEqual({ isAsc: 'false', orderItem: '1', startTime: '2026-11-01', page: '0', size: '20', timezone: '8' });
    expect(await screen.findByText('按本地时区（UTC+8）的日期')).toBeTruthy();
  });

  it('refuses an end date before the start date', async () => {
    const { fake, user, router } = renderList(AMOUNTS);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    fireEvent.change(screen.getByLabelText('开始日期'), { target: { value: '2026-11-10' } });
    fireEvent.change(screen.getByLabelText('结束日期'), { target: { value: '2026-11-09' } });
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('结束日期不能早于开始日期')).toBeTruthy();
    expect(urlParams(router)).toEqual({});
    expect(listQueries(fake)).toHaveLength(1);
  });

  it('reads the filters from the URL; values that do not parse fall back', async () => {
    const { fake } = renderList(AMOUNTS, '/admin/task-amount-list?isAsc=maybe&orderItem=3&userId=x&endTime=2026-02-31&startTime=2026-11-02');
    await waitFor(() => expect(listQueries(fake)).toHaveLength(1));
    expect(listQueries(fake)[0]).toEqual({ isAsc: 'false', orderItem: '1', startTime: '2026-11-02', page: '0', size: '20', timezone: TIMEZONE });
  });
});

describe('/admin/task-amount-list: export', () => {
  it('with no row selected: a task-amount token for the dates and timezone, then the link with the filters and no userIds', async () => {
    const assign = spyOnAssign();
    const { fake, user } = renderList(AMOUNTS, '/admin/task-amount-list?isAsc=true&orderItem=2&startTime=2026-11-01');
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(screen.getByText('未选择用户时导出全部符合条件的用户')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '导出Excel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(fake.callsTo('/api/download/excel/{kind}/token').map((c) => [c.params.kind, c.query])).toEqual([
      ['task-amount', { startTime: '2026-11-01', timezone: TIMEZONE }],
    ]);
    expect(assign).toHaveBeenCalledWith(`/ext/excel/task-amount/task-amount-token?isAsc=true&orderItem=2&startTime=2026-11-01&timezone=${TIMEZONE}`);
  });

  it('with rows selected (kept across pages): the link carries their userIds comma-joined', async () => {
    const assign = spyOnAssign();
    const many = Array.from({ length: 25 }, (_, i) => anAmount({ userId: i + 1, nickName: `u${i + 1}`, mailAddr: `u${i + 1}@demo.local`, amount: i + 1 }));
    const { user } = renderList(many);
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    await user.click(within(rowOf(25)).getByRole('checkbox'));
    await user.click(within(rowOf(7)).getByRole('checkbox'));
    expect(rowOf(7).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('已选 2 个用户，导出只含所选用户')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '第 2 页' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await user.click(within(rowOf(3)).getByRole('checkbox'));

    await user.click(screen.getByRole('button', { name: '导出已选（3）' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(assign).toHaveBeenCalledWith(`/ext/excel/task-amount/task-amount-token?userIds=3,7,25&isAsc=false&orderItem=1&timezone=${TIMEZONE}`);
  });

  it('new filters drop the selection; 清除选择 does too', async () => {
    const { user } = renderList(AMOUNTS);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    await user.click(within(table()).getByRole('checkbox', { name: '选择本页全部' }));
    expect(screen.getByRole('button', { name: '导出已选（3）' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '清除选择' }));
    expect(screen.getByRole('button', { name: '导出Excel' })).toBeTruthy();

    await user.click(within(rowOf(7)).getByRole('checkbox'));
    expect(screen.getByRole('button', { name: '导出已选（1）' })).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('排序字段'), '2');
    await user.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(screen.getByRole('button', { name: '导出Excel' })).toBeTruthy());
    expect(bodyRows().every((row) => row.getAttribute('aria-selected') === 'false')).toBe(true);
  });

  it('opens nothing when no token comes (the client has shown why)', async () => {
    const assign = spyOnAssign();
    const { fake, user } = renderList(AMOUNTS);
    fake.answer.token = () => json({ code: 'A00001', msg: '开始日期不能晚于结束日期' }, 400);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: '导出Excel' }));
    expect(await screen.findByText(/开始日期不能晚于结束日期/)).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });
});
