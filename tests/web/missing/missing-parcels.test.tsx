// @vitest-environment happy-dom
// Missing parcels (decision 077) through the real router with the HTTP boundary faked: the member
// home's flag links to the member's list (and is absent when nothing is missing); the list shows
// each parcel's age, carrier and state, and its report dialog sends the note and the lost report,
// by keyboard, then reloads; a task's tracking chip says a parcel is missing or reported lost; the
// admins' list shows the member and asks for its filters.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../../src/api/schema';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { arrivalText } from '../../../src/web/features/tasks/tracking-arrivals';
import { renderApp, userOf } from '../app-harness';
import { ok, pageOf } from '../support/fake-api';

afterEach(() => {
  cleanup();
  clearToasts();
  localStorage.clear();
});

type Parcel = components['schemas']['MissingParcel'];
type MemberHome = components['schemas']['MemberHome'];

const DAY = 86_400_000;
const empty = { total: 0, items: [] };
const nothing = { units: 0, amount: 0 };
const home = (missingParcels: MemberHome['missingParcels']): MemberHome => ({
  now: Date.now(),
  since: Date.now() - DAY,
  openBoards: empty,
  awaitingTracking: empty,
  arrived: empty,
  disagreeing: empty,
  payable: { ...empty, amount: 0 },
  balance: 0,
  missingParcels,
  totals: { claimed: nothing, recorded: nothing, arrived: nothing, paid: nothing, withdrawable: nothing },
});

const parcel = (over: Partial<Parcel>): Parcel => ({
  id: 41,
  taskId: 801,
  mainId: 801,
  subId: 0,
  itemName: '蓝牙耳机',
  userId: 3,
  trackingId: '1Z999AA10123456784',
  productCount: 2,
  createdAt: Date.now() - 10 * DAY,
  ageDays: 10,
  carrier: 'UPS',
  note: '',
  lostAt: null,
  ...over,
});

describe('the member home flags missing parcels', () => {
  it('says how many, how many reported lost, and links to the list', async () => {
    renderApp('/user/home', { loggedInAs: userOf('user'), handlers: { 'GET /api/home/user': () => ok(home({ total: 3, lost: 1, days: 7 })) } });
    const flag = await screen.findByRole('region', { name: /3个快递单号超过7天未到货/ });
    expect(within(flag).getByText('其中1个已报丢件')).toBeTruthy();
    expect(within(flag).getByRole('link', { name: '查看并处理' }).getAttribute('href')).toBe('/user/missing-parcels');
  });

  it('shows nothing when none is missing', async () => {
    renderApp('/user/home', { loggedInAs: userOf('user'), handlers: { 'GET /api/home/user': () => ok(home({ total: 0, lost: 0, days: 7 })) } });
    await screen.findByText('暂无开放的看板');
    expect(screen.queryByText(/超过7天未到货/)).toBeNull();
  });
});

describe('the member’s missing parcels', () => {
  it('lists each with its age, carrier and state, and reports one lost with a note by keyboard', async () => {
    let rows = [parcel({}), parcel({ id: 42, trackingId: 'MB0001', carrier: null, ageDays: 8, lostAt: Date.now() - DAY, note: '卖家补发' })];
    const reports: unknown[] = [];
    renderApp('/user/missing-parcels', {
      loggedInAs: userOf('user'),
      handlers: {
        'GET /api/purchased/user/missing': () => ok({ content: rows, totalPages: 1, totalElements: rows.length, days: 7 }),
        'POST /api/purchased/user/missing/report': async (request) => {
          const body = (await request.json()) as { id: number; note: string; lost: boolean };
          reports.push(body);
          rows = rows.map((r) => (r.id === body.id ? { ...r, note: body.note, lostAt: body.lost ? Date.now() : null } : r));
          return ok(
            rows.find((r) => r.id === body.id),
            '已标记为丢件',
          );
        },
      },
    });
    const table = await screen.findByRole('table', { name: '未到货的包裹' });
    expect(screen.getByText(/已录入超过7天、仓库仍未扫描到的快递单号/)).toBeTruthy();
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('10天')).toBeTruthy();
    expect(within(first!).getByText('UPS')).toBeTruthy();
    expect(within(first!).getByText('未到货')).toBeTruthy();
    expect(within(second!).getByText('已报丢件')).toBeTruthy();
    expect(within(second!).getByText('卖家补发')).toBeTruthy();

    const user = userEvent.setup();
    within(first!).getByRole('button', { name: '备注或报丢件：1Z999AA10123456784' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: '未到货包裹 1Z999AA10123456784' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('备注')));
    await user.keyboard('快递显示已签收');
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('checkbox', { name: /已丢件/ }));
    await user.keyboard(' ');
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: '保存' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(reports).toEqual([{ id: 41, note: '快递显示已签收', lost: true }]);
    expect(await screen.findByText('已标记为丢件')).toBeTruthy();
    const reloaded = within(await screen.findByRole('table', { name: '未到货的包裹' })).getAllByRole('row')[1]!;
    await waitFor(() => expect(within(reloaded).getByText('快递显示已签收')).toBeTruthy());
    expect(within(reloaded).getByText('已报丢件')).toBeTruthy();
  });
});

describe('a task’s tracking chip', () => {
  it('says how long a parcel has been missing, or that it was reported lost', () => {
    const record = { trackingId: 'T1', status: 'init' as const, msg: '', productCount: 1 };
    expect(arrivalText(record)).toBe('T1：待到货');
    expect(arrivalText({ ...record, missingDays: 9 })).toBe('T1：已9天未到货');
    expect(arrivalText({ ...record, missingDays: 9, lost: true })).toBe('T1：已报丢件');
  });
});

describe('the admins’ missing parcels', () => {
  it('lists every member’s with the member, and asks for the filters', async () => {
    const queries: Record<string, string>[] = [];
    const rows = [parcel({ nickName: '小A', mailAddr: 'a@x.test' }), parcel({ id: 43, userId: 4, nickName: '小B', mailAddr: 'b@x.test', lostAt: Date.now() })];
    renderApp('/admin/missing-parcels', {
      loggedInAs: userOf('admin'),
      handlers: {
        'GET /api/user/list': () => ok([]),
        'GET /api/admin/purchased/missing': (request) => {
          const query = Object.fromEntries(new URL(request.url).searchParams);
          queries.push(query);
          const shown = query.state === 'lost' ? rows.filter((r) => r.lostAt !== null) : rows;
          return ok({ ...pageOf(shown, query), days: 7 });
        },
      },
    });
    const table = await screen.findByRole('table', { name: '未到货的包裹' });
    expect(within(table).getByText('小A')).toBeTruthy();
    expect(within(table).getByText('b@x.test')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: '主菜单' });
    expect(within(nav).getByRole('link', { name: '未到货包裹' }).getAttribute('href')).toBe('/admin/missing-parcels');

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('状态'), 'lost');
    await user.type(screen.getByLabelText('快递单号'), '1z999{Enter}');
    await waitFor(() => expect(queries.at(-1)).toMatchObject({ state: 'lost', trackingId: '1z999', page: '0' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: '未到货的包裹' })).queryByText('小A')).toBeNull());
  });
});
