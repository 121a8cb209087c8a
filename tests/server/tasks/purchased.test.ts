// Purchased records (the task record dialog; SPEC §3, §4 "A task-record row with status match cannot
// be deleted or edited", §5 '请填写trackingId' / '请填写数目'; DECISIONS "Roles") through the API, and
// the service the Excel upload shares (src/server/tasks/purchased-service.ts).
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { taskMessages } from '../../../machines/task.machine.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { purchasedMessages, removePurchasedRecord, savePurchasedRecord } from '../../../src/server/tasks/purchased-service.ts';
import { useTestApp } from '../support/harness.ts';
import { claim, notFound, record, refused, scan, setTask, storedTask, taskWorld, UPC, type PurchasedOut, type TaskOut } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const world = () => taskWorld(t().app, t().database);
type Change = { status: string; msg: string; purchasedItems: PurchasedOut[] };
const create = (taskId: number) => `/api/purchased/user/${taskId}/create`;
const allRecords = () => t().database.db.select().from(purchasedRecords).orderBy(purchasedRecords.id);
const purchasedAudits = () => t().database.db.select().from(auditLog).where(eq(auditLog.entity, 'purchased')).orderBy(auditLog.id);

describe('recording purchases (member)', () => {
  it('creates a record with the trackingId trimmed, lists it, and audits it', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 3);
    const res = await w.a.api.post<Change>(create(task.id), { trackingId: '  1Z999  ', productCount: 2 });
    expect(res.body).toMatchObject({
      code: 'A00000',
      msg: '创建成功',
      data: { status: 'succ', purchasedItems: [{ taskId: task.id, trackingId: '1Z999', productCount: 2, status: 'init', msg: '' }] },
    });
    expect((await w.a.api.get<{ purchasedItems: PurchasedOut[] }>(`/api/purchased/${task.id}/taskTracking`)).body.data!.purchasedItems).toMatchObject([
      { trackingId: '1Z999' },
    ]);
    expect((await w.a.api.get<TaskOut>(`/api/task/info/${task.id}`)).body.data!.trackingId).toBe('1Z999');
    expect(await purchasedAudits()).toMatchObject([
      {
        action: 'create',
        opUid: w.a.user.id,
        userId: w.a.user.id,
        taskId: task.id,
        mainId: task.mainId,
        trackingId: '1Z999',
        count: 2,
        status: 'open',
        before: null,
        after: { trackingId: '1Z999', productCount: 2 },
      },
    ]);
  });

  it("requires trackingId ('请填写trackingId') and a whole count of at least 1 ('请填写数目'), and refuses a tracking id twice", async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 3);
    expect(await w.a.api.post(create(task.id), { productCount: 1 })).toMatchObject(refused('请填写trackingId'));
    expect(await w.a.api.post(create(task.id), { trackingId: '   ', productCount: 1 })).toMatchObject(refused('请填写trackingId'));
    expect(await w.a.api.post(create(task.id), { trackingId: 'T1' })).toMatchObject(refused('请填写数目'));
    expect(await w.a.api.post(create(task.id), { trackingId: 'T1', productCount: 0 })).toMatchObject(refused('请填写数目'));
    expect(await w.a.api.post(create(task.id), { trackingId: 'T1', productCount: -3 })).toMatchObject(refused('请填写数目'));
    expect(await w.a.api.post(create(task.id), { trackingId: 'T1', productCount: 1.5 })).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await w.a.api.post(create(task.id), { trackingId: 'T1', productCount: '2' })).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await allRecords()).toHaveLength(0);
    await record(w.a.api, task.id, 'T1', 1);
    expect(await w.a.api.post(create(task.id), { trackingId: 'T1 ', productCount: 2 })).toMatchObject(refused('该快递单号已记录'));
    expect(await allRecords()).toMatchObject([{ productCount: 1 }]);
  });

  it('removing the record that held arrived units judges its task again: nothing is tied to it any more (decision 095)', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    await scan(t().database, 'T1', UPC, 1);
    const [r] = await record(w.a.api, task.id, 'T1', 2);
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'open', productCount: 1, canSplit: true });
    expect(await w.a.api.post('/api/purchased/user/remove', { id: r!.id })).toMatchObject({ status: 200 });
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'open', productCount: 0, canSplit: false });
  });

  it('edits the count or the tracking id, and removes a record; a matched record can do neither', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 4);
    const [r1] = await record(w.a.api, task.id, 'T1', 1);
    const [, r2] = await record(w.a.api, task.id, 'T2', 2);
    const upd = await w.a.api.post<Change>('/api/purchased/user/update', { id: r1!.id, trackingId: 'T1', productCount: 2 });
    expect(upd.body).toMatchObject({ code: 'A00000', msg: '保存成功', data: { purchasedItems: [{ id: r1!.id, productCount: 2 }, { id: r2!.id }] } });
    expect(await w.a.api.post('/api/purchased/user/update', { id: r1!.id, trackingId: 'T2', productCount: 2 })).toMatchObject(refused('该快递单号已记录'));
    expect(await w.a.api.post('/api/purchased/user/update', { id: r1!.id, productCount: 2 })).toMatchObject(refused('请填写trackingId'));
    expect(await w.a.api.post('/api/purchased/user/update', { id: r1!.id, trackingId: 'T1' })).toMatchObject(refused('请填写数目'));
    const moved = await w.a.api.post<Change>('/api/purchased/user/update', { id: r1!.id, trackingId: 'T3', productCount: 2 });
    expect(moved.body.data!.purchasedItems.map((x) => x.trackingId)).toEqual(['T3', 'T2']);
    const audits = await purchasedAudits();
    expect(audits.filter((x) => x.action === 'update').map((x) => [(x.before as PurchasedOut).productCount, (x.after as PurchasedOut).trackingId])).toEqual([
      [1, 'T1'],
      [2, 'T3'],
    ]);

    // The parcel of T2 arrives complete: its record is matched and frozen.
    await scan(t().database, 'T2', UPC, 2);
    await w.a.api.post('/api/match/user/tracking/match', { trackingId: 'T2' });
    expect((await allRecords()).find((x) => x.id === r2!.id)).toMatchObject({ status: 'match' });
    expect(await w.a.api.post('/api/purchased/user/update', { id: r2!.id, trackingId: 'T2', productCount: 3 })).toMatchObject(refused('已匹配的记录不能修改'));
    expect(await w.a.api.post('/api/purchased/user/remove', { id: r2!.id })).toMatchObject(refused('已匹配的记录不能删除'));

    const rm = await w.a.api.post<Change>('/api/purchased/user/remove', { id: r1!.id });
    expect(rm.body).toMatchObject({ code: 'A00000', msg: '删除成功', data: { purchasedItems: [{ id: r2!.id }] } });
    expect((await purchasedAudits()).filter((x) => x.action === 'remove')).toMatchObject([
      { before: { id: r1!.id, trackingId: 'T3' }, after: null, trackingId: 'T3' },
    ]);
    expect(await storedTask(t().database, task.id)).toMatchObject({ trackingId: 'T2' });
    expect(await w.a.api.post('/api/purchased/user/remove', { id: r1!.id })).toMatchObject(notFound);
  });

  // Decision 090: open or unmatch (until then open only, '只有进行中的任务可以修改').
  it('changes records only while the task is open or unmatch (task.records by user), with the machine message', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    const [r] = await record(w.a.api, task.id, 'T1', 1);
    for (const status of ['pending', 'locked', 'closed', 'deleted'] as const) {
      await setTask(t().database, task.id, { status });
      expect(await w.a.api.post(create(task.id), { trackingId: 'T9', productCount: 1 })).toMatchObject(refused(taskMessages.recordsOpenOrUnmatch));
      expect(await w.a.api.post('/api/purchased/user/update', { id: r!.id, trackingId: 'T1', productCount: 2 })).toMatchObject(
        refused(taskMessages.recordsOpenOrUnmatch),
      );
      expect(await w.a.api.post('/api/purchased/user/remove', { id: r!.id })).toMatchObject(refused(taskMessages.recordsOpenOrUnmatch));
    }
    expect(await allRecords()).toMatchObject([{ id: r!.id, productCount: 1 }]);
    await setTask(t().database, task.id, { status: 'unmatch' });
    expect((await w.a.api.post('/api/purchased/user/update', { id: r!.id, trackingId: 'T1', productCount: 2 })).body.code).toBe('A00000');
    expect(await allRecords()).toMatchObject([{ id: r!.id, productCount: 2 }]);
  });

  it("keeps members out of each other's tasks and records (A00004); the admin side reads any", async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    const [r] = await record(w.a.api, task.id, 'T1', 1);
    expect(await w.b.api.post(create(task.id), { trackingId: 'T2', productCount: 1 })).toMatchObject(notFound);
    expect(await w.b.api.post('/api/purchased/user/update', { id: r!.id, trackingId: 'T1', productCount: 2 })).toMatchObject({
      status: 404,
      body: { code: 'A00004', msg: '记录不存在' },
    });
    expect(await w.b.api.post('/api/purchased/user/remove', { id: r!.id })).toMatchObject({ status: 404, body: { code: 'A00004', msg: '记录不存在' } });
    expect(await w.b.api.get(`/api/purchased/${task.id}/taskTracking`)).toMatchObject(notFound);
    expect(await w.a.api.get('/api/purchased/99999/taskTracking')).toMatchObject(notFound);
    expect(await w.a.api.post(create(99999), { trackingId: 'T2', productCount: 1 })).toMatchObject(notFound);
    expect((await w.admin.get<{ purchasedItems: PurchasedOut[] }>(`/api/purchased/${task.id}/taskTracking`)).body.data!.purchasedItems).toHaveLength(1);
    expect(await w.admin.post(create(task.id), { trackingId: 'T2', productCount: 1 })).toMatchObject({ status: 403 });
    expect(await allRecords()).toMatchObject([{ productCount: 1 }]);
  });
});

describe('the purchased-record service (shared with the Excel upload)', () => {
  it('skips a tracking id already recorded (oldQty), updates by (task, tracking id), and reports errors without writing', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 5);
    const other = await claim(w.b.api, w.boardTask.id, 1);
    const { db } = t().database;
    const tx = <T>(f: (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => Promise<T>) => db.transaction(f);

    const first = await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: 'T1', productCount: 2 }, 'insert'));
    expect(first).toMatchObject({ opStatus: 'succ', msg: '创建成功', record: { trackingId: 'T1', productCount: 2 } });
    expect(await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: ' T1', productCount: 4 }, 'insert'))).toMatchObject({
      opStatus: 'skip',
      msg: purchasedMessages.alreadyRecorded,
      oldQty: 2,
    });
    expect(await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: 'T1', productCount: 4 }, 'update'))).toMatchObject({
      opStatus: 'succ',
      oldQty: 2,
      record: { productCount: 4 },
    });
    expect(await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: 'T1', productCount: 4 }, 'update'))).toMatchObject({
      opStatus: 'skip',
      msg: '没有变化',
      oldQty: 4,
    });
    expect(await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: 'T8', productCount: 1 }, 'update'))).toEqual({
      opStatus: 'error',
      msg: purchasedMessages.noRecordForTracking,
      code: 'A00001',
    });
    expect(await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: other.id, trackingId: 'T1', productCount: 1 }, 'insert'))).toEqual({
      opStatus: 'error',
      msg: '任务不存在',
      code: 'A00004',
    });
    expect(await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: 'T2', productCount: 0 }, 'insert'))).toEqual({
      opStatus: 'error',
      msg: '请填写数目',
      code: 'A00001',
    });
    expect(await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: 'x'.repeat(65), productCount: 1 }, 'insert'))).toMatchObject({
      opStatus: 'error',
      msg: '快递单号不能超过64个字符',
    });
    // A control character (a NUL cannot even be stored) is refused like a scanner's code, not a 500.
    expect(await tx((x) => savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: 'T\u00009', productCount: 1 }, 'insert'))).toMatchObject({
      opStatus: 'error',
      msg: '快递单号包含无效字符',
      code: 'A00001',
    });

    // Errors leave the transaction usable: an upload goes on with its next row.
    const rows = await tx(async (x) => [
      await savePurchasedRecord(x, w.a.actor, { taskId: other.id, trackingId: 'T3', productCount: 1 }, 'insert'),
      await savePurchasedRecord(x, w.a.actor, { taskId: task.id, trackingId: 'T3', productCount: 1 }, 'insert'),
    ]);
    expect(rows.map((r) => r.opStatus)).toEqual(['error', 'succ']);
    expect((await allRecords()).map((r) => [r.taskId, r.trackingId, r.productCount])).toEqual([
      [task.id, 'T1', 4],
      [task.id, 'T3', 1],
    ]);
  });

  it("lets the admin side record on any task it may edit (task.edit by admin), for the task's owner", async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    const { db } = t().database;
    await setTask(t().database, task.id, { status: 'unmatch' });
    const res = await db.transaction((x) => savePurchasedRecord(x, w.adminActor, { taskId: task.id, trackingId: 'T1', productCount: 2 }, 'insert'));
    expect(res).toMatchObject({ opStatus: 'succ', record: { userId: w.a.user.id, taskId: task.id } });
    expect((await purchasedAudits())[0]).toMatchObject({ opUid: w.adminUser.id, userId: w.a.user.id, status: 'unmatch' });
    await setTask(t().database, task.id, { status: 'pending' });
    expect(await db.transaction((x) => savePurchasedRecord(x, w.adminActor, { taskId: task.id, trackingId: 'T2', productCount: 1 }, 'insert'))).toEqual({
      opStatus: 'error',
      msg: taskMessages.editNotPending,
      code: 'A00001',
    });
    await setTask(t().database, task.id, { status: 'locked' });
    expect(await db.transaction((x) => removePurchasedRecord(x, w.adminActor, res.record!.id))).toMatchObject({ opStatus: 'succ', msg: '删除成功' });
  });
});
