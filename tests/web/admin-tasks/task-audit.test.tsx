// @vitest-environment happy-dom
// /admin/task-audit (the user log) through the real router, with the HTTP boundary faked.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { anAudit, createAdminTasksFake, type AdminTasksSeed } from './admin-tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

/** Typing into several filters through the router takes a while in happy-dom. */
const SLOW = 15_000;

function renderAudit(path = '/admin/task-audit', seed: AdminTasksSeed = {}) {
  const fake = createAdminTasksFake(seed);
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const auditQueries = (fake: ReturnType<typeof createAdminTasksFake>) => fake.callsTo('/api/audit/task/list').map((call) => call.query);

function urlParams(router: ReturnType<typeof renderApp>['router']) {
  return Object.fromEntries(new URLSearchParams(router.state.location.searchStr));
}

const table = () => screen.getByRole('table', { name: '用户日志' });
/** The entries' rows (an expanded row's detail row is not one). */
const entryRows = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryByRole('button', { name: /展开|收起/ }) !== null);

const AUDITS = [
  anAudit({
    id: 9001,
    action: 'claim',
    mainId: 501,
    subId: 0,
    userId: 21,
    status: 'pending',
    before: null,
    after: JSON.stringify({ id: 501, count: 2, status: 'pending' }),
  }),
  anAudit({
    id: 9002,
    action: 'accept',
    mainId: 501,
    subId: 0,
    userId: 21,
    status: 'open',
    before: JSON.stringify({ status: 'pending', count: 2 }),
    after: JSON.stringify({ status: 'open', count: 2 }),
  }),
  anAudit({
    id: 9003,
    entity: 'purchased',
    action: 'create',
    mainId: 502,
    subId: 1,
    userId: 22,
    opUid: 22,
    opName: 'bob',
    status: 'locked',
    taskId: 503,
    trackingId: 'TRK7',
    upc: '',
    count: 1,
    itemName: '保温杯',
  }),
  anAudit({ id: 9000, action: 'match', mainId: 600, taskId: 600, opUid: null, opName: undefined, status: 'open' }),
];

describe('/admin/task-audit', () => {
  it('shows the entries newest first, each with who, whose task and what', async () => {
    const { fake } = renderAudit('/admin/task-audit', { audits: AUDITS });
    await waitFor(() => expect(entryRows()).toHaveLength(4));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'ID', '时间', '操作人', '类型', '用户', '任务', '动作', '快递单号', 'UPC', '数量', '商品名称', '状态', '任务记录ID']);
    const [record, , , system] = entryRows();
    expect(
      within(record!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(1),
    ).toEqual([
      '9003',
      expect.stringMatching(/^2025-01-\d\d \d\d:\d\d$/),
      'bob（#22）',
      '采购记录',
      'bob',
      '502-1',
      '新建',
      'TRK7',
      '',
      '1',
      '保温杯',
      '已锁定',
      '503',
    ]);
    const systemCells = within(system!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect([systemCells[1], systemCells[3], systemCells[4], systemCells[7]]).toEqual(['9000', '系统', '任务', '匹配']);
    expect(auditQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true' }]);
  });

  it(
    'offers the SPEC §4 admin audit statuses and puts the filters into the URL and the call',
    async () => {
      const { user, router, fake } = renderAudit('/admin/task-audit', { audits: AUDITS });
      await waitFor(() => expect(entryRows()).toHaveLength(4));
      const status = screen.getByLabelText('状态');
      expect(
        within(status)
          .getAllByRole('option')
          .map((o) => (o as HTMLOptionElement).value),
      ).toEqual(['', 'open', 'closed', 'locked', 'processing', 'finished', 'deleted', 'unmatch']);
      await user.selectOptions(status, 'open');
      await user.selectOptions(screen.getByLabelText('用户'), 'alice（alice@demo.local）');
      await user.type(screen.getByLabelText('任务ID'), '501');
      await user.type(screen.getByLabelText('任务记录ID'), '501');
      await user.type(screen.getByLabelText('商品名称'), '耳机');
      await user.selectOptions(screen.getByLabelText('排序'), 'asc');
      await user.click(screen.getByRole('button', { name: '查询' }));

      const expected = { status: 'open', userId: '21', mainId: '501', taskId: '501', itemName: '耳机', isDesc: 'false' };
      await waitFor(() => expect(urlParams(router)).toEqual(expected));
      await waitFor(() => expect(entryRows()).toHaveLength(1));
      expect(auditQueries(fake).at(-1)).toEqual({ ...expected, page: '0', size: '20' });

      await user.click(screen.getByRole('button', { name: '重置' }));
      await waitFor(() => expect(urlParams(router)).toEqual({}));
      await waitFor(() => expect(entryRows()).toHaveLength(4));
    },
    SLOW,
  );

  it('a row expands to before -> after with the changed fields marked', async () => {
    const { user } = renderAudit('/admin/task-audit', { audits: [anAudit({ id: 9005 })] });
    await waitFor(() => expect(entryRows()).toHaveLength(1));
    expect(screen.queryByRole('table', { name: '变更内容 #9005' })).toBeNull();

    await user.click(within(entryRows()[0]!).getByRole('button', { name: '展开' }));
    const diff = await screen.findByRole('table', { name: '变更内容 #9005' });
    const rows = within(diff)
      .getAllByRole('row')
      .slice(1)
      .map((row) => ({
        field: within(row).getByRole('rowheader').textContent,
        values: within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
        changed: row.hasAttribute('data-changed'),
      }));
    expect(rows).toEqual([
      { field: 'id', values: ['501', '501'], changed: false },
      { field: '认领数量count（已修改）', values: ['2', '3'], changed: true },
      { field: '奖励bonus（已修改）', values: ['0', '5'], changed: true },
      { field: '状态status', values: ['open', 'open'], changed: false },
    ]);

    await user.click(within(entryRows()[0]!).getByRole('button', { name: '收起' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: '变更内容 #9005' })).toBeNull());
  });

  it('a purchased record’s fields are named as a record’s: its productCount is the bought 数目, not the task’s 到货数量', async () => {
    const { user } = renderAudit('/admin/task-audit', {
      audits: [
        anAudit({
          id: 9006,
          entity: 'purchased',
          action: 'edit',
          taskId: 501,
          trackingId: 'TRK7',
          before: JSON.stringify({ id: 31, taskId: 501, trackingId: 'TRK7', productCount: 1, status: 'init' }),
          after: JSON.stringify({ id: 31, taskId: 501, trackingId: 'TRK7', productCount: 2, status: 'init' }),
        }),
        anAudit({ id: 9005, before: JSON.stringify({ productCount: 0 }), after: JSON.stringify({ productCount: 1 }) }),
      ],
    });
    await waitFor(() => expect(entryRows()).toHaveLength(2));
    const [record, task] = entryRows();
    const fields = async (id: number) =>
      within(await screen.findByRole('table', { name: `变更内容 #${id}` }))
        .getAllByRole('rowheader')
        .map((th) => th.textContent);

    await user.click(within(record!).getByRole('button', { name: '展开' }));
    expect(await fields(9006)).toEqual(['id', '任务记录IDtaskId', '快递单号trackingId', '数目productCount（已修改）', '状态status']);
    await user.click(within(task!).getByRole('button', { name: '展开' }));
    expect(await fields(9005)).toEqual(['到货数量productCount（已修改）']);
  });

  it('a change without a before (a claim) lists every field as new; text that is not JSON is shown as written', async () => {
    const { user } = renderAudit('/admin/task-audit', {
      audits: [
        anAudit({ id: 9001, before: null, after: JSON.stringify({ count: 2 }) }),
        anAudit({ id: 9002, before: 'count=2', after: 'count=3' }),
        anAudit({ id: 9003, before: null, after: null }),
      ],
    });
    await waitFor(() => expect(entryRows()).toHaveLength(3));
    const [none, raw, claim] = entryRows();
    await user.click(within(claim!).getByRole('button', { name: '展开' }));
    const diff = await screen.findByRole('table', { name: '变更内容 #9001' });
    expect(
      within(diff)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['（空）', '2']);

    await user.click(within(raw!).getByRole('button', { name: '展开' }));
    expect(await screen.findByText('count=2')).toBeTruthy();
    expect(screen.getByText('count=3')).toBeTruthy();

    await user.click(within(none!).getByRole('button', { name: '展开' }));
    expect(await screen.findByText('没有记录修改前后的内容')).toBeTruthy();
  });
});
