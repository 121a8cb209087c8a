// Matching (DECISIONS "Receiving and matching"; src/server/matching): scanned parcels against
// purchased records, on a real database. Scan rows are written straight into scan_trackings (the
// scan screens are the next issue's); records go through the member's API, which runs matching.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { allocate } from '../../../src/server/matching/allocate.ts';
import { matchTracking } from '../../../src/server/matching/match.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { useTestApp } from '../support/harness.ts';
import {
  claim,
  notFound,
  record,
  refused,
  scan,
  scansOf,
  setTask,
  storedTask,
  taskWorld,
  UPC,
  UPC2,
  type PurchasedOut,
  type TaskOut,
} from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const world = () => taskWorld(t().app, t().database);
const match = (trackingId: string) => t().database.db.transaction((tx) => matchTracking(tx, trackingId, null));
const recordsOf = (taskId: number) => t().database.db.select().from(purchasedRecords).where(eq(purchasedRecords.taskId, taskId)).orderBy(purchasedRecords.id);
type MatchOut = { opStatus: string; msg: string; tasks: TaskOut[] };

describe('allocate (the arithmetic)', () => {
  it('serves settled records first, keeps rows with their task, and leaves a UPC nobody recorded untied without failing anyone', () => {
    const a = allocate(
      [
        { id: 1, upc: 'X', count: 4, status: 'scan', taskId: null },
        { id: 2, upc: 'X', count: 1, status: 'match', taskId: 20 },
        { id: 3, upc: 'Y', count: 1, status: 'scan', taskId: null },
        { id: 4, upc: 'X', count: 9, status: 'init', taskId: null },
      ],
      [
        { id: 10, taskId: 10, upc: 'X', productCount: 3, cap: 3, settled: false, memberId: 1, assigned: null },
        { id: 20, taskId: 20, upc: 'X', productCount: 2, cap: 2, settled: true, memberId: 1, assigned: null },
      ],
    );
    expect(a.records.get(20)).toMatchObject({ arrived: 2, status: 'match' });
    // Decision 090: the Y nobody recorded is the admin's, not a fault of the X records.
    expect(a.records.get(10)).toMatchObject({ arrived: 3, status: 'match', problem: null });
    expect(a.pieces.get(2)).toEqual([{ count: 1, recordId: 20, taskId: 20 }]);
    expect(a.pieces.get(1)).toEqual([
      { count: 1, recordId: 20, taskId: 20 },
      { count: 3, recordId: 10, taskId: 10 },
    ]);
    expect(a.pieces.get(3)).toEqual([{ count: 1, recordId: null, taskId: null }]);
    expect(a.pieces.has(4)).toBe(false);
    expect(a.surplus).toEqual(new Map([['Y', 1]]));
  });

  it('says nothing before anything is seen, and partial when fewer units arrived', () => {
    expect(allocate([], [{ id: 1, taskId: 1, upc: 'X', productCount: 2, cap: 2, settled: false, memberId: 1, assigned: null }]).records.get(1)).toMatchObject({
      arrived: 0,
      status: 'init',
      problem: null,
    });
    const p = allocate(
      [{ id: 1, upc: 'X', count: 1, status: 'scan', taskId: null }],
      [{ id: 1, taskId: 1, upc: 'X', productCount: 2, cap: 2, settled: false, memberId: 1, assigned: null }],
    );
    expect(p.records.get(1)).toMatchObject({ arrived: 1, status: 'unmatch', problem: { kind: 'partial', arrived: 1, recorded: 2 } });
  });
});

describe('matching a tracking id', () => {
  it('locks a task when all its units arrived, ties the scan rows to it and audits every change', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 3);
    const { database } = t();
    const row = await scan(database, 'T1', UPC, 3);
    // Recording the tracking id runs matching at once.
    const items = await record(w.a.api, task.id, 'T1', 3);
    expect(items).toMatchObject([{ trackingId: 'T1', productCount: 3, status: 'match', msg: '' }]);
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'locked', productCount: 3, canSplit: false });
    expect(await scansOf(database, 'T1')).toMatchObject([
      { id: row.id, count: 3, status: 'match', userId: w.a.user.id, mainId: task.mainId, subId: 0, taskId: task.id, matchedUser: '小A' },
    ]);
    const audits = await database.db.select().from(auditLog).orderBy(auditLog.id);
    expect(audits.filter((x) => x.entity === 'tracking')).toMatchObject([
      { action: 'match', entityId: row.id, status: 'match', taskId: task.id, trackingId: 'T1', before: { status: 'scan' }, after: { status: 'match' } },
    ]);
    expect(audits.filter((x) => x.entity === 'task' && x.action === 'match')).toMatchObject([
      { taskId: task.id, status: 'locked', opUid: w.a.user.id, before: { status: 'open' }, after: { status: 'locked', productCount: 3 } },
    ]);

    // Matching again changes nothing and writes nothing.
    const n = audits.length;
    expect(await match('T1')).toMatchObject({ taskIds: [task.id], changedTaskIds: [] });
    expect(await database.db.select().from(auditLog)).toHaveLength(n);
  });

  it('keeps a partly arrived task open with productCount and canSplit, across several tracking ids', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 5);
    const { database } = t();
    await record(w.a.api, task.id, 'T1', 2);
    await record(w.a.api, task.id, 'T2', 3);
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'open', productCount: 0, canSplit: false });

    await scan(database, 'T2', UPC, 2);
    await match('T2');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'open', productCount: 2, canSplit: true });
    expect(await recordsOf(task.id)).toMatchObject([
      { trackingId: 'T1', status: 'init', msg: '' },
      { trackingId: 'T2', status: 'unmatch', msg: '已到货2件，记录3件' },
    ]);
    await scan(database, 'T1', UPC, 2);
    await match('T1');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'open', productCount: 4, canSplit: true });
    await scan(database, 'T2', UPC, 1);
    await match('T2');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'locked', productCount: 5, canSplit: false });
    expect((await recordsOf(task.id)).map((r) => r.status)).toEqual(['match', 'match']);
  });

  // Decision 090: a task is judged by its own UPC only. Until then a wrong UPC in the
  // parcel made the task unmatch ('包裹中有未记录的商品'), or not, depending on the scan order.
  it('leaves a wrong UPC in the parcel untied and unmatch without failing the task, in either scan order', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 1);
    const { database } = t();
    await record(w.a.api, task.id, 'T1', 1);
    await scan(database, 'T1', '000000000000', 1);
    await match('T1');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'open', productCount: 0, canSplit: false });
    expect(await recordsOf(task.id)).toMatchObject([{ status: 'unmatch', msg: '已到货0件，记录1件' }]);
    expect(await scansOf(database, 'T1')).toMatchObject([{ status: 'unmatch', taskId: null, userId: null, matchedUser: null }]);

    // Its own product arrives: the task is locked, the stranger stays in the admin's queue.
    await scan(database, 'T1', UPC, 1);
    await match('T1');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'locked', productCount: 1 });
    expect((await scansOf(database, 'T1')).map((r) => [r.upc, r.status, r.taskId])).toEqual([
      ['000000000000', 'unmatch', null],
      [UPC, 'match', task.id],
    ]);

    // The other order (its product first, the stranger second) ends the same.
    const other = await claim(w.a.api, w.boardTask.id, 1);
    await record(w.a.api, other.id, 'T2', 1);
    await scan(database, 'T2', UPC, 1);
    await match('T2');
    await scan(database, 'T2', '000000000000', 1);
    await match('T2');
    expect(await storedTask(database, other.id)).toMatchObject({ status: 'locked', productCount: 1 });
  });

  // Decision 090: until then the task turned unmatch and its 2 units were unmatch rows
  // tied to it; now the extra unit is the admin's and fails nobody, so the order of scans and
  // records cannot change the outcome (a task locked before the extra unit came stays locked).
  it('locks the task when more units arrive than recorded, splitting the extra units off untied', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    const { database } = t();
    await record(w.a.api, task.id, 'T1', 2);
    const row = await scan(database, 'T1', UPC, 3);
    await match('T1');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'locked', productCount: 2, canSplit: false });
    expect(await recordsOf(task.id)).toMatchObject([{ status: 'unmatch', msg: '扫描到3件，多于记录的2件' }]);
    expect(await scansOf(database, 'T1')).toMatchObject([
      { id: row.id, count: 2, status: 'match', taskId: task.id },
      { count: 1, status: 'unmatch', taskId: null },
    ]);
    const split = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'tracking'), eq(auditLog.action, 'match.split')));
    expect(split).toMatchObject([{ count: 1, trackingId: 'T1', before: { splitFrom: row.id } }]);
  });

  // Decision 090: the records of a task never total more than its count, and matching
  // never ties more units to a task than its count. Until then a record of 3 on a 2-unit task was
  // accepted and its task ended unmatch with productCount 3.
  it('refuses records beyond the task count, and never ties more units to a task than its count', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    const { database } = t();
    expect(await w.a.api.post(`/api/purchased/user/${task.id}/create`, { trackingId: 'T1', productCount: 3 })).toMatchObject(
      refused('所有记录的数目合计不能超过任务数量2件'),
    );
    await record(w.a.api, task.id, 'T1', 2);
    // The admin lowers the count under what is recorded: only 1 unit is tied to the task.
    expect((await w.admin.post('/api/task/info', { id: task.id, count: 1 })).body.code).toBe('A00000');
    await scan(database, 'T1', UPC, 2);
    await match('T1');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'locked', productCount: 1, canSplit: false });
    expect((await scansOf(database, 'T1')).map((r) => [r.count, r.status, r.taskId])).toEqual([
      [1, 'match', task.id],
      [1, 'unmatch', null],
    ]);
  });

  // Decision 090: the world that showed it - alice records (T0, 1) on a 2-unit task, T0 brings 2
  // units - ends locked 2/2 once she corrects the record, as if recorded right before the scan.
  it('lets the member correct a record the parcel disagrees with, and add and remove records meanwhile', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    const { database } = t();
    const [r0] = await record(w.a.api, task.id, 'T0', 1);
    await scan(database, 'T0', UPC, 2);
    await match('T0');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'open', productCount: 1, canSplit: true });
    expect(await recordsOf(task.id)).toMatchObject([{ status: 'unmatch', msg: '扫描到2件，多于记录的1件' }]);
    // A record on the wrong parcel is added and removed again, then the right one is corrected.
    const [, wrong] = await record(w.a.api, task.id, 'T9', 1);
    expect((await w.a.api.post('/api/purchased/user/remove', { id: wrong!.id })).body.code).toBe('A00000');
    expect((await w.a.api.post('/api/purchased/user/update', { id: r0!.id, trackingId: 'T0', productCount: 2 })).body.code).toBe('A00000');
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'locked', productCount: 2 });
    // Both units are the task's now (the row split off as surplus stays a row of its own).
    expect((await scansOf(database, 'T0')).map((r) => [r.count, r.status, r.taskId])).toEqual([
      [1, 'match', task.id],
      [1, 'match', task.id],
    ]);
  });

  it('credits neither member of a short parcel both recorded, and tells neither anything of the other (decision 096)', async () => {
    const w = await world();
    const { database } = t();
    const ta = await claim(w.a.api, w.boardTask.id, 2);
    const tb = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.a.api, ta.id, 'T1', 2);
    await record(w.b.api, tb.id, 'T1', 1);
    await scan(database, 'T1', UPC, 2);
    await match('T1');
    expect(await storedTask(database, ta.id)).toMatchObject({ status: 'open', productCount: 0 });
    expect(await storedTask(database, tb.id)).toMatchObject({ status: 'open', productCount: 0 });
    for (const [who, task] of [
      [w.a, ta],
      [w.b, tb],
    ] as const) {
      const shown = (await who.api.get<{ purchasedItems: PurchasedOut[] }>(`/api/purchased/${task.id}/taskTracking`)).body.data!.purchasedItems;
      expect(shown).toMatchObject([{ trackingId: 'T1', status: 'unmatch', msg: '该包裹正在核对中，请等待管理员处理' }]);
    }
    expect(await scansOf(database, 'T1')).toMatchObject([{ count: 2, status: 'unmatch', taskId: null }]);
  });

  it('marks rows of a tracking id nobody recorded unmatch', async () => {
    await world();
    const { database } = t();
    await scan(database, 'T9', UPC, 2);
    expect(await match('T9')).toEqual({ trackingIds: ['T9'], taskIds: [], changedTaskIds: [] });
    expect(await scansOf(database, 'T9')).toMatchObject([{ status: 'unmatch', taskId: null }]);
  });

  it('divides one parcel between several users and items, one row per task, and protects locked tasks', async () => {
    const w = await world();
    const { database } = t();
    const ta = await claim(w.a.api, w.boardTask.id, 2);
    const tb = await claim(w.b.api, w.boardTask.id, 3);
    const tc = await claim(w.a.api, w.boardTask2.id, 1);
    await record(w.a.api, ta.id, 'T1', 2);
    await record(w.b.api, tb.id, 'T1', 3);
    await record(w.a.api, tc.id, 'T1', 1);
    const big = await scan(database, 'T1', UPC, 5);
    const other = await scan(database, 'T1', UPC2, 1);
    const report = await match('T1');
    expect(report).toMatchObject({ taskIds: [ta.id, tb.id, tc.id], changedTaskIds: [ta.id, tb.id, tc.id] });
    for (const [task, count] of [
      [ta, 2],
      [tb, 3],
      [tc, 1],
    ] as const) {
      expect(await storedTask(database, task.id)).toMatchObject({ status: 'locked', productCount: count });
    }
    const rows = await scansOf(database, 'T1');
    expect(rows.map((r) => [r.upc, r.count, r.taskId, r.matchedUser, r.status])).toEqual([
      [UPC, 2, ta.id, '小A', 'match'],
      [UPC2, 1, tc.id, '小A', 'match'],
      [UPC, 3, tb.id, '小B', 'match'],
    ]);
    expect(rows[0]!.id).toBe(big.id);
    expect(rows[1]!.id).toBe(other.id);

    // A late claim of the same item on the same parcel, then one unit too many: the locked tasks
    // keep their units and records; the late record gets its unit, the extra one is nobody's
    // (decision 090; until then the late task turned unmatch).
    const td = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.b.api, td.id, 'T1', 1);
    await scan(database, 'T1', UPC, 2);
    await match('T1');
    expect(await storedTask(database, td.id)).toMatchObject({ status: 'locked', productCount: 1 });
    expect((await scansOf(database, 'T1')).filter((r) => r.taskId === null)).toMatchObject([{ upc: UPC, count: 1, status: 'unmatch' }]);
    expect(await storedTask(database, ta.id)).toMatchObject({ status: 'locked' });
    // Its record is judged again with the others (issue 33): more units arrived than recorded, which
    // it now says without numbers (two members share the parcel: decision 096), though its task
    // stays locked with its units.
    expect((await recordsOf(ta.id))[0]).toMatchObject({ status: 'unmatch', msg: '包裹到货与记录不一致，请核对您记录的数目' });
    expect((await scansOf(database, 'T1')).filter((r) => r.taskId === ta.id)).toMatchObject([{ count: 2, status: 'match' }]);
  });

  it('leaves tasks the machine does not let match as they are, and ignores records of deleted tasks', async () => {
    const w = await world();
    const { database } = t();
    const gone = await claim(w.a.api, w.boardTask.id, 2);
    await record(w.a.api, gone.id, 'T1', 2);
    expect((await w.a.api.del(`/api/task/info/user/${gone.id}`)).body.code).toBe('A00000');
    const closed = await claim(w.b.api, w.boardTask.id, 2);
    await record(w.b.api, closed.id, 'T2', 2);
    await setTask(database, closed.id, { status: 'closed' });
    await scan(database, 'T1', UPC, 2);
    await scan(database, 'T2', UPC, 2);
    await match('T1');
    await match('T2');
    expect(await storedTask(database, gone.id)).toMatchObject({ status: 'deleted', productCount: 0 });
    expect(await scansOf(database, 'T1')).toMatchObject([{ status: 'unmatch', taskId: null }]);
    expect(await storedTask(database, closed.id)).toMatchObject({ status: 'closed', productCount: 0 });
    // The closed task's record still holds the units it recorded (its row is tied to it), and its
    // record is judged as every record of the parcel is (issue 33): its units arrived.
    expect(await scansOf(database, 'T2')).toMatchObject([{ status: 'match', taskId: closed.id }]);
    expect(await recordsOf(closed.id)).toMatchObject([{ status: 'match' }]);
    // Rows not yet seen (init) and rows being paid (wait2pay) are never touched.
    const init = await scan(database, 'T3', UPC, 1, 'init');
    await match('T3');
    expect(await scansOf(database, 'T3')).toMatchObject([{ id: init.id, status: 'init' }]);
  });
});

describe('the match calls', () => {
  it('matches an own task (member) or any task (admin), refusing what the task machine refuses', async () => {
    const w = await world();
    const { database } = t();
    const task = await claim(w.a.api, w.boardTask.id, 4);
    await record(w.a.api, task.id, 'T1', 4);
    // Scanned without matching (as if matching had not run yet).
    await scan(database, 'T1', UPC, 1);
    const res = await w.a.api.post<MatchOut>('/api/match/user/task/match', { taskId: task.id });
    expect(res.body).toMatchObject({
      code: 'A00000',
      msg: '已到货1/4件，可以拆分',
      data: { opStatus: 'succ', tasks: [{ id: task.id, status: 'open', productCount: 1, canSplit: true }] },
    });
    expect(await w.b.api.post('/api/match/user/task/match', { taskId: task.id })).toMatchObject(notFound);
    expect(await w.a.api.post('/api/match/admin/task/match', { taskId: task.id })).toMatchObject({ status: 403 });

    await scan(database, 'T1', UPC, 3);
    const adm = await w.admin.post<MatchOut>('/api/match/admin/task/match', { taskId: task.id });
    expect(adm.body).toMatchObject({ code: 'A00000', msg: '已全部到货，任务已锁定', data: { tasks: [{ status: 'locked', productCount: 4 }] } });
    expect(await w.a.api.post('/api/match/user/task/match', { taskId: task.id })).toMatchObject(refused('已锁定的任务不能再匹配'));
    await setTask(database, task.id, { status: 'pending' });
    expect(await w.admin.post('/api/match/admin/task/match', { taskId: task.id })).toMatchObject(refused('该任务当前不能匹配'));
  });

  it('matches a tracking id: a member only one they recorded, and sees only their own tasks', async () => {
    const w = await world();
    const { database } = t();
    const ta = await claim(w.a.api, w.boardTask.id, 1);
    const tb = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.a.api, ta.id, 'T1', 1);
    await record(w.b.api, tb.id, 'T1', 1);
    await scan(database, 'T1', UPC, 2);
    expect(await w.b.api.post('/api/match/user/tracking/match', { trackingId: 'T404' })).toMatchObject({
      status: 404,
      body: { code: 'A00004', msg: '没有该快递单号的记录' },
    });
    expect(await w.a.api.post('/api/match/user/tracking/match', { trackingId: '  ' })).toMatchObject(refused('请填写trackingId'));
    const mine = await w.a.api.post<MatchOut>('/api/match/user/tracking/match', { trackingId: ' T1 ' });
    expect(mine.body.data!.tasks.map((x) => [x.id, x.status])).toEqual([[ta.id, 'locked']]);
    const all = await w.admin.post<MatchOut>('/api/match/admin/tracking/match', { trackingId: 'T1' });
    expect(all.body).toMatchObject({ code: 'A00000', msg: '匹配完成' });
    expect(all.body.data!.tasks.map((x) => [x.id, x.status])).toEqual([
      [ta.id, 'locked'],
      [tb.id, 'locked'],
    ]);
  });

  it('reports part match per record: recorded, arrived and why it does not match yet', async () => {
    const w = await world();
    const { database } = t();
    const task = await claim(w.a.api, w.boardTask.id, 5);
    const other = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.a.api, task.id, 'T1', 3);
    await record(w.a.api, task.id, 'T2', 2);
    await scan(database, 'T1', UPC, 2);
    await match('T1');
    type Part = { taskId: number; records: (PurchasedOut & { arrived: number })[] } & Record<string, unknown>;
    const res = await w.a.api.get<Part[]>(`/api/task/part/match?taskIds=${task.id},${other.id}`);
    expect(res.body.data).toEqual([
      {
        taskId: task.id,
        count: 5,
        productCount: 2,
        canSplit: true,
        status: 'open',
        recordedCount: 5,
        arrivedCount: 2,
        records: [
          { id: expect.any(Number), trackingId: 'T1', productCount: 3, arrived: 2, status: 'unmatch', msg: '已到货2件，记录3件' },
          { id: expect.any(Number), trackingId: 'T2', productCount: 2, arrived: 0, status: 'init', msg: '' },
        ],
      },
    ]);
    expect((await w.admin.get<Part[]>(`/api/task/part/match?taskIds=${task.id},${other.id}`)).body.data!.map((x) => x.taskId)).toEqual([task.id, other.id]);
  });
});
