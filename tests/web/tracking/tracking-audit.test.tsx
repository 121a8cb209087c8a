// @vitest-environment happy-dom
// /admin/tracking-audit (the admin log) through the real router, with the HTTP boundary faked.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { anAudit, createTrackingFake, type AuditEntry } from './tracking-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const SLOW = 15_000;

function renderAudit(path = '/admin/tracking-audit', audits: AuditEntry[] = []) {
  const fake = createTrackingFake({ audits });
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers });
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
