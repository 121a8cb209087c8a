// @vitest-environment happy-dom
// /admin/tracking-audit (the admin log) through the real router, with the HTTP boundary faked.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { anAudit, aPayoutAudit, createTrackingFake, type AuditEntry, type PayoutAuditEntry } from './tracking-fake';
import type { RoleType } from '../../../machines/session.machine';

afterEach(() => {
  cleanup();
  clearToasts();
});

const SLOW = 15_000;

function renderAudit(path = '/admin/tracking-audit', audits: AuditEntry[] = [], payouts: PayoutAuditEntry[] = [], role: RoleType = 'admin') {
  const fake = createTrackingFake({ audits, payouts });
  const app = renderApp(path, { loggedInAs: userOf(role), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const auditQueries = (fake: ReturnType<typeof createTrackingFake>) => fake.calls.filter((c) => c.path === '/api/audit/tracking/list').map((c) => c.query);

function urlParams(router: ReturnType<typeof renderApp>['router']) {
  return Object.fromEntries(new URLSearchParams(router.state.location.searchStr));
}

const table = () => screen.getByRole('table', { name: '管理员日志' });
const entryRows = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryByRole('button', { name: /展开|收起/ }) !== null);

const AUDITS = [
  anAudit({ id: 7001, action: 'scan', before: null, status: 'scan', mainId: null, subId: null, userId: null, taskId: null }),
  anAudit({ id: 7002, action: 'match', opUid: null, opName: undefined, status: 'match', subId: 2 }),
  anAudit({ id: 7003, entity: 'purchased', action: 'create', opUid: 21, opName: 'alice', status: 'open', upc: null, trackingId: '1Z200', count: 1 }),
  anAudit({ id: 7004, action: 'upload.confirm', opUid: 3, opName: 'admin-name', status: 'unmatch', trackingId: '1Z300', upc: '0987654321' }),
  // An action the page does not know is shown as the server wrote it.
  anAudit({ id: 6999, action: 'relabel', status: 'scan' }),
];

describe('/admin/tracking-audit', () => {
  it('lists scan-record and purchased-record entries newest first: who, what, the parcel, its status', async () => {
    const { fake } = renderAudit('/admin/tracking-audit', AUDITS);
    await waitFor(() => expect(entryRows()).toHaveLength(5));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'ID', '时间', '操作人', '类型', '动作', '快递单号', 'UPC', '数量', '商品名称', '状态', '用户', '任务']);
    const [upload, purchased, match, scan, unknown] = entryRows();
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(1);
    expect(cells(upload!)).toEqual([
      '7004',
      expect.stringMatching(/^2025-03-1\d \d\d:\d\d$/),
      'admin-name（#3）',
      '扫描记录',
      '上传确认到货',
      '1Z300',
      '0987654321',
      '3',
      '蓝牙耳机',
      '不匹配',
      'alice',
      '501',
    ]);
    expect(cells(purchased!).slice(2, 10)).toEqual(['alice（#21）', '采购记录', '新建', '1Z200', '', '1', '蓝牙耳机', '进行中']);
    expect(cells(match!).slice(2, 5)).toEqual(['系统', '扫描记录', '匹配']);
    expect(cells(match!)[11]).toBe('501-2');
    expect(cells(scan!).slice(3, 5)).toEqual(['扫描记录', '扫描入库']);
    expect(cells(scan!)[9]).toBe('已扫描');
    expect(cells(unknown!)[4]).toBe('relabel');
    expect(auditQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true' }]);
  });

  it(
    'filters by the contract’s trackingId, upc, operator (the admin side) and scan status, in the URL and the call',
    async () => {
      const { fake, user, router } = renderAudit('/admin/tracking-audit', AUDITS);
      await waitFor(() => expect(entryRows()).toHaveLength(5));
      const operator = screen.getByLabelText('操作人');
      expect(
        within(operator)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['全部操作人', 'admin-name（admin@example.com）', 'carol（carol@demo.local）']);
      expect(
        within(screen.getByLabelText('状态'))
          .getAllByRole('option')
          .map((o) => (o as HTMLOptionElement).value),
      ).toEqual(['', 'init', 'scan', 'match', 'unmatch', 'wait2pay', 'payed']);

      await user.type(screen.getByLabelText('快递单号'), '1Z300');
      await user.type(screen.getByLabelText('UPC'), '0987654321');
      await user.selectOptions(operator, 'admin-name（admin@example.com）');
      await user.selectOptions(screen.getByLabelText('状态'), 'unmatch');
      await user.selectOptions(screen.getByLabelText('排序'), 'asc');
      await user.click(screen.getByRole('button', { name: '查询' }));

      const expected = { trackingId: '1Z300', upc: '0987654321', opUid: '3', status: 'unmatch', isDesc: 'false' };
      await waitFor(() => expect(urlParams(router)).toEqual(expected));
      await waitFor(() => expect(entryRows()).toHaveLength(1));
      expect(auditQueries(fake).at(-1)).toEqual({ ...expected, page: '0', size: '20' });

      await user.click(screen.getByRole('button', { name: '重置' }));
      await waitFor(() => expect(urlParams(router)).toEqual({}));
      await waitFor(() => expect(entryRows()).toHaveLength(5));
    },
    SLOW,
  );

  it('a row expands to before -> after, the scan record’s fields named', async () => {
    const { user } = renderAudit('/admin/tracking-audit', [
      anAudit({
        id: 7010,
        before: JSON.stringify({ id: 11, trackingId: '1Z100', count: 2, status: 'match', updatedAt: Date.UTC(2025, 2, 10, 8, 0) }),
        after: JSON.stringify({ id: 11, trackingId: '1Z100', count: 3, status: 'match', updatedAt: Date.UTC(2025, 2, 10, 9, 30) }),
      }),
    ]);
    await waitFor(() => expect(entryRows()).toHaveLength(1));
    await user.click(within(entryRows()[0]!).getByRole('button', { name: '展开' }));
    const diff = await screen.findByRole('table', { name: '变更内容 #7010' });
    const rows = within(diff)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [
        within(row).getByRole('rowheader').textContent,
        ...within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ]);
    expect(rows).toEqual([
      ['id', '11', '11'],
      ['快递单号trackingId', '1Z100', '1Z100'],
      ['数量count（已修改）', '2', '3'],
      ['状态status', 'match', 'match'],
      ['更新时间updatedAt（已修改）', expect.stringMatching(/^2025-03-1\d \d\d:00$/), expect.stringMatching(/^2025-03-1\d \d\d:30$/)],
    ]);
  });
});

describe('/admin/tracking-audit?log=payout: who read whose payout details (decision 168)', () => {
  const PAYOUTS = [
    aPayoutAudit({ id: 9001 }),
    aPayoutAudit({ id: 9002, action: 'paymentExport', lineId: 42, cardNo: '****1111', paymentType: 'Billpay', withdrawAmount: 6 }),
    aPayoutAudit({
      id: 9003,
      action: 'paymentExport',
      userId: 22,
      userName: 'bob',
      lineId: 43,
      accountName: '****Li',
      cardNo: '****0100',
      paymentType: 'Zelle',
    }),
  ];
  const payoutTable = () => screen.getByRole('table', { name: '收款信息查看记录' });
  const payoutRows = () => within(payoutTable()).getAllByRole('row').slice(1);
  const payoutQueries = (fake: ReturnType<typeof createTrackingFake>) => fake.calls.filter((c) => c.path === '/api/audit/payout/list').map((c) => c.query);

  it(
    'an admin switches to the payout view: each read says when, what, which admin, whose line, masked; the kind and member filters narrow it',
    async () => {
      const { fake, user, router } = renderAudit('/admin/tracking-audit', AUDITS, PAYOUTS);
      await waitFor(() => expect(entryRows()).toHaveLength(5));
      await user.click(screen.getByRole('link', { name: '收款信息查看' }));
      await waitFor(() => expect(payoutRows()).toHaveLength(3));
      expect(urlParams(router)).toEqual({ log: 'payout' });
      expect(
        within(payoutTable())
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['时间', '类型', '管理员', '会员', '提现ID', '订单号', '付款方式', '户名', '账号/卡号', '金额']);
      const cells = (row: HTMLElement) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent);
      expect(cells(payoutRows()[2]!)).toEqual([
        expect.stringMatching(/^2025-03-1\d \d\d:\d\d$/),
        '查看收款信息',
        'admin-name',
        'alice',
        '41',
        '17',
        '电汇',
        '****Ann',
        '****6789',
        '20.00',
      ]);
      expect(cells(payoutRows()[0]!).slice(1, 4)).toEqual(['导出付款文件', 'admin-name', 'bob']);
      expect(payoutQueries(fake)[0]).toMatchObject({ page: '0', size: '20', isDesc: 'true' });
      // Only members are offered as whose details; only admins as who read them.
      expect(
        within(screen.getByLabelText('会员'))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['全部会员', 'alice（alice@demo.local）']);
      expect(
        within(screen.getByLabelText('管理员'))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['全部管理员', 'admin-name（admin@example.com）']);

      await user.selectOptions(screen.getByLabelText('类型'), 'paymentExport');
      await user.selectOptions(screen.getByLabelText('会员'), 'alice（alice@demo.local）');
      await user.type(screen.getByLabelText('开始日期'), '2025-03-01');
      await user.click(screen.getByRole('button', { name: '查询' }));
      const expected = { log: 'payout', action: 'paymentExport', userId: '21', startTime: '2025-03-01' };
      await waitFor(() => expect(urlParams(router)).toEqual(expected));
      await waitFor(() => expect(payoutRows()).toHaveLength(1));
      expect(cells(payoutRows()[0]!)[4]).toBe('42');
      expect(payoutQueries(fake).at(-1)).toMatchObject({ action: 'paymentExport', userId: '21', startTime: '2025-03-01', timezone: expect.any(String) });

      // 重置 keeps the view, clears its filters.
      await user.click(screen.getByRole('button', { name: '重置' }));
      await waitFor(() => expect(urlParams(router)).toEqual({ log: 'payout' }));
      await waitFor(() => expect(payoutRows()).toHaveLength(3));
      await user.click(screen.getByRole('link', { name: '扫描与匹配' }));
      await waitFor(() => expect(entryRows()).toHaveLength(5));
    },
    SLOW,
  );

  it('a lowerAdmin has no payout view: no tabs, and ?log=payout shows the scan log without asking for payout reads', async () => {
    const { fake } = renderAudit('/admin/tracking-audit?log=payout', AUDITS, PAYOUTS, 'lowerAdmin');
    await waitFor(() => expect(entryRows()).toHaveLength(5));
    expect(screen.queryByRole('link', { name: '收款信息查看' })).toBeNull();
    expect(payoutQueries(fake)).toEqual([]);
  });
});
