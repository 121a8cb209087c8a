// Uploads bounded by their caps (issue 36, docs/decisions/172-uploads-bounded-by-their-caps.md), through
// the real API on both databases (on PostgreSQL the upload runs in the upload worker; its kept rows
// live in the database): a file over the row cap is refused with the same words after the sheet worker read about
// the cap's rows, not the whole sheet; a large file's answer holds the totals and the rows that need
// attention, and its fine rows are paged by GET /api/upload/result/{resultId}, for the uploader only.
import { afterEach, describe, expect, it } from 'vitest';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { parseSheet, SHEET_MESSAGES, sheetReadStats } from '../../../src/server/files/parse-sheet.ts';
import { TRACKING_COLUMNS, TRACKING_LIMITS, trackingUploadMessages as M } from '../../../src/server/files/tracking-upload.ts';
import { ANSWER_ALL_ROWS, uploadRowMessages } from '../../../src/server/files/upload-rows.ts';
import { RESULT_TTL_MS, uploadResultMessages } from '../../../src/server/files/upload-results.ts';
import { uploadResults } from '../../../src/server/db/schema/files.ts';
import { as, signIn } from '../support/board-fixtures.ts';
import { call, useTestApp } from '../support/harness.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

interface Row {
  line: number;
  tracking?: string;
  opStatus: 'succ' | 'skip' | 'error';
  msg?: string;
}
interface Result {
  rows: Row[];
  succ: number;
  skip: number;
  error: number;
  fine?: number;
  resultId?: string;
}
interface Page {
  content: Row[];
  totalElements: number;
  totalPages: number;
}

const HEADER = ['快递单号', 'UPC', '商品ID', '商品名称', '快递公司', '数量'];
const UPC = '194253397168';

function upload(token: string, bytes: Buffer, mode: 'import' | 'update' | 'confirm' = 'import') {
  const body = multipart(bytes);
  return call<Result>(t().app, {
    method: 'POST',
    url: `/api/scan/admin/excel/upload/${mode}`,
    headers: { 'x-token': token, ...body.headers },
    payload: body.payload,
  });
}

const admins = async () => {
  const { app, database } = t();
  const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
  const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
  return { admin, lower };
};

const trackingRows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => [`1Z${String(from + i).padStart(12, '0')}`, UPC, null, null, 'UPS', 1]);

describe('the row cap', () => {
  it('refuses a file over the cap with the same words, having read about the cap of its rows', async () => {
    const limits = { ...TRACKING_LIMITS, maxRows: 100 };
    const file = xlsxOf([HEADER, ...trackingRows(20_000)]);
    await expect(parseSheet(file, TRACKING_COLUMNS, limits)).rejects.toMatchObject({ code: 'A00001', message: SHEET_MESSAGES.tooManyRows(100, 20_000) });
    // The worker's counter: the rows of the sheet it read, not its 20,001 (the header, the cap + 1,
    // and the room left for title and blank rows).
    expect(sheetReadStats.rowsRead).toBeGreaterThan(100);
    expect(sheetReadStats.rowsRead).toBeLessThan(2_000);

    // A CSV file too: its rows past the cap are only counted.
    const csv = Buffer.from([HEADER.join(','), ...trackingRows(20_000).map((r) => r.map((c) => c ?? '').join(','))].join('\n'));
    await expect(parseSheet(csv, TRACKING_COLUMNS, limits)).rejects.toMatchObject({ message: SHEET_MESSAGES.tooManyRows(100, 20_000) });
    expect(sheetReadStats.rowsRead).toBeLessThan(2_000);

    // At the cap a file is read whole and accepted.
    const atCap = await parseSheet(xlsxOf([HEADER, ...trackingRows(100)]), TRACKING_COLUMNS, limits);
    expect(atCap.rows).toHaveLength(100);
    expect(atCap.rows.at(-1)!.line).toBe(101);
  });

  it('reads a sheet whose rows lie far apart whole: blank rows do not count toward the cap', async () => {
    const limits = { ...TRACKING_LIMITS, maxRows: 100 };
    const blanks = Array.from({ length: 5_000 }, () => []);
    const spread = await parseSheet(xlsxOf([HEADER, ...trackingRows(60), ...blanks, ...trackingRows(30, 60)]), TRACKING_COLUMNS, limits);
    expect(spread.rows).toHaveLength(90);
    expect(spread.rows.at(-1)!.line).toBe(1 + 60 + 5_000 + 30);
    await expect(parseSheet(xlsxOf([HEADER, ...trackingRows(60), ...blanks, ...trackingRows(60, 60)]), TRACKING_COLUMNS, limits)).rejects.toMatchObject({
      message: SHEET_MESSAGES.tooManyRows(100, 120),
    });
  });

  it('answers an over-cap tracking file 400 with the cap and its rows, and changes nothing', async () => {
    const { admin } = await admins();
    const max = TRACKING_LIMITS.maxRows;
    const res = await upload(admin.token, xlsxOf([HEADER, ...trackingRows(max + 500)]));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'A00001', msg: SHEET_MESSAGES.tooManyRows(max, max + 500) });
    expect(await t().database.db.$count(scanTrackings)).toBe(0);
  });
});

describe('the answer of a large upload', () => {
  it('holds the totals and the rows that need attention; the fine rows are paged for the uploader only', async () => {
    const { admin, lower } = await admins();
    const n = ANSWER_ALL_ROWS + 200;
    const rows: unknown[][] = trackingRows(n);
    rows[9] = ['', UPC, null, null, null, 1]; // line 11: no tracking id
    rows[500] = [rows[499]![0], UPC, null, null, null, 1]; // line 502: the same tracking id and UPC as line 501
    rows[700] = [1234567, UPC, null, null, null, 1]; // line 702: a number cell, imported with a warning
    const res = await upload(admin.token, xlsxOf([HEADER, ...rows]));
    expect(res.status).toBe(200);
    const data = res.body.data!;
    expect([data.succ, data.skip, data.error]).toEqual([n - 2, 0, 2]);
    expect(res.body.msg).toBe(uploadRowMessages.uploaded(data));
    // Every error and the warned success, in sheet order; nothing else.
    expect(data.rows.map((r) => [r.line, r.opStatus])).toEqual([
      [11, 'error'],
      [502, 'error'],
      [702, 'succ'],
    ]);
    expect(data.rows[2]!.msg).toContain(M.trackingAsNumber);
    expect(data.fine).toBe(n - 3);
    expect(res.raw.body.length).toBeLessThan(4_000);

    const page = (token: string, q: string, id = data.resultId!) => as(t().app, token).get<Page>(`/api/upload/result/${id}?${q}`);
    const first = await page(admin.token, 'page=0&size=20');
    expect(first.body.code).toBe('A00000');
    expect(first.body.data!.totalElements).toBe(n - 3);
    expect(first.body.data!.totalPages).toBe(Math.ceil((n - 3) / 20));
    expect(first.body.data!.content.map((r) => r.line)).toEqual([...Array(20).keys()].map((k) => (k < 9 ? k + 2 : k + 3)));
    expect(first.body.data!.content[0]).toMatchObject({ tracking: '1Z000000000000', opStatus: 'succ', msg: M.imported });
    const last = await page(admin.token, `page=${Math.ceil((n - 3) / 100) - 1}&size=100`);
    expect(last.body.data!.content.at(-1)!.line).toBe(n + 1);
    // The largest page of any list: 1,000 (the web reads SPEC §9's 全部 as such pages one after another).
    const big = await page(admin.token, 'page=1&size=1000');
    expect(big.body.data!.content).toHaveLength(n - 3 - 1000);
    expect(big.body.data!.content[0]!.line).toBe(1005);
    expect((await page(admin.token, 'page=0&size=100000')).body.code).toBe('A00001');
    expect((await page(admin.token, 'page=99&size=20')).body.data!.content).toEqual([]);

    // Another account, an unknown id: no such result.
    for (const res404 of [await page(lower.token, 'page=0&size=20'), await page(admin.token, 'page=0&size=20', 'no-such-result')]) {
      expect(res404.status).toBe(404);
      expect(res404.body).toMatchObject({ code: 'A00004', msg: uploadResultMessages.gone });
    }
    expect((await page(admin.token, 'page=0&size=0')).body.code).toBe('A00001');

    // Kept in the database (any server process pages it) for an hour: past it, gone, and the next
    // large upload deletes it.
    const kept = await t().database.db.select({ id: uploadResults.id, userId: uploadResults.userId }).from(uploadResults);
    expect(kept).toEqual([{ id: data.resultId, userId: admin.user.id }]);
    await t()
      .database.db.update(uploadResults)
      .set({ createdAt: new Date(Date.now() - RESULT_TTL_MS - 60_000) });
    expect((await page(admin.token, 'page=0&size=20')).status).toBe(404);
    const again = await upload(admin.token, xlsxOf([HEADER, ...trackingRows(n, n)]));
    expect((await t().database.db.select({ id: uploadResults.id }).from(uploadResults)).map((r) => r.id)).toEqual([again.body.data!.resultId]);
  });

  it('answers every row of a file at the answer limit, in sheet order', async () => {
    const { admin } = await admins();
    const res = await upload(admin.token, xlsxOf([HEADER, ...trackingRows(ANSWER_ALL_ROWS)]));
    expect(res.body.data!.rows).toHaveLength(ANSWER_ALL_ROWS);
    expect(res.body.data!.fine).toBe(0);
    expect(res.body.data!.resultId).toBeUndefined();
  });
});
