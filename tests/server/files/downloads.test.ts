// Download tokens and the files behind them through the real API on a real database (SPEC §7
// "Uploads and downloads"; DECISIONS "Files": short-lived tokens scoped to one file and one user,
// stored hashed, never the session token; the label PDF; the member's task export; x-kind-roles).
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadTokens } from '../../../src/server/db/schema/files.ts';
import { DOWNLOAD_MESSAGES, DOWNLOAD_TOKEN_TTL_MS } from '../../../src/server/files/download-tokens.ts';
import { barcodeKind, MAX_LABEL_PAGES, validGtin } from '../../../src/server/files/labels-pdf.ts';
import { USER_TASK_HEADER } from '../../../src/server/files/user-task-export.ts';
import { call, useTestApp } from '../support/harness.ts';
import { BOARD_TASK_HEADER, BOARD_USER_TASK_HEADER } from '../../../src/server/files/board-export.ts';
import { as, openBoard, seedGroup, signIn } from '../support/board-fixtures.ts';
import { rowsOf, sheetNamesOf, XLSX_MIME } from '../support/sheets.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

interface Token {
  token: string;
  expireAt: number;
}
interface TaskOut {
  id: number;
  mainId: number;
  subId: number;
  status: string;
}

/** An admin, a lowerAdmin, members a and b; a holds a task with 3 labels and one without, b one. */
async function world() {
  const { app, database } = t();
  const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
  const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
  const g = await seedGroup(database, 'bound');
  const a = await signIn(app, database, 'a@x.test', { groupId: g.id, nickName: '小A' });
  const b = await signIn(app, database, 'b@x.test', { groupId: g.id, nickName: 'Bob' });
  const opened = await openBoard(as(app, admin.token), database, g.id, { show: 20 });
  const claim = async (token: string, url: string, body?: unknown) => {
    const res = await as(app, token).post<{ task: TaskOut }>(url, body);
    if (res.body.code !== 'A00000') throw new Error(`claim failed: ${JSON.stringify(res.body)}`);
    return res.body.data!.task;
  };
  const bt = opened.boardTask.id;
  const labelled = await claim(a.token, `/api/task/${bt}/user/create/2/label/3`, { isHome: true, state: 'CA', zipCode: '94016' });
  const plain = await claim(a.token, `/api/task/${bt}/user/create/1`);
  const other = await claim(b.token, `/api/task/${bt}/user/create/4`);
  return { admin, lower, a, b, labelled, plain, other, item: opened.item, board: opened.board };
}

const get = <T = Token>(token: string, url: string) => call<T>(t().app, { method: 'GET', url, headers: { 'x-token': token } });
const download = (url: string) => t().app.inject({ method: 'GET', url });

/** Pages of a PDF: its page objects (/Type /Page, not the /Type /Pages tree). */
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;

const notFoundAnswer = { code: 'A00004', msg: DOWNLOAD_MESSAGES.invalid };

describe('the label PDF', () => {
  it('gives the owner a short-lived token, stored only as its hash, and the PDF has one page per label', async () => {
    const w = await world();
    const before = Date.now();
    const res = await get(w.a.token, `/api/download/pdf/${w.labelled.id}/token`);
    expect(res.body.code).toBe('A00000');
    const { token, expireAt } = res.body.data!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toBe(w.a.token);
    expect(expireAt).toBeGreaterThanOrEqual(before + DOWNLOAD_TOKEN_TTL_MS - 1000);
    expect(expireAt).toBeLessThanOrEqual(Date.now() + DOWNLOAD_TOKEN_TTL_MS + 1000);

    const [stored] = await t().database.db.select().from(downloadTokens);
    expect(stored).toMatchObject({
      userId: w.a.user.id,
      kind: 'pdf.labels',
      resourceId: w.labelled.id,
      tokenHash: createHash('sha256').update(token).digest('hex'),
    });
    expect(JSON.stringify(stored)).not.toContain(token);

    const pdf = await download(`/ext/pdf/${w.labelled.id}/${token}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="labels-${w.labelled.mainId}.pdf"`);
    expect(pdf.headers['cache-control']).toBe('no-store');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pageCount(pdf.rawPayload)).toBe(3);
    // The UPC barcode is an embedded image on the pages.
    expect(pdf.rawPayload.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);

    // Not single use: a browser may retry; a task without labels still gets one page.
    expect((await download(`/ext/pdf/${w.labelled.id}/${token}`)).statusCode).toBe(200);
    const plainToken = (await get(w.a.token, `/api/download/pdf/${w.plain.id}/token`)).body.data!.token;
    const plainPdf = await download(`/ext/pdf/${w.plain.id}/${plainToken}`);
    expect(pageCount(plainPdf.rawPayload)).toBe(1);
  });

  it("refuses a member a token for another member's task or a task that does not exist (A00004); the admin side may have any", async () => {
    const w = await world();
    expect(await get(w.a.token, `/api/download/pdf/${w.other.id}/token`)).toMatchObject({ status: 404, body: { code: 'A00004', msg: '任务不存在' } });
    expect(await get(w.a.token, `/api/download/pdf/999999/token`)).toMatchObject({ status: 404, body: { code: 'A00004', msg: '任务不存在' } });
    expect(await t().database.db.select().from(downloadTokens)).toEqual([]);
    for (const side of [w.admin, w.lower]) {
      const res = await get(side.token, `/api/download/pdf/${w.other.id}/token`);
      expect(res.body.code).toBe('A00000');
      const pdf = await download(`/ext/pdf/${w.other.id}/${res.body.data!.token}`);
      expect(pdf.statusCode).toBe(200);
      expect(pageCount(pdf.rawPayload)).toBe(1);
    }
  });

  it('answers 404 A00004 for a token that is unknown, expired, for another task, for another kind, or the session token', async () => {
    const w = await world();
    const { token } = (await get(w.a.token, `/api/download/pdf/${w.labelled.id}/token`)).body.data!;
    const asJson = async (url: string) => {
      const res = await download(url);
      return { status: res.statusCode, body: res.json() as unknown };
    };
    const refused = { status: 404, body: notFoundAnswer };
    expect(await asJson(`/ext/pdf/${w.plain.id}/${token}`)).toEqual(refused);
    expect(await asJson(`/ext/pdf/${w.labelled.id}/${token.slice(0, -1)}x`)).toEqual(refused);
    expect(await asJson(`/ext/pdf/${w.labelled.id}/${w.a.token}`)).toEqual(refused);
    expect(await asJson(`/ext/excel/user-task/${token}`)).toEqual(refused);

    await t()
      .database.db.update(downloadTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await asJson(`/ext/pdf/${w.labelled.id}/${token}`)).toEqual(refused);
    // An expired token is swept when the next one is issued.
    await get(w.a.token, `/api/download/pdf/${w.plain.id}/token`);
    expect((await t().database.db.select().from(downloadTokens)).map((r) => r.resourceId)).toEqual([w.plain.id]);
  });

  it('checks the owner again at download: a token of a task that changed hands opens nothing', async () => {
    const w = await world();
    const { token } = (await get(w.a.token, `/api/download/pdf/${w.labelled.id}/token`)).body.data!;
    await t().database.db.execute(sql`update tasks set user_id = ${w.b.user.id} where id = ${w.labelled.id}`);
    const res = await download(`/ext/pdf/${w.labelled.id}/${token}`);
    expect({ status: res.statusCode, body: res.json() as unknown }).toEqual({ status: 404, body: notFoundAnswer });
  });

  it('draws the UPC as UPC-A or EAN-13 when it is a valid one, else Code 128, and caps the pages', () => {
    expect(validGtin('194253397168')).toBe(true);
    expect(barcodeKind('194253397168')).toBe('upca');
    expect(barcodeKind('194253397169')).toBe('code128');
    expect(barcodeKind('4006381333931')).toBe('ean13');
    expect(barcodeKind('ABC-123')).toBe('code128');
    expect(barcodeKind('')).toBeNull();
    expect(barcodeKind(null)).toBeNull();
    expect(barcodeKind('条码')).toBeNull();
    expect(MAX_LABEL_PAGES).toBeGreaterThanOrEqual(100);
  });
});

describe('Excel download tokens', () => {
  it("follows x-kind-roles (A00003) and checks each export's own parameters before issuing a token", async () => {
    const w = await world();
    expect((await get(w.a.token, '/api/download/excel/user-task/token')).body.code).toBe('A00000');
    expect(await get(w.admin.token, '/api/download/excel/user-task/token')).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await get(w.lower.token, '/api/download/excel/user-task/token')).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await get(w.lower.token, '/api/download/excel/withdraw/token')).toMatchObject({ status: 403, body: { code: 'A00003' } });
    for (const kind of ['tracking', 'board', 'task-amount']) {
      expect(await get(w.a.token, `/api/download/excel/${kind}/token`)).toMatchObject({ status: 403, body: { code: 'A00003' } });
    }
    // The tracking export (scan.test.ts downloads it); the board export needs its board.
    expect((await get(w.lower.token, '/api/download/excel/tracking/token')).body.code).toBe('A00000');
    expect(await get(w.admin.token, '/api/download/excel/board/token')).toMatchObject({ status: 400, body: { code: 'A00001', msg: '请选择看板' } });
    expect(await get(w.admin.token, '/api/download/excel/board/token?boardId=999999')).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await get(w.a.token, '/api/download/excel/nothing/token')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect((await t().database.db.select().from(downloadTokens)).map((r) => r.kind)).toEqual(['excel.userTask', 'excel.tracking']);
  });

  it("exports a board: its board tasks with the units claimed, and every member's task on them", async () => {
    const w = await world();
    const { token } = (await get(w.lower.token, `/api/download/excel/board/token?boardId=${w.board.id}&timezone=8`)).body.data!;
    // The link names the board of its token, no other.
    expect((await download(`/ext/excel/board/${token}?boardId=${w.board.id + 1}`)).statusCode).toBe(404);
    const res = await download(`/ext/excel/board/${token}?boardId=${w.board.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(sheetNamesOf(res.rawPayload)).toEqual(['看板任务', '用户任务']);
    const [boardHeader, ...boardRows] = rowsOf(res.rawPayload, 0);
    expect(boardHeader).toEqual([...BOARD_TASK_HEADER]);
    // 2 + 1 units claimed by a, 4 by b.
    expect(boardRows).toEqual([
      [
        expect.any(Number),
        w.item.id,
        'AirPods Pro',
        expect.any(String),
        249.99,
        12.5,
        20,
        expect.any(Number),
        7,
        '正常',
        expect.any(String),
        expect.any(String),
      ],
    ]);
    const [taskHeader, ...taskRows] = rowsOf(res.rawPayload, 1);
    expect(taskHeader).toEqual([...BOARD_USER_TASK_HEADER]);
    expect(taskRows.map((r) => [r[0], r[3], r[5], r[7]])).toEqual([
      [String(w.labelled.mainId), '小A', 2, '进行中'],
      [String(w.plain.mainId), '小A', 1, '进行中'],
      [String(w.other.mainId), 'Bob', 4, '进行中'],
    ]);
    // A member holds no board export token, and a member's session redeems none.
    expect(await get(w.a.token, `/api/download/excel/board/token?boardId=${w.board.id}`)).toMatchObject({ status: 403 });
  });

  it("exports only the caller's own tasks, with the /user/my-task columns, newest first", async () => {
    const w = await world();
    // A purchased record shows in the Tracking column.
    await as(t().app, w.a.token).post(`/api/purchased/user/${w.plain.id}/create`, { trackingId: '1Z999', productCount: 1 });
    const { token } = (await get(w.a.token, '/api/download/excel/user-task/token?timezone=8')).body.data!;
    const res = await download(`/ext/excel/user-task/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="my-tasks-\d{12}\.xlsx"; filename\*=UTF-8''/);
    expect(res.headers['cache-control']).toBe('no-store');
    const rows = rowsOf(res.rawPayload);
    expect(rows[0]).toEqual([...USER_TASK_HEADER]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([String(w.plain.mainId), String(w.labelled.mainId)]);
    expect(rows[1]).toEqual([
      String(w.plain.mainId),
      w.board.boardName,
      'AirPods Pro',
      '194253397168',
      1,
      0,
      249.99,
      12.5,
      0,
      0,
      '进行中',
      '1Z999',
      // The record's 数量: the file goes back in through the member's upload (decision 068).
      1,
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
    ]);
    expect(rows.flat()).not.toContain(String(w.other.mainId));

    // The user-task export is the member's own: b's file holds b's task only.
    const bToken = (await get(w.b.token, '/api/download/excel/user-task/token')).body.data!.token;
    expect(
      rowsOf((await download(`/ext/excel/user-task/${bToken}`)).rawPayload)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([String(w.other.mainId)]);
  });

  it('keeps the filters given when the token was issued; the link carries nothing else', async () => {
    const w = await world();
    const ids = async (query: string) => {
      const { token } = (await get(w.a.token, `/api/download/excel/user-task/token${query}`)).body.data!;
      return rowsOf((await download(`/ext/excel/user-task/${token}`)).rawPayload)
        .slice(1)
        .map((r) => r[0]);
    };
    expect(await ids(`?taskId=${w.labelled.id}`)).toEqual([String(w.labelled.mainId)]);
    expect(await ids('?isDesc=false')).toEqual([String(w.labelled.mainId), String(w.plain.mainId)]);
    expect(await ids('?taskStatus=locked')).toEqual([]);
    expect(await ids('?itemName=airpods')).toHaveLength(2);
    expect(await ids(`?boardId=${w.board.id}&taskStatus=open`)).toHaveLength(2);
    // recorded (the home's 已购买（已填单号） list): only the task with a purchased record.
    await as(t().app, w.a.token).post(`/api/purchased/user/${w.plain.id}/create`, { trackingId: '1Z998', productCount: 1 });
    expect(await ids('?recorded=true')).toEqual([String(w.plain.mainId)]);
    // claimed (the home's 已认领 list): not the task the member deleted.
    expect((await t().app.inject({ method: 'DELETE', url: `/api/task/info/user/${w.labelled.id}`, headers: { 'x-token': w.a.token } })).json()).toMatchObject({
      code: 'A00000',
    });
    expect(await ids('')).toHaveLength(2);
    expect(await ids('?claimed=true')).toEqual([String(w.plain.mainId)]);
    const [stored] = await t().database.db.select().from(downloadTokens).where(eq(downloadTokens.kind, 'excel.userTask')).limit(1);
    expect(stored!.params).toEqual({ isDesc: true, timezone: 0, taskId: w.labelled.id });
    expect(await get(w.a.token, '/api/download/excel/user-task/token?taskStatus=bogus')).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });

  it('answers 404 A00004 for an expired or unknown export token', async () => {
    const w = await world();
    const { token } = (await get(w.a.token, '/api/download/excel/user-task/token')).body.data!;
    await t()
      .database.db.update(downloadTokens)
      .set({ expiresAt: new Date(Date.now() - 1) });
    for (const url of [`/ext/excel/user-task/${token}`, '/ext/excel/user-task/not-a-token']) {
      const res = await download(url);
      expect({ status: res.statusCode, body: res.json() as unknown }).toEqual({ status: 404, body: notFoundAnswer });
    }
  });
});
