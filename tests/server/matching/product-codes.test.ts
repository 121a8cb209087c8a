// One product however its UPC is written (decision 075): matching, the scan calls' duplicates, the
// tracking upload and the contested list compare productCodeKey, through the real API on a real
// database. A task's UPC-A `045496883386` is a scanner's EAN-13 `0045496883386` and an older
// import's `45496883386` (Excel dropped the zero); the rows keep what was scanned. The migration
// gives old imports their zero back as the app's restoreLeadingZeros does, and lists the rows.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { gs1CheckDigit, restoreLeadingZeros } from '../../../machines/product-code.ts';
import { scanRecordMessages } from '../../../machines/scan-record.machine.ts';
import { rowsOf } from '../../../src/server/db/client.ts';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { matchTracking } from '../../../src/server/matching/match.ts';
import { rekeyCollisionsLine } from '../../../src/server/receiving/tracking-rekeys.ts';
import { call, useTestApp } from '../support/harness.ts';
import { createBoardTask, seedItem } from '../support/board-fixtures.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';
import { claim, record, scan, scansOf, storedTask, taskWorld, type PurchasedOut } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

/** The Nintendo Switch's UPC-A, as a scanner set to EAN-13 sends it, and as Excel left it. */
const UPC_A = '045496883386';
const EAN13 = '0045496883386';
const DROPPED = '45496883386';

interface ScanResult {
  opStatus: 'succ' | 'failed';
  msg: string;
  scanTrackingList: { id: number; upc: string; count: number; status: string; taskId: number | null; unmatchReason?: string | null }[];
}

/** The task world with a board task of the Switch (item UPC `045496883386`). */
async function world() {
  const w = await taskWorld(t().app, t().database);
  const item = await seedItem(t().database, { itemName: 'Nintendo Switch', upc: UPC_A });
  const switchTask = await createBoardTask(w.admin, w.board.id, { itemId: item.id, buyIn: 20, show: 100 });
  return { ...w, item, switchTask };
}
type World = Awaited<ReturnType<typeof world>>;

const create = (w: World, trackingId: string, upc: string, count = 1) =>
  w.admin.post<ScanResult>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/create`, { items: [{ upc, count, itemId: w.item.id }] });
const shown = async (w: World, taskId: number) =>
  (await w.a.api.get<{ purchasedItems: PurchasedOut[] }>(`/api/purchased/${taskId}/taskTracking`)).body.data!.purchasedItems;

describe('one product however its UPC is written', () => {
  it('matches a scan of the EAN-13 form to the task of the UPC-A, keeps what was scanned, and says why extra units matched nobody', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.switchTask.id, 1);
    await record(w.a.api, task.id, 'T1', 1);
    const res = await create(w, 'T1', EAN13, 2);
    expect(res.body.data).toMatchObject({ opStatus: 'succ' });
    const rows = res.body.data!.scanTrackingList.map((r) => [r.upc, r.count, r.status, r.taskId, r.unmatchReason ?? null]);
    // One unit is the task's; the second is more than the member recorded of this product (not "another product").
    expect(rows).toEqual([
      [EAN13, 1, 'match', task.id, null],
      [EAN13, 1, 'unmatch', null, 'moreThanRecorded'],
    ]);
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked', productCount: 1 });
    expect((await shown(w, task.id))[0]).toMatchObject({ status: 'unmatch', msg: '扫描到2件，多于记录的1件' });
    // The same product scanned again in its UPC-A form is the duplicate the station refuses.
    expect((await create(w, 'T1', UPC_A)).body.data).toMatchObject({ opStatus: 'failed', msg: scanRecordMessages.upcDuplicate });
  });

  it('matches a row an older import stored without its zero, seen before or confirmed by a scan of another form', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.switchTask.id, 2);
    // Written as an import stored it before decision 074 restored the zero, then seen at the warehouse.
    await scan(t().database, 'T2', DROPPED, 1, 'scan');
    await record(w.a.api, task.id, 'T2', 1);
    expect((await scansOf(t().database, 'T2')).map((r) => [r.upc, r.status, r.taskId])).toEqual([[DROPPED, 'match', task.id]]);
    // Announced by an old import (init), confirmed by the clerk's scan of the EAN-13 form: one row, matched.
    await scan(t().database, 'T3', DROPPED, 1, 'init');
    await record(w.a.api, task.id, 'T3', 1);
    expect((await create(w, 'T3', EAN13)).body.data).toMatchObject({ opStatus: 'succ' });
    expect((await scansOf(t().database, 'T3')).map((r) => [r.upc, r.status, r.taskId])).toEqual([[DROPPED, 'match', task.id]]);
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked', productCount: 2 });
  });

  it('lets the tracking upload confirm and update an imported row by another written form of its UPC', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.switchTask.id, 3);
    await record(w.a.api, task.id, 'T4', 3);
    await scan(t().database, 'T4', UPC_A, 1, 'init');
    const token = await createSession(t().database.db, w.adminUser.id, false);
    const upload = (mode: string, rows: unknown[][]) => {
      const body = multipart(xlsxOf([['快递单号', 'UPC', '商品ID', '商品名称', '快递公司', '数量'], ...rows]));
      return call<{ rows: { upc: string; opStatus: string; oldQty: number | null }[] }>(t().app, {
        method: 'POST',
        url: `/api/scan/admin/excel/upload/${mode}`,
        headers: { 'x-token': token, ...body.headers },
        payload: body.payload,
      });
    };
    // An import of the same parcel in the EAN-13 form is the row already there.
    expect((await upload('import', [['T4', EAN13, null, null, null, 1]])).body.data!.rows).toMatchObject([{ opStatus: 'skip', oldQty: 1 }]);
    expect((await upload('confirm', [['T4', EAN13, null, null, null, 3]])).body.data!.rows).toMatchObject([{ opStatus: 'succ', oldQty: 1 }]);
    expect((await scansOf(t().database, 'T4')).map((r) => [r.upc, r.count, r.status])).toEqual([[UPC_A, 3, 'match']]);
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked', productCount: 3 });
  });

  it('lists a parcel two members contest once, with the units scanned in another form', async () => {
    const w = await world();
    const bobs = await claim(w.b.api, w.switchTask.id, 1);
    const alices = await claim(w.a.api, w.switchTask.id, 1);
    await record(w.b.api, bobs.id, 'T5', 1);
    await record(w.a.api, alices.id, 'T5', 1);
    await scan(t().database, 'T5', EAN13, 1);
    await t().database.db.transaction((tx) => matchTracking(tx, 'T5', null));
    const list = (await w.admin.get<{ upc: string; scanned: number; records: unknown[] }[]>('/api/match/admin/contested')).body.data!;
    expect(list.map((p) => [p.upc, p.scanned, p.records.length])).toEqual([[UPC_A, 1, 2]]);
  });
});

describe('the migration of UPCs that lost their leading zero', () => {
  const migration = fs.readFileSync(path.resolve(import.meta.dirname, '../../../src/server/db/migrations/0013_upc_leading_zeros.sql'), 'utf8');
  // The data steps (after the functions): run again on rows written the old way.
  const dataSteps = migration
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter((s) => /^(UPDATE|INSERT)/.test(s));

  it("the SQL function gives back the app's restoreLeadingZeros for every code a stored upc can hold", async () => {
    const valid11 = Array.from({ length: 60 }, (_, i) => {
      const body = String(1234567891 + i * 7919).padStart(10, '0');
      return `${body}${gs1CheckDigit(`0${body}`)}`;
    });
    const codes = [DROPPED, UPC_A, EAN13, '45496883387', '4901234567894', '96385074', '1234567', 'SKU-7', '1Z999AA10123456784', '00000000000', ...valid11];
    const got = await rowsOf<{ r: string }>(
      t().database.db.execute(sql`select restored_upc(c) as r from unnest(${sql.param(codes)}::text[]) with ordinality as u(c, n) order by n`),
    );
    expect(got.map((g) => g.r)).toEqual(codes.map(restoreLeadingZeros));
    expect(valid11.every((c) => restoreLeadingZeros(c) === `0${c}`)).toBe(true);
  });

  it('gives old rows their zero back, lists each, and notes a tracking id that has another row of the product', async () => {
    const db = t().database.db;
    const announced = await scan(t().database, 'M1', DROPPED, 2, 'init');
    const seen = await scan(t().database, 'M1', UPC_A, 2, 'scan');
    const alone = await scan(t().database, 'M2', DROPPED, 1, 'scan');
    const notUpc = await scan(t().database, 'M3', '45496883387', 1, 'scan');

    for (const step of dataSteps) await db.execute(sql.raw(step));

    expect((await scansOf(t().database, 'M1')).map((r) => [r.id, r.upc])).toEqual([
      [announced.id, UPC_A],
      [seen.id, UPC_A],
    ]);
    expect((await scansOf(t().database, 'M2')).map((r) => r.upc)).toEqual([UPC_A]);
    expect((await scansOf(t().database, 'M3')).map((r) => [r.id, r.upc])).toEqual([[notUpc.id, '45496883387']]);
    const listed = await rowsOf<{ table_name: string; row_id: number; before: string; after: string; note: string }>(
      db.execute(sql`select table_name, row_id, before, after, note from tracking_id_rekeys order by row_id`),
    );
    expect(listed).toEqual([
      { table_name: 'scan_trackings.upc', row_id: announced.id, before: DROPPED, after: UPC_A, note: 'same product' },
      { table_name: 'scan_trackings.upc', row_id: alone.id, before: DROPPED, after: UPC_A, note: '' },
    ]);
    expect(await rekeyCollisionsLine(db)).toBe(
      'UPCs given their leading zero back (decision 075): 1 scan rows have another row of the same product on their tracking id; see table tracking_id_rekeys (table_name scan_trackings.upc).',
    );
    // Run again: nothing left to restore.
    await db.execute(sql`delete from tracking_id_rekeys`);
    for (const step of dataSteps) await db.execute(sql.raw(step));
    expect(await rowsOf(db.execute(sql`select * from tracking_id_rekeys`))).toEqual([]);
  });
});
