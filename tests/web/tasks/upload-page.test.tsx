// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createBrowserHistory, RouterProvider } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, toast } from '../../../src/web/components/ui/toast';
import { createSessionActor, sessionRefOf } from '../../../src/web/session/session-actor';
import { createTokenStore } from '../../../src/web/session/token-store';
import { createAppRouter } from '../../../src/web/router';
import { renderApp, userOf } from '../app-harness';
import { fakeApiClient, json, ok, type Routes } from '../support/fake-api';
import type { UploadScript } from '../support/fake-xhr';
import { createTasksFake, refuse, type TasksFake, type UploadResult, type UploadResultRow } from './tasks-fake';

afterEach(() => {
  cleanup();
  clearToasts();
});

const member = userOf('user');
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function rowsOf(n: number): UploadResultRow[] {
  return Array.from({ length: n }, (_, i) => ({
    line: i + 2,
    tracking: `1Z${String(i + 1).padStart(3, '0')}`,
    name: '蓝牙耳机',
    itemId: 5,
    express: 'UPS',
    qty: 1,
    oldQty: null,
    opStatus: i % 15 === 14 ? 'error' : i % 10 === 9 ? 'skip' : 'succ',
    msg: i % 15 === 14 ? '任务不存在' : '',
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

const xlsx = (name = 'purchases.xlsx') => new File([new Uint8Array(2048)], name, { type: XLSX });

function openUpload(server: TasksFake, uploadScript?: UploadScript) {
  return renderApp('/user/upload', { loggedInAs: member, handlers: server.handlers, uploadScript });
}

/** A hold the test lets go of. */
function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

async function chooseAndUpload(button: '导入' | '更新', file = xlsx()) {
  const user = userEvent.setup();
  await user.upload(await screen.findByLabelText('表格文件（.xlsx、.xls、.ods、.csv）'), file);
  await user.click(screen.getByRole('button', { name: button }));
  return user;
}

const resultTable = () => screen.findByRole('table', { name: '上传结果' });
const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('/user/upload', () => {
  it('offers the template as a download link', async () => {
    openUpload(createTasksFake());
    const link = await screen.findByRole('link', { name: '下载模板' });
    expect(link.getAttribute('href')).toBe('/ext/excel/template/purchased');
    expect(link.hasAttribute('download')).toBe(true);
  });

  it('asks for a file first, and only a spreadsheet (.xlsx, .xls, .ods, .csv)', async () => {
    const server = createTasksFake();
    openUpload(server);
    const user = userEvent.setup({ applyAccept: false });
    await user.click(await screen.findByRole('button', { name: '导入' }));
    expect(await screen.findByText('请选择要上传的文件')).toBeTruthy();
    await user.upload(screen.getByLabelText('表格文件（.xlsx、.xls、.ods、.csv）'), new File(['%PDF'], 'list.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('请选择表格文件（.xlsx、.xls、.ods 或 .csv）')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '导入' }));
    expect(server.calls.some((c) => c.path.includes('/excel/upload/'))).toBe(false);
  });

  it('imports: the file goes multipart to .../upload/import, a progress bar shows meanwhile, then the totals and rows', async () => {
    const server = createTasksFake();
    server.uploadResult = resultOf(rowsOf(3));
    const processing = gate();
    const original = server.handlers['POST /api/purchased/user/excel/upload/import']!;
    server.handlers['POST /api/purchased/user/excel/upload/import'] = async (request) => {
      await processing.held;
      return original(request);
    };
    openUpload(server);
    await chooseAndUpload('导入');

    const progress = await screen.findByRole('progressbar', { name: 'purchases.xlsx 已上传，正在处理，大文件需要一些时间…' });
    expect(progress.getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('button', { name: '更新' }) as HTMLButtonElement).disabled).toBe(true);
    processing.release();

    const table = await resultTable();
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(server.calls.find((c) => c.path === '/api/purchased/user/excel/upload/import')!.body).toEqual({ file: { name: 'purchases.xlsx', size: 2048 } });
    expect(screen.getByText('导入结果 · purchases.xlsx')).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['行号', '快递单号', '商品名称', '商品ID', '快递', '数目', '原数目', '结果', '信息']);
    expect(
      within(bodyRows(table)[0]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['2', '1Z001', '蓝牙耳机', '5', 'UPS', '1', '', '成功', '']);
    expect(screen.getByLabelText('统计').textContent).toBe('成功3 条跳过0 条失败0 条');
  });

  it('shows the percentage of the file sent, then an indeterminate bar until the server answers', async () => {
    const server = createTasksFake();
    server.uploadResult = resultOf(rowsOf(3));
    const rest = gate();
    const processing = gate();
    const original = server.handlers['POST /api/purchased/user/excel/upload/import']!;
    server.handlers['POST /api/purchased/user/excel/upload/import'] = async (request) => {
      await processing.held;
      return original(request);
    };
    openUpload(server, async (sent, total) => {
      sent(total * 0.25);
      await rest.held;
      sent(total * 0.6);
      sent(total);
    });
    await chooseAndUpload('导入');

    const sending = await screen.findByRole('progressbar', { name: '正在上传 purchases.xlsx：25%' });
    expect(sending.getAttribute('aria-valuenow')).toBe('25');
    expect(sending.hasAttribute('aria-busy')).toBe(false);
    expect(screen.getByText('正在上传 purchases.xlsx：25%')).toBeTruthy();
    expect((screen.getByRole('button', { name: '导入' }) as HTMLButtonElement).disabled).toBe(true);
    expect(server.calls.some((c) => c.path.includes('/excel/upload/'))).toBe(false);

    rest.release();
    const waiting = await screen.findByRole('progressbar', { name: 'purchases.xlsx 已上传，正在处理，大文件需要一些时间…' });
    expect(waiting.getAttribute('aria-busy')).toBe('true');
    expect(waiting.hasAttribute('aria-valuenow')).toBe(false);

    processing.release();
    await resultTable();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('sends the session token with the upload; an expired session logs out as on any call', async () => {
    const server = createTasksFake();
    server.answer.import = () => json({ code: 'A00002', msg: 'token expired' }, 401);
    const { requests, session } = openUpload(server);
    const sent = vi.spyOn(session, 'send');
    await chooseAndUpload('导入');
    await waitFor(() => expect(sent).toHaveBeenCalledWith({ type: 'token.expired' }));
    const upload = requests.find((r) => r.url.endsWith('/api/purchased/user/excel/upload/import'))!;
    expect(upload.headers.get('x-token')).toBe('test-token');
    expect(upload.headers.get('x-keepflag')).toBe('0');
  });

  it('updates through .../upload/update and shows oldQty', async () => {
    const server = createTasksFake();
    server.uploadResult = resultOf([{ line: 2, tracking: '1Z001', name: '蓝牙耳机', itemId: 5, express: 'UPS', qty: 3, oldQty: 1, opStatus: 'succ', msg: '' }]);
    openUpload(server);
    await chooseAndUpload('更新');
    const table = await resultTable();
    expect(server.calls.some((c) => c.path === '/api/purchased/user/excel/upload/update')).toBe(true);
    expect(screen.getByText('更新结果 · purchases.xlsx')).toBeTruthy();
    expect(
      within(bodyRows(table)[0]!)
        .getAllByRole('cell')
        .map((td) => td.textContent)
        .slice(5, 7),
    ).toEqual(['3', '1']);
  });

  it('totals succ, skip and error, shows the rows that need attention first, and pages the rows with the sizes 20, 40, 60, 100, 200 and 全部 (100000)', async () => {
    const server = createTasksFake();
    server.uploadResult = resultOf(rowsOf(45));
    openUpload(server);
    const user = await chooseAndUpload('导入');
    const table = await resultTable();
    expect(screen.getByLabelText('统计').textContent).toBe('成功39 条跳过3 条失败3 条');
    expect(screen.getByText('共 45 条')).toBeTruthy();
    // The skips and errors first, in sheet order (lines 11, 16, 21, 31, 41, 46), then the successes.
    expect(bodyRows(table).map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      '11',
      '16',
      '21',
      '31',
      '41',
      '46',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '12',
      '13',
      '14',
      '15',
      '17',
    ]);
    expect(within(bodyRows(table)[1]!).getByText('失败')).toBeTruthy();
    expect(within(bodyRows(table)[1]!).getByText('任务不存在')).toBeTruthy();

    const size = screen.getByLabelText('每页') as HTMLSelectElement;
    expect([...size.options].map((o) => o.value)).toEqual(['20', '40', '60', '100', '200', '100000']);
    // The everything-on-one-page size reads 全部, not a number nobody asked for.
    expect([...size.options].map((o) => o.textContent)).toEqual(['20', '40', '60', '100', '200', '全部']);
    expect(size.value).toBe('20');
    expect(bodyRows(table)).toHaveLength(20);

    await user.click(screen.getByRole('button', { name: '第 3 页' }));
    await waitFor(() => expect(bodyRows(table)).toHaveLength(5));
    expect(within(bodyRows(table)[0]!).getByText('1Z039')).toBeTruthy();

    await user.selectOptions(size, '40');
    await waitFor(() => expect(bodyRows(table)).toHaveLength(40));
    expect(within(bodyRows(table)[0]!).getByText('1Z010')).toBeTruthy();

    await user.selectOptions(size, '全部');
    await waitFor(() => expect(bodyRows(table)).toHaveLength(45));
    expect(screen.queryByRole('button', { name: '第 2 页' })).toBeNull();
  });

  it('shows a large file the server answered in part: the rows that need attention, then its fine rows a page at a time from the server', async () => {
    const server = createTasksFake();
    const all = rowsOf(1500);
    const attention = all.filter((r) => r.opStatus !== 'succ');
    server.fineRows = all.filter((r) => r.opStatus === 'succ');
    server.uploadResult = { ...resultOf(all), rows: attention, fine: server.fineRows.length, resultId: 'r-1' };
    openUpload(server);
    const user = await chooseAndUpload('导入');

    const needs = await screen.findByRole('table', { name: '需要处理的行' });
    expect(screen.getByText(`需要处理的行（失败、跳过和有提醒的行）：${attention.length} 条`)).toBeTruthy();
    expect(bodyRows(needs)).toHaveLength(20);
    expect(within(bodyRows(needs)[0]!).getByText('1Z010')).toBeTruthy();
    expect(screen.getByLabelText('统计').textContent).toBe(
      `成功${server.fineRows.length} 条跳过${all.length / 10 - all.length / 30} 条失败${all.length / 15} 条`,
    );

    const fine = await screen.findByRole('table', { name: `其余成功的行：${server.fineRows.length} 条` });
    await waitFor(() => expect(bodyRows(fine)).toHaveLength(20));
    expect(server.calls.filter((c) => c.path.startsWith('/api/upload/result/')).map((c) => c.query)).toEqual([{ page: '0', size: '20' }]);
    expect(within(bodyRows(fine)[0]!).getByText('1Z001')).toBeTruthy();

    // Its own pager: the next page comes from the server.
    await user.click(
      within(fine.closest('section') ?? document.body)
        .getAllByRole('button', { name: '第 2 页' })
        .at(-1)!,
    );
    await waitFor(() => expect(within(bodyRows(fine)[0]!).queryByText('1Z024')).toBeTruthy());
    expect(server.calls.filter((c) => c.path.startsWith('/api/upload/result/')).at(-1)!.query).toEqual({ page: '1', size: '20' });

    // 全部: every fine row, read as the largest pages a list call answers.
    const calls = server.calls.length;
    await user.selectOptions(screen.getAllByLabelText('每页').at(-1)!, '全部');
    await waitFor(() => expect(bodyRows(fine)).toHaveLength(server.fineRows.length));
    expect(server.calls.slice(calls).map((c) => c.query)).toEqual([
      { page: '0', size: '1000' },
      { page: '1', size: '1000' },
    ]);
  });

  it('says when the fine rows of a large file are no longer on the server', async () => {
    const server = createTasksFake();
    const all = rowsOf(1500);
    server.uploadResult = { ...resultOf(all), rows: all.filter((r) => r.opStatus !== 'succ'), fine: 1, resultId: 'gone' };
    openUpload(server);
    await chooseAndUpload('导入');
    expect(await screen.findByText('这些行的结果已过期（保留1小时），请以上方统计为准')).toBeTruthy();
  });

  it("shows the server's refusal of the file next to it, without a toast", async () => {
    const server = createTasksFake();
    server.answer.import = () => refuse('文件缺少必需的列：tracking');
    openUpload(server);
    await chooseAndUpload('导入');
    expect(await screen.findByText('上传失败：文件缺少必需的列：tracking')).toBeTruthy();
    expect(document.querySelector('[data-tone="error"]')).toBeNull();
    expect(screen.queryByRole('table', { name: '上传结果' })).toBeNull();
  });

  it('shows the 429 of a second upload while the first is being processed like any refusal', async () => {
    const server = createTasksFake();
    server.answer.import = () => refuse('已有上传正在处理，请稍后再试', 429);
    openUpload(server);
    await chooseAndUpload('导入');
    expect(await screen.findByText('上传失败：已有上传正在处理，请稍后再试')).toBeTruthy();
    expect(screen.queryByRole('table', { name: '上传结果' })).toBeNull();
  });
});

describe('/user/upload: leaving with results on screen', () => {
  async function leaveThroughSidebar(user: ReturnType<typeof userEvent.setup>) {
    const nav = screen.getByRole('navigation', { name: '主菜单' });
    await user.click(within(nav).getByRole('link', { name: '我的任务' }));
  }

  it('leaves at once while there is nothing to lose', async () => {
    const server = createTasksFake();
    const { router } = openUpload(server);
    await screen.findByRole('button', { name: '导入' });
    await leaveThroughSidebar(userEvent.setup());
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/my-task'));
  });

  it('asks before leaving; staying keeps the results, leaving goes', async () => {
    const server = createTasksFake();
    server.uploadResult = resultOf(rowsOf(3));
    const { router } = openUpload(server);
    const user = await chooseAndUpload('导入');
    await resultTable();

    await leaveThroughSidebar(user);
    const ask = (await screen.findByText('离开后将不再显示本次上传的结果，确定离开吗？')).closest('[role="dialog"]') as HTMLElement;
    await user.click(within(ask).getByRole('button', { name: '留在此页' }));
    await waitFor(() => expect(screen.queryByText('离开后将不再显示本次上传的结果，确定离开吗？')).toBeNull());
    expect(router.state.location.pathname).toBe('/user/upload');
    expect(screen.getByRole('table', { name: '上传结果' })).toBeTruthy();

    await leaveThroughSidebar(user);
    const again = (await screen.findByText('离开后将不再显示本次上传的结果，确定离开吗？')).closest('[role="dialog"]') as HTMLElement;
    await user.click(within(again).getByRole('button', { name: '离开' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/my-task'));
  });

  it('clearing the results lets the page go without asking', async () => {
    const server = createTasksFake();
    server.uploadResult = resultOf(rowsOf(3));
    const { router } = openUpload(server);
    const user = await chooseAndUpload('导入');
    await resultTable();
    await user.click(screen.getByRole('button', { name: '清除结果' }));
    await leaveThroughSidebar(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/my-task'));
  });

  it('closing or reloading the tab gets the browser prompt (beforeunload) only while results are shown', async () => {
    // The browser prompt belongs to the browser history, so this one renders the app on it.
    window.history.replaceState(null, '', '/user/upload');
    const server = createTasksFake();
    server.uploadResult = resultOf(rowsOf(3));
    const handlers: Routes = {
      ...server.handlers,
      'GET /api/user/info': () => ok(member),
      'GET /api/notice/get': () => ok({ content: '' }),
    };
    const tokenStore = createTokenStore({});
    tokenStore.write({ token: 'test-token', keep: false });
    const { api } = fakeApiClient(handlers, { readToken: () => tokenStore.read(), notifyError: (message) => toast.error(message) });
    const session = createSessionActor({ api, tokenStore, goHome: vi.fn(), reloadRoot: vi.fn(), notify: vi.fn() });
    const router = createAppRouter({ session: sessionRefOf(session), api }, createBrowserHistory());
    render(<RouterProvider router={router} />);

    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    await screen.findByRole('button', { name: '导入' });
    expect(unload()).toBe(false);
    await chooseAndUpload('导入');
    await resultTable();
    expect(unload()).toBe(true);
    await userEvent.setup().click(screen.getByRole('button', { name: '清除结果' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: '上传结果' })).toBeNull());
    expect(unload()).toBe(false);
    router.history.destroy();
  });
});
