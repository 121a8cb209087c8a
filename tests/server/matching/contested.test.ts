// Contested parcels (decision 096) through the API on a real database: issue 33's squat (bob records
// alice's tracking id first, on his own task of the same item), the admin home's count and list,
// and the admin's one-step assignment, audited, after which each task holds exactly what it was
// assigned.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { matchTracking } from '../../../src/server/matching/match.ts';
import { useTestApp } from '../support/harness.ts';
import { applyPayment } from '../support/money-fixtures.ts';
import { claim, record, refused, scan, storedTask, taskWorld, UPC, type PurchasedOut } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const WAITING = '该包裹正在核对中，请等待管理员处理';

async function squat() {
  const w = await taskWorld(t().app, t().database);
  const bobs = await claim(w.b.api, w.boardTask.id, 1);
  const alices = await claim(w.a.api, w.boardTask.id, 1);
  const [bobRecord] = await record(w.b.api, bobs.id, 'T1', 1);
  const [aliceRecord] = await record(w.a.api, alices.id, 'T1', 1);
  await scan(t().database, 'T1', UPC, 1);
  await t().database.db.transaction((tx) => matchTracking(tx, 'T1', null));
  return { w, bobs, alices, bobRecord: bobRecord!, aliceRecord: aliceRecord! };
}

const shown = async (api: Awaited<ReturnType<typeof squat>>['w']['a']['api'], taskId: number) =>
  (await api.get<{ purchasedItems: PurchasedOut[] }>(`/api/purchased/${taskId}/taskTracking`)).body.data!.purchasedItems;

describe('a contested parcel (decision 096)', () => {
  it('credits neither member, tells neither anything, and waits on the admin home', async () => {
    const { w, bobs, alices } = await squat();
    const { database } = t();
    expect(await storedTask(database, bobs.id)).toMatchObject({ status: 'open', productCount: 0 });
    expect(await storedTask(database, alices.id)).toMatchObject({ status: 'open', productCount: 0 });
    expect(await shown(w.b.api, bobs.id)).toMatchObject([{ status: 'unmatch', msg: WAITING }]);
    expect(await shown(w.a.api, alices.id)).toMatchObject([{ status: 'unmatch', msg: WAITING }]);
    // The squatter cannot be paid for it.
    expect((await applyPayment(w.b.api, { taskId: bobs.id })).body).toMatchObject({ code: 'A00001', msg: '只有已锁定的任务可以申请付款' });

    expect((await w.admin.get('/api/home/admin')).body.data).toMatchObject({ contestedParcels: 1 });
    const list = (await w.admin.get('/api/match/admin/contested')).body;
    expect(list).toMatchObject({
      code: 'A00000',
      data: [
        {
          trackingId: 'T1',
          upc: UPC,
          scanned: 1,
          held: 0,
          records: [
            { taskId: bobs.id, productCount: 1, assignedCount: null, settled: false },
            { taskId: alices.id, productCount: 1, assignedCount: null, settled: false },
          ],
        },
      ],
    });
    // Members see neither the list nor the call.
    expect((await w.b.api.get('/api/match/admin/contested')).status).toBe(403);
  });

  it('refuses an assignment that leaves a record out, gives one more than it records or all more than arrived, naming the field', async () => {
    const { w, bobRecord, aliceRecord } = await squat();
    const assign = (records: { recordId: number; count: number }[]) =>
      w.admin.post('/api/match/admin/contested/assign', { trackingId: 'T1', upc: UPC, records });
    expect(await assign([{ recordId: aliceRecord.id, count: 1 }])).toMatchObject(refused(`参数错误：请为记录${bobRecord.id}填写分配数量（records）`));
    expect(
      await assign([
        { recordId: aliceRecord.id, count: 1 },
        { recordId: bobRecord.id, count: 1 },
      ]),
    ).toMatchObject(refused('参数错误：分配合计超过包裹中可分配的1件（records.count）'));
    expect(
      await assign([
        { recordId: aliceRecord.id, count: 2 },
        { recordId: bobRecord.id, count: 0 },
      ]),
    ).toMatchObject(refused(`参数错误：记录${aliceRecord.id}的分配数量须为0到记录数量之间的整数（records.count）`));
    expect(await w.admin.post('/api/match/admin/contested/assign', { trackingId: 'T9', upc: UPC, records: [] })).toMatchObject(
      refused('该快递单号的这个商品没有多位会员的记录'),
    );
  });

  it('assigns the units in one step, audited: each task holds exactly what it was assigned', async () => {
    const { w, bobs, alices, bobRecord, aliceRecord } = await squat();
    const { database } = t();
    const res = await w.admin.post('/api/match/admin/contested/assign', {
      trackingId: 'T1',
      upc: UPC,
      records: [
        { recordId: bobRecord.id, count: 0 },
        { recordId: aliceRecord.id, count: 1 },
      ],
    });
    expect(res.body).toMatchObject({
      code: 'A00000',
      msg: '分配完成',
      data: { opStatus: 'succ', parcel: { trackingId: 'T1', records: [{ assignedCount: 0 }, { assignedCount: 1 }] } },
    });
    expect(await storedTask(database, alices.id)).toMatchObject({ status: 'locked', productCount: 1 });
    expect(await storedTask(database, bobs.id)).toMatchObject({ status: 'open', productCount: 0 });
    expect(await shown(w.a.api, alices.id)).toMatchObject([{ status: 'match', msg: '' }]);
    expect(await shown(w.b.api, bobs.id)).toMatchObject([{ status: 'unmatch', msg: '管理员核对后为此记录分配了0件' }]);
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'purchased'), eq(auditLog.action, 'contest.assign')));
    expect(audits.map((a) => [a.entityId, a.count, a.opUid]).sort()).toEqual(
      [
        [bobRecord.id, 0, w.adminUser.id],
        [aliceRecord.id, 1, w.adminUser.id],
      ].sort(),
    );
    expect((await w.admin.get('/api/home/admin')).body.data).toMatchObject({ contestedParcels: 0 });
    expect((await w.admin.get('/api/match/admin/contested')).body.data).toEqual([]);
  });
});
