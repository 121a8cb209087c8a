// @vitest-environment happy-dom
// /admin/scan2 in the real app on a fake server: the scanner typing (characters within a few ms,
// then Enter), the machine's rules as the clerk sees them, rows surviving a reload, and failed
// sends retried without ever sending a row twice.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Scan2Row } from '../../../machines/scan2.machine';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { scan2StorageKey } from '../../../src/web/features/scan/scan2-storage';
import { setScanSoundPlayer, type ScanSound } from '../../../src/web/lib/scan-sounds';
import { renderApp, userOf } from '../app-harness';
import { aScan, anItem, createReceivingFake, type ReceivingFake } from './receiving-fake';
import { json } from '../support/fake-api';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

const admin = userOf('admin');
const STORAGE_KEY = scan2StorageKey(admin.id);
const item5 = { id: 5, itemName: '商品5', upc: 'UPC5' };

let sounds: ScanSound[] = [];

beforeEach(() => {
  sounds = [];
  setScanSoundPlayer({ play: (sound) => void sounds.push(sound) });
});

afterEach(() => {
  cleanup();
  clearToasts();
  localStorage.clear();
  setScanSoundPlayer(null);
});

function store(value: { item?: typeof item5 | null; rows?: Partial<Scan2Row>[]; nextKey?: number }) {
  const rows = (value.rows ?? []).map((row, i) => ({
    key: i + 1,
    trackingId: '1Z001',
    itemId: 5,
    itemName: '商品5',
    upc: 'UPC5',
    status: 0,
    message: '',
    retryable: true,
    attempts: 0,
    sent: false,
    scannedAt: 0,
    ...row,
  }));
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ item: value.item ?? null, rows, nextKey: value.nextKey ?? rows.length + 1 }));
}

const stored = () => JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { rows: Scan2Row[] } | null;

async function openScan2(server: ReceivingFake) {
  const view = renderApp('/admin/scan2', { loggedInAs: admin, handlers: server.handlers });
  await screen.findByRole('heading', { name: '单品扫描' });
  return view;
}

/** The hidden input once the focus check has given it focus. */
async function scannerInput() {
  const input = await screen.findByLabelText('扫码枪输入');
  await waitFor(() => expect(document.activeElement).toBe(input));
  return input as HTMLInputElement;
}

/** A USB scanner: the characters a few ms apart, then Enter. */
async function scanWithScanner(code: string) {
  await scannerInput();
  const user = userEvent.setup({ delay: 3 });
  await user.keyboard(`${code}{Enter}`);
}

const table = () => screen.getByRole('table', { name: '扫描记录' });

async function rowOf(trackingId: string) {
  return (await within(table()).findByText(trackingId)).closest('tr')!;
}

async function statusOf(trackingId: string) {
  return within(await rowOf(trackingId)).getAllByRole('cell')[4]!.textContent;
}

const callsTo = (server: ReceivingFake, suffix: string) => server.calls.filter((c) => c.path.endsWith(suffix));

describe('/admin/scan2: scanning', () => {
  it("refuses a scan without a product: '请选择商品', red banner, failure sound, no row", async () => {
    const server = createReceivingFake();
    await openScan2(server);
    await scanWithScanner('1Z001');
    await waitFor(() => expect(screen.getByText('请选择商品', { selector: '[role=status]' })).toBeTruthy());
    expect(screen.getByText('请选择商品', { selector: '[role=status]' }).getAttribute('data-tone')).toBe('error');
    expect(sounds).toEqual(['failed']);
    expect(within(table()).queryByText('1Z001')).toBeNull();
  });

  it('picks the product, takes scanner codes as rows and submits a row when the next scan arrives', async () => {
    const server = createReceivingFake();
    server.matching.add('1Z001');
    await openScan2(server);
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: '商品' }), 'UPC5');
    await user.click(await screen.findByRole('option', { name: /商品5/ }));

    await scanWithScanner('1Z001');
    expect(await statusOf('1Z001')).toBe('待提交');
    expect(screen.getByText('已扫描 1Z001', { selector: '[role=status]' }).getAttribute('data-tone')).toBe('ok');
    expect(sounds).toEqual(['accepted']);
    expect(callsTo(server, '/add')).toHaveLength(0);

    await scanWithScanner('1Z002');
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配成功'));
    expect(await statusOf('1Z002')).toBe('待提交');
    expect(callsTo(server, '/add').map((c) => [c.path, c.body])).toEqual([['/api/scan/admin/tracking/1Z001/add', { itemId: 5, upc: 'UPC5', count: 1 }]]);
    // The check comes first.
    expect(server.calls.filter((c) => c.path.startsWith('/api/scan')).map((c) => c.path)).toEqual([
      '/api/scan/admin/tracking/1Z001/list',
      '/api/scan/admin/tracking/1Z001/add',
    ]);
    expect(sounds).toEqual(['accepted', 'accepted', 'matched']);
    expect((await rowOf('1Z001')).getAttribute('data-status')).toBe('4');
  });

  it('a parcel no member recorded says so, and 可能是… the record one edit away (decision 098)', async () => {
    const server = createReceivingFake();
    server.nearMisses.set('1Z001', [{ trackingId: '1Z999AA10123456784', taskId: 7, taskDisplayId: '12-1', nickName: '小陈', itemName: '商品5' }]);
    await openScan2(server);
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: '商品' }), 'UPC5');
    await user.click(await screen.findByRole('option', { name: /商品5/ }));
    await scanWithScanner('1Z001');
    await scanWithScanner('1Z002');
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配失败'));
    expect(within(await rowOf('1Z001')).getAllByRole('cell')[5]!.textContent).toBe('没有会员记录此快递单号；可能是 1Z999AA10123456784（任务 12-1，会员 小陈）');
  });

  it("a tracking id already in the list: still waiting, or 'tracking已提交过' once really submitted, with the duplicate sound", async () => {
    store({ item: item5 });
    const server = createReceivingFake();
    await openScan2(server);
    await scanWithScanner('1Z001');
    await rowOf('1Z001');
    await scanWithScanner('1Z001');
    await waitFor(() =>
      expect(screen.getByText('1Z001：该快递单号已在列表中，等待提交', { selector: '[role=status]' }).getAttribute('data-tone')).toBe('warn'),
    );
    expect(within(table()).getAllByText('1Z001')).toHaveLength(1);
    expect(sounds).toEqual(['accepted', 'duplicate']);
    await scanWithScanner('1Z002');
    await waitFor(() => expect((within(table()).getByText('1Z001').closest('tr') as HTMLElement).getAttribute('data-status')).toBe('5'));
    await scanWithScanner('1Z001');
    await waitFor(() => expect(screen.getByText('1Z001：tracking已提交过', { selector: '[role=status]' }).getAttribute('data-tone')).toBe('warn'));
    expect(within(table()).getAllByText('1Z001')).toHaveLength(1);
  });

  it('only a pending row offers submit and delete; a deleted row is never sent', async () => {
    store({ item: item5, rows: [{ trackingId: '1Z001' }, { trackingId: '1Z002', status: 2 }] });
    const server = createReceivingFake();
    await openScan2(server);
    const pending = await rowOf('1Z001');
    expect(within(pending).getByRole('button', { name: '提交' })).toBeTruthy();
    expect(within(await rowOf('1Z002')).queryByRole('button')).toBeNull();
    await userEvent.setup().click(within(pending).getByRole('button', { name: '删除' }));
    expect(await statusOf('1Z001')).toBe('已删除');
    expect(within(await rowOf('1Z001')).queryByRole('button')).toBeNull();
    await scanWithScanner('1Z003');
    await scanWithScanner('1Z004');
    await waitFor(() => expect(callsTo(server, '/add')).toHaveLength(1));
    expect(callsTo(server, '/add')[0]!.path).toContain('1Z003');
  });

  it('the submit button sends a pending row by hand', async () => {
    store({ item: item5, rows: [{ trackingId: '1Z001' }] });
    const server = createReceivingFake();
    await openScan2(server);
    await userEvent.setup().click(within(await rowOf('1Z001')).getByRole('button', { name: '提交' }));
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配失败'));
    expect(server.records).toHaveLength(1);
  });

  // Decision 097: the scanner's decorations go; the row and the calls carry the canonical key.
  it('takes a code with its AIM prefix as its canonical key; the same parcel written otherwise is a repeat', async () => {
    store({ item: item5 });
    const server = createReceivingFake({ trackingIds: ['TBA123456789000', '1Z002'] });
    await openScan2(server);
    await scanWithScanner(']C1tba123456789000');
    expect(await statusOf('TBA123456789000')).toBe('待提交');
    await scanWithScanner('TBA-123456789-000');
    await waitFor(() => expect(screen.getByText('TBA-123456789-000：该快递单号已在列表中，等待提交', { selector: '[role=status]' })).toBeTruthy());
    expect(within(table()).getAllByRole('row')).toHaveLength(2); // the header and one parcel
    await scanWithScanner('1Z002');
    await waitFor(async () => expect(await statusOf('1Z002')).toBe('待提交'));
    await waitFor(() => expect(callsTo(server, '/add').map((c) => c.path)).toEqual(['/api/scan/admin/tracking/TBA123456789000/add']));
  });

  it('a parcel already scanned on the server is refused as a duplicate, not added again', async () => {
    store({ item: item5, rows: [{ trackingId: '1Z001', status: 1 }] });
    const server = createReceivingFake({ records: [aScan({ trackingId: '1Z001', status: 'match' })] });
    await openScan2(server);
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('失败'));
    expect(within(await rowOf('1Z001')).getByText('tracking已提交过')).toBeTruthy();
    expect(callsTo(server, '/add')).toHaveLength(0);
  });
});

describe('/admin/scan2: no scan is lost', () => {
  it('pending rows survive a reload (remount with the same localStorage)', async () => {
    store({ item: item5 });
    const server = createReceivingFake();
    const first = await openScan2(server);
    await scanWithScanner('1Z001');
    await rowOf('1Z001');
    expect(stored()?.rows.map((r) => [r.trackingId, r.status])).toEqual([['1Z001', 0]]);
    first.unmount();

    await openScan2(server);
    expect(await statusOf('1Z001')).toBe('待提交');
    expect(screen.getByRole('combobox', { name: '商品' })).toBeTruthy();
    await scanWithScanner('1Z002');
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配失败'));
    expect(server.records.map((r) => r.trackingId)).toEqual(['1Z001']);
  });

  it('a row caught mid-send by a reload is checked again and, having arrived, not sent twice', async () => {
    store({ item: item5, rows: [{ trackingId: '1Z001', status: 1, sent: true, attempts: 1 }] });
    const server = createReceivingFake({ records: [aScan({ trackingId: '1Z001', status: 'unmatch' })] });
    await openScan2(server);
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配失败'));
    expect(callsTo(server, '/add')).toHaveLength(0);
    expect(server.records).toHaveLength(1);
  });

  it("a dropped connection leaves the row failed (kept in storage) and it is sent when the browser is 'online' again", async () => {
    store({ item: item5 });
    const server = createReceivingFake();
    await openScan2(server);
    server.down = true;
    await scanWithScanner('1Z001');
    await scanWithScanner('1Z002');
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('失败'));
    expect(within(await rowOf('1Z001')).getByText(/无法连接服务器/)).toBeTruthy();
    expect(sounds).toContain('failed');
    expect(stored()?.rows.find((r) => r.trackingId === '1Z001')?.status).toBe(3);
    expect(screen.getByText(/2 条记录尚未提交到服务器/)).toBeTruthy();

    server.down = false;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配失败'));
    expect(server.records.map((r) => r.trackingId)).toEqual(['1Z001']);
  });

  it('an add whose answer was lost is found on the server by the retry and not added twice', async () => {
    store({ item: item5, rows: [{ trackingId: '1Z001' }] });
    const server = createReceivingFake();
    server.matching.add('1Z001');
    await openScan2(server);
    server.loseNextAddAnswer = true;
    fireEvent.click(within(await rowOf('1Z001')).getByRole('button', { name: '提交' }));
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('失败'));
    expect(server.records).toHaveLength(1); // it did arrive

    await userEvent.setup().click(screen.getByRole('button', { name: '立即重试' }));
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配成功'));
    expect(callsTo(server, '/add')).toHaveLength(1);
    expect(server.records).toHaveLength(1);
    expect(server.records[0]!.count).toBe(1);
  });

  it('an imported parcel whose add answer was lost is found seen by the retry: its match, not tracking已提交过', async () => {
    // 2 units announced; the add sees that row with the 1 unit scanned, so the units do not grow.
    store({ item: item5, rows: [{ trackingId: '1Z001' }] });
    const server = createReceivingFake({ records: [aScan({ trackingId: '1Z001', status: 'init', count: 2 })] });
    server.matching.add('1Z001');
    await openScan2(server);
    server.loseNextAddAnswer = true;
    fireEvent.click(within(await rowOf('1Z001')).getByRole('button', { name: '提交' }));
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('失败'));

    await userEvent.setup().click(screen.getByRole('button', { name: '立即重试' }));
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配成功'));
    expect(callsTo(server, '/add')).toHaveLength(1);
    expect(server.records).toMatchObject([{ status: 'match', count: 1 }]);
  });

  it('a server error (A00005) is retried; a refusal of the row is shown and kept', async () => {
    store({ item: item5, rows: [{ trackingId: '1Z001' }, { trackingId: '1Z002', itemId: 99 }] });
    const server = createReceivingFake({ items: [anItem(5)] });
    server.answer.add = () => json({ code: 'A00005', msg: '未实现' }, 500);
    await openScan2(server);
    await userEvent.setup().click(screen.getByRole('button', { name: '提交待提交（2）' }));
    await waitFor(async () => expect(await statusOf('1Z002')).toBe('失败'));
    expect(within(await rowOf('1Z001')).getByText(/A00005 未实现；等待自动重试/)).toBeTruthy();

    delete server.answer.add;
    await userEvent.setup().click(screen.getByRole('button', { name: '立即重试' }));
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配失败'));
    await waitFor(async () => expect(await statusOf('1Z002')).toBe('失败'));
    expect(within(await rowOf('1Z002')).getByText('A00001 商品不存在')).toBeTruthy();
    expect(server.records.map((r) => r.trackingId)).toEqual(['1Z001']);
  });
});

describe('/admin/scan2: a product code is not a tracking id (decision 074)', () => {
  it("the chosen product's own UPC, scanned by mistake, makes no row and sends nothing: a warning, its own sound, and the label still goes in", async () => {
    const nintendo = { id: 11, itemName: 'Nintendo Switch', upc: '045496883386' };
    store({ item: nintendo });
    const server = createReceivingFake({ items: [anItem(5), anItem(11, nintendo)], trackingIds: ['1Z999AA10123456784', '1Z999AA10123456785'] });
    await openScan2(server);
    await scanWithScanner('045496883386');
    const banner = await screen.findByText(/这是商品条码（UPC），不是快递单号/, { selector: '[role=status]' });
    expect(banner.textContent).toBe('045496883386：这是商品条码（UPC），不是快递单号：请扫描包裹上的快递面单（已选择商品：Nintendo Switch）');
    expect(banner.getAttribute('data-tone')).toBe('warn');
    expect(sounds).toEqual(['productCode']);
    expect(within(table()).queryByText('045496883386')).toBeNull();

    await scanWithScanner('1Z999AA10123456784');
    expect(await statusOf('1Z999AA10123456784')).toBe('待提交');
    await scanWithScanner('1Z999AA10123456785');
    await waitFor(() => expect(callsTo(server, '/add')).toHaveLength(1));
    expect(callsTo(server, '/add').map((c) => [c.path, c.body])).toEqual([
      ['/api/scan/admin/tracking/1Z999AA10123456784/add', { itemId: 11, upc: '045496883386', count: 1 }],
    ]);
    expect(stored()!.rows.map((r) => r.trackingId)).toEqual(['1Z999AA10123456784', '1Z999AA10123456785']);
  });
});

describe('/admin/scan2: why a unit waits, and each parcel’s carrier (decisions 096, 099)', () => {
  it('a contested parcel’s row says its unit waits for the admin’s assignment', async () => {
    store({ item: item5 });
    const server = createReceivingFake();
    server.unmatchReasons.set('1Z001', 'contested');
    await openScan2(server);
    await scanWithScanner('1Z001');
    await userEvent.setup().click(within(await rowOf('1Z001')).getByRole('button', { name: '提交' }));
    await waitFor(async () => expect(await statusOf('1Z001')).toBe('匹配失败'));
    expect(within(await rowOf('1Z001')).getByText('多位会员记录了此商品，到货不足，等待管理员在首页分配')).toBeTruthy();
  });

  it('shows each row’s carrier beside its tracking id, and warns on the row whose check digit fails', async () => {
    store({ item: item5 });
    const server = createReceivingFake({ trackingIds: ['1Z999AA10123456784', '1Z999AA10123456785', '1Z001'] });
    await openScan2(server);
    await scanWithScanner('1Z999AA10123456784');
    await scanWithScanner('1Z999AA10123456785');
    await scanWithScanner('1Z001');
    const good = await rowOf('1Z999AA10123456784');
    expect(within(good).getByText('UPS')).toBeTruthy();
    expect(within(good).queryByText('校验位不符，请核对单号')).toBeNull();
    const failing = await rowOf('1Z999AA10123456785');
    expect(within(failing).getByText('UPS')).toBeTruthy();
    expect(within(failing).getByText('校验位不符，请核对单号')).toBeTruthy();
    // Taken all the same: sent like any other row.
    await waitFor(() => expect(callsTo(server, '/add').map((c) => c.path)).toContain('/api/scan/admin/tracking/1Z999AA10123456785/add'));
    expect((await rowOf('1Z001')).querySelector('[data-carrier]')).toBeNull();
  });
});

describe('/admin/scan2 on a phone', () => {
  afterEach(atDesktopWidth);

  it('shows each row as a card (eight columns do not fit 390 px): id and carrier, status, product, message, and its actions', async () => {
    atPhoneWidth();
    store({
      item: item5,
      rows: [{ trackingId: '1Z999AA10123456784' }, { trackingId: '1Z002', status: 5, message: '未找到匹配的任务', scannedAt: Date.UTC(2026, 10, 30, 3, 4, 5) }],
    });
    const server = createReceivingFake({ trackingIds: ['1Z999AA10123456784'] });
    await openScan2(server);
    expect(screen.queryByRole('table', { name: '扫描记录' })).toBeNull();
    const cards = within(await screen.findByRole('list', { name: '扫描记录' })).getAllByRole('listitem');
    const [failed, pending] = cards.map((card) => within(card));
    // Newest first.
    expect(failed!.getByText('1Z002')).toBeTruthy();
    expect(failed!.getByText('匹配失败')).toBeTruthy();
    expect(failed!.getByText('未找到匹配的任务')).toBeTruthy();
    expect(failed!.queryByRole('button')).toBeNull();
    expect(pending!.getByText('1Z999AA10123456784')).toBeTruthy();
    expect(pending!.getByText('UPS')).toBeTruthy();
    expect(pending!.getByText('商品5')).toBeTruthy();
    await userEvent.setup().click(pending!.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(callsTo(server, '/add').map((c) => c.path)).toEqual(['/api/scan/admin/tracking/1Z999AA10123456784/add']));
  });
});

describe('/admin/scan2 with the scanner alone (decision 085)', () => {
  const stand = anItem(31, { itemName: '桌面支架', upc: '690000000317' });
  const film = anItem(32, { itemName: '钢化膜', upc: '690000000300' });
  const privacy = anItem(33, { itemName: '防窥膜', upc: '690000000300' });

  it("the product's UPC chooses it, the labels go in, 提交 sends the last one and 取消 takes back a misread label: no mouse", async () => {
    const server = createReceivingFake({ items: [stand, film, privacy] });
    server.matching.add('1Z001');
    await openScan2(server);
    await scanWithScanner(stand.upc);
    const chosen = await screen.findByText('已选择商品：桌面支架，请扫描包裹的快递单号', { selector: '[role=status]' });
    expect(chosen.getAttribute('data-tone')).toBe('ok');
    await waitFor(() => expect((screen.getByRole('combobox', { name: '商品' }) as HTMLInputElement).value).toBe('桌面支架（690000000317）'));
    expect(sounds).toEqual(['accepted']);

    await scanWithScanner('1Z001');
    // A misread label: taken back by 取消 (the newest pending row is deleted, never sent).
    await scanWithScanner('1Z002');
    expect(await statusOf('1Z002')).toBe('待提交');
    await scanWithScanner('PH-CMD-CANCEL');
    await waitFor(async () => expect(await statusOf('1Z002')).toBe('已删除'));
    expect(screen.getByText('已撤销扫描：1Z002 已删除', { selector: '[role=status]' }).getAttribute('data-tone')).toBe('info');
    await scanWithScanner('1Z003');
    await scanWithScanner('PH-CMD-SUBMIT');
    await screen.findByText('已提交 1 条待提交记录', { selector: '[role=status]' });
    await waitFor(async () => expect(await statusOf('1Z003')).toBe('匹配失败'));
    expect(await statusOf('1Z001')).toBe('匹配成功');
    expect(callsTo(server, '/add').map((c) => [c.path, c.body])).toEqual([
      ['/api/scan/admin/tracking/1Z001/add', { itemId: 31, upc: '690000000317', count: 1 }],
      ['/api/scan/admin/tracking/1Z003/add', { itemId: 31, upc: '690000000317', count: 1 }],
    ]);
    // Nothing left to submit: said, with the duplicate sound.
    await scanWithScanner('PH-CMD-SUBMIT');
    await screen.findByText('没有待提交的记录', { selector: '[role=status]' });
    expect(sounds.at(-1)).toBe('duplicate');
  });

  it('several products with one UPC: numbered; the number typed and Enter chooses, and the page shows the choice while it is open', async () => {
    const server = createReceivingFake({ items: [stand, film, privacy] });
    await openScan2(server);
    await scanWithScanner(film.upc);
    const choice = await screen.findByRole('region', { name: '选择UPC 690000000300 的商品' });
    expect(
      within(choice)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['1. 钢化膜（690000000300）', '2. 防窥膜（690000000300）', '取消']);
    const banner = screen.getByText(/^690000000300：此UPC对应 2 个商品/, { selector: '[role=status]' });
    expect(banner.getAttribute('data-tone')).toBe('warn');
    expect(sounds).toEqual(['unknown']);
    // Labels now are kept until a product is chosen: no row yet, the choice waits and says how many.
    await scanWithScanner('1Z001');
    await scanWithScanner('1Z002');
    const kept = await screen.findByText('请先选择商品：按数字键 1–2 后回车，或扫描「取消」（已暂存 2 个快递单号）', { selector: '[role=status]' });
    expect(kept.getAttribute('data-tone')).toBe('warn');
    expect(within(choice).getByText(/^已暂存 2 个快递单号（选择商品后加入该商品；扫描「取消」则不加入）：/).textContent).toMatch(/：1Z001、1Z002$/);
    expect(sounds).toEqual(['unknown', 'unknown', 'unknown']);
    expect(within(table()).queryByText('1Z001')).toBeNull();
    await scanWithScanner('2');
    // The kept labels are the rows of the chosen product, in order (the first already sent by the second).
    await rowOf('1Z002');
    expect(screen.queryByRole('region', { name: /选择UPC/ })).toBeNull();
    for (const code of ['1Z001', '1Z002']) expect(within(await rowOf(code)).getAllByRole('cell')[2]!.textContent).toBe('防窥膜');
    expect(await statusOf('1Z002')).toBe('待提交');
    await waitFor(() =>
      expect(callsTo(server, '/add').map((c) => [c.path, c.body])).toEqual([
        ['/api/scan/admin/tracking/1Z001/add', { itemId: 33, upc: '690000000300', count: 1 }],
      ]),
    );
    await scanWithScanner('1Z003');
    expect(await statusOf('1Z003')).toBe('待提交');
  });

  it('the open choice and its kept labels survive a reload; 取消 then drops the labels and says how many', async () => {
    const server = createReceivingFake({ items: [stand, film, privacy] });
    const first = await openScan2(server);
    await scanWithScanner(film.upc);
    await screen.findByRole('region', { name: '选择UPC 690000000300 的商品' });
    await scanWithScanner('1Z001');
    await screen.findByText(/（已暂存 1 个快递单号）$/, { selector: '[role=status]' });
    await waitFor(() => expect((stored() as { held?: unknown[] } | null)?.held).toEqual([expect.objectContaining({ code: '1Z001' })]));
    first.unmount();

    await openScan2(server);
    const choice = await screen.findByRole('region', { name: '选择UPC 690000000300 的商品' });
    expect(within(choice).getByText(/^已暂存 1 个快递单号/)).toBeTruthy();
    await scanWithScanner('PH-CMD-CANCEL');
    await screen.findByText('已取消选择商品：1 个暂存的快递单号未加入，请选择商品后重新扫描', { selector: '[role=status]' });
    expect(sounds.at(-1)).toBe('failed');
    expect(screen.queryByRole('region', { name: /选择UPC/ })).toBeNull();
    expect(within(table()).queryByText('1Z001')).toBeNull();
  });

  it('the choice can be picked on the screen too, or cancelled', async () => {
    const server = createReceivingFake({ items: [stand, film, privacy] });
    await openScan2(server);
    const user = userEvent.setup();
    await scanWithScanner(film.upc);
    await user.click(await screen.findByRole('button', { name: '1. 钢化膜（690000000300）' }));
    await screen.findByText('已选择商品：钢化膜，请扫描包裹的快递单号', { selector: '[role=status]' });
    await scanWithScanner(stand.upc);
    await screen.findByText('已选择商品：桌面支架，请扫描包裹的快递单号', { selector: '[role=status]' });
    await scanWithScanner(film.upc);
    await user.click(within(await screen.findByRole('region', { name: /选择UPC/ })).getByRole('button', { name: '取消' }));
    await screen.findByText('已取消选择商品', { selector: '[role=status]' });
    await waitFor(() => expect((screen.getByRole('combobox', { name: '商品' }) as HTMLInputElement).value).toBe('桌面支架（690000000317）'));
  });

  it('shows the command barcodes with what they do here', async () => {
    await openScan2(createReceivingFake());
    const commands = screen.getByRole('region', { name: '命令条码' });
    for (const [code, hint] of [
      ['PH-CMD-SUBMIT', '提交所有待提交的记录'],
      ['PH-CMD-NEXT', '提交待提交的记录，然后扫描下一个包裹'],
      ['PH-CMD-CANCEL', '删除上一次扫描的待提交记录；选择商品时放弃选择'],
    ] as const) {
      expect(within(commands).getByText(hint).closest('figure')!.getAttribute('data-command')).toBe(code);
    }
  });
});
