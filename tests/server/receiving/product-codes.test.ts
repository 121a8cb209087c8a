// Product codes through the real API on a real database (decision 074, machines/product-code.ts): a
// catalog item's product code is no tracking id on the scan calls; a upc whose check digit fails is
// taken and flagged (scan, item form, tracking upload); a UPC Excel turned into a number gets its
// leading zero back.
import { afterEach, describe, expect, it } from 'vitest';
import { productCodeMessages } from '../../../machines/product-code.ts';
import { trackingUploadMessages } from '../../../src/server/files/tracking-upload.ts';
import { scanMessages } from '../../../src/server/receiving/scan-service.ts';
import { call, useTestApp } from '../support/harness.ts';
import { seedItem, signIn } from '../support/board-fixtures.ts';
import { client, scansOf } from '../support/task-fixtures.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

/** The Nintendo Switch's UPC-A, and the same product as a scanner set to EAN-13 sends it. */
const SWITCH_UPC = '045496883386';
const SWITCH_EAN13 = '0045496883386';
/** One digit off: its check digit fails. */
const BAD_UPC = '045496883387';

interface ScanResult {
  opStatus: 'succ' | 'failed';
  msg: string;
  scanTrackingList: { id: number; trackingId: string; upc: string; count: number }[];
}

async function world() {
  const { app, database } = t();
  const adminIn = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
  const item = await seedItem(database, { itemName: 'Nintendo Switch', upc: SWITCH_UPC });
  return { admin: client(app, adminIn.token), token: adminIn.token, item };
}
type World = Awaited<ReturnType<typeof world>>;

const create = (w: World, trackingId: string, items: unknown[]) =>
  w.admin.post<ScanResult>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/create`, { items });
const add = (w: World, trackingId: string, body: unknown) => w.admin.post<ScanResult>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/add`, body);
const refused = { status: 400, body: { code: 'A00001', msg: productCodeMessages.notTrackingId } };

describe('a product code is not a tracking id', () => {
  it('refuses a catalog item’s UPC as the tracking id of create and add, in any of its written forms, and writes nothing', async () => {
    const w = await world();
    for (const code of [SWITCH_UPC, SWITCH_EAN13, `00${SWITCH_UPC}`]) {
      expect(await create(w, code, [{ upc: SWITCH_UPC, count: 1, itemId: w.item.id }])).toMatchObject(refused);
      expect(await add(w, code, { itemId: w.item.id })).toMatchObject(refused);
      expect(await scansOf(t().database, code)).toEqual([]);
    }
    expect(scanMessages.productCodeNotTracking).toBe(productCodeMessages.notTrackingId);
  });

  it('takes a tracking id that only looks like a product code: a valid GTIN no item has, or a catalog code whose check digit fails', async () => {
    const w = await world();
    // A valid EAN-13 that names no item of the catalog (a 12-digit FedEx id passes the mod-10 one time in ten).
    const ok = await create(w, '4901234567894', [{ upc: SWITCH_UPC, count: 1, itemId: w.item.id }]);
    expect(ok.body).toMatchObject({ code: 'A00000', data: { opStatus: 'succ', msg: scanMessages.created } });
    await seedItem(t().database, { itemName: 'Misprinted', upc: BAD_UPC });
    const added = await add(w, BAD_UPC, { itemId: w.item.id });
    expect(added.body).toMatchObject({ code: 'A00000', data: { opStatus: 'succ', msg: scanMessages.added } });
    expect(await scansOf(t().database, BAD_UPC)).toHaveLength(1);
  });
});

describe('a upc whose check digit fails is taken and flagged', () => {
  it('on the scan calls: the row is written and the answer says to check the UPC', async () => {
    const w = await world();
    const res = await create(w, '1Z999AA10123456784', [{ upc: BAD_UPC, count: 2, itemId: w.item.id }]);
    expect(res.body).toMatchObject({
      code: 'A00000',
      data: { opStatus: 'succ', msg: `${scanMessages.created}；${productCodeMessages.checkDigit}`, scanTrackingList: [{ upc: BAD_UPC, count: 2 }] },
    });
    const added = await add(w, 'TBA123456789000', { itemId: w.item.id, upc: SWITCH_UPC });
    expect(added.body.data).toMatchObject({ opStatus: 'succ', msg: scanMessages.added });
    // modify: a upc changed to one whose check digit fails is saved and flagged; a good one is not.
    const id = added.body.data!.scanTrackingList[0]!.id;
    const modify = (upc: string) => w.admin.post<{ opStatus: string; msg: string }>(`/api/scan/admin/tracking/${id}/modify`, { upc });
    expect((await modify(BAD_UPC)).body.data).toMatchObject({ opStatus: 'succ', msg: `${scanMessages.saved}；${productCodeMessages.checkDigit}` });
    expect((await modify(SWITCH_UPC)).body.data).toMatchObject({ opStatus: 'succ', msg: scanMessages.saved });
  });

  it('on the item form: saved, with a warning; and a scanner’s EAN-13 form finds the UPC-A item', async () => {
    const w = await world();
    const save = (upc: string) =>
      call<{ id: number; upc: string }>(t().app, {
        method: 'POST',
        url: '/api/item/info',
        headers: { 'x-token': w.token },
        payload: { itemName: '手柄', productId: 'P-9', status: 'open', upc },
      });
    const bad = await save(BAD_UPC);
    expect(bad.body).toMatchObject({ code: 'A00000', msg: `保存成功；${productCodeMessages.checkDigit}`, data: { upc: BAD_UPC } });
    expect((await save('4901234567894')).body).toMatchObject({ code: 'A00000', msg: '保存成功' });
    const found = await w.admin.get<{ id: number; upc: string }[]>(`/api/item/info/like/${SWITCH_EAN13}`);
    expect(found.body.data!.map((i) => i.upc)).toEqual([SWITCH_UPC]);
  });
});

describe('the tracking upload’s UPC column', () => {
  it('gives a UPC Excel turned into a number its leading zero back, and flags a UPC whose check digit fails', async () => {
    const w = await world();
    const file = xlsxOf([
      ['快递单号', 'UPC', '商品ID', '商品名称', '快递公司', '数量'],
      ['T1', 45496883386, null, null, null, 2],
      ['T2', BAD_UPC, null, '新商品', null, 1],
      // 11 digits whose padded form fails: no UPC, kept as written.
      ['T3', 45496883387, null, '未知', null, 1],
    ]);
    const body = multipart(file);
    const res = await call<{ rows: { line: number; upc: string; itemId: number | null; opStatus: string; msg: string }[] }>(t().app, {
      method: 'POST',
      url: '/api/scan/admin/excel/upload/import',
      headers: { 'x-token': w.token, ...body.headers },
      payload: body.payload,
    });
    expect(res.body.data!.rows.map((r) => [r.line, r.upc, r.itemId, r.opStatus, r.msg])).toEqual([
      [2, SWITCH_UPC, w.item.id, 'succ', trackingUploadMessages.imported],
      [3, BAD_UPC, null, 'succ', `${trackingUploadMessages.imported}；${productCodeMessages.checkDigit}`],
      [4, '45496883387', null, 'succ', trackingUploadMessages.imported],
    ]);
    expect((await scansOf(t().database, 'T1')).map((r) => [r.upc, r.itemId])).toEqual([[SWITCH_UPC, w.item.id]]);
  });
});
