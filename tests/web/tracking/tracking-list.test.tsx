// @vitest-environment happy-dom
// /admin/tracking-list through the real router, with the HTTP boundary faked (tracking-fake.ts).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { scanTaskLabel } from '../../../src/web/features/tracking/tracking-list-page';
import { offsetLabel } from '../../../src/web/lib/timezone';
import { scanChanges } from '../../../src/web/features/tracking/scan-edit-dialog';
import { renderApp, userOf } from '../app-harness';
import { json } from '../support/fake-api';
import { aRecord, createTrackingFake, NOW, type ScanTracking } from './tracking-fake';
import { cellsOf, dataRows } from '../support/table-reading';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

afterEach(() => {
  cleanup();
  clearToasts();
  vi.restoreAllMocks();
});

/** Typing into several filters through the router takes a while in happy-dom. */
const SLOW = 20_000;
const TIMEZONE = String(0 - new Date().getTimezoneOffset() / 60);

function renderList(path = '/admin/tracking-list', records?: ScanTracking[]) {
  const fake = createTrackingFake({ records });
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers });
  return { ...app, fake, user: userEvent.setup() };
}

const listQueries = (fake: ReturnType<typeof createTrackingFake>) => fake.calls.filter((c) => c.path === '/api/scan/admin/tracking/list').map((c) => c.query);

function urlParams(router: ReturnType<typeof renderApp>['router']) {
  return Object.fromEntries(new URLSearchParams(router.state.location.searchStr));
}

const table = () => screen.getByRole('table', { name: '扫描记录' });
const bodyRows = () => dataRows(table());

const RECORDS = [
  aRecord({ id: 11, trackingId: '1Z100', createdAt: NOW + 3 }),
  aRecord({
    id: 12,
    trackingId: '1Z200',
    upc: '0987654321',
    itemId: 8,
    itemName: '保温杯',
    status: 'init',
    matchedUser: null,
    userId: null,
    mainId: null,
    subId: null,
    taskId: null,
    opUid: 3,
    count: 5,
    createdAt: NOW + 2,
  }),
  aRecord({
    id: 13,
    trackingId: '1Z300',
    status: 'unmatch',
    matchedUser: null,
    userId: null,
    mainId: null,
    subId: null,
    taskId: null,
    opUid: null,
    createdAt: NOW + 1,
  }),
];

describe('/admin/tracking-list: the table', () => {
  it('shows the scan records (SPEC §3) newest first with their scan status in Chinese; the call carries the timezone', async () => {
    const { fake } = renderList('/admin/tracking-list', RECORDS);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', '快递单号', 'UPC', '数量', '商品', '状态', '匹配用户', '任务', '操作人', '创建时间', '更新时间', '操作']);
    const [matched, imported, unmatched] = bodyRows();
    expect(cellsOf(matched!)).toEqual([
      '11',
      '1Z100',
      '0123456789',
      '2',
      '蓝牙耳机#7',
      '已匹配',
      'alice',
      '501-1',
      'carol',
      expect.stringMatching(/^2025-03-1\d \d\d:\d\d$/),
      expect.stringMatching(/^2025-03-1\d \d\d:\d\d$/),
      '编辑',
    ]);
    expect(within(matched!).getByTitle('任务记录ID 9001').textContent).toBe('501-1');
    expect(cellsOf(imported!).slice(0, 9)).toEqual(['12', '1Z200', '0987654321', '5', '保温杯#8', '已导入', '', '', 'admin-name']);
    expect(cellsOf(unmatched!)[5]).toBe('不匹配');
    expect(listQueries(fake)).toEqual([{ page: '0', size: '20', isDesc: 'true', timezone: TIMEZONE }]);
  });

  it('labels each tracking id with its carrier, and warns under one whose check digit fails (decision 099)', async () => {
    renderList('/admin/tracking-list', [
      aRecord({ id: 21, trackingId: '1Z999AA10123456784', createdAt: NOW + 3 }),
      aRecord({ id: 22, trackingId: 'RR123456785CN', createdAt: NOW + 2 }),
      aRecord({ id: 23, trackingId: '1Z999AA10123456785', createdAt: NOW + 1 }),
      aRecord({ id: 24, trackingId: '1Z100', createdAt: NOW }),
    ]);
    await waitFor(() => expect(bodyRows()).toHaveLength(4));
    // The carriers' module loads after the rows are painted (decision 179, 193): its labels follow.
    const trackingCells = () => bodyRows().map((row) => within(row).getAllByRole('cell')[1]!.textContent);
    await waitFor(() =>
      expect(trackingCells()).toEqual(['1Z999AA10123456784UPS', 'RR123456785CN中国邮政/EMS', '1Z999AA10123456785UPS校验位不符，请核对单号', '1Z100']),
    );
  });

  it('shows a card a record on a phone: the tracking id heads it, the status beside it, its fields labelled, 编辑 at its foot', async () => {
    atPhoneWidth();
    try {
      renderList('/admin/tracking-list', RECORDS);
      const cards = within(await screen.findByRole('list', { name: '扫描记录' })).getAllByRole('listitem');
      expect(cards).toHaveLength(3);
      expect(screen.queryByRole('table', { name: '扫描记录' })).toBeNull();
      const [, init] = cards.map((card) => within(card));
      expect(init!.getByText('1Z200')).toBeTruthy();
      expect(init!.getByText('已导入')).toBeTruthy();
      const fields = Object.fromEntries([...cards[1]!.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]));
      expect(fields).toMatchObject({ UPC: '0987654321', 数量: '5', 商品: '保温杯#8' });
      expect(fields).not.toHaveProperty('ID');
      expect(init!.getByRole('button', { name: /编辑/ })).toBeTruthy();
    } finally {
      atDesktopWidth();
    }
  });

  it("leaves off a phone card's fields a record has nothing for: no 商品, 匹配用户 or 任务 over blanks", async () => {
    atPhoneWidth();
    try {
      const imported = { itemId: null, itemName: '', status: 'init' as const, matchedUser: null, userId: null, mainId: null, subId: null, taskId: null };
      renderList('/admin/tracking-list', [aRecord({ id: 31, trackingId: 'TM100', ...imported })]);
      const [card] = within(await screen.findByRole('list', { name: '扫描记录' })).getAllByRole('listitem');
      expect([...card!.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['UPC', '数量', '操作人', '创建时间']);
    } finally {
      atDesktopWidth();
    }
  });

  it('offers the six scan statuses and links to the two scan screens and the upload', async () => {
    renderList();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const status = screen.getByLabelText('状态');
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => [(o as HTMLOptionElement).value, o.textContent]),
    ).toEqual([
      ['', '全部状态'],
      ['init', '已导入'],
      ['scan', '已扫描'],
      ['match', '已匹配'],
      ['unmatch', '不匹配'],
      ['wait2pay', '待付款'],
      ['payed', '已付款'],
    ]);
    expect(within(screen.getByRole('main')).getByRole('link', { name: '扫描入库' }).getAttribute('href')).toBe('/admin/scan');
    expect(within(screen.getByRole('main')).getByRole('link', { name: '单品扫描' }).getAttribute('href')).toBe('/admin/scan2');
    expect(within(screen.getByRole('main')).getByRole('link', { name: '批量导入' }).getAttribute('href')).toBe('/admin/upload');
  });

  it('pages on the server with the page sizes, and says when the page count is only a lower bound', async () => {
    const many = Array.from({ length: 45 }, (_, i) => aRecord({ id: i + 1, trackingId: `1Z${i + 1}`, createdAt: NOW + 100 - i }));
    const fake = createTrackingFake({ records: many });
    fake.totalCapped = true;
    const { router } = renderApp('/admin/tracking-list', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    expect(screen.getByText(/页数只统计到当前页之后的一部分/)).toBeTruthy();
    const size = screen.getByLabelText('每页') as HTMLSelectElement;
    expect([...size.options].map((o) => o.value)).toEqual(['20', '50', '100', '200']);

    await user.click(screen.getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(urlParams(router)).toEqual({ page: '2' });
    expect(listQueries(fake).at(-1)).toEqual({ page: '2', size: '20', isDesc: 'true', timezone: TIMEZONE });

    await user.selectOptions(size, '50');
    await waitFor(() => expect(bodyRows()).toHaveLength(45));
    expect(urlParams(router)).toEqual({ size: '50' });
  });
});

describe('/admin/tracking-list: loading', () => {
  it('keeps the rows under the loading overlay while another page loads, and shows none when the list first arrives (decision 193)', async () => {
    const many = Array.from({ length: 45 }, (_, i) => aRecord({ id: i + 1, trackingId: `1Z${i + 1}`, createdAt: NOW + 100 - i }));
    const fake = createTrackingFake({ records: many });
    // Once `held` is set, the list's answers wait for it.
    const LIST = 'GET /api/scan/admin/tracking/list';
    const answer = fake.handlers[LIST]!;
    let held: Promise<void> | null = null;
    fake.handlers[LIST] = async (request) => (await held, answer(request));
    renderApp('/admin/tracking-list', { loggedInAs: userOf('admin'), handlers: fake.handlers });
    const user = userEvent.setup();
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    expect(table().getAttribute('aria-busy')).toBeNull();

    // The next page's answer waits until released: the rows shown stay, under the overlay.
    let release = () => {};
    held = new Promise<void>((resolve) => (release = resolve));
    await user.click(screen.getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(table().getAttribute('aria-busy')).toBe('true'));
    expect(bodyRows()).toHaveLength(20);

    release();
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(table().getAttribute('aria-busy')).toBeNull();
  });
});

describe('/admin/tracking-list: filters', () => {
  it(
    'puts every filter into the URL and the call (dates with the timezone offset), and resets them',
    async () => {
      const { fake, user, router } = renderList('/admin/tracking-list', RECORDS);
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      expect(screen.getByText(/^按本地时区（UTC/)).toBeTruthy();

      await user.type(screen.getByLabelText('快递单号'), ' 1Z200 ');
      await user.selectOptions(screen.getByLabelText('状态'), 'init');
      fireEvent.change(screen.getByLabelText('开始日期'), { target: { value: '2025-03-01' } });
      fireEvent.change(screen.getByLabelText('结束日期'), { target: { value: '2025-03-31' } });
      await user.type(screen.getByRole('combobox', { name: '商品' }), 'P8');
      await user.click(await screen.findByRole('option', { name: /保温杯/ }));
      await user.selectOptions(screen.getByLabelText('排序'), 'asc');
      await user.click(screen.getByRole('button', { name: '查询' }));

      const expected = { trackingId: '1Z200', status: 'init', startTime: '2025-03-01', endTime: '2025-03-31', itemId: '8', isDesc: 'false' };
      await waitFor(() => expect(urlParams(router)).toEqual(expected));
      await waitFor(() => expect(bodyRows()).toHaveLength(1));
      expect(listQueries(fake).at(-1)).toEqual({ ...expected, page: '0', size: '20', timezone: TIMEZONE });

      await user.click(screen.getByRole('button', { name: '重置' }));
      await waitFor(() => expect(urlParams(router)).toEqual({}));
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      expect((screen.getByLabelText('开始日期') as HTMLInputElement).value).toBe('');
      expect(listQueries(fake).at(-1)).toEqual({ page: '0', size: '20', isDesc: 'true', timezone: TIMEZONE });
    },
    SLOW,
  );

  it("sends this browser's offset from UTC in hours (UTC+8 -> 8) and says which time the dates are in", async () => {
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-480);
    const { fake } = renderList('/admin/tracking-list?startTime=2025-03-01');
    await waitFor(() => expect(listQueries(fake)).toHaveLength(1));
    expect(listQueries(fake)[0]).toEqual({ startTime: '2025-03-01', page: '0', size: '20', isDesc: 'true', timezone: '8' });
    expect(await screen.findByText('按本地时区（UTC+8）的日期')).toBeTruthy();
  });

  it('refuses an end date before the start date', async () => {
    const { fake, user, router } = renderList();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('开始日期'), { target: { value: '2025-03-10' } });
    fireEvent.change(screen.getByLabelText('结束日期'), { target: { value: '2025-03-09' } });
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('结束日期不能早于开始日期')).toBeTruthy();
    expect(urlParams(router)).toEqual({});
    expect(listQueries(fake)).toHaveLength(1);
  });

  it('reads the filters from the URL; values that do not parse are dropped', async () => {
    const { fake } = renderList('/admin/tracking-list?status=payed&startTime=2025-02-31&endTime=2025-03-05&itemId=abc&trackingId=1Z9');
    await waitFor(() => expect(listQueries(fake)).toHaveLength(1));
    expect(listQueries(fake)[0]).toEqual({
      status: 'payed',
      endTime: '2025-03-05',
      trackingId: '1Z9',
      page: '0',
      size: '20',
      isDesc: 'true',
      timezone: TIMEZONE,
    });
    expect((screen.getByLabelText('状态') as HTMLSelectElement).value).toBe('payed');
    expect((screen.getByLabelText('结束日期') as HTMLInputElement).value).toBe('2025-03-05');
  });
});

describe('/admin/tracking-list: edit dialog', () => {
  it('sends only the changed fields to modify, says 保存成功 and shows the list as it now is', async () => {
    const { fake, user } = renderList('/admin/tracking-list', RECORDS);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: '编辑扫描记录 #12（1Z200）' }));
    const dialog = await screen.findByRole('dialog', { name: '编辑扫描记录 #12' });
    expect(within(dialog).getByText('当前状态：已导入')).toBeTruthy();
    expect((within(dialog).getByLabelText('快递单号') as HTMLInputElement).value).toBe('1Z200');
    await waitFor(() => expect((within(dialog).getByRole('combobox', { name: '商品' }) as HTMLInputElement).value).toBe('保温杯（0987654321）'));

    const count = within(dialog).getByLabelText('数量');
    await user.clear(count);
    await user.type(count, '7');
    const upc = within(dialog).getByLabelText('UPC');
    await user.clear(upc);
    await user.type(upc, ' 0555 ');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));

    expect(await screen.findByText('保存成功')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const modify = fake.calls.filter((c) => c.path === '/api/scan/admin/tracking/12/modify');
    expect(modify.map((c) => c.body)).toEqual([{ upc: '0555', count: 7 }]);
    await waitFor(() => expect(cellsOf(bodyRows()[1]!).slice(2, 4)).toEqual(['0555', '7']));
    expect(listQueries(fake).length).toBeGreaterThanOrEqual(2);
  });

  it('checks the fields before sending', async () => {
    const { fake, user } = renderList();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '编辑扫描记录 #11（1Z100）' }));
    const dialog = await screen.findByRole('dialog');
    await user.clear(within(dialog).getByLabelText('快递单号'));
    await user.clear(within(dialog).getByLabelText('UPC'));
    const count = within(dialog).getByLabelText('数量');
    await user.clear(count);
    await user.type(count, '0');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('请填写trackingId')).toBeTruthy();
    expect(within(dialog).getByText('请填写UPC')).toBeTruthy();
    expect(within(dialog).getByText('数量必须是1到1000000之间的整数')).toBeTruthy();
    expect(fake.calls.some((c) => c.path.endsWith('/modify'))).toBe(false);
  });

  it("keeps the dialog open with the server's refusal (opStatus failed, or an error code)", async () => {
    const { fake, user } = renderList();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    fake.answer.modify = () => json({ code: 'A00000', msg: 'upc重复，请编辑已添加的商品', data: { opStatus: 'failed', msg: 'upc重复，请编辑已添加的商品' } });
    await user.click(screen.getByRole('button', { name: '编辑扫描记录 #11（1Z100）' }));
    const dialog = await screen.findByRole('dialog');
    const upc = within(dialog).getByLabelText('UPC');
    await user.clear(upc);
    await user.type(upc, '0987654321');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('保存失败：upc重复，请编辑已添加的商品')).toBeTruthy();
    // Silent: the dialog says it, no toast on top.
    expect(document.querySelector('[data-tone="error"]')).toBeNull();

    fake.answer.modify = () => json({ code: 'A00001', msg: '付款中的记录不能修改' }, 400);
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await within(dialog).findByText('保存失败：付款中的记录不能修改')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('offers no edit for a record whose task is being paid (wait2pay, payed)', async () => {
    renderList('/admin/tracking-list', [
      aRecord({ id: 21, trackingId: '1ZW', status: 'wait2pay', createdAt: NOW + 2 }),
      aRecord({ id: 22, trackingId: '1ZP', status: 'payed', createdAt: NOW + 1 }),
      aRecord({ id: 23, trackingId: '1ZS', status: 'scan' }),
    ]);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(bodyRows().map((row) => within(row).queryByRole('button', { name: /^编辑扫描记录/ }) !== null)).toEqual([false, false, true]);
  });

  it('closes without a call when nothing changed', async () => {
    const { fake, user } = renderList();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '编辑扫描记录 #11（1Z100）' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.some((c) => c.path.endsWith('/modify'))).toBe(false);
  });
});

describe('/admin/tracking-list: export', () => {
  it('gets a download token for the filters and the timezone, then opens /ext/excel/tracking/{token}', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: window.location.origin, assign } as Location);
    const { fake, user } = renderList('/admin/tracking-list?status=match&startTime=2025-03-01&itemId=7&isDesc=false');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '导出Excel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/ext/excel/tracking/trk-token'));
    const token = fake.calls.find((c) => c.path === '/api/download/excel/tracking/token')!;
    expect(token.query).toEqual({ status: 'match', startTime: '2025-03-01', itemId: '7', isDesc: 'false', timezone: TIMEZONE });
  });

  it('opens nothing when no token comes (the client has shown why)', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, origin: window.location.origin, assign } as Location);
    const { fake, user } = renderList();
    fake.answer.token = () => json({ code: 'A00001', msg: '记录太多，请缩小筛选范围' }, 400);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '导出Excel' }));
    expect(await screen.findByText(/记录太多，请缩小筛选范围/)).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('tracking list helpers', () => {
  it('labels the task and the offset', () => {
    expect(scanTaskLabel({ mainId: 501, subId: 0 })).toBe('501');
    expect(scanTaskLabel({ mainId: 501, subId: 2 })).toBe('501-2');
    expect(scanTaskLabel({ mainId: null, subId: null })).toBe('');
    expect(offsetLabel(8)).toBe('UTC+8');
    expect(offsetLabel(-5)).toBe('UTC-5');
    expect(offsetLabel(5.5)).toBe('UTC+5.5');
    expect(offsetLabel(0)).toBe('UTC');
  });

  it('sends only what changed; a blank product keeps the record’s', () => {
    const record = aRecord({ trackingId: 'A', upc: 'U', count: 2, itemId: 7 });
    expect(scanChanges(record, { trackingId: 'A', upc: 'U', count: 2, itemId: 7 })).toEqual({});
    expect(scanChanges(record, { trackingId: 'B', upc: 'U', count: 3, itemId: null })).toEqual({ trackingId: 'B', count: 3 });
    expect(scanChanges(record, { trackingId: 'A', upc: 'V', count: 2, itemId: 8 })).toEqual({ upc: 'V', itemId: 8 });
  });
});
