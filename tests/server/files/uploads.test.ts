// The purchased-records Excel upload through the real API on a real database (SPEC §2 /user/upload,
// §3 "Upload result row", §7 "Uploads and downloads"; DECISIONS "Files": untrusted files,
// one transaction, every valid row applied and the others reported; "Uploads are
// untrusted"). Every spreadsheet is generated here (support/sheets.ts).
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { UPLOAD_LIMIT_BYTES } from '../../../src/server/app.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { acceptWorkerRows, MAX_SHEET_BYTES, parseSheet, SHEET_LIMITS, SHEET_MESSAGES } from '../../../src/server/files/parse-sheet.ts';
import { PURCHASED_APPLY_BUDGET_MS, PURCHASED_COLUMNS, PURCHASED_LIMITS, uploadMessages, uploadPurchased } from '../../../src/server/files/purchased-upload.ts';
import { purchasedMessages } from '../../../src/server/tasks/purchased-service.ts';
import { call, useTestApp } from '../support/harness.ts';
import { as, openBoard, seedGroup, signIn } from '../support/board-fixtures.ts';
import { entriesOf, multipart, PNG_1X1, rowsOf, sheetNamesOf, storedEntry, xlsxOf, XLSX_MIME, zipBomb, zipOf } from '../support/sheets.ts';
import { actorOf } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

interface Row {
  line: number;
  tracking?: string;
  name?: string;
  itemId?: number | null;
  express?: string;
  qty?: number | null;
  oldQty?: number | null;
  opStatus: 'succ' | 'skip' | 'error';
  msg?: string;
}
interface Result {
  rows: Row[];
  succ: number;
  skip: number;
  error: number;
}

const HEADER = ['任务ID', '商品ID', '商品名称', '快递单号', '快递公司', '数量'];

/** A row's message about one cell, as the answer names it (sheet, row, column letter, Chinese column name). */
const at = (column: string, name: string, line: number, msg: string, sheet = '采购记录') => `工作表“${sheet}” 第${line}行 ${column}列 ${name}：${msg}`;

/** An admin, members a and b in a bound group, an open board; a holds two tasks, b one. */
async function world() {
  const { app, database } = t();
  const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
  const g = await seedGroup(database, 'bound');
  const a = await signIn(app, database, 'a@x.test', { groupId: g.id, nickName: '小A' });
  const b = await signIn(app, database, 'b@x.test', { groupId: g.id });
  const opened = await openBoard(as(app, admin.token), database, g.id, { show: 20 });
  const claim = async (token: string, count: number) => {
    const res = await as(app, token).post<{ task: { id: number; mainId: number; itemId: number } }>(`/api/task/${opened.boardTask.id}/user/create/${count}`);
    if (res.body.code !== 'A00000') throw new Error(`claim failed: ${JSON.stringify(res.body)}`);
    return res.body.data!.task;
  };
  const a1 = await claim(a.token, 3);
  const a2 = await claim(a.token, 2);
  const b1 = await claim(b.token, 1);
  return { admin, a, b, a1, a2, b1, item: opened.item };
}

function upload(token: string, bytes: Buffer, mode: 'import' | 'update' = 'import', v: Parameters<typeof multipart>[1] = {}) {
  const body = multipart(bytes, v);
  return call<Result>(t().app, {
    method: 'POST',
    url: `/api/purchased/user/excel/upload/${mode}`,
    headers: { 'x-token': token, ...body.headers },
    payload: body.payload,
  });
}

async function records() {
  const rows = await t().database.db.select().from(purchasedRecords).orderBy(purchasedRecords.id);
  return rows.map((r) => ({ taskId: r.taskId, trackingId: r.trackingId, productCount: r.productCount }));
}

/** What an upload may change: the records and the audit trail. */
async function snapshot() {
  const [audit] = await t()
    .database.db.select({ n: sql<number>`count(*)::int` })
    .from(auditLog);
  return { records: await records(), audit: Number(audit!.n) };
}

describe('a good file', () => {
  it('records every valid row in one go and reports each row with its line, in sheet order', async () => {
    const w = await world();
    const file = xlsxOf([
      HEADER,
      [w.a1.id, w.item.id, '', '1Z999AA10123456784', 'UPS', 2],
      [`${w.a2.mainId}-0`, null, '我写的名字', '9400111899223100012345', '', '1'],
      [String(w.a1.id), null, null, ' 1Z999AA10123456784 ', null, 5],
      [],
      [w.b1.id, null, null, 'TB1', null, 1],
      [w.a1.id, null, null, '', null, 1],
      [w.a1.id, null, null, 'T-QTY', null, 'abc'],
      [w.a1.id, null, null, 'T-ZERO', null, 0],
      ['x-1', null, null, 'T-ID', null, 1],
      [w.a1.id, w.item.id + 1000, null, 'T-ITEM', null, 1],
      [null, null, null, 'T-NOID', null, 1],
    ]);
    const res = await upload(w.a.token, file);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('A00000');
    const data = res.body.data!;
    expect(data.rows.map((r) => [r.line, r.opStatus, r.msg])).toEqual([
      [2, 'succ', purchasedMessages.created],
      [3, 'succ', purchasedMessages.created],
      [4, 'error', at('D', '快递单号', 4, uploadMessages.duplicate(2))],
      [6, 'error', at('A', '任务ID', 6, '任务不存在')],
      [7, 'error', at('D', '快递单号', 7, uploadMessages.trackingRequired)],
      [8, 'error', at('F', '数量', 8, uploadMessages.qtyInvalid)],
      [9, 'error', at('F', '数量', 9, uploadMessages.qtyInvalid)],
      [10, 'error', at('A', '任务ID', 10, uploadMessages.taskIdInvalid)],
      [11, 'error', at('B', '商品ID', 11, uploadMessages.itemMismatch(w.item.id))],
      [12, 'error', at('A', '任务ID', 12, uploadMessages.taskIdRequired)],
    ]);
    expect(data.rows[0]).toEqual({
      line: 2,
      tracking: '1Z999AA10123456784',
      name: 'AirPods Pro',
      itemId: w.item.id,
      express: 'UPS',
      qty: 2,
      oldQty: null,
      opStatus: 'succ',
      msg: purchasedMessages.created,
    });
    // The task's item name and id are reported, whatever the file said.
    expect(data.rows[1]).toMatchObject({ tracking: '9400111899223100012345', name: 'AirPods Pro', itemId: w.item.id, qty: 1 });
    expect({ succ: data.succ, skip: data.skip, error: data.error }).toEqual({ succ: 2, skip: 0, error: 8 });
    expect(res.body.msg).toBe('上传完成：成功2条，跳过0条，失败8条');

    expect(await records()).toEqual([
      { taskId: w.a1.id, trackingId: '1Z999AA10123456784', productCount: 2 },
      { taskId: w.a2.id, trackingId: '9400111899223100012345', productCount: 1 },
    ]);
    const audit = await t().database.db.select().from(auditLog).where(eq(auditLog.entity, 'purchased'));
    expect(audit.map((e) => [e.action, e.taskId, e.trackingId, e.opUid])).toEqual(
      expect.arrayContaining([
        ['create', w.a1.id, '1Z999AA10123456784', w.a.user.id],
        ['create', w.a2.id, '9400111899223100012345', w.a.user.id],
      ]),
    );

    // The same file again: the recorded pairs are skipped with their recorded quantity.
    const again = (await upload(w.a.token, file)).body.data!;
    expect(again.rows.slice(0, 2).map((r) => [r.opStatus, r.msg, r.oldQty])).toEqual([
      ['skip', purchasedMessages.alreadyRecorded, 2],
      ['skip', purchasedMessages.alreadyRecorded, 1],
    ]);
    expect({ succ: again.succ, skip: again.skip, error: again.error }).toEqual({ succ: 0, skip: 2, error: 8 });
    expect((await records()).length).toBe(2);
  });

  it('update mode changes the counts and reports oldQty; unchanged rows are skip, unknown records errors', async () => {
    const w = await world();
    await upload(
      w.a.token,
      xlsxOf([
        ['任务ID', 'tracking', '数量'],
        [w.a1.id, 'T1', 2],
        [w.a2.id, 'T2', 1],
      ]),
    );
    const res = await upload(
      w.a.token,
      xlsxOf([
        ['数量', 'trackingId', 'taskId'], // other spellings, another order
        [3, 'T1', w.a1.id], // up to the task's count of 3 (decision 090)
        [1, 'T2', w.a2.id],
        [1, 'T9', w.a1.id],
        [1, 'T1', w.b1.id],
      ]),
      'update',
    );
    expect(res.body.code).toBe('A00000');
    expect(res.body.data!.rows.map((r) => [r.line, r.opStatus, r.qty, r.oldQty, r.msg])).toEqual([
      [2, 'succ', 3, 2, purchasedMessages.saved],
      [3, 'skip', 1, 1, purchasedMessages.unchanged],
      [4, 'error', 1, null, at('B', '快递单号', 4, purchasedMessages.noRecordForTracking)],
      [5, 'error', 1, null, at('C', '任务ID', 5, '任务不存在')],
    ]);
    expect(res.body.data).toMatchObject({ succ: 1, skip: 1, error: 2 });
    expect(await records()).toEqual([
      { taskId: w.a1.id, trackingId: 'T1', productCount: 3 },
      { taskId: w.a2.id, trackingId: 'T2', productCount: 1 },
    ]);
    const updates = await t().database.db.select().from(auditLog).where(eq(auditLog.action, 'update'));
    expect(updates.map((e) => [e.entity, e.taskId, e.count])).toEqual([['purchased', w.a1.id, 3]]);
  });

  it("lets the admin side record on any member's task", async () => {
    const w = await world();
    const res = await upload(
      w.admin.token,
      xlsxOf([
        ['任务ID', 'tracking', '数量'],
        [w.b1.id, 'TB', 1],
        [w.a1.id, 'TA', 2],
      ]),
    );
    expect(res.body.data).toMatchObject({
      succ: 2,
      error: 0,
      rows: [
        { line: 2, tracking: 'TB' },
        { line: 3, tracking: 'TA' },
      ],
    });
    expect(await records()).toEqual([
      { taskId: w.b1.id, trackingId: 'TB', productCount: 1 },
      { taskId: w.a1.id, trackingId: 'TA', productCount: 2 },
    ]);
  });

  it('serves a template that reads back as an upload', async () => {
    const w = await world();
    const res = await t().app.inject({ method: 'GET', url: '/ext/excel/template/purchased' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="purchased-template\.xlsx"; filename\*=UTF-8''/);
    const template = res.rawPayload;
    expect(sheetNamesOf(template)).toEqual(['采购记录', '填写说明']);
    expect(rowsOf(template)[0]).toEqual(PURCHASED_COLUMNS.map((c) => c.headers[0]));
    expect(rowsOf(template)[0]).toEqual(HEADER);

    // Filled in the way a user would: the first sheet, below the header.
    const filled = xlsxOf([HEADER, [String(w.a1.id), '', '', 'TPL-1', 'FedEx', 1]], '采购记录', [{ name: '填写说明', rows: rowsOf(template, 1) }]);
    const up = await upload(w.a.token, filled);
    expect(up.body.data).toMatchObject({ succ: 1, skip: 0, error: 0, rows: [{ line: 2, tracking: 'TPL-1', express: 'FedEx', opStatus: 'succ' }] });
  });
});

describe('files that cannot be used are refused as a whole, and nothing changes', () => {
  const refusedWith = (msg: string | RegExp, status = 400) => ({ status, body: { code: 'A00001', msg: expect.stringMatching(msg) } });
  const exactly = (s: string) => new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

  it('refuses what is not a spreadsheet: a PNG, random bytes, a zip of something else, a compound file that is no .xls', async () => {
    const w = await world();
    const before = await snapshot();
    const notXlsx = refusedWith(exactly(SHEET_MESSAGES.notXlsx));
    expect(await upload(w.a.token, PNG_1X1, 'import', { filename: 'photo.png', type: 'image/png' })).toMatchObject(notXlsx);
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    expect(await upload(w.a.token, random)).toMatchObject(notXlsx);
    expect(await upload(w.a.token, zipOf([storedEntry('readme.txt', 'hello')]))).toMatchObject(notXlsx);
    // A zip that claims to be both an OpenDocument spreadsheet and an .xlsx.
    expect(
      await upload(
        w.a.token,
        zipOf([
          storedEntry('mimetype', 'application/vnd.oasis.opendocument.spreadsheet'),
          storedEntry('META-INF/manifest.xml', '<x/>'),
          storedEntry('[Content_Types].xml', '<x/>'),
          storedEntry('xl/workbook.xml', '<x/>'),
        ]),
      ),
    ).toMatchObject(notXlsx);
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(1024)]);
    expect(await upload(w.a.token, xls, 'import', { filename: 'old.xls' })).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.unreadable)));
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an empty file, a missing file, an .xlsx cut short and one over the size limit', async () => {
    const w = await world();
    const before = await snapshot();
    expect(await upload(w.a.token, Buffer.alloc(0))).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.empty)));
    const noFile = await call(t().app, {
      method: 'POST',
      url: '/api/purchased/user/excel/upload/import',
      headers: { 'x-token': w.a.token, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot a file\r\n--b--\r\n',
    });
    expect(noFile).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.noFile)));
    const good = xlsxOf([
      ['任务ID', 'tracking', '数量'],
      [w.a1.id, 'T1', 1],
    ]);
    expect(await upload(w.a.token, good.subarray(0, Math.floor(good.length / 2)))).toMatchObject(refusedWith(/^(无法读取该Excel文件|文件不是Excel表格)/));
    // The multipart limit of app.ts is the parser's limit too.
    expect(MAX_SHEET_BYTES).toBe(UPLOAD_LIMIT_BYTES);
    const huge = Buffer.concat([good, Buffer.alloc(UPLOAD_LIMIT_BYTES + 1 - good.length)]);
    expect(await upload(w.a.token, huge)).toMatchObject({ status: 413, body: { code: 'A00001' } });
    await expect(parseSheet(huge, PURCHASED_COLUMNS)).rejects.toMatchObject({ code: 'A00001', httpStatus: 413 });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses wrong columns, a header without data, and more rows than the limit', async () => {
    const w = await world();
    const before = await snapshot();
    expect(
      await upload(
        w.a.token,
        xlsxOf([
          ['任务', 'tracking number', 'amount'],
          [w.a1.id, 'T1', 1],
        ]),
      ),
    ).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.missingColumns(['任务ID', '快递单号', '数量']))));
    expect(
      await upload(
        w.a.token,
        xlsxOf([
          ['任务ID', '数量'],
          [w.a1.id, 1],
        ]),
      ),
    ).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.missingColumns(['快递单号']))));
    expect(
      await upload(
        w.a.token,
        xlsxOf([
          ['任务ID', 'tracking', 'trackingId', '数量'],
          [w.a1.id, 'T1', 'T2', 1],
        ]),
      ),
    ).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.duplicateColumn('快递单号'))));
    expect(await upload(w.a.token, xlsxOf([['任务ID', 'tracking', '数量']]))).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.noData)));
    expect(await upload(w.a.token, xlsxOf([[]]))).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.noData)));

    const max = PURCHASED_LIMITS.maxRows;
    const rows: unknown[][] = [['任务ID', 'tracking', '数量']];
    for (let i = 0; i <= max; i++) rows.push([w.a1.id, `T${i}`, 1]);
    expect(await upload(w.a.token, xlsxOf(rows))).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.tooManyRows(max, max + 1))));
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a zip bomb and a part that declares a huge size, before xlsx inflates anything', async () => {
    const w = await world();
    const before = await snapshot();
    const bomb = await zipBomb(SHEET_LIMITS.maxUnzippedBytes / (1024 * 1024) + 20);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const rss = process.memoryUsage().rss;
    expect(await upload(w.a.token, bomb)).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.tooBig)));
    // Whatever the worker allocated is bounded by the unzip budget, not by what the file claims.
    expect(process.memoryUsage().rss - rss).toBeLessThan(SHEET_LIMITS.maxUnzippedBytes + 200 * 1024 * 1024);

    const parts = entriesOf(
      xlsxOf([
        ['任务ID', 'tracking', '数量'],
        [w.a1.id, 'T1', 1],
      ]),
    );
    const liar = parts.map((e) => (e.name === 'xl/worksheets/sheet1.xml' ? { ...e, size: 0xfffffff0 } : e));
    expect(await upload(w.a.token, zipOf(liar))).toMatchObject(refusedWith(exactly(SHEET_MESSAGES.tooBig)));
    // The same parts with honest sizes are a good file.
    expect((await upload(w.a.token, zipOf(parts))).body.data).toMatchObject({ succ: 1 });
    expect((await records()).length).toBe(before.records.length + 1);
  });

  it('stops at its time budget: the rows not yet applied are reported as not processed, and the same file again finishes the job', async () => {
    const w = await world();
    const before = await snapshot();
    const file = xlsxOf([
      ['任务ID', 'tracking', '数量'],
      [w.a1.id, 'T1', 1],
      [w.a2.id, 'T2', 1],
      [w.a1.id, '', 1],
    ]);
    const actor = actorOf(w.a.user);
    // The budget is spent before the first slice: nothing is applied, each valid row says so.
    const stopped = await uploadPurchased(t().database.db, actor, file, 'import', { budgetMs: -1 });
    expect(stopped).toMatchObject({ succ: 0, skip: 0, error: 3 });
    expect(stopped.rows.map((r) => r.msg)).toEqual([
      uploadMessages.notProcessed,
      uploadMessages.notProcessed,
      at('B', '快递单号', 4, uploadMessages.trackingRequired),
    ]);
    expect(await snapshot()).toEqual(before);
    expect((await upload(w.a.token, file)).body.data).toMatchObject({ succ: 2, error: 1 });
    expect(PURCHASED_APPLY_BUDGET_MS).toBeGreaterThanOrEqual(30_000);
  });

  it('cuts a parse off at the time limit and at the memory limit', async () => {
    const rows: unknown[][] = [['任务ID', 'tracking', '数量']];
    for (let i = 0; i < 20_000; i++) rows.push([i + 1, `TRACKING-${i}-xxxxxxxxxxxxxxxxxxxx`, 1]);
    const file = xlsxOf(rows);
    await expect(parseSheet(file, PURCHASED_COLUMNS, { ...SHEET_LIMITS, timeoutMs: 5 })).rejects.toMatchObject({
      code: 'A00001',
      message: SHEET_MESSAGES.timeout,
    });
    await expect(parseSheet(file, PURCHASED_COLUMNS, { ...SHEET_LIMITS, heapMb: 8 })).rejects.toMatchObject({ code: 'A00001', message: SHEET_MESSAGES.tooBig });
    // With the real limits the same file is fine.
    expect((await parseSheet(file, PURCHASED_COLUMNS, SHEET_LIMITS)).rows).toHaveLength(20_000);
  });
});

describe('crafted content never reaches the server objects', () => {
  const polluted = () => (({}) as Record<string, unknown>).polluted;

  it('reads a __proto__ / constructor header or cell as text; only the known columns come out, in null-prototype objects', async () => {
    const file = xlsxOf([
      ['__proto__', 'constructor', '任务ID', 'tracking', '数量', 'prototype', '__proto__.polluted'],
      ['{"polluted":1}', 'x', 7, '__proto__', 1, 'y', 'yes'],
      ['constructor', '__proto__', '__proto__', 'constructor', 2, '__proto__', 'yes'],
    ]);
    const { rows } = await parseSheet(file, PURCHASED_COLUMNS);
    const keys = PURCHASED_COLUMNS.map((c) => c.key).sort();
    for (const r of rows) {
      expect(Object.getPrototypeOf(r.values)).toBeNull();
      expect(Object.getOwnPropertyNames(r.values).sort()).toEqual(keys);
      expect(Object.prototype.hasOwnProperty.call(r.values, '__proto__')).toBe(false);
      expect(Object.isFrozen(r.values)).toBe(true);
    }
    expect(rows.map((r) => ({ ...r.values }))).toEqual([
      { taskId: 7, itemId: null, name: null, tracking: '__proto__', express: null, qty: 1 },
      { taskId: '__proto__', itemId: null, name: null, tracking: 'constructor', express: null, qty: 2 },
    ]);
    expect(polluted()).toBeUndefined();
  });

  it('an upload of such a file changes nothing when it lacks the real columns, and reports rows as data otherwise', async () => {
    const w = await world();
    const before = await snapshot();
    const crafted = xlsxOf([
      ['__proto__', 'constructor', 'prototype'],
      ['{"polluted":1}', '{"polluted":1}', 'polluted'],
    ]);
    expect(await upload(w.a.token, crafted)).toMatchObject({
      status: 400,
      body: { code: 'A00001', msg: SHEET_MESSAGES.missingColumns(['任务ID', '快递单号', '数量']) },
    });
    expect(await snapshot()).toEqual(before);
    expect(polluted()).toBeUndefined();

    // A first sheet named __proto__, and a task id cell that says __proto__: just a bad row.
    const sneaky = xlsxOf(
      [
        ['任务ID', 'tracking', '数量', '__proto__'],
        ['__proto__', 'T1', 1, '{"polluted":1}'],
      ],
      '__proto__',
    );
    const res = await upload(w.a.token, sneaky);
    expect(res.body).toMatchObject({
      code: 'A00000',
      data: { succ: 0, error: 1, rows: [{ line: 2, opStatus: 'error', msg: at('A', '任务ID', 2, uploadMessages.taskIdInvalid, '__proto__') }] },
    });
    expect(Object.keys(res.body.data!.rows[0]!)).not.toContain('__proto__');
    expect(await snapshot()).toEqual(before);
    expect(polluted()).toBeUndefined();
  });

  it('accepts from the worker only rows of primitive cells: an own __proto__ key (which survives structured clone) is refused', () => {
    const evil = JSON.parse('{"__proto__": {"polluted": 1}}') as unknown;
    expect(Object.prototype.hasOwnProperty.call(structuredClone(evil), '__proto__')).toBe(true);
    expect(
      acceptWorkerRows([
        [0, ['任务ID', 'tracking', '数量']],
        [1, [1, evil, 2]],
      ]),
    ).toBeNull();
    expect(acceptWorkerRows([[0, ['a']], evil])).toBeNull();
    expect(acceptWorkerRows(evil)).toBeNull();
    expect(acceptWorkerRows([[0, ['a', 1, true, null]]])).toEqual([[0, ['a', 1, true, null], []]]);
    expect(acceptWorkerRows([[0, ['a'], [0]]])).toEqual([[0, ['a'], [0]]]);
    expect(acceptWorkerRows([[0, ['a'], ['__proto__']]])).toBeNull();
    expect(polluted()).toBeUndefined();
  });

  it('keeps a tracking id Excel rounded, or a task id Excel turned into a date, from being stored wrong', async () => {
    const w = await world();
    const rounded = await upload(
      w.a.token,
      xlsxOf([
        ['任务ID', 'tracking', '数量'],
        [w.a1.id, 9.400111899223101e21, 1],
      ]),
    );
    expect(rounded.body.data!.rows[0]).toMatchObject({ opStatus: 'error', msg: at('B', '快递单号', 2, uploadMessages.trackingRounded) });

    // "12-1" typed into a General cell becomes 1 December: a date cell (serial 45627 formatted m-d).
    // It reads as a date, never as task 45627, and the row says what happened to it.
    const dated = xlsxOf(
      [
        ['任务ID', 'tracking', '数量'],
        [0, 'T1', 1],
      ],
      '采购记录',
      [],
      { A2: { t: 'n', v: 45627, z: 'm-d' } },
    );
    const { rows } = await parseSheet(dated, PURCHASED_COLUMNS);
    expect(rows[0]!.values.taskId).toBe('2024-12-01');
    expect(rows[0]!.dates).toEqual(['taskId']);
    expect((await upload(w.a.token, dated)).body.data!.rows[0]).toMatchObject({
      opStatus: 'error',
      msg: at('A', '任务ID', 2, uploadMessages.taskIdDate(12, 1)),
    });
    expect(await records()).toEqual([]);
  });
});
