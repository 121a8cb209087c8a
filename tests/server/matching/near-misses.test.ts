// Near misses (decision 098) through the real API on a real database: a parcel no member recorded
// whose tracking id is one edit from a member's record (or shares its last 10 characters) is shown to
// the clerk as 可能是… with the task - on the lookup, create and add answers and in the tracking
// upload's result rows - and the member whose record it may be sees that a parcel with a near id
// arrived. A parcel someone recorded tells nobody anything, and a parcel that matched costs nothing.
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { describe, expect, it } from 'vitest';
import { taskDisplayId } from '../../../machines/task.machine.ts';
import { createSession } from '../../../src/server/auth/sessions.ts';
import type { Tx } from '../../../src/server/db/client.ts';
import { scanRowsOut, trackingOf } from '../../../src/server/receiving/scan-service.ts';
import { call, dbDriver, useTestApp } from '../support/harness.ts';
import { claim, record, scan, setTask, storedTask, taskWorld, UPC, type TaskWorld } from '../support/task-fixtures.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';

const t = useTestApp();

// A member's record, the same id with its last digit mistyped, and one sharing only its last 10.
const RECORDED = '1Z999AA10123456784';
const TYPO = '1Z999AA10123456785';
const SAME_TAIL = '9X10123456784';

interface Row {
  trackingId: string;
  status: string;
  unmatchReason?: string | null;
  nearMisses?: { trackingId: string; taskId: number; taskDisplayId: string; nickName: string; itemName: string }[];
}
interface Item {
  id: number;
  trackingId: string;
  typedTrackingId?: string;
  status: string;
  nearArrival?: string;
}

const create = (w: TaskWorld, trackingId: string, upc = UPC, itemId = w.item.id) =>
  w.admin.post<{ opStatus: string; scanTrackingList: Row[] }>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/create`, {
    items: [{ upc, count: 1, itemId }],
  });
const lookup = (w: TaskWorld, trackingId: string) =>
  w.admin.get<{ isExist: boolean; scanTrackingList: Row[] }>(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/list`);
const recordsOf = async (api: TaskWorld['a']['api'], taskId: number) =>
  (await api.get<{ purchasedItems: Item[] }>(`/api/purchased/${taskId}/taskTracking`)).body.data!.purchasedItems;

/** The admin's tracking import of these ids (one unit of UPC each): the result's rows, in file order. */
async function importIds(w: TaskWorld, ids: string[]) {
  const token = await createSession(t().database.db, w.adminUser.id, false);
  const body = multipart(xlsxOf([['快递单号', 'UPC', '商品ID', '商品名称', '快递公司', '数量'], ...ids.map((id) => [id, UPC, null, null, null, 1])]));
  const res = await call<{ rows: { tracking: string; opStatus: string; msg: string }[] }>(t().app, {
    method: 'POST',
    url: '/api/scan/admin/excel/upload/import',
    headers: { 'x-token': token, ...body.headers },
    payload: body.payload,
  });
  return res.body.data!.rows;
}

/** Member a's task with a record of `typed`, and what the clerk is told of it. */
async function recorded(w: TaskWorld, typed = RECORDED) {
  const task = await claim(w.a.api, w.boardTask.id, 1);
  await record(w.a.api, task.id, typed, 1);
  const stored = await storedTask(t().database, task.id);
  return { task, near: { trackingId: typed, taskId: task.id, taskDisplayId: taskDisplayId(stored), nickName: '小A', itemName: stored.itemName } };
}

describe('the clerk: 可能是… on a parcel no member recorded', () => {
  it('create, lookup and add answer the record one edit away, with its task and member', async () => {
    const w = await taskWorld(t().app, t().database);
    const { near } = await recorded(w, '1z999aa1 0123456784');
    const created = await create(w, TYPO);
    expect(created.body.data).toMatchObject({
      opStatus: 'succ',
      scanTrackingList: [{ trackingId: TYPO, status: 'unmatch', unmatchReason: 'notRecorded', nearMisses: [near] }],
    });
    const found = await lookup(w, TYPO.toLowerCase());
    expect(found.body.data!.scanTrackingList).toMatchObject([{ unmatchReason: 'notRecorded', nearMisses: [near] }]);
    // /admin/scan2's add: the same.
    const added = await w.admin.post<{ scanTrackingList: Row[] }>(`/api/scan/admin/tracking/${SAME_TAIL}/add`, { itemId: w.item.id, count: 1 });
    expect(added.body.data!.scanTrackingList).toMatchObject([{ trackingId: SAME_TAIL, unmatchReason: 'notRecorded', nearMisses: [near] }]);
  });

  it('a parcel that matched, one a member recorded for another product, and one with nothing near carry no near misses', async () => {
    const w = await taskWorld(t().app, t().database);
    await recorded(w);
    // Another member recorded the near id for the other product: the parcel is recorded (otherProduct).
    const other = await claim(w.b.api, w.boardTask2.id, 1);
    await record(w.b.api, other.id, TYPO, 1);
    const matched = (await create(w, RECORDED)).body.data!.scanTrackingList;
    expect(matched).toMatchObject([{ status: 'match' }]);
    expect(matched[0]).not.toHaveProperty('nearMisses');
    const recordedOther = (await create(w, TYPO)).body.data!.scanTrackingList;
    expect(recordedOther).toMatchObject([{ status: 'unmatch', unmatchReason: 'otherProduct' }]);
    expect(recordedOther[0]).not.toHaveProperty('nearMisses');
    const far = (await create(w, '1Z999AA10123450000')).body.data!.scanTrackingList;
    expect(far).toMatchObject([{ unmatchReason: 'notRecorded' }]);
    expect(far[0]).not.toHaveProperty('nearMisses');
  });

  // The matched path costs nothing more (the growth bench's shape): the answer of a parcel whose rows
  // all matched sends no statement; one no member recorded, one lookup. Counted on PGlite (as scan-batcher.test.ts).
  it.runIf(dbDriver() === 'pglite')('asks the database only for a parcel no member recorded', async () => {
    const w = await taskWorld(t().app, t().database);
    await recorded(w);
    await create(w, RECORDED);
    await create(w, TYPO);
    const statements: string[] = [];
    const logged = drizzle((t().database.db as unknown as { $client: PGlite }).$client, {
      logger: { logQuery: (q) => void statements.push(q) },
    }) as unknown as Tx;
    const answer = async (trackingId: string) => {
      const { rows, upcs } = await trackingOf(t().database.db, trackingId);
      statements.length = 0;
      const out = await scanRowsOut(logged, trackingId, rows, upcs);
      // Statements of the lookup itself (its transaction's begin, set_config and commit aside).
      return { out, statements: statements.filter((q) => q.includes('unnest')).length, any: statements.length > 0 };
    };
    expect(await answer(RECORDED)).toMatchObject({ out: [{ status: 'match' }], statements: 0, any: false });
    expect(await answer(TYPO)).toMatchObject({ out: [{ unmatchReason: 'notRecorded', nearMisses: [{ trackingId: RECORDED }] }], statements: 1 });
  });

  it("a deleted task's record is no suggestion", async () => {
    const w = await taskWorld(t().app, t().database);
    const { task } = await recorded(w);
    await setTask(t().database, task.id, { status: 'deleted' });
    const row = (await create(w, TYPO)).body.data!.scanTrackingList[0]!;
    expect(row).toMatchObject({ unmatchReason: 'notRecorded' });
    expect(row).not.toHaveProperty('nearMisses');
  });

  it("the tracking upload's row of a parcel no member recorded says 可能是… with the task", async () => {
    const w = await taskWorld(t().app, t().database);
    const { near } = await recorded(w);
    expect(await importIds(w, [TYPO, RECORDED])).toMatchObject([
      { tracking: TYPO, opStatus: 'succ', msg: `导入成功；可能是 ${RECORDED}（任务 ${near.taskDisplayId}）` },
      // The recorded id itself: the member's parcel, nothing to suggest.
      { tracking: RECORDED, opStatus: 'succ', msg: '导入成功' },
    ]);
  });

  it('a file of many parcels nobody recorded says 可能是… on every near one, first row to last (its near records are read in several statements)', async () => {
    const w = await taskWorld(t().app, t().database);
    const first = await recorded(w);
    const second = await recorded(w, '1Z999AA10987654321');
    // 600 ids nobody recorded: more than a statement's keys on PGlite (250), between the two near ones.
    const others = Array.from({ length: 598 }, (_, i) => `YT${String(3_000_000 + i * 7919).padStart(16, '0')}`);
    const rows = await importIds(w, [TYPO, ...others, '1Z999AA10987654320']);
    expect(rows[0]).toMatchObject({ tracking: TYPO, msg: `导入成功；可能是 ${RECORDED}（任务 ${first.near.taskDisplayId}）` });
    expect(rows.at(-1)).toMatchObject({ tracking: '1Z999AA10987654320', msg: `导入成功；可能是 1Z999AA10987654321（任务 ${second.near.taskDisplayId}）` });
    expect(rows.filter((r) => r.msg.includes('可能是'))).toHaveLength(2);
  });
});

describe('the member: a parcel with a near id arrived for the record', () => {
  it('the record none of whose parcel arrived names the arrived id in full; correcting it matches', async () => {
    const w = await taskWorld(t().app, t().database);
    const { task } = await recorded(w, TYPO);
    await scan(t().database, RECORDED, UPC, 1);
    const [typo] = await recordsOf(w.a.api, task.id);
    expect(typo).toMatchObject({ trackingId: TYPO, status: 'init', nearArrival: RECORDED });
    // The member corrects the record to the arrived id: it matches, and the hint is gone.
    const fixed = await w.a.api.post<{ purchasedItems: Item[] }>('/api/purchased/user/update', { id: typo!.id, trackingId: RECORDED, productCount: 1 });
    expect(fixed.body.data!.purchasedItems).toMatchObject([{ trackingId: RECORDED, status: 'match' }]);
    expect(fixed.body.data!.purchasedItems[0]).not.toHaveProperty('nearArrival');
    // An announced parcel (init) has not arrived: no hint for it.
    const second = await claim(w.a.api, w.boardTask.id, 1);
    await record(w.a.api, second.id, '1Z999AA10123456700', 1);
    await scan(t().database, '1Z999AA10123456701', UPC, 1, 'init');
    expect((await recordsOf(w.a.api, second.id))[0]).not.toHaveProperty('nearArrival');
  });

  it("another member's recorded parcel never produces a hint, and a record whose parcel arrived has none", async () => {
    const w = await taskWorld(t().app, t().database);
    // b recorded RECORDED, and it arrived; a's record of the near TYPO learns nothing of it.
    const bTask = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.b.api, bTask.id, RECORDED, 1);
    await create(w, RECORDED);
    const { task } = await recorded(w, TYPO);
    const mine = await recordsOf(w.a.api, task.id);
    expect(mine).toMatchObject([{ trackingId: TYPO, status: 'init' }]);
    expect(mine[0]).not.toHaveProperty('nearArrival');
    const theirs = await recordsOf(w.b.api, bTask.id);
    expect(theirs).toMatchObject([{ status: 'match' }]);
    expect(theirs[0]).not.toHaveProperty('nearArrival');
  });
});
