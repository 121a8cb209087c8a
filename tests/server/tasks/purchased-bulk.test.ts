// The paste box's call (POST /api/purchased/user/{taskId}/bulk; decision 105) through the API on a
// real database: lines of `tracking [quantity]` with any separator become records in one call, each
// line checked with the record dialog's rules and reported, all or nothing, then matched; another
// member's task reads as not existing.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { BULK_MAX_LINES, bulkMessages, purchasedRecordMessages } from '../../../machines/purchased-record.ts';
import { taskMessages } from '../../../machines/task.machine.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { useTestApp } from '../support/harness.ts';
import { claim, notFound, record, refused, scan, setTask, storedTask, taskWorld, UPC, type PurchasedOut, type TaskOut } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const world = () => taskWorld(t().app, t().database);
const bulk = (taskId: number) => `/api/purchased/user/${taskId}/bulk`;
type Row = { line: number; tracking: string; qty: number | null; ok: boolean; msg: string };
type Bulk = { status: 'succ' | 'failed'; msg: string; rows: Row[]; purchasedItems: PurchasedOut[] };
const allRecords = () => t().database.db.select().from(purchasedRecords).orderBy(purchasedRecords.id);
const purchasedAudits = () => t().database.db.select().from(auditLog).where(eq(auditLog.entity, 'purchased')).orderBy(auditLog.id);

describe('recording many purchases from a paste', () => {
  it('reads tabs, commas, spaces and semicolons, skips blank lines, takes quantity 1 when absent, and records every line', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 10);
    const text = ['1Z001\t2', '', '1Z002, 3', '  1Z003  ', '1Z004;1', '1Z005，1', '\t', '1Z006 ；2'].join('\r\n');
    const res = await w.a.api.post<Bulk>(bulk(task.id), { text });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'A00000', msg: '已添加6条记录', data: { status: 'succ', msg: '已添加6条记录' } });
    expect(res.body.data!.rows.map((r) => [r.line, r.tracking, r.qty, r.ok])).toEqual([
      [1, '1Z001', 2, true],
      [3, '1Z002', 3, true],
      [4, '1Z003', 1, true],
      [5, '1Z004', 1, true],
      [6, '1Z005', 1, true],
      [8, '1Z006', 2, true],
    ]);
    expect(res.body.data!.rows.every((r) => r.msg === '创建成功')).toBe(true);
    expect(res.body.data!.purchasedItems.map((p) => [p.trackingId, p.productCount, p.status])).toEqual([
      ['1Z001', 2, 'init'],
      ['1Z002', 3, 'init'],
      ['1Z003', 1, 'init'],
      ['1Z004', 1, 'init'],
      ['1Z005', 1, 'init'],
      ['1Z006', 2, 'init'],
    ]);
    // Each record audited as the dialog's create is.
    expect((await purchasedAudits()).map((a) => [a.action, a.trackingId, a.count, a.opUid])).toEqual(
      ['1Z001', '1Z002', '1Z003', '1Z004', '1Z005', '1Z006'].map((id, i) => ['create', id, [2, 3, 1, 1, 1, 2][i], w.a.user.id]),
    );
    expect((await storedTask(t().database, task.id)).trackingId).toBe('1Z006');
  });

  it('reports every refused line with the dialog’s words and changes nothing', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 5);
    await record(w.a.api, task.id, 'OLD1', 1);
    const before = { records: await allRecords(), audits: (await purchasedAudits()).length, task: await storedTask(t().database, task.id) };
    const text = [
      'A1 2', // fine
      'A2 0', // not a quantity
      'A3 two', // not a quantity
      'A4 1 extra', // three fields
      `${'x'.repeat(65)} 1`, // too long
      'A1 1', // repeats line 1
      'OLD1 1', // already on the task
      'A5 1', // fine so far (1 + 2 + 1 = 4 units)
      'A6 1', // 5 units: still fine
      'A7 1', // the sixth unit: past the count
    ].join('\n');
    const res = await w.a.api.post<Bulk>(bulk(task.id), { text });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'A00000', data: { status: 'failed', msg: '7行有误，未添加任何记录' } });
    expect(res.body.data!.rows).toEqual([
      { line: 1, tracking: 'A1', qty: 2, ok: true, msg: '' },
      { line: 2, tracking: 'A2', qty: 0, ok: false, msg: bulkMessages.quantityInvalid },
      { line: 3, tracking: 'A3', qty: null, ok: false, msg: bulkMessages.quantityInvalid },
      { line: 4, tracking: 'A4', qty: 1, ok: false, msg: bulkMessages.tooManyFields },
      { line: 5, tracking: 'x'.repeat(65), qty: 1, ok: false, msg: purchasedRecordMessages.trackingIdTooLong },
      { line: 6, tracking: 'A1', qty: 1, ok: false, msg: bulkMessages.duplicate(1) },
      { line: 7, tracking: 'OLD1', qty: 1, ok: false, msg: purchasedRecordMessages.alreadyRecorded },
      { line: 8, tracking: 'A5', qty: 1, ok: true, msg: '' },
      { line: 9, tracking: 'A6', qty: 1, ok: true, msg: '' },
      { line: 10, tracking: 'A7', qty: 1, ok: false, msg: purchasedRecordMessages.overCount(5) },
    ]);
    expect(res.body.data!.purchasedItems.map((p) => p.trackingId)).toEqual(['OLD1']);
    expect(await allRecords()).toEqual(before.records);
    expect(await purchasedAudits()).toHaveLength(before.audits);
    expect(await storedTask(t().database, task.id)).toEqual(before.task);
  });

  it('is all or nothing: one line past the count among good lines records none of them', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 3);
    const res = await w.a.api.post<Bulk>(bulk(task.id), { text: 'B1\nB2\nB3\nB4' });
    expect(res.body.data).toMatchObject({ status: 'failed', msg: '1行有误，未添加任何记录' });
    expect(res.body.data!.rows.map((r) => r.ok)).toEqual([true, true, true, false]);
    expect(await allRecords()).toEqual([]);
    // Corrected, the same call records all of them.
    const fixed = await w.a.api.post<Bulk>(bulk(task.id), { text: 'B1\nB2\nB3' });
    expect(fixed.body.data).toMatchObject({ status: 'succ' });
    expect((await allRecords()).map((r) => r.trackingId)).toEqual(['B1', 'B2', 'B3']);
  });

  it('matches after recording, as a record made in the dialog is', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 3);
    await scan(t().database, 'M1', UPC, 2);
    const res = await w.a.api.post<Bulk>(bulk(task.id), { text: 'M1\t2\nM2' });
    expect(res.body.data!.status).toBe('succ');
    expect(res.body.data!.purchasedItems.map((p) => [p.trackingId, p.status])).toEqual([
      ['M1', 'match'],
      ['M2', 'init'],
    ]);
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'open', productCount: 2, canSplit: true });
    // The parcel of M2 arrives: the task is locked by the next matching, as for any record.
    await scan(t().database, 'M2', UPC, 1);
    await w.a.api.post('/api/match/user/tracking/match', { trackingId: 'M2' });
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked', productCount: 3 });
  });

  it('records a carrier id pasted whole with its spaces as one parcel, with or without a quantity (decision 105)', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 5);
    const res = await w.a.api.post<Bulk>(bulk(task.id), { text: '1Z 999 AA1 01 2345 6784 2\n9865 7878 8855' });
    expect(res.body.data!.rows.map((r) => [r.line, r.tracking, r.qty, r.ok])).toEqual([
      [1, '1Z 999 AA1 01 2345 6784', 2, true],
      [2, '9865 7878 8855', 1, true],
    ]);
    // The key is stored; what the member pasted is kept as typed (decision 097).
    expect((await allRecords()).map((r) => [r.trackingId, r.typedTrackingId, r.productCount])).toEqual([
      ['1Z999AA10123456784', '1Z 999 AA1 01 2345 6784', 2],
      ['986578788855', '9865 7878 8855', 1],
    ]);
  });

  it("answers another member's task and a missing task A00004, changing nothing", async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 3);
    expect(await w.b.api.post(bulk(task.id), { text: 'X1 1' })).toMatchObject({ ...notFound, body: { code: 'A00004', msg: '任务不存在' } });
    expect(await w.a.api.post(bulk(99999), { text: 'X1 1' })).toMatchObject(notFound);
    expect(await w.admin.post(bulk(task.id), { text: 'X1 1' })).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await allRecords()).toEqual([]);
  });

  it('refuses a task whose records may not change (the machine’s words), an empty paste and too many lines (A00001)', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 100);
    expect(await w.a.api.post(bulk(task.id), { text: ' \n\t\n' })).toMatchObject(refused(bulkMessages.empty));
    expect(await w.a.api.post(bulk(task.id), {})).toMatchObject(refused(bulkMessages.empty));
    const many = Array.from({ length: BULK_MAX_LINES + 1 }, (_, i) => `N${i}`).join('\n');
    expect(await w.a.api.post(bulk(task.id), { text: many })).toMatchObject(refused(bulkMessages.tooManyLines(BULK_MAX_LINES)));
    expect(await w.a.api.post(bulk(task.id), { text: 'y'.repeat(20_001) })).toMatchObject({ status: 400, body: { code: 'A00001' } });
    await setTask(t().database, task.id, { status: 'locked' });
    expect(await w.a.api.post(bulk(task.id), { text: 'L1 1' })).toMatchObject(refused(taskMessages.recordsOpenOrUnmatch));
    expect(await allRecords()).toEqual([]);
  });
});

describe("the member's task list: each tracking id's verdict", () => {
  it('lists every record of a task with its status and matching’s words', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 4);
    await scan(t().database, 'V1', UPC, 2);
    await scan(t().database, 'V2', UPC, 1);
    await w.a.api.post(bulk(task.id), { text: 'V1 2\nV2 2' });
    await claim(w.a.api, w.boardTask.id, 1);
    const list = await w.a.api.get<{ content: TaskOut[] }>('/api/task/info/user/list');
    const mine = list.body.data!.content.find((x) => x.id === task.id)!;
    expect(mine.trackings).toEqual([
      { trackingId: 'V1', productCount: 2, status: 'match', msg: '' },
      { trackingId: 'V2', productCount: 2, status: 'unmatch', msg: expect.stringMatching(/\S/) },
    ]);
    const bare = list.body.data!.content.find((x) => x.id !== task.id)!;
    expect(bare).toMatchObject({ trackings: [], askedBonus: null, agreedBonus: null });
  });
});
