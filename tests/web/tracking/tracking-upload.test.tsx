// @vitest-environment happy-dom
// /admin/upload through the real router: the tracking upload (insert, update, confirm) and the
// user-files tab (insert, update), multipart through api.upload with byte progress (fake-xhr.ts),
// the shared result table and totals, and the leave prompt. HTTP boundary: tracking-fake.ts.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { renderApp, userOf } from '../app-harness';
import { ok } from '../support/fake-api';
import type { UploadScript } from '../support/fake-xhr';
import { createTrackingFake, refuse, type TrackingFake, type UploadResult, type UploadResultRow } from './tracking-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const xlsx = (name = 'parcels.xlsx') => new File([new Uint8Array(4096)], name, { type: XLSX });

function rowsOf(n: number): UploadResultRow[] {
  return Array.from({ length: n }, (_, i) => ({
    line: i + 2,
    tracking: `1Z${String(i + 1).padStart(3, '0')}`,
    upc: '0123456789',
    name: '蓝牙耳机',
    itemId: 7,
    express: 'UPS',
    qty: 2,
    oldQty: i === 1 ? 1 : null,
    opStatus: i === 2 ? 'error' : i === 1 ? 'skip' : 'succ',
    msg: i === 2 ? '没有导入过的记录' : '',
  }));
}

function resultOf(rows: UploadResultRow[]): UploadResult {
  return {
    rows,
    succ: rows.filter((r) => r.opStatus === 'succ').length,
    skip: rows.filter((r) => r.opStatus === 'skip').length,
    error: rows.filter((r) => r.opStatus === 'error').length,
  };
}

function openUpload(path = '/admin/upload', fake: TrackingFake = createTrackingFake(), uploadScript?: UploadScript) {
  const app = renderApp(path, { loggedInAs: userOf('admin'), handlers: fake.handlers, uploadScript });
  return { ...app, fake, user: userEvent.setup() };
}

/** A hold the test lets go of. */
function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

/** The tab shown (both stay mounted; the other one is hidden). */
const shownPanel = () => screen.findByRole('tabpanel');

async function chooseAndSend(user: ReturnType<typeof userEvent.setup>, button: string, file = xlsx()) {
  const panel = await shownPanel();
  await user.upload(within(panel).getByLabelText('表格文件（.xlsx、.xls、.ods、.csv）'), file);
  await user.click(within(panel).getByRole('button', { name: button }));
}

const resultTable = () => screen.findByRole('table', { name: '上传结果' });
const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const uploads = (fake: TrackingFake) => fake.calls.filter((c) => c.path.includes('/excel/upload/'));

describe('/admin/upload: the tracking upload', () => {
  it('is the first tab: the template link and the three actions', async () => {
    openUpload();
    const tabs = await screen.findByRole('tablist', { name: '上传类型' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => [t.textContent, t.getAttribute('aria-selected')]),
    ).toEqual([
      ['快递单号导入', 'true'],
      ['用户采购记录', 'false'],
    ]);
    const template = screen.getByRole('link', { name: '下载模板' });
    expect(template.getAttribute('href')).toBe('/ext/excel/template/tracking');
    expect(template.hasAttribute('download')).toBe(true);
    for (const name of ['导入', '更新', '确认到货']) expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it.each([
    ['导入', '/api/scan/admin/excel/upload/import'],
    ['更新', '/api/scan/admin/excel/upload/update'],
    ['确认到货', '/api/scan/admin/excel/upload/confirm'],
  ])('%s sends the file multipart to %s and shows the totals and rows with their upc', async (button, path) => {
    const fake = createTrackingFake();
    fake.uploadResult = resultOf(rowsOf(3));
    const { user } = openUpload('/admin/upload', fake);
    await chooseAndSend(user, button);
    const table = await resultTable();
    expect(uploads(fake).map((c) => [c.path, c.body])).toEqual([[path, { file: { name: 'parcels.xlsx', size: 4096 } }]]);
    expect(screen.getByText(`${button}结果 · parcels.xlsx`)).toBeTruthy();
    expect(screen.getByLabelText('统计').textContent).toBe('成功1 条跳过1 条失败1 条');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['行号', '快递单号', 'UPC', '商品名称', '商品ID', '快递', '数目', '原数目', '结果', '信息']);
    // The rows that need a look (the skip, the error) first, in sheet order; then the success.
    expect(
      within(bodyRows(table)[0]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['3', '1Z002', '0123456789', '蓝牙耳机', '7', 'UPS', '2', '1', '跳过', '']);
    expect(within(bodyRows(table)[1]!).getByText('没有导入过的记录')).toBeTruthy();
    expect(within(bodyRows(table)[2]!).getAllByRole('cell')[0]!.textContent).toBe('2');
  });

  it('shows the percentage sent, then an indeterminate bar until the server answers; the buttons wait', async () => {
    const fake = createTrackingFake();
    fake.uploadResult = resultOf(rowsOf(3));
    const rest = gate();
    const processing = gate();
    fake.answer.upload = async () => {
      await processing.held;
      return ok(fake.uploadResult);
    };
    const { user } = openUpload('/admin/upload', fake, async (sent, total) => {
      sent(total * 0.4);
      await rest.held;
      sent(total);
    });
    await chooseAndSend(user, '确认到货');

    const sending = await screen.findByRole('progressbar', { name: '正在上传 parcels.xlsx：40%' });
    expect(sending.getAttribute('aria-valuenow')).toBe('40');
    for (const name of ['导入', '更新', '确认到货']) expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);

    rest.release();
    const waiting = await screen.findByRole('progressbar', { name: 'parcels.xlsx 已上传，正在处理，大文件需要一些时间…' });
    expect(waiting.getAttribute('aria-busy')).toBe('true');

    processing.release();
    await resultTable();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect((screen.getByRole('button', { name: '导入' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("asks for an .xlsx first, and shows the server's refusal of the file next to it without a toast", async () => {
    const fake = createTrackingFake();
    const { user } = openUpload('/admin/upload', fake);
    await user.click(await screen.findByRole('button', { name: '导入' }));
    expect(await screen.findByText('请选择要上传的文件')).toBeTruthy();
    expect(uploads(fake)).toEqual([]);

    fake.answer.upload = () => refuse('文件缺少必需的列：tracking');
    await chooseAndSend(user, '导入');
    expect(await screen.findByText('上传失败：文件缺少必需的列：tracking')).toBeTruthy();
    expect(document.querySelector('[data-tone="error"]')).toBeNull();
    expect(screen.queryByRole('table', { name: '上传结果' })).toBeNull();
  });
});

describe('/admin/upload: the user-files tab', () => {
  it('takes the purchased-records file with two actions and the member template, and shows the same result table', async () => {
    const fake = createTrackingFake();
    fake.uploadResult = resultOf(rowsOf(2).map(({ upc: _upc, ...row }) => row));
    const { user } = openUpload('/admin/upload?tab=user', fake);
    const tab = await screen.findByRole('tab', { name: '用户采购记录' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('link', { name: '下载模板' }).getAttribute('href')).toBe('/ext/excel/template/purchased');
    expect(screen.queryByRole('button', { name: '确认到货' })).toBeNull();

    await chooseAndSend(user, '导入', xlsx('members.xlsx'));
    const table = await resultTable();
    await chooseAndSend(user, '更新', xlsx('members.xlsx'));
    await waitFor(() => expect(screen.getByText('更新结果 · members.xlsx')).toBeTruthy());
    expect(uploads(fake).map((c) => c.path)).toEqual(['/api/purchased/user/excel/upload/import', '/api/purchased/user/excel/upload/update']);
    expect(
      within(await resultTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).not.toContain('UPC');
    expect(bodyRows(table).length).toBeGreaterThan(0);
  });

  it('keeps each tab’s result while the other is shown; switching tabs is not leaving', async () => {
    const fake = createTrackingFake();
    fake.uploadResult = resultOf(rowsOf(3));
    const { user, router } = openUpload('/admin/upload', fake);
    await chooseAndSend(user, '导入');
    await resultTable();

    await user.click(screen.getByRole('tab', { name: '用户采购记录' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'user' }));
    expect(screen.queryByText(/离开后将不再显示/)).toBeNull();
    expect(screen.queryByRole('table', { name: '上传结果' })).toBeNull();

    await user.click(screen.getByRole('tab', { name: '快递单号导入' }));
    await waitFor(() => expect(router.state.location.searchStr).toBe(''));
    expect(await screen.findByText('导入结果 · parcels.xlsx')).toBeTruthy();
    expect(screen.getByLabelText('统计').textContent).toBe('成功1 条跳过1 条失败1 条');
    const input = within(await shownPanel()).getByLabelText('表格文件（.xlsx、.xls、.ods、.csv）') as HTMLInputElement;
    expect(input.files?.[0]?.name).toBe('parcels.xlsx');
  });
});

describe('/admin/upload: leaving with results on screen', () => {
  async function leaveThroughSidebar(user: ReturnType<typeof userEvent.setup>) {
    const nav = screen.getByRole('navigation', { name: '主菜单' });
    await user.click(within(nav).getByRole('link', { name: '扫描记录' }));
  }

  it('leaves at once while there is nothing to lose', async () => {
    const { user, router } = openUpload();
    await screen.findByRole('button', { name: '导入' });
    await leaveThroughSidebar(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/tracking-list'));
  });

  it('asks before leaving while either tab holds a result; staying keeps it, leaving goes', async () => {
    const fake = createTrackingFake();
    fake.uploadResult = resultOf(rowsOf(3));
    const { user, router } = openUpload('/admin/upload?tab=user', fake);
    await chooseAndSend(user, '导入');
    await resultTable();
    await user.click(screen.getByRole('tab', { name: '快递单号导入' }));
    await screen.findByRole('button', { name: '确认到货' });

    await leaveThroughSidebar(user);
    const ask = (await screen.findByText('离开后将不再显示本次上传的结果，确定离开吗？')).closest('[role="dialog"]') as HTMLElement;
    await user.click(within(ask).getByRole('button', { name: '留在此页' }));
    await waitFor(() => expect(screen.queryByText('离开后将不再显示本次上传的结果，确定离开吗？')).toBeNull());
    expect(router.state.location.pathname).toBe('/admin/upload');

    await leaveThroughSidebar(user);
    const again = (await screen.findByText('离开后将不再显示本次上传的结果，确定离开吗？')).closest('[role="dialog"]') as HTMLElement;
    await user.click(within(again).getByRole('button', { name: '离开' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/tracking-list'));
  });

  it('asks while a file is still going out; leaving stops sending it', async () => {
    const fake = createTrackingFake();
    const rest = gate();
    const { user, router } = openUpload('/admin/upload', fake, async (sent, total) => {
      sent(total * 0.3);
      await rest.held;
      sent(total);
    });
    await chooseAndSend(user, '导入');
    await screen.findByRole('progressbar', { name: '正在上传 parcels.xlsx：30%' });

    await leaveThroughSidebar(user);
    const ask = (await screen.findByText('离开后将不再显示本次上传的结果，确定离开吗？')).closest('[role="dialog"]') as HTMLElement;
    await user.click(within(ask).getByRole('button', { name: '离开' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/tracking-list'));
    rest.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(uploads(fake)).toEqual([]);
  });

  it('clearing the result lets the page go without asking', async () => {
    const fake = createTrackingFake();
    fake.uploadResult = resultOf(rowsOf(3));
    const { user, router } = openUpload('/admin/upload', fake);
    await chooseAndSend(user, '更新');
    await resultTable();
    await user.click(screen.getByRole('button', { name: '清除结果' }));
    await leaveThroughSidebar(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/tracking-list'));
  });
});
