// @vitest-environment happy-dom
// /admin/scan in the real app on a fake server: the scanner sets the tracking id, then products;
// the machine's rules (duplicates, counts, a product on every row) as the clerk sees and hears them.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../src/web/components/ui/toast';
import { setScanSoundPlayer, type ScanSound } from '../../../src/web/lib/scan-sounds';
import { SCAN_COMMANDS } from '../../../machines/scan.machine';
import { renderApp, userOf } from '../app-harness';
import { aScan, anItem, createReceivingFake, type ReceivingFake } from './receiving-fake';

const admin = userOf('admin');
let sounds: ScanSound[] = [];

// The command barcodes' drawing library is loaded by the page on first show; load it once here so
// its transform does not eat the first test's wait.
beforeAll(async () => {
  await import('bwip-js/browser');
});

beforeEach(() => {
  sounds = [];
  setScanSoundPlayer({ play: (sound) => void sounds.push(sound) });
});

afterEach(() => {
  cleanup();
  clearToasts();
  setScanSoundPlayer(null);
});

async function openScan(server: ReceivingFake) {
  const view = renderApp('/admin/scan', { loggedInAs: admin, handlers: server.handlers });
  await screen.findByRole('heading', { name: '扫描入库' });
  return view;
}

async function scanWithScanner(code: string) {
  const input = await screen.findByLabelText('扫码枪输入');
  await waitFor(() => expect(document.activeElement).toBe(input));
  await userEvent.setup({ delay: 3 }).keyboard(`${code}{Enter}`);
}

const bannerText = () => screen.getAllByRole('status').find((el) => el.hasAttribute('data-tone'))!;
const recordsTable = () => screen.getByRole('table', { name: '已添加的商品' });
const rowsTable = () => screen.getByRole('table', { name: '新扫描的商品' });
const newRow = (upc: string) => rowsTable().querySelector(`tr[data-upc="${upc}"]`) as HTMLElement;

/** Tracking 1Z001 scanned, its one record (UPC6) listed. */
async function withParcel(server = createReceivingFake({ records: [aScan({ id: 40, upc: 'UPC6', itemId: 6, itemName: '商品6' })], searches: ['UPC77'] })) {
  await openScan(server);
  await scanWithScanner('1Z001');
  await within(await screen.findByRole('table', { name: '已添加的商品' })).findByText('UPC6');
  return server;
}

describe('/admin/scan', () => {
  it('the first scan sets the tracking id, switches to the upc tab and lists its records', async () => {
    const server = createReceivingFake({ records: [aScan({ id: 40, upc: 'UPC6', itemId: 6, itemName: '商品6', status: 'match', matchedUser: 'alice' })] });
    await openScan(server);
    expect(screen.getByRole('tab', { name: '快递单号' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'UPC' }).hasAttribute('disabled')).toBe(true);
    await scanWithScanner('1Z001');
    const row = (await within(await screen.findByRole('table', { name: '已添加的商品' })).findByText('UPC6')).closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['40', 'UPC6', '商品6', '1', '已匹配', 'alice', '编辑']);
    expect(screen.getByRole('tab', { name: 'UPC' }).getAttribute('aria-selected')).toBe('true');
    expect(server.calls[0]!.path).toBe('/api/scan/admin/tracking/1Z001/list');
    expect(bannerText().textContent).toBe('快递单号 1Z001（已有记录），请扫描商品');
    expect(sounds).toEqual(['accepted']);
    expect(screen.getByRole('link', { name: '商品不存在？到商品列表新增' }).getAttribute('href')).toBe('/admin/item-list');
  });

  it('a parcel no member recorded shows why, and 可能是… the record whose id is one edit away (decision 098)', async () => {
    const near = { trackingId: '1Z999AA10123456784', taskId: 7, taskDisplayId: '12-1', nickName: '小陈', itemName: '商品6' };
    const server = createReceivingFake({
      records: [aScan({ id: 40, upc: 'UPC6', itemId: 6, itemName: '商品6', status: 'unmatch', unmatchReason: 'notRecorded', nearMisses: [near] })],
    });
    await openScan(server);
    await scanWithScanner('1Z001');
    const row = (await within(await screen.findByRole('table', { name: '已添加的商品' })).findByText('UPC6')).closest('tr')!;
    expect(within(row).getAllByRole('cell')[5]!.textContent).toBe('没有会员记录此快递单号可能是 1Z999AA10123456784（任务 12-1，会员 小陈）');
  });

  it('scans add a row with count 1 and its product chosen; the same upc again raises the count', async () => {
    await withParcel();
    await scanWithScanner('UPC5');
    await waitFor(() => expect((within(newRow('UPC5')).getByLabelText('商品 UPC5') as HTMLSelectElement).value).toBe('5'));
    expect((within(newRow('UPC5')).getByLabelText('数量 UPC5') as HTMLInputElement).value).toBe('1');
    await scanWithScanner('UPC5');
    await waitFor(() => expect((within(newRow('UPC5')).getByLabelText('数量 UPC5') as HTMLInputElement).value).toBe('2'));
    expect(bannerText().textContent).toBe('UPC5 数量 2');
    expect(bannerText().getAttribute('data-tone')).toBe('ok');
  });

  it("a upc already recorded for the tracking is refused: 'upc重复，请编辑已添加的商品', red, duplicate sound", async () => {
    await withParcel();
    await scanWithScanner('UPC6');
    await waitFor(() => expect(bannerText().textContent).toBe('UPC6：upc重复，请编辑已添加的商品'));
    expect(bannerText().getAttribute('data-tone')).toBe('error');
    expect(sounds.at(-1)).toBe('duplicate');
    expect(newRow('UPC6')).toBeNull();
  });

  it("an unknown product sounds, and submit refuses a row without a product ('请填写所有项目对应的商品')", async () => {
    const server = await withParcel();
    await scanWithScanner('UPC77');
    await within(rowsTable()).findByText('没有该UPC的商品');
    expect(sounds).toEqual(['accepted', 'accepted', 'unknown']);
    expect(bannerText().getAttribute('data-tone')).toBe('warn');
    await userEvent.setup().click(screen.getByRole('button', { name: '提交（1项）' }));
    await waitFor(() => expect(bannerText().textContent).toBe('请填写所有项目对应的商品'));
    expect(server.calls.some((c) => c.path.endsWith('/create'))).toBe(false);
    expect(sounds.at(-1)).toBe('failed');
  });

  it('submit creates the rows; the records are listed again and the rows cleared', async () => {
    const server = await withParcel();
    server.matching.add('1Z001');
    await scanWithScanner('UPC5');
    await waitFor(() => expect((within(newRow('UPC5')).getByLabelText('商品 UPC5') as HTMLSelectElement).value).toBe('5'));
    const user = userEvent.setup();
    const count = within(newRow('UPC5')).getByLabelText('数量 UPC5');
    await user.clear(count);
    await user.type(count, '3');
    await user.click(screen.getByRole('button', { name: '提交（1项）' }));
    await within(recordsTable()).findByText('UPC5');
    expect(server.calls.find((c) => c.path.endsWith('/create'))?.body).toEqual({ items: [{ upc: 'UPC5', count: 3, itemId: 5 }] });
    expect(within(rowsTable()).getByText('请扫描商品UPC')).toBeTruthy();
    expect(bannerText().textContent).toBe('创建成功，请扫描下一个包裹的快递单号');
    expect(sounds.at(-1)).toBe('matched');
  });

  it('a parcel no member recorded: its own sound and an amber banner naming the parcel and why, not 创建成功 in green', async () => {
    const server = await withParcel();
    server.unmatchReasons.set('1Z001', 'notRecorded');
    await scanWithScanner('UPC5');
    await waitFor(() => expect((within(newRow('UPC5')).getByLabelText('商品 UPC5') as HTMLSelectElement).value).toBe('5'));
    await userEvent.setup().click(screen.getByRole('button', { name: '提交（1项）' }));
    await within(recordsTable()).findByText('UPC5');
    expect(bannerText().getAttribute('data-tone')).toBe('warn');
    expect(bannerText().textContent).toBe('创建成功，但不匹配：没有会员记录此快递单号（1Z001）。请将包裹单独放置');
    expect(sounds.at(-1)).toBe('unmatched');
  });

  it('a parcel no member recorded with a record one edit away: the banner says 可能是… too (the table is off-screen on a phone)', async () => {
    const server = await withParcel();
    server.nearMisses.set('1Z001', [{ trackingId: '1Z0011', taskId: 7, taskDisplayId: '12-1', nickName: '小陈', itemName: '商品5' }]);
    await scanWithScanner('UPC5');
    await waitFor(() => expect((within(newRow('UPC5')).getByLabelText('商品 UPC5') as HTMLSelectElement).value).toBe('5'));
    await userEvent.setup().click(screen.getByRole('button', { name: '提交（1项）' }));
    await within(recordsTable()).findByText('UPC5');
    expect(bannerText().getAttribute('data-tone')).toBe('warn');
    expect(bannerText().textContent).toBe('创建成功，但不匹配：没有会员记录此快递单号（1Z001）；可能是 1Z0011（任务 12-1，会员 小陈）。请将包裹单独放置');
  });

  it('a clerk with the scanner alone: products, the 提交 barcode, then the next label is the next parcel', async () => {
    const server = await withParcel();
    // The command barcodes are on the page, drawn as barcodes of the machine's codes.
    for (const [code, label] of [
      [SCAN_COMMANDS.submit, '提交'],
      [SCAN_COMMANDS.nextParcel, '下一个包裹'],
      [SCAN_COMMANDS.cancel, '取消'],
    ] as const) {
      const img = await screen.findByRole('img', { name: `命令条码：${label}` });
      expect(img.querySelector('svg')).not.toBeNull();
      expect(img.closest('figure')?.getAttribute('data-command')).toBe(code);
    }
    await scanWithScanner('UPC5');
    await scanWithScanner('UPC5');
    await waitFor(() => expect((within(newRow('UPC5')).getByLabelText('商品 UPC5') as HTMLSelectElement).value).toBe('5'));
    await scanWithScanner(SCAN_COMMANDS.submit);
    await within(recordsTable()).findByText('UPC5');
    expect(server.calls.find((c) => c.path.endsWith('/create'))?.body).toEqual({ items: [{ upc: 'UPC5', count: 2, itemId: 5 }] });
    expect(screen.getByRole('tab', { name: '快递单号' }).getAttribute('aria-selected')).toBe('true');
    await scanWithScanner('1Z002');
    await waitFor(() => expect(bannerText().textContent).toBe('快递单号 1Z002，请扫描商品'));
    expect(screen.queryByText(/未找到UPC为/)).toBeNull();
    expect(server.calls.filter((c) => c.path === '/api/scan/admin/tracking/1Z002/list')).toHaveLength(1);
  });

  it('the 取消 barcode takes back the last scan, then the parcel; 下一个包裹 starts over', async () => {
    await withParcel();
    await scanWithScanner('UPC5');
    await scanWithScanner('UPC5');
    await scanWithScanner(SCAN_COMMANDS.cancel);
    await waitFor(() => expect(bannerText().textContent).toBe('已撤销一次扫描：UPC5 数量 1'));
    expect((within(newRow('UPC5')).getByLabelText('数量 UPC5') as HTMLInputElement).value).toBe('1');
    await scanWithScanner(SCAN_COMMANDS.nextParcel);
    await waitFor(() => expect(bannerText().textContent).toBe('请先提交或删除未保存的商品'));
    await scanWithScanner(SCAN_COMMANDS.cancel);
    await waitFor(() => expect(newRow('UPC5')).toBeNull());
    await scanWithScanner(SCAN_COMMANDS.cancel);
    await waitFor(() => expect(bannerText().textContent).toBe('已取消包裹 1Z001，请扫描包裹的快递单号'));
    expect(screen.getByRole('tab', { name: '快递单号' }).getAttribute('aria-selected')).toBe('true');
    await scanWithScanner('1Z002');
    await waitFor(() => expect(bannerText().textContent).toBe('快递单号 1Z002，请扫描商品'));
    await scanWithScanner(SCAN_COMMANDS.nextParcel);
    await waitFor(() => expect(bannerText().textContent).toBe('请扫描包裹的快递单号'));
  });

  it("an imported parcel's upc is confirmed with the scanned count, not refused", async () => {
    const announced = aScan({ id: 41, trackingId: '1Z001', upc: 'UPC5', count: 4, itemId: 5, itemName: '商品5', status: 'init' });
    const server = createReceivingFake({ records: [announced] });
    await openScan(server);
    await scanWithScanner('1Z001');
    await within(await screen.findByRole('table', { name: '已添加的商品' })).findByText('已导入');
    await scanWithScanner('UPC5');
    await scanWithScanner('UPC5');
    await waitFor(() => expect(bannerText().textContent).toBe('UPC5 确认导入的商品，数量 2'));
    expect(within(newRow('UPC5')).getByText('确认导入')).toBeTruthy();
    await scanWithScanner(SCAN_COMMANDS.submit);
    await within(recordsTable()).findByText('不匹配');
    expect(server.calls.find((c) => c.path.endsWith('/create'))?.body).toEqual({ items: [{ upc: 'UPC5', count: 2, itemId: 5 }] });
    expect(server.records).toMatchObject([{ id: 41, upc: 'UPC5', count: 2, status: 'unmatch' }]);
  });

  it('+1 / -1 on a row change its count; -1 stops at 1', async () => {
    await withParcel();
    await scanWithScanner('UPC5');
    const user = userEvent.setup();
    const count = () => (within(newRow('UPC5')).getByLabelText('数量 UPC5') as HTMLInputElement).value;
    const minus = await within(newRow('UPC5')).findByRole('button', { name: '数量减一 UPC5' });
    expect(minus.hasAttribute('disabled')).toBe(true);
    await user.click(within(newRow('UPC5')).getByRole('button', { name: '数量加一 UPC5' }));
    await user.click(within(newRow('UPC5')).getByRole('button', { name: '数量加一 UPC5' }));
    expect(count()).toBe('3');
    await user.click(within(newRow('UPC5')).getByRole('button', { name: '数量减一 UPC5' }));
    expect(count()).toBe('2');
  });

  it('an existing record is edited through modify', async () => {
    const server = await withParcel();
    const user = userEvent.setup();
    const row = within(recordsTable()).getByText('UPC6').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog');
    const count = within(dialog).getByLabelText('数量');
    await user.clear(count);
    await user.type(count, '4');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls.find((c) => c.path.endsWith('/modify'))).toEqual({
      method: 'POST',
      path: '/api/scan/admin/tracking/40/modify',
      params: {},
      query: {},
      body: { count: 4 },
    });
    expect(within(recordsTable()).getByText('UPC6').closest('tr')!.children[3]!.textContent).toBe('4');
  });

  it('a scan on the tracking tab starts the next parcel only when nothing waits to be saved', async () => {
    await withParcel();
    await scanWithScanner('UPC5');
    await within(rowsTable()).findByText('UPC5');
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: '快递单号' }));
    await scanWithScanner('1Z002');
    await waitFor(() => expect(bannerText().textContent).toBe('1Z002：请先提交或删除未保存的商品'));
    await user.click(within(newRow('UPC5')).getByRole('button', { name: '删除' }));
    await scanWithScanner('1Z002');
    await waitFor(() => expect(bannerText().textContent).toBe('快递单号 1Z002，请扫描商品'));
    expect(within(recordsTable()).getByText('暂无已添加的商品')).toBeTruthy();
  });

  it('typing in the manual field is not taken by the scanner input', async () => {
    const server = createReceivingFake({ items: [anItem(5)] });
    await openScan(server);
    const user = userEvent.setup();
    const manual = screen.getByLabelText('手动输入快递单号');
    await user.click(manual);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(document.activeElement).toBe(manual);
    await user.type(manual, '1Z003{Enter}');
    await waitFor(() => expect(server.calls.some((c) => c.path === '/api/scan/admin/tracking/1Z003/list')).toBe(true));
  });
});

describe('/admin/scan: product codes (decision 074)', () => {
  const nintendo = anItem(11, { itemName: 'Nintendo Switch', upc: '045496883386' });

  it('a product’s UPC scanned before the label is refused with its own buzz; the label then starts the parcel', async () => {
    const server = createReceivingFake({ items: [anItem(5), nintendo], trackingIds: ['1Z999AA10123456784'] });
    await openScan(server);
    await scanWithScanner('045496883386');
    await waitFor(() => expect(bannerText().textContent).toBe('045496883386：这是商品条码（UPC），不是快递单号：请扫描包裹上的快递面单'));
    expect(bannerText().getAttribute('data-tone')).toBe('error');
    expect(sounds).toEqual(['productCode']);
    expect(server.calls.filter((c) => c.path.startsWith('/api/scan'))).toEqual([]);
    expect(screen.getByRole('tab', { name: '快递单号' }).getAttribute('aria-selected')).toBe('true');

    await scanWithScanner('1Z999AA10123456784');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'UPC' }).getAttribute('aria-selected')).toBe('true'));
    expect(server.calls.filter((c) => c.path.startsWith('/api/scan')).map((c) => c.path)).toEqual(['/api/scan/admin/tracking/1Z999AA10123456784/list']);
    // After the label, the same code is the parcel's product.
    await scanWithScanner('045496883386');
    await waitFor(() => expect((within(newRow('045496883386')).getByLabelText('商品 045496883386') as HTMLSelectElement).value).toBe('11'));
  });

  it('a UPC whose check digit fails is taken as a row and flagged on it', async () => {
    await withParcel(
      createReceivingFake({ records: [aScan({ id: 40, upc: 'UPC6', itemId: 6, itemName: '商品6' })], searches: ['045496883387', '045496883386'] }),
    );
    await scanWithScanner('045496883387');
    await waitFor(() => expect(newRow('045496883387')).toBeTruthy());
    expect(within(newRow('045496883387')).getByText('UPC校验位不正确，请核对')).toBeTruthy();
    await scanWithScanner('045496883386');
    await waitFor(() => expect(newRow('045496883386')).toBeTruthy());
    expect(within(newRow('045496883386')).queryByText('UPC校验位不正确，请核对')).toBeNull();
  });
});

describe('/admin/scan: why a unit waits, and the parcel’s carrier (decisions 096, 099)', () => {
  it('a contested parcel’s unit says it waits for the admin’s assignment, not that more arrived than recorded', async () => {
    await withParcel(
      createReceivingFake({ records: [aScan({ id: 40, upc: 'UPC6', itemId: 6, itemName: '商品6', status: 'unmatch', unmatchReason: 'contested' })] }),
    );
    const row = within(recordsTable()).getByText('UPC6').closest('tr')!;
    expect(within(row).getByText('多位会员记录了此商品，到货不足，等待管理员在首页分配')).toBeTruthy();
    expect(within(row).queryByText('到货数量多于会员记录，多出的件数未匹配')).toBeNull();
  });

  it('shows the carrier beside the parcel’s tracking id on either tab, and warns when its check digit fails', async () => {
    const server = createReceivingFake({ trackingIds: ['1Z999AA10123456784', '1Z999AA10123456785'] });
    await openScan(server);
    await scanWithScanner('1z999aa10123456784');
    const parcel = await screen.findByText('当前快递单号：1Z999AA10123456784');
    const line = parcel.parentElement!;
    expect(within(line).getByText('UPS')).toBeTruthy();
    expect(within(line).queryByText('校验位不符，请核对单号')).toBeNull();
    await userEvent.setup().click(screen.getByRole('tab', { name: '快递单号' }));
    expect(within(screen.getByText('当前快递单号：1Z999AA10123456784').parentElement!).getByText('UPS')).toBeTruthy();

    // The next parcel's id fails UPS's check digit: taken all the same, with the warning.
    await userEvent.setup().click(screen.getByRole('button', { name: '下一个包裹' }));
    await scanWithScanner('1Z999AA10123456785');
    const failing = (await screen.findByText('当前快递单号：1Z999AA10123456785')).parentElement!;
    expect(within(failing).getByText('UPS')).toBeTruthy();
    expect(within(failing).getByText('校验位不符，请核对单号')).toBeTruthy();
    expect(server.calls.filter((c) => c.path.startsWith('/api/scan')).map((c) => c.path)).toEqual([
      '/api/scan/admin/tracking/1Z999AA10123456784/list',
      '/api/scan/admin/tracking/1Z999AA10123456785/list',
    ]);
  });

  it('says nothing of a carrier for an id no known carrier writes so', async () => {
    await withParcel();
    const line = screen.getByText('当前快递单号：1Z001').parentElement!;
    expect(line.querySelector('[data-carrier]')).toBeNull();
  });
});
