// @vitest-environment happy-dom
// The admin home (/admin/home, where `/` leads admin and lowerAdmin) through the real router with
// the HTTP boundary faked: one call for every count, each count a link to its list filtered by the
// status its machine names, the withdraw counts for admin only, the scan stations one click away,
// and a failed load said in place of the cards.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../../src/api/schema';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { json, ok, type Handler } from '../support/fake-api';

afterEach(() => {
  cleanup();
  clearToasts();
});

type AdminHome = components['schemas']['AdminHome'];

const ADMIN_COUNTS: AdminHome = {
  pendingClaims: 3,
  scannedTodayUnmatched: 0,
  notArrived: 5,
  notArrivedRecords: 5,
  notArrivedDays: 7,
  appliesToAgree: 2,
  contestedParcels: 0,
  parcelClaims: { unknown: 3, claimed: 2, days: 7 },
  withdrawalsWaiting: { count: 4, total: 1234.5 },
  requestedCancels: 1,
};
const { withdrawalsWaiting: _w, requestedCancels: _r, ...LOWER_ADMIN_COUNTS } = ADMIN_COUNTS;

/** Today in this browser, as the date filters write it. */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function openHome(role: 'admin' | 'lowerAdmin', answer: Handler, path = '/') {
  const calls: URL[] = [];
  const app = renderApp(path, {
    loggedInAs: userOf(role),
    handlers: {
      'GET /api/home/admin': (request) => {
        calls.push(new URL(request.url));
        return answer(request);
      },
    },
  });
  return { ...app, calls, user: userEvent.setup() };
}

const waiting = () => screen.getByRole('region', { name: '待处理' });
const cardLink = (name: RegExp) => within(waiting()).getByRole('link', { name });

describe('the admin home', () => {
  it('is where / leads an admin: every count a link to its filtered list, in one call with the timezone', async () => {
    const { router, calls } = openHome('admin', () => ok(ADMIN_COUNTS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
    await waitFor(() => expect(document.title).toBe('首页 - 采购任务协作平台'));
    await waitFor(() => expect(cardLink(/待审核的认领/).textContent).toContain('3'));

    const links = within(waiting())
      .getAllByRole('link')
      .map((link) => [link.textContent?.match(/^\D+/)?.[0], link.getAttribute('href')]);
    const day = today();
    expect(links).toEqual([
      ['待审核的认领', '/admin/tasks?taskStatus=pending'],
      ['今天扫描未匹配的包裹', `/admin/tracking-list?status=unmatch&startTime=${day}&endTime=${day}`],
      ['超过', '/admin/missing-parcels'],
      ['近', '/admin/parcel-claims'],
      ['待同意的付款申请', '/admin/apply-list?status=applied'],
      ['待付款的提现', '/admin/withdraw-list?status=waited'],
      ['申请取消的提现', '/admin/withdraw-list?status=requestedCancel'],
    ]);
    expect(cardLink(/超过7天未到货的包裹/).textContent).toContain('5');
    expect(cardLink(/超过7天未到货的包裹/).textContent).toContain('用户已录入、仓库还没有扫描到');
    // Unknown parcels (decision 169): the week's claims to take off the shelf, and those still waiting.
    expect(cardLink(/近7天会员认领的包裹/).textContent).toContain('2');
    expect(cardLink(/近7天会员认领的包裹/).textContent).toContain('另有 3 个无主包裹等待认领');
    expect(cardLink(/待付款的提现/).textContent).toContain('金额合计 1234.50');
    expect(cardLink(/申请取消的提现/).textContent).toContain('1');

    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(calls[0]!.searchParams)).toEqual({ timezone: String(-new Date().getTimezoneOffset() / 60) });
  });

  it('counts the parcels as /admin/missing-parcels lists them, a row per member, and says how many tracking ids they are', async () => {
    // NA-1 recorded by two members: 3 tracking ids, 4 rows on the list the card opens.
    openHome('lowerAdmin', () => ok({ ...LOWER_ADMIN_COUNTS, notArrived: 3, notArrivedRecords: 4, notArrivedDays: 9 }));
    await waitFor(() => expect(within(cardLink(/超过9天未到货的包裹/)).getByText(/^\d+$/).textContent).toBe('4'));
    const card = cardLink(/超过9天未到货的包裹/);
    expect(card.textContent).toContain('共3个快递单号：同一单号有多位会员录入，每位一行');
    expect(card.getAttribute('href')).toBe('/admin/missing-parcels');
  });

  it('shows a zero count muted (still readable: WCAG AA contrast), so what waits stands out', async () => {
    openHome('admin', () => ok(ADMIN_COUNTS), '/admin/home');
    await waitFor(() => expect(cardLink(/待审核的认领/).textContent).toContain('3'));
    const count = (name: RegExp) => within(cardLink(name)).getByText(/^\d+$/);
    expect(count(/今天扫描未匹配的包裹/).textContent).toBe('0');
    expect(count(/今天扫描未匹配的包裹/).className).toContain('text-slate-500');
    expect(count(/待审核的认领/).className).not.toContain('text-slate-500');
  });

  it('says 暂无 on a zero card only when nothing waits behind it: no claims this week but unknown parcels waiting reads 查看', async () => {
    openHome('admin', () => ok({ ...ADMIN_COUNTS, parcelClaims: { unknown: 2, claimed: 0, days: 7 } }), '/admin/home');
    await waitFor(() => expect(cardLink(/近7天会员认领的包裹/).textContent).toContain('另有 2 个无主包裹等待认领'));
    expect(cardLink(/近7天会员认领的包裹/).textContent).not.toContain('暂无');
    expect(cardLink(/今天扫描未匹配的包裹/).textContent).toContain('暂无');
  });

  it('has no withdrawal cards for a lowerAdmin (no withdraw list)', async () => {
    const { router } = openHome('lowerAdmin', () => ok(LOWER_ADMIN_COUNTS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
    await waitFor(() => expect(cardLink(/待同意的付款申请/).textContent).toContain('2'));
    expect(
      within(waiting())
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '/admin/tasks?taskStatus=pending',
      expect.stringMatching(/^\/admin\/tracking-list\?/),
      '/admin/missing-parcels',
      '/admin/parcel-claims',
      '/admin/apply-list?status=applied',
    ]);
    expect(within(waiting()).queryByRole('link', { name: /待付款的提现|申请取消的提现/ })).toBeNull();
  });

  it('puts both scan stations one click away', async () => {
    const { user, router } = openHome('admin', () => ok(ADMIN_COUNTS), '/admin/home');
    const stations = await screen.findByRole('region', { name: '扫描' });
    expect(within(stations).getAllByRole('link')).toHaveLength(2);
    expect(
      within(stations)
        .getByRole('link', { name: /^扫描入库/ })
        .getAttribute('href'),
    ).toBe('/admin/scan');
    expect(
      within(stations)
        .getByRole('link', { name: /^单品扫描/ })
        .getAttribute('href'),
    ).toBe('/admin/scan2');
    await user.click(within(stations).getByRole('link', { name: /单品扫描/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/scan2'));
  });

  it('keeps the title and the links while the counts load, with skeletons for the numbers', async () => {
    const { calls } = openHome('admin', () => new Promise<Response>(() => {}), '/admin/home');
    expect(await screen.findByRole('heading', { name: '首页' })).toBeTruthy();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(document.title).toBe('首页 - 采购任务协作平台');
    expect(waiting().getAttribute('aria-busy')).toBe('true');
    expect(cardLink(/待审核的认领/).getAttribute('href')).toBe('/admin/tasks?taskStatus=pending');
    expect(cardLink(/待审核的认领/).textContent).not.toMatch(/\d/);
  });

  it('says a failed load in place of the cards, and retries', async () => {
    let answer = () => json({ code: 'A00005', msg: '系统错误' }, 500);
    const { user, calls } = openHome('admin', () => answer(), '/admin/home');
    const alert = await within(await screen.findByRole('region', { name: '待处理' })).findByRole('alert');
    expect(alert.textContent).toContain('待处理事项加载失败');
    expect(alert.textContent).toContain('A00005 系统错误');
    expect(within(waiting()).queryAllByRole('link')).toHaveLength(0);

    answer = () => ok(ADMIN_COUNTS);
    await user.click(within(alert).getByRole('button', { name: '重试' }));
    await waitFor(() => expect(cardLink(/待审核的认领/).textContent).toContain('3'));
    expect(calls).toHaveLength(2);
  });
});

describe('contested parcels on the admin home (decision 096)', () => {
  const PARCEL: components['schemas']['ContestedParcel'] = {
    trackingId: '1Z999AA10123456784',
    upc: '045496883386',
    itemName: 'Switch',
    scanned: 1,
    held: 0,
    records: [
      { recordId: 11, taskId: 5, taskDisplayId: '5', userId: 2, nickName: 'bob', productCount: 1, assignedCount: null, settled: false },
      { recordId: 12, taskId: 6, taskDisplayId: '6', userId: 1, nickName: 'alice', productCount: 1, assignedCount: null, settled: false },
    ],
  };

  function openContested(role: 'admin' | 'lowerAdmin') {
    const assigned: unknown[] = [];
    let contested = [PARCEL];
    const answers = [json({ code: 'A00001', msg: '参数错误：分配合计超过包裹中可分配的1件（records.count）' }, 400)];
    renderApp('/admin/home', {
      loggedInAs: userOf(role),
      handlers: {
        'GET /api/home/admin': () => ok({ ...ADMIN_COUNTS, contestedParcels: contested.length }),
        'GET /api/match/admin/contested': () => ok(contested),
        'POST /api/match/admin/contested/assign': async (request) => {
          assigned.push(await request.json());
          const next = answers.shift();
          if (next) return next;
          contested = [];
          return ok({ opStatus: 'succ', parcel: PARCEL }, '分配完成');
        },
      },
    });
    return { assigned, user: userEvent.setup() };
  }

  it('lists the parcel with its records, and the admin assigns every waiting record in one step; the server refusal is shown', async () => {
    const { assigned, user } = openContested('admin');
    const form = await screen.findByRole('form', { name: '快递单号 1Z999AA10123456784 · Switch' });
    expect(form.textContent).toContain('到货1件');
    await user.type(within(form).getByRole('spinbutton', { name: '分配数量 bob 5' }), '1');
    await user.type(within(form).getByRole('spinbutton', { name: '分配数量 alice 6' }), '1');
    await user.click(within(form).getByRole('button', { name: '确认分配' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('分配合计超过包裹中可分配的1件');

    await user.clear(within(form).getByRole('spinbutton', { name: '分配数量 bob 5' }));
    await user.type(within(form).getByRole('spinbutton', { name: '分配数量 bob 5' }), '0');
    await user.click(within(form).getByRole('button', { name: '确认分配' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: '待核对的包裹' })).toBeNull());
    expect(assigned.at(-1)).toEqual({
      trackingId: PARCEL.trackingId,
      upc: PARCEL.upc,
      records: [
        { recordId: 11, count: 0 },
        { recordId: 12, count: 1 },
      ],
    });
  });

  it('shows a lowerAdmin the list without the assignment (admin only)', async () => {
    openContested('lowerAdmin');
    const form = await screen.findByRole('form', { name: /1Z999AA10123456784/ });
    expect(within(form).queryByRole('button', { name: '确认分配' })).toBeNull();
    expect(
      within(form)
        .getAllByRole('spinbutton')
        .every((input) => (input as HTMLInputElement).disabled),
    ).toBe(true);
  });
});
