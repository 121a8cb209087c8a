// Spreadsheets as offices send them, through the real uploads on a real database (issue 33;
// docs/decisions/068-spreadsheets-as-offices-send-them.md): files made by LibreOffice and iconv
// (tests/fixtures/sheets/README.md says how each was made) - .xls, .ods, GBK CSV, a title row above
// the header, the table on a second sheet, a merged tracking cell, full-width digits, a task id Excel
// turned into a date, ids saved as numbers, and the member's own export re-saved by LibreOffice.
// Each case checks the stored rows and the answer's messages.
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { taskDisplayId } from '../../../machines/task.machine.ts';
import { parseSheet, SHEET_MESSAGES } from '../../../src/server/files/parse-sheet.ts';
import { uploadMessages } from '../../../src/server/files/purchased-upload.ts';
import { TRACKING_COLUMNS, trackingUploadMessages as M } from '../../../src/server/files/tracking-upload.ts';
import { purchasedMessages } from '../../../src/server/tasks/purchased-service.ts';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { call, useTestApp } from '../support/harness.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';
import { claim, taskWorld } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/sheets/${name}`, import.meta.url));

interface Result {
  rows: { line: number; tracking?: string; qty?: number | null; opStatus: 'succ' | 'skip' | 'error'; msg?: string }[];
  succ: number;
  skip: number;
  error: number;
}

/** The task world, member a's two tasks (3 and 2 units) and tokens for the multipart calls. */
async function world() {
  const { app, database } = t();
  const w = await taskWorld(app, database);
  const a1 = await claim(w.a.api, w.boardTask.id, 3);
  const a2 = await claim(w.a.api, w.boardTask.id, 2);
  return {
    ...w,
    a1,
    a2,
    adminToken: await createSession(database.db, w.adminUser.id, false),
    memberToken: await createSession(database.db, w.a.user.id, false),
  };
}

function upload(url: string, token: string, bytes: Buffer, filename: string) {
  const body = multipart(bytes, { filename, type: 'application/octet-stream' });
  return call<Result>(t().app, { method: 'POST', url, headers: { 'x-token': token, ...body.headers }, payload: body.payload });
}
const trackingUpload = (token: string, bytes: Buffer, filename: string) => upload('/api/scan/admin/excel/upload/import', token, bytes, filename);
const purchasedUpload = (token: string, bytes: Buffer, filename: string) => upload('/api/purchased/user/excel/upload/import', token, bytes, filename);

async function scans() {
  const rows = await t().database.db.select().from(scanTrackings).orderBy(scanTrackings.id);
  return rows.map((r) => [r.trackingId, r.upc, r.count]);
}
async function records() {
  const rows = await t().database.db.select().from(purchasedRecords).orderBy(purchasedRecords.id);
  return rows.map((r) => [r.taskId, r.trackingId, r.productCount]);
}
const answer = (r: Result) => r.rows.map((row) => [row.line, row.opStatus, row.msg]);

describe('the tracking upload reads files as offices save them', () => {
  it('a CSV LibreOffice re-saved as .xlsx: the header under a title row, an id saved as a number flagged, a rounded one refused, full-width digits read', async () => {
    const w = await world();
    const res = await trackingUpload(w.adminToken, fixture('tracking-title-row.xlsx'), 'list.xlsx');
    expect(res.status).toBe(200);
    const sheet = '工作表“tracking-title-row” ';
    expect(answer(res.body.data!)).toEqual([
      [3, 'succ', `${M.imported}；${sheet}第3行 A列 快递单号：${M.trackingAsNumber}`],
      [4, 'succ', M.imported],
      [5, 'error', `${sheet}第5行 A列 快递单号：${M.trackingRounded}`],
    ]);
    // LibreOffice took the leading zeros: the id is stored as the cell holds it, and the row says so.
    expect(await scans()).toEqual([
      ['12345678901', '885909950805', 1],
      ['1Z999AA10123456784', '885909950805', 2],
    ]);
  });

  it.each(['tracking-sheets.xls', 'tracking-sheets.ods', 'tracking-sheets.xlsx'])(
    '%s (LibreOffice): the table on the second sheet, a merged tracking cell read for both its rows',
    async (name) => {
      const w = await world();
      const res = await trackingUpload(w.adminToken, fixture(name), name);
      expect(res.status).toBe(200);
      expect(answer(res.body.data!)).toEqual([
        [3, 'succ', M.imported],
        [4, 'succ', M.imported],
        [5, 'succ', M.imported],
      ]);
      expect(await scans()).toEqual([
        ['TM100', '885909950805', 1],
        ['TM100', '045496883386', 2],
        ['TM200', '885909950805', 3],
      ]);
    },
  );

  it('a GBK CSV as WPS writes it: Chinese headers and names read, ids kept as text with their zeros', async () => {
    const w = await world();
    const res = await trackingUpload(w.adminToken, fixture('tracking-gbk.csv'), 'list.csv');
    expect(res.status).toBe(200);
    expect(answer(res.body.data!)).toEqual([
      [2, 'succ', M.imported],
      [3, 'succ', M.imported],
    ]);
    expect(res.body.data!.rows.map((r) => r.tracking)).toEqual(['00789012345', 'SF1234567890123']);
    expect(await scans()).toEqual([
      ['00789012345', '885909950805', 3],
      ['SF1234567890123', '885909950805', 1],
    ]);
    const [named] = await t().database.db.select({ name: scanTrackings.itemName }).from(scanTrackings).where(eq(scanTrackings.trackingId, '00789012345'));
    expect(named!.name).toBe('任天堂 Switch 手柄');
  });

  it('a bad cell is named by sheet, row, column letter and Chinese column name; a UTF-8 CSV with BOM reads too', async () => {
    const w = await world();
    const csv = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('说明：本周到货\nUPC,数量,快递单号\n885909950805,0,T1\n885909950805,1,\n')]);
    const res = await trackingUpload(w.adminToken, csv, 'list.csv');
    expect(answer(res.body.data!)).toEqual([
      [3, 'error', `第3行 B列 数量：${M.qtyInvalid}`],
      [4, 'error', `第4行 C列 快递单号：${M.trackingRequired}`],
    ]);
    const xlsx = await trackingUpload(
      w.adminToken,
      xlsxOf(
        [
          ['快递单号', 'UPC', '数量'],
          ['T1', '885909950805', 'x'],
        ],
        '到货',
      ),
      'a.xlsx',
    );
    expect(answer(xlsx.body.data!)).toEqual([[2, 'error', `工作表“到货” 第2行 C列 数量：${M.qtyInvalid}`]]);
    expect(await scans()).toEqual([]);
  });

  it('the tracking template, filled in and re-saved by LibreOffice, imports its rows with the ids as typed', async () => {
    const w = await world();
    const res = await trackingUpload(w.adminToken, fixture('template-tracking-resaved.xlsx'), 'template.xlsx');
    expect(answer(res.body.data!)).toEqual([[2, 'succ', M.imported]]);
    expect(await scans()).toEqual([['0012345678901', '885909950805', 2]]);
  });

  it('a CSV is split as RFC 4180 says: quoted commas, line breaks and quotes stay in their cell; a tab-separated file reads too', async () => {
    const comma = Buffer.from('快递单号,UPC,数量,商品名称\r\nT1,885909950805,1,"手柄, 蓝色\n""限定版"""\r\n\r\nT2,885909950805,2,\r\n');
    expect((await parseSheet(comma, TRACKING_COLUMNS)).rows.map((r) => [r.line, r.values.tracking, r.values.name, r.values.qty])).toEqual([
      [2, 'T1', '手柄, 蓝色\n"限定版"', '1'],
      [4, 'T2', null, '2'], // row 4 as a spreadsheet counts records: the quoted line break stays in its cell
    ]);
    const tabs = Buffer.from('快递单号\tUPC\t数量\nT3\t885909950805\t3\n');
    expect((await parseSheet(tabs, TRACKING_COLUMNS)).rows.map((r) => [r.line, r.values.tracking, r.values.qty])).toEqual([[2, 'T3', '3']]);
  });

  it('binary that is no spreadsheet is still refused as a whole', async () => {
    const w = await world();
    const res = await trackingUpload(w.adminToken, Buffer.from([0x00, 0x01, 0x02, 0x03, 0x04]), 'x.bin');
    expect(res).toMatchObject({ status: 400, body: { code: 'A00001', msg: SHEET_MESSAGES.notXlsx } });
  });
});

describe("the member's upload reads files as offices save them", () => {
  it('a task id Excel turned into a date is explained, full-width digits are read, every message names its cell', async () => {
    const w = await world();
    // In the server's usual time zone, whose offset in 1899 (xlsx's epoch) was not a whole hour.
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Shanghai';
    const res = await purchasedUpload(w.memberToken, fixture('purchased-date.xlsx'), 'mine.xlsx').finally(() => {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    });
    expect(res.status).toBe(200);
    expect(answer(res.body.data!)).toEqual([
      [2, 'error', `工作表“采购记录” 第2行 A列 任务ID：${uploadMessages.taskIdDate(1, 1)}`],
      [3, 'error', `工作表“采购记录” 第3行 A列 任务ID：任务不存在`],
    ]);
    // Full-width task ids and counts are the same numbers.
    const wide = (n: number) => String(n).replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
    const ok = await purchasedUpload(
      w.memberToken,
      xlsxOf([
        ['任务ID', '快递单号', '数量'],
        [wide(w.a1.id), 'TW1', '２'],
      ]),
      'mine.xlsx',
    );
    expect(answer(ok.body.data!)).toEqual([[2, 'succ', purchasedMessages.created]]);
    expect(await records()).toEqual([[w.a1.id, 'TW1', 2]]);
  });

  it('a tracking id saved as a number is recorded, and its row says the zeros may be gone', async () => {
    const w = await world();
    const res = await purchasedUpload(
      w.memberToken,
      xlsxOf([
        ['任务ID', '快递单号', '数量'],
        [w.a1.id, 12345678901, 1],
      ]),
      'mine.xlsx',
    );
    expect(answer(res.body.data!)).toEqual([
      [2, 'succ', `${purchasedMessages.created}；工作表“采购记录” 第2行 B列 快递单号：${uploadMessages.trackingAsNumber}`],
    ]);
    expect(await records()).toEqual([[w.a1.id, '12345678901', 1]]);
  });

  it('the purchase template, filled in and re-saved by LibreOffice, records its rows', async () => {
    const w = await world();
    // The fixture names task 1, a's first task in this world (the database restarts its sequences per test).
    expect(taskDisplayId(w.a1)).toBe('1');
    const res = await purchasedUpload(w.memberToken, fixture('template-purchased-resaved.xlsx'), 'template.xlsx');
    expect(answer(res.body.data!)).toEqual([[2, 'succ', purchasedMessages.created]]);
    expect(await records()).toEqual([[w.a1.id, '0098765', 1]]);
  });

  it("the member's own export, re-saved by LibreOffice, goes back in: its records are made again and a task without one is skipped", async () => {
    const w = await world();
    // The export was made in this same world: a's tasks 1 and 2, with records on task 1 (README.md).
    expect([taskDisplayId(w.a1), taskDisplayId(w.a2)]).toEqual(['1', '2']);
    const res = await purchasedUpload(w.memberToken, fixture('member-export-resaved.xlsx'), 'export.xlsx');
    expect(res.status).toBe(200);
    expect(answer(res.body.data!)).toEqual([
      [2, 'skip', uploadMessages.noRecordInRow],
      [3, 'succ', purchasedMessages.created],
      [4, 'succ', purchasedMessages.created],
    ]);
    // Stored as its canonical key; what the sheet said is kept beside it (decision 097).
    expect(await records()).toEqual([
      [w.a1.id, 'EXP1', 2],
      [w.a1.id, '0012345', 1],
    ]);
    const [n] = await t()
      .database.db.select({ n: sql<number>`count(*)::int` })
      .from(purchasedRecords);
    expect(Number(n!.n)).toBe(2);
  });
});
