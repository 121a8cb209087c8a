// Scanning parcels through the real API on a real database (SPEC §2 /admin/scan, /admin/scan2,
// /admin/tracking-list; §3 scan tracking record; §4 scan statuses; §5 scan messages; §7 "Scan,
// tracking, audit, matching"; DECISIONS "Receiving and matching", "Roles", "Files"). Members record
// purchases through their API; the admin side scans, and matching runs after every scan.
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { MAX_TRACKING_EXPORT_ROWS, TRACKING_EXPORT_HEADER, trackingExportMessages } from '../../../src/server/files/tracking-export.ts';
import { COUNT_AHEAD } from '../../../src/server/paging.ts';
import { scanMessages } from '../../../src/server/receiving/scan-service.ts';
import { call, useTestApp } from '../support/harness.ts';
import { signIn, seedItem } from '../support/board-fixtures.ts';
import { claim, client, record, scan, scansOf, storedTask, taskWorld, UPC, UPC2 } from '../support/task-fixtures.ts';
import { rowsOf, XLSX_MIME } from '../support/sheets.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

interface ScanRowOut {
  id: number;
  trackingId: string;
  upc: string;
  count: number;
  itemId: number | null;
  itemName: string;
  status: string;
  matchedUser: string | null;
  createdAt: number;
  updatedAt: number;
  opUid: number | null;
  userId: number | null;
  mainId: number | null;
  subId: number | null;
  taskId: number | null;
  unmatchReason?: 'notRecorded' | 'otherProduct' | 'contested' | 'moreThanRecorded' | null;
}
interface ScanResult {
  opStatus: 'succ' | 'failed';
  msg: string;
  scanTrackingList: ScanRowOut[];
}
interface ModifyResult {
  opStatus: 'succ' | 'failed';
  msg: string;
  scanTracking: ScanRowOut;
}
interface Page {
  totalPages: number;
  totalCapped?: boolean;
  size: number;
  content: ScanRowOut[];
}

/** The task world plus a lowerAdmin, and the items of the two board tasks. */
async function world() {
  const { app, database } = t();
  const w = await taskWorld(app, database);
  const lowerIn = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin', nickName: '仓库' });
  return { ...w, lower: client(app, lowerIn.token), lowerUser: lowerIn.user };
}
type World = Awaited<ReturnType<typeof world>>;

const create = (w: World, trackingId: string, items: unknown[], api = w.admin) =>
  api.post<ScanResult>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/create`, { items });
const add = (w: World, trackingId: string, body: unknown, api = w.admin) =>
  api.post<ScanResult>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/add`, body);
const modify = (w: World, id: number, body: unknown, api = w.admin) => api.post<ModifyResult>(`/api/scan/admin/tracking/${id}/modify`, body);
const lookup = (w: World, trackingId: string) =>
  w.admin.get<{ isExist: boolean; scanTrackingList: ScanRowOut[] }>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/list`);
const list = (w: World, query = '', api = w.admin) => api.get<Page>(`/api/scan/admin/tracking/list${query ? `?${query}` : ''}`);
const badRequest = (msg: string) => ({ status: 400, body: { code: 'A00001', msg } });

async function trackingAudits(trackingId?: string) {
  const rows = await t()
    .database.db.select()
    .from(auditLog)
    .where(trackingId ? and(eq(auditLog.entity, 'tracking'), eq(auditLog.trackingId, trackingId)) : eq(auditLog.entity, 'tracking'))
    .orderBy(auditLog.id);
  return rows;
}

describe('who may scan', () => {
  it('refuses members (A00003) on every scan call and lets lowerAdmin and admin scan', async () => {
    const w = await world();
    const forbidden = { status: 403, body: { code: 'A00003' } };
    expect(await list(w, '', w.a.api)).toMatchObject(forbidden);
    expect(await w.a.api.get('/api/scan/admin/tracking/T1/list')).toMatchObject(forbidden);
    expect(await create(w, 'T1', [{ upc: UPC, count: 1, itemId: w.item.id }], w.a.api)).toMatchObject(forbidden);
    expect(await add(w, 'T1', { itemId: w.item.id }, w.a.api)).toMatchObject(forbidden);
    expect(await modify(w, 1, { count: 2 }, w.a.api)).toMatchObject(forbidden);
    expect(await t().database.db.select().from(scanTrackings)).toEqual([]);

    const byLower = await create(w, 'T1', [{ upc: UPC, count: 1, itemId: w.item.id }], w.lower);
    expect(byLower.body).toMatchObject({ code: 'A00000', data: { opStatus: 'succ', scanTrackingList: [{ upc: UPC, opUid: w.lowerUser.id }] } });
    const byAdmin = await add(w, 'T2', { itemId: w.item.id });
    expect(byAdmin.body).toMatchObject({ code: 'A00000', data: { opStatus: 'succ', scanTrackingList: [{ upc: UPC, opUid: w.adminUser.id }] } });
    expect((await list(w, '', w.lower)).body.data!.content).toHaveLength(2);
  });
});

describe('/admin/scan: create, look up, modify', () => {
  it('records the products of a parcel with their items, answers every row of the tracking id, and audits each scan', async () => {
    const w = await world();
    expect((await lookup(w, 'T1')).body).toEqual({ code: 'A00000', msg: '', data: { isExist: false, scanTrackingList: [] } });
    const res = await create(w, ' T1 ', [
      { upc: ` ${UPC} `, count: 2, itemId: w.item.id },
      { upc: UPC2, itemId: w.item2.id },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'A00000', msg: scanMessages.created, data: { opStatus: 'succ', msg: scanMessages.created } });
    const rows = res.body.data!.scanTrackingList;
    // Nobody recorded T1: the units are nobody's (unmatch, untied).
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        trackingId: 'T1',
        upc: UPC,
        count: 2,
        itemId: w.item.id,
        itemName: 'AirPods Pro',
        status: 'unmatch',
        matchedUser: null,
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
        opUid: w.adminUser.id,
        userId: null,
        mainId: null,
        subId: null,
        taskId: null,
        unmatchReason: 'notRecorded',
      },
      expect.objectContaining({ trackingId: 'T1', upc: UPC2, count: 1, itemId: w.item2.id, itemName: 'Switch Pro', status: 'unmatch' }),
    ]);
    expect(Math.abs(rows[0]!.createdAt - Date.now())).toBeLessThan(60_000);
    expect((await lookup(w, 'T1')).body.data).toEqual({ isExist: true, scanTrackingList: rows });
    expect((await lookup(w, ' T1 ')).body.data!.isExist).toBe(true);

    // One entry per stored row, as stored: a new row is written once, already matched (nobody
    // recorded T1: its units are unmatch), not written as scan and then changed by matching.
    const audits = await trackingAudits('T1');
    expect(audits.map((a) => [a.action, a.entityId, a.upc, a.count, a.status, a.opUid, a.before])).toEqual([
      ['scan', rows[0]!.id, UPC, 2, 'unmatch', w.adminUser.id, null],
      ['scan', rows[1]!.id, UPC2, 1, 'unmatch', w.adminUser.id, null],
    ]);
    // The admin log lists them.
    const log = await w.admin.get<{ content: { action: string; trackingId: string }[] }>('/api/audit/tracking/list?trackingId=T1');
    expect(log.body.data!.content.map((e) => e.action).sort()).toEqual(['scan', 'scan']);
  });

  it("answers the scan screen's words: every row needs a product, a upc already recorded is refused and nothing is written", async () => {
    const w = await world();
    const first = await create(w, 'T1', [{ upc: UPC, count: 1, itemId: w.item.id }]);
    const before = first.body.data!.scanTrackingList;
    const audits = (await trackingAudits()).length;

    expect(await create(w, 'T1', [{ upc: UPC2, count: 1 }])).toMatchObject(badRequest(scanMessages.itemRequired));
    expect(
      await create(w, 'T1', [
        { upc: UPC2, count: 1, itemId: w.item2.id },
        { upc: '555', itemId: null },
      ]),
    ).toMatchObject(badRequest(scanMessages.itemRequired));
    expect(await create(w, 'T1', [{ upc: UPC2, itemId: 99999 }])).toMatchObject(badRequest(scanMessages.itemNotFound));
    expect(await create(w, 'T1', [{ upc: '   ', itemId: w.item.id }])).toMatchObject(badRequest(scanMessages.upcRequired));
    expect(await create(w, '   ', [{ upc: UPC2, itemId: w.item2.id }])).toMatchObject(badRequest(scanMessages.trackingIdRequired));
    // Control characters (a NUL cannot be stored at all) are refused, not a system error: by the
    // validation layer's text rule naming the field, and a tab by the scan's own rule.
    expect(await create(w, 'T\u0000X', [{ upc: UPC2, itemId: w.item2.id }])).toMatchObject(badRequest('参数错误：字段 id 含有不允许的控制字符'));
    expect(await create(w, 'T1', [{ upc: 'A\u0000B', itemId: w.item2.id }])).toMatchObject(badRequest('参数错误：字段 items.0.upc 含有不允许的控制字符'));
    expect(await add(w, 'T1', { itemId: w.item2.id, upc: 'A\tB' })).toMatchObject(badRequest(scanMessages.upcInvalid));
    expect(await create(w, 'T1', [{ upc: UPC2, count: 0, itemId: w.item2.id }])).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await create(w, 'T1', [])).toMatchObject({ status: 400, body: { code: 'A00001' } });

    // Already recorded (seen) for T1, alone or beside a new product: refused as a whole.
    const dup = await create(w, 'T1', [
      { upc: UPC2, count: 1, itemId: w.item2.id },
      { upc: UPC, count: 1, itemId: w.item.id },
    ]);
    expect(dup.status).toBe(200);
    expect(dup.body).toMatchObject({
      code: 'A00000',
      msg: scanMessages.upcDuplicate,
      data: { opStatus: 'failed', msg: scanMessages.upcDuplicate, scanTrackingList: before },
    });
    // The same upc twice in one call.
    const twice = await create(w, 'T2', [
      { upc: UPC2, itemId: w.item2.id },
      { upc: UPC2, itemId: w.item2.id },
    ]);
    expect(twice.body.data).toMatchObject({ opStatus: 'failed', msg: scanMessages.upcDuplicate, scanTrackingList: [] });

    expect((await lookup(w, 'T1')).body.data!.scanTrackingList).toEqual(before);
    expect((await lookup(w, 'T2')).body.data!.isExist).toBe(false);
    expect((await trackingAudits()).length).toBe(audits);
  });

  it('modifies one row: count, upc, item and tracking id, audited with before and after, and refuses what may not change', async () => {
    const w = await world();
    const [row, other] = (
      await create(w, 'T1', [
        { upc: UPC, count: 1, itemId: w.item.id },
        { upc: UPC2, count: 1, itemId: w.item2.id },
      ])
    ).body.data!.scanTrackingList;

    const res = await modify(w, row!.id, { count: 3 }, w.lower);
    expect(res.body).toMatchObject({
      code: 'A00000',
      msg: scanMessages.saved,
      data: { opStatus: 'succ', scanTracking: { id: row!.id, count: 3, opUid: w.lowerUser.id, status: 'unmatch' } },
    });
    const [entry] = (await trackingAudits('T1')).filter((a) => a.action === 'modify');
    expect(entry).toMatchObject({ entityId: row!.id, opUid: w.lowerUser.id, count: 3, before: { count: 1 }, after: { count: 3 } });

    expect((await modify(w, row!.id, { count: 3, upc: UPC })).body).toMatchObject({ msg: scanMessages.unchanged, data: { opStatus: 'succ' } });
    expect((await trackingAudits('T1')).filter((a) => a.action === 'modify')).toHaveLength(1);

    // Onto a upc the tracking id already has: refused, unchanged.
    expect((await modify(w, row!.id, { upc: UPC2 })).body).toMatchObject({
      code: 'A00000',
      data: { opStatus: 'failed', msg: scanMessages.upcDuplicate, scanTracking: { id: row!.id, upc: UPC } },
    });
    expect(await modify(w, row!.id, { itemId: 99999 })).toMatchObject(badRequest(scanMessages.itemNotFound));
    expect(await modify(w, row!.id, { trackingId: ' ' })).toMatchObject(badRequest(scanMessages.trackingIdRequired));
    expect(await modify(w, row!.id, {})).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await modify(w, 99999, { count: 2 })).toMatchObject({ status: 404, body: { code: 'A00004', msg: scanMessages.notFound } });

    // Item and tracking id: the row moves to T2 with the other item's name.
    const moved = await modify(w, other!.id, { trackingId: 'T2', itemId: w.item.id, upc: '000111' });
    expect(moved.body.data!.scanTracking).toMatchObject({ trackingId: 'T2', upc: '000111', itemId: w.item.id, itemName: 'AirPods Pro' });
    expect((await lookup(w, 'T1')).body.data!.scanTrackingList.map((r) => r.id)).toEqual([row!.id]);

    // A row whose task is being paid is frozen.
    await t().database.db.update(scanTrackings).set({ status: 'wait2pay' }).where(eq(scanTrackings.id, row!.id));
    expect(await modify(w, row!.id, { count: 1 })).toMatchObject(badRequest(scanMessages.frozen));
  });
});

describe('two scans of one parcel at once', () => {
  it('are taken one after the other (the tracking lock): one records the product, the other is told it is there', async () => {
    const w = await world();
    const line = [{ upc: UPC, count: 1, itemId: w.item.id }];
    const [one, two] = await Promise.all([create(w, 'C1', line), create(w, 'C1', line, w.lower)]);
    expect([one.body.data!.opStatus, two.body.data!.opStatus].sort()).toEqual(['failed', 'succ']);
    expect([one.body.data!.msg, two.body.data!.msg]).toContain(scanMessages.upcDuplicate);
    expect(await scansOf(t().database, 'C1')).toHaveLength(1);
    const [a, b] = await Promise.all([add(w, 'C2', { itemId: w.item.id }), add(w, 'C2', { itemId: w.item.id }, w.lower)]);
    expect([a.body.data!.msg, b.body.data!.msg].sort()).toEqual([scanMessages.added, scanMessages.trackingSubmitted].sort());
    expect(await scansOf(t().database, 'C2')).toHaveLength(1);
  });

  // Two clerks scan two parcels of one task at the same moment (two transactions in flight on
  // PostgreSQL): the second waits for the task's lock and must then judge the task on what the first
  // wrote, not on the parcels as they were when its read began.
  it('of one task, each its own parcel: the task is judged on both', async () => {
    const w = await world();
    const tasks = [];
    for (let k = 0; k < 4; k++) {
      const task = await claim(w.a.api, w.boardTask.id, 2);
      await record(w.a.api, task.id, `P${k}A`, 1);
      await record(w.a.api, task.id, `P${k}B`, 1);
      tasks.push(task);
    }
    const line = [{ upc: UPC, count: 1, itemId: w.item.id }];
    for (const [k, task] of tasks.entries()) {
      const answers = await Promise.all([create(w, `P${k}A`, line), create(w, `P${k}B`, line, w.lower)]);
      expect(answers.map((a) => a.body.data!.opStatus)).toEqual(['succ', 'succ']);
      expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked', productCount: 2 });
    }
  });
});

describe('audit entries', () => {
  it('keep any text of a row (quotes, backslashes, braces, NULL as a word) exactly, in before and after', async () => {
    const w = await world();
    const odd = 'A "quoted", {braced} \\ NULL 名字';
    const item = await seedItem(t().database, { itemName: odd, upc: 'ODD' });
    const [row] = (await create(w, 'NULL', [{ upc: 'ODD', itemId: item.id }])).body.data!.scanTrackingList;
    await modify(w, row!.id, { count: 2 });
    const [entry] = (await trackingAudits('NULL')).filter((a) => a.action === 'modify');
    expect(entry).toMatchObject({ itemName: odd, trackingId: 'NULL', before: { itemName: odd, count: 1 }, after: { itemName: odd, count: 2 } });
    const log = await w.admin.get<{ content: { action: string; itemName: string; before: string }[] }>('/api/audit/tracking/list?trackingId=NULL');
    const shown = log.body.data!.content.find((e) => e.action === 'modify')!;
    expect(shown.itemName).toBe(odd);
    expect(JSON.parse(shown.before)).toMatchObject({ itemName: odd, createdAt: row!.createdAt });
  });
});

describe('matching through the scan calls', () => {
  it('locks a task whose units all arrived and ties the rows to it', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    await record(w.a.api, task.id, 'T1', 2);
    const res = await create(w, 'T1', [{ upc: UPC, count: 2, itemId: w.item.id }]);
    expect(res.body.data!.scanTrackingList).toMatchObject([
      { count: 2, status: 'match', matchedUser: '小A', userId: w.a.user.id, mainId: task.mainId, subId: 0, taskId: task.id },
    ]);
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked', productCount: 2, canSplit: false });
    const [rec] = await t().database.db.select().from(purchasedRecords).where(eq(purchasedRecords.taskId, task.id));
    expect(rec).toMatchObject({ status: 'match', msg: '' });
    // The task change is audited as the admin's.
    const taskAudit = await t()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'task'), eq(auditLog.action, 'match')));
    expect(taskAudit).toMatchObject([{ taskId: task.id, status: 'locked', opUid: w.adminUser.id }]);
  });

  // Decision 090: a wrong UPC or more units than recorded no longer fail the task (until
  // then: unmatch); the units nobody recorded are unmatch rows tied to no task.
  it('leaves a wrong UPC and the units beyond the records untied; a partial parcel keeps the task open; modify fixes it', async () => {
    const w = await world();
    const wrong = await claim(w.a.api, w.boardTask.id, 1);
    await record(w.a.api, wrong.id, 'TW', 1);
    const r1 = await create(w, 'TW', [{ upc: UPC2, count: 1, itemId: w.item2.id }]);
    expect(r1.body.data!.scanTrackingList).toMatchObject([{ status: 'unmatch', taskId: null }]);
    expect(await storedTask(t().database, wrong.id)).toMatchObject({ status: 'open', productCount: 0 });
    // The wrong product was a misread: corrected with modify, the task locks.
    await modify(w, r1.body.data!.scanTrackingList[0]!.id, { upc: UPC, itemId: w.item.id });
    expect(await storedTask(t().database, wrong.id)).toMatchObject({ status: 'locked', productCount: 1 });

    const many = await claim(w.b.api, w.boardTask.id, 2);
    await record(w.b.api, many.id, 'TM', 2);
    const r2 = await create(w, 'TM', [{ upc: UPC, count: 3, itemId: w.item.id }]);
    expect(await storedTask(t().database, many.id)).toMatchObject({ status: 'locked', productCount: 2 });
    expect(r2.body.data!.scanTrackingList.map((r) => [r.count, r.status, r.taskId])).toEqual([
      [2, 'match', many.id],
      [1, 'unmatch', null],
    ]);

    const part = await claim(w.a.api, w.boardTask.id, 3);
    await record(w.a.api, part.id, 'TP', 3);
    const [row] = (await create(w, 'TP', [{ upc: UPC, count: 1, itemId: w.item.id }])).body.data!.scanTrackingList;
    expect(await storedTask(t().database, part.id)).toMatchObject({ status: 'open', productCount: 1, canSplit: true });
    await modify(w, row!.id, { count: 3 });
    expect(await storedTask(t().database, part.id)).toMatchObject({ status: 'locked', productCount: 3 });
  });

  it('divides one parcel between two members, one row per task', async () => {
    const w = await world();
    const ta = await claim(w.a.api, w.boardTask.id, 1);
    const tb = await claim(w.b.api, w.boardTask.id, 2);
    await record(w.a.api, ta.id, 'T1', 1);
    await record(w.b.api, tb.id, 'T1', 2);
    const res = await create(w, 'T1', [{ upc: UPC, count: 3, itemId: w.item.id }]);
    expect(res.body.data!.scanTrackingList.map((r) => [r.upc, r.count, r.status, r.taskId, r.matchedUser])).toEqual([
      [UPC, 1, 'match', ta.id, '小A'],
      [UPC, 2, 'match', tb.id, '小B'],
    ]);
    expect(await storedTask(t().database, ta.id)).toMatchObject({ status: 'locked', productCount: 1 });
    expect(await storedTask(t().database, tb.id)).toMatchObject({ status: 'locked', productCount: 2 });
    // Each stored row is audited once, as the scan that wrote it, with its task.
    expect((await trackingAudits('T1')).map((a) => [a.action, a.count, a.status, a.taskId])).toEqual([
      ['scan', 1, 'match', ta.id],
      ['scan', 2, 'match', tb.id],
    ]);
    // The answer is what is stored (the rows after matching, the split one included).
    expect((await lookup(w, 'T1')).body.data!.scanTrackingList).toEqual(res.body.data!.scanTrackingList);
  });
});

describe('/admin/scan2: add', () => {
  it('adds one parcel of the chosen item (its upc by default), refuses a parcel scanned before, and shows whether it matched', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 1);
    await record(w.a.api, task.id, 'S1', 1);

    expect(await add(w, 'S1', {})).toMatchObject(badRequest(scanMessages.chooseItem));
    expect(await add(w, 'S1', { itemId: null })).toMatchObject(badRequest(scanMessages.chooseItem));
    expect(await add(w, 'S1', { itemId: 99999 })).toMatchObject(badRequest(scanMessages.itemNotFound));
    const noUpc = await seedItem(t().database, { itemName: 'No code', upc: null });
    expect(await add(w, 'S1', { itemId: noUpc.id })).toMatchObject(badRequest(scanMessages.upcRequired));

    const ok = await add(w, 'S1', { itemId: w.item.id });
    expect(ok.body).toMatchObject({
      code: 'A00000',
      msg: scanMessages.added,
      data: { opStatus: 'succ', scanTrackingList: [{ upc: UPC, count: 1, itemId: w.item.id, status: 'match', taskId: task.id }] },
    });
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked' });

    const again = await add(w, 'S1', { itemId: w.item.id, count: 1 });
    expect(again.body).toMatchObject({ code: 'A00000', msg: scanMessages.trackingSubmitted, data: { opStatus: 'failed', scanTrackingList: [{ count: 1 }] } });
    expect(await scansOf(t().database, 'S1')).toHaveLength(1);

    // Another product in the same parcel, with an explicit upc and count: nobody recorded it, so its
    // row is unmatch (the screen reads match / unmatch from the rows); the task, locked already,
    // keeps its units.
    const other = await add(w, 'S1', { itemId: w.item2.id, upc: ' 777 ', count: 2 });
    expect(other.body.data!.scanTrackingList.map((r) => [r.upc, r.count, r.status])).toEqual([
      [UPC, 1, 'match'],
      ['777', 2, 'unmatch'],
    ]);
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked' });

    // A product nobody recorded is the admin's and fails nobody (decision 090; until then it made
    // the open task unmatch).
    const open = await claim(w.b.api, w.boardTask.id, 2);
    await record(w.b.api, open.id, 'S2', 2);
    expect((await add(w, 'S2', { itemId: w.item.id })).body.data!.scanTrackingList).toMatchObject([{ status: 'match', taskId: open.id }]);
    expect(await storedTask(t().database, open.id)).toMatchObject({ status: 'open', productCount: 1, canSplit: true });
    const foreign = await add(w, 'S2', { itemId: w.item2.id });
    expect(foreign.body.data!.scanTrackingList.map((r) => [r.upc, r.status])).toEqual([
      [UPC, 'match'],
      [UPC2, 'unmatch'],
    ]);
    expect(await storedTask(t().database, open.id)).toMatchObject({ status: 'open', productCount: 1 });
    expect((await trackingAudits('S1')).filter((a) => a.action === 'add').map((a) => a.upc)).toEqual([UPC, '777']);
  });

  it('says why an unmatch row matched nobody: tracking id not recorded, other products recorded, more units than recorded', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 1);
    await record(w.a.api, task.id, 'R1', 1);
    const reasons = (rows: ScanRowOut[]) => rows.map((r) => [r.upc, r.status, r.unmatchReason]);

    expect(reasons((await add(w, 'R0', { itemId: w.item.id })).body.data!.scanTrackingList)).toEqual([[UPC, 'unmatch', 'notRecorded']]);
    expect(reasons((await add(w, 'R1', { itemId: w.item2.id })).body.data!.scanTrackingList)).toEqual([[UPC2, 'unmatch', 'otherProduct']]);
    const surplus = await create(w, 'R1', [{ upc: UPC, count: 2, itemId: w.item.id }]);
    expect(reasons(surplus.body.data!.scanTrackingList)).toEqual([
      [UPC2, 'unmatch', 'otherProduct'],
      [UPC, 'match', null],
      [UPC, 'unmatch', 'moreThanRecorded'],
    ]);
    // The look-up before a scan says the same; the list of all rows does not answer it.
    expect((await lookup(w, 'R1')).body.data!.scanTrackingList).toEqual(surplus.body.data!.scanTrackingList);
    expect((await list(w, 'trackingId=R0')).body.data!.content[0]).not.toHaveProperty('unmatchReason');
    // A deleted task's records count for nothing.
    const gone = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.b.api, gone.id, 'R2', 1);
    expect((await w.b.api.del(`/api/task/info/user/${gone.id}`)).body.code).toBe('A00000');
    expect(reasons((await add(w, 'R2', { itemId: w.item.id })).body.data!.scanTrackingList)).toEqual([[UPC, 'unmatch', 'notRecorded']]);
  });

  it('says a contested parcel’s units wait for the admin, until the admin assigns them (decision 096)', async () => {
    const w = await world();
    // Two members record the same tracking id for 1 unit each; the parcel holds 1.
    const bobs = await claim(w.b.api, w.boardTask.id, 1);
    const alices = await claim(w.a.api, w.boardTask.id, 1);
    const [bobRecord] = await record(w.b.api, bobs.id, 'C1', 1);
    const [aliceRecord] = await record(w.a.api, alices.id, 'C1', 1);
    const reasons = (rows: ScanRowOut[]) => rows.map((r) => [r.upc, r.status, r.unmatchReason]);

    // The scan's answer (scan2), a repeat of it and the look-up all say why the unit waits.
    expect(reasons((await add(w, 'C1', { itemId: w.item.id })).body.data!.scanTrackingList)).toEqual([[UPC, 'unmatch', 'contested']]);
    const again = await add(w, 'C1', { itemId: w.item.id });
    expect(again.body.data).toMatchObject({ opStatus: 'failed', msg: scanMessages.trackingSubmitted });
    expect(reasons(again.body.data!.scanTrackingList)).toEqual([[UPC, 'unmatch', 'contested']]);
    expect(reasons((await lookup(w, 'C1')).body.data!.scanTrackingList)).toEqual([[UPC, 'unmatch', 'contested']]);

    // The admin gives the unit to alice: the row is hers, and nothing waits any more.
    const assigned = await w.admin.post('/api/match/admin/contested/assign', {
      trackingId: 'C1',
      upc: UPC,
      records: [
        { recordId: aliceRecord!.id, count: 1 },
        { recordId: bobRecord!.id, count: 0 },
      ],
    });
    expect(assigned.body.code).toBe('A00000');
    expect((await lookup(w, 'C1')).body.data!.scanTrackingList).toMatchObject([{ upc: UPC, status: 'match', taskId: alices.id, unmatchReason: null }]);
  });

  it('sees an imported row (init) when its parcel is scanned, on both screens, with the scanned count', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    await record(w.a.api, task.id, 'I1', 2);
    const announced = await scan(t().database, 'I1', UPC, 5, 'init');
    const res = await add(w, 'I1', { itemId: w.item.id, count: 2 });
    expect(res.body.data!.scanTrackingList).toMatchObject([{ id: announced.id, count: 2, status: 'match', itemId: w.item.id, taskId: task.id }]);
    expect((await lookup(w, 'I1')).body.data!.scanTrackingList).toEqual(res.body.data!.scanTrackingList);
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked' });
    // One entry: the announcement before, the row as stored (seen and matched at once) after.
    const entries = await trackingAudits('I1');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'add',
      entityId: announced.id,
      before: { status: 'init', count: 5 },
      after: { status: 'match', count: 2, taskId: task.id },
    });

    const other = await scan(t().database, 'I2', UPC2, 1, 'init');
    const viaCreate = await create(w, 'I2', [{ upc: UPC2, count: 1, itemId: w.item2.id }]);
    expect(viaCreate.body.data).toMatchObject({ opStatus: 'succ', scanTrackingList: [{ id: other.id, status: 'unmatch', itemName: 'Switch Pro' }] });

    // Modify leaves an imported row imported.
    const third = await scan(t().database, 'I3', UPC, 1, 'init');
    expect((await modify(w, third.id, { count: 4 })).body.data!.scanTracking).toMatchObject({ status: 'init', count: 4 });
  });
});

describe('/admin/tracking-list', () => {
  /** Rows written straight into the table at given times. */
  async function seedRows(w: World) {
    const db = t().database.db;
    const at = (iso: string) => new Date(iso);
    const values = [
      { trackingId: 'L1', upc: UPC, count: 1, itemId: w.item.id, itemName: 'AirPods Pro', status: 'scan' as const, createdAt: at('2024-03-01T15:30:00Z') },
      { trackingId: 'L2', upc: UPC2, count: 2, itemId: w.item2.id, itemName: 'Switch Pro', status: 'match' as const, createdAt: at('2024-03-01T16:30:00Z') },
      { trackingId: 'L2', upc: UPC, count: 1, itemId: w.item.id, itemName: 'AirPods Pro', status: 'unmatch' as const, createdAt: at('2024-03-02T10:00:00Z') },
      { trackingId: 'L3', upc: UPC, count: 3, itemId: null, itemName: '', status: 'init' as const, createdAt: at('2024-03-03T23:59:00Z') },
    ];
    return db.insert(scanTrackings).values(values).returning();
  }

  it('filters by tracking id, status, item and days in the caller offset, newest first, paged', async () => {
    const w = await world();
    const [r1, r2, r3, r4] = await seedRows(w);
    const ids = async (q: string) => (await list(w, q)).body.data!.content.map((r) => r.id);
    expect(await ids('')).toEqual([r4!.id, r3!.id, r2!.id, r1!.id]);
    expect(await ids('isDesc=false')).toEqual([r1!.id, r2!.id, r3!.id, r4!.id]);
    expect(await ids('trackingId=%20L2%20')).toEqual([r3!.id, r2!.id]);
    expect(await ids('status=init')).toEqual([r4!.id]);
    expect(await ids(`itemId=${w.item.id}`)).toEqual([r3!.id, r1!.id]);
    expect(await ids(`itemId=${w.item.id}&status=scan`)).toEqual([r1!.id]);
    // 2024-03-02 in UTC+8 runs from 2024-03-01T16:00Z to 2024-03-02T16:00Z.
    expect(await ids('startTime=2024-03-02&endTime=2024-03-02&timezone=8')).toEqual([r3!.id, r2!.id]);
    expect(await ids('startTime=2024-03-02&endTime=2024-03-02&timezone=0')).toEqual([r3!.id]);
    expect(await ids('startTime=2024-03-02&timezone=-5')).toEqual([r4!.id, r3!.id]);
    expect(await ids('endTime=2024-03-01&timezone=0')).toEqual([r2!.id, r1!.id]);

    const page = await list(w, 'page=1&size=3');
    expect(page.body.data).toMatchObject({ totalPages: 2, totalCapped: false, size: 3, content: [{ id: r1!.id }] });
    expect(page.body.data!.content[0]).toMatchObject({ trackingId: 'L1', upc: UPC, itemName: 'AirPods Pro', createdAt: Date.parse('2024-03-01T15:30:00Z') });
    expect((await list(w, 'page=9&size=3')).body.data).toMatchObject({ totalPages: 2, content: [] });

    expect(await list(w, 'startTime=2024-02-30')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await list(w, 'startTime=2024-03-05&endTime=2024-03-01')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await list(w, 'startTime=yesterday')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await list(w, 'status=lost')).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });

  it('counts at most the rows up to the page plus COUNT_AHEAD, and says when it stopped', async () => {
    const w = await world();
    const n = COUNT_AHEAD + 100;
    await t().database.db.execute(
      sql`insert into scan_trackings (tracking_id, upc, count, item_name, status) select 'B' || g, ${UPC}, 1, '', 'scan' from generate_series(1, ${n}) g`,
    );
    const first = (await list(w, 'size=20')).body.data!;
    expect(first).toMatchObject({ totalPages: (COUNT_AHEAD + 20) / 20, totalCapped: true, size: 20 });
    expect(first.content).toHaveLength(20);
    // Paging on raises the bound: near the end the count is exact.
    const deep = (await list(w, `size=20&page=${Math.floor(n / 20) - 1}`)).body.data!;
    expect(deep).toMatchObject({ totalPages: Math.ceil(n / 20), totalCapped: false });
    expect((await list(w, 'status=scan&trackingId=B7')).body.data).toMatchObject({ totalPages: 1, totalCapped: false, content: [{ trackingId: 'B7' }] });
  });

  it('exports the rows of the list filters behind a download token, with the list columns', async () => {
    const w = await world();
    const [, r2, r3] = await seedRows(w);
    await t().database.db.update(scanTrackings).set({ matchedUser: '小A', mainId: 12, subId: 1, userId: w.a.user.id }).where(eq(scanTrackings.id, r2!.id));
    expect(await w.a.api.get('/api/download/excel/tracking/token')).toMatchObject({ status: 403, body: { code: 'A00003' } });
    const tok = await w.lower.get<{ token: string }>('/api/download/excel/tracking/token?trackingId=L2&timezone=8&isDesc=false');
    expect(tok.body.code).toBe('A00000');
    const res = await t().app.inject({ method: 'GET', url: `/ext/excel/tracking/${tok.body.data!.token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="trackings-\d{12}\.xlsx"/);
    const rows = rowsOf(res.rawPayload);
    expect(rows[0]).toEqual([...TRACKING_EXPORT_HEADER]);
    expect(rows.slice(1)).toEqual([
      [r2!.id, 'L2', UPC2, 2, w.item2.id, 'Switch Pro', '已匹配', '小A', w.a.user.id, '12-1', null, '2024-03-02 00:30', expect.any(String)],
      [r3!.id, 'L2', UPC, 1, w.item.id, 'AirPods Pro', '不匹配', '', null, '', null, '2024-03-02 18:00', expect.any(String)],
    ]);

    // The filters are fixed in the token; the link of another kind or a made-up token opens nothing.
    const user = await w.a.api.get<{ token: string }>('/api/download/excel/user-task/token');
    expect(await call(t().app, { method: 'GET', url: `/ext/excel/tracking/${user.body.data!.token}` })).toMatchObject({
      status: 404,
      body: { code: 'A00004' },
    });
    expect(await call(t().app, { method: 'GET', url: '/ext/excel/tracking/not-a-token' })).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await w.admin.get('/api/download/excel/tracking/token?startTime=2024-02-31')).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });

  it('refuses a token for an export of more rows than the limit', async () => {
    const w = await world();
    await t().database.db.execute(
      sql`insert into scan_trackings (tracking_id, upc, count, item_name, status) select 'X' || g, ${UPC}, 1, '', 'scan' from generate_series(1, ${MAX_TRACKING_EXPORT_ROWS + 1}) g`,
    );
    expect(await w.admin.get('/api/download/excel/tracking/token')).toMatchObject(badRequest(trackingExportMessages.tooMany));
    expect((await w.admin.get('/api/download/excel/tracking/token?trackingId=X1')).body.code).toBe('A00000');
  });
});
