// The matching planner on plain data (decision 095): every matching case planned and
// applied without a database (tests/server/support/matching-memory.ts stands in for db/matching-store.ts).
// What is asserted is what a member or a clerk sees after the run: the rows of the parcel and whose
// task each is tied to, the record's status and message, the task's status and counts, the audit
// trail. The API tests (matching.test.ts, scan.test.ts, tracking-upload.test.ts) hold the store and
// the planner together to the same outcomes on a real database.
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../../src/server/auth/session-user.ts';
import { arrivalsOf, completePlan, planMatching } from '../../../src/server/matching/plan.ts';
import { MemoryStore, NOW } from '../support/matching-memory.ts';

const clerk = (id: number): SessionUser => ({ id, mailAddr: `c${id}@x`, nickName: `clerk${id}`, roleType: 'admin', sessionId: id });
const units = (s: MemoryStore, trackingId: string) =>
  s.scans
    .filter((r) => r.trackingId === trackingId)
    .sort((a, b) => a.id - b.id)
    .map((r) => ({ upc: r.upc, count: r.count, status: r.status, taskId: r.taskId, matchedUser: r.matchedUser }));
const task = (s: MemoryStore, id: number) => {
  const t = s.tasks.get(id)!;
  return { status: t.status, productCount: t.productCount, canSplit: t.canSplit };
};
const record = (s: MemoryStore, id: number) => {
  const r = s.records.find((x) => x.id === id)!;
  return { status: r.status, msg: r.msg };
};
const actions = (s: MemoryStore) => s.audits.map((a) => `${a.entity}:${a.action}`);

/** Alice (user 1) holds task 1 of UPC X; bob (user 2) task 2 of X; each of the given count. */
function world(aliceCount: number, bobCount = 0) {
  const s = new MemoryStore();
  s.names.set(1, 'alice');
  s.names.set(2, 'bob');
  s.addTask({ id: 1, upc: 'X', count: aliceCount, userId: 1 });
  if (bobCount) s.addTask({ id: 2, upc: 'X', count: bobCount, userId: 2 });
  return s;
}

describe('the matching planner', () => {
  it('exact: ties the parcel to the task, the record matches and the task locks, each change audited once', () => {
    const s = world(2);
    const rec = s.addRecord(1, 'T1', 2);
    s.addScan('T1', 'X', 2);
    const { plan } = s.match({ trackingIds: ['T1'], actor: clerk(9) });
    expect(plan.report).toEqual({ trackingIds: ['T1'], taskIds: [1], changedTaskIds: [1] });
    expect(units(s, 'T1')).toEqual([{ upc: 'X', count: 2, status: 'match', taskId: 1, matchedUser: 'alice' }]);
    expect(record(s, rec.id)).toEqual({ status: 'match', msg: '' });
    expect(task(s, 1)).toEqual({ status: 'locked', productCount: 2, canSplit: false });
    expect(actions(s)).toEqual(['tracking:match', 'purchased:match', 'task:match']);
    expect(s.audits.every((a) => a.opUid === 9)).toBe(true);
    // Planned again on what was written: nothing to do.
    const again = s.match({ trackingIds: ['T1'], actor: null }).plan;
    expect([again.scanUpdates, again.splits, again.recordUpdates, again.taskUpdates, again.audits]).toEqual([[], [], [], [], []]);
  });

  it("a record's verdict is audited with its task's columns, as the task audit lists it: the task's member, item and status, the record before and after", () => {
    const s = world(2);
    const rec = { ...s.addRecord(1, 'T1', 2) };
    s.addScan('T1', 'X', 1);
    s.match({ trackingIds: ['T1'], actor: clerk(9) });
    expect(s.audits.filter((a) => a.entity === 'purchased')).toEqual([
      {
        entity: 'purchased',
        entityId: rec.id,
        action: 'match',
        opUid: 9,
        userId: 1,
        mainId: 1,
        subId: 0,
        taskId: 1,
        upc: 'X',
        itemName: 'item X',
        // The task's status as matching found it (the task audit's status column), not the record's.
        status: 'open',
        count: 2,
        trackingId: 'T1',
        before: rec,
        after: { ...rec, status: 'unmatch', msg: '已到货1件，记录2件', updatedAt: NOW },
      },
    ]);
  });

  it("wrong UPC: the unit is nobody's (unmatch, untied) and the record says nothing of its product arrived", () => {
    const s = world(1);
    const rec = s.addRecord(1, 'T1', 1);
    s.addScan('T1', 'Y', 1);
    s.match({ trackingIds: ['T1'], actor: null });
    expect(units(s, 'T1')).toEqual([{ upc: 'Y', count: 1, status: 'unmatch', taskId: null, matchedUser: null }]);
    expect(record(s, rec.id)).toEqual({ status: 'unmatch', msg: '已到货0件，记录1件' });
    expect(task(s, 1)).toEqual({ status: 'open', productCount: 0, canSplit: false });
  });

  it('too many: the recorded units match and lock the task, the extra units become an unmatch row of nobody (match.split)', () => {
    const s = world(1);
    const rec = s.addRecord(1, 'T1', 1);
    const row = s.addScan('T1', 'X', 3);
    const { done } = s.match({ trackingIds: ['T1'], actor: null });
    expect(units(s, 'T1')).toEqual([
      { upc: 'X', count: 1, status: 'match', taskId: 1, matchedUser: 'alice' },
      { upc: 'X', count: 2, status: 'unmatch', taskId: null, matchedUser: null },
    ]);
    expect(record(s, rec.id)).toEqual({ status: 'unmatch', msg: '扫描到3件，多于记录的1件' });
    expect(task(s, 1)).toEqual({ status: 'locked', productCount: 1, canSplit: false });
    expect(s.audits.find((a) => a.action === 'match.split')).toMatchObject({ entity: 'tracking', before: { splitFrom: row.id }, count: 2, status: 'unmatch' });
    // The rows the run answers are the parcel's rows as stored.
    expect(done.rows.get('T1')).toEqual(s.scans.filter((r) => r.trackingId === 'T1'));
  });

  it('unknown tracking id: its units are unmatch rows of nobody and no task is concerned', () => {
    const s = world(1);
    s.addRecord(1, 'T1', 1);
    s.addScan('T9', 'X', 1);
    const { plan } = s.match({ trackingIds: ['T9'], actor: null });
    expect(plan.report).toEqual({ trackingIds: ['T9'], taskIds: [], changedTaskIds: [] });
    expect(units(s, 'T9')).toEqual([{ upc: 'X', count: 1, status: 'unmatch', taskId: null, matchedUser: null }]);
    expect(actions(s)).toEqual(['tracking:match']);
  });

  it('one parcel for two members: the row is divided, one row per task', () => {
    const s = world(1, 2);
    s.addRecord(1, 'T1', 1);
    s.addRecord(2, 'T1', 2);
    s.addScan('T1', 'X', 3);
    s.match({ trackingIds: ['T1'], actor: null });
    expect(units(s, 'T1')).toEqual([
      { upc: 'X', count: 1, status: 'match', taskId: 1, matchedUser: 'alice' },
      { upc: 'X', count: 2, status: 'match', taskId: 2, matchedUser: 'bob' },
    ]);
    expect([task(s, 1), task(s, 2)]).toEqual([
      { status: 'locked', productCount: 1, canSplit: false },
      { status: 'locked', productCount: 2, canSplit: false },
    ]);
  });

  it("within one member's tasks a short parcel goes to the earliest record, which says why", () => {
    const s = world(1);
    s.addTask({ id: 3, upc: 'X', count: 2, userId: 1 });
    s.addRecord(1, 'T1', 1);
    const later = s.addRecord(3, 'T1', 2);
    s.addScan('T1', 'X', 2);
    s.match({ trackingIds: ['T1'], actor: null });
    expect(task(s, 1)).toEqual({ status: 'locked', productCount: 1, canSplit: false });
    expect(task(s, 3)).toEqual({ status: 'open', productCount: 1, canSplit: true });
    expect(record(s, later.id)).toEqual({ status: 'unmatch', msg: '包裹中该商品只到货2件，已分配给更早的记录' });
  });

  it('a parcel two members record that does not hold units for both credits neither, and tells neither anything of the other (decision 096)', () => {
    // Issue 33's squatter: bob records alice's tracking id first, on his own task of the same item.
    const s = world(1, 1);
    const bobs = s.addRecord(2, 'T1', 1);
    const alices = s.addRecord(1, 'T1', 1);
    s.scan('T1', 'X', 1);
    expect([task(s, 1), task(s, 2)]).toEqual([
      { status: 'open', productCount: 0, canSplit: false },
      { status: 'open', productCount: 0, canSplit: false },
    ]);
    expect([record(s, alices.id), record(s, bobs.id)]).toEqual([
      { status: 'unmatch', msg: '该包裹正在核对中，请等待管理员处理' },
      { status: 'unmatch', msg: '该包裹正在核对中，请等待管理员处理' },
    ]);
    // The unit waits untied, in the admin's queue.
    expect(units(s, 'T1')).toEqual([{ upc: 'X', count: 1, status: 'unmatch', taskId: null, matchedUser: null }]);

    // A second unit covers both: each gets its own, nobody is told anything of the other.
    s.scan('T1', 'X', 1);
    expect([task(s, 1).status, task(s, 2).status]).toEqual(['locked', 'locked']);
    expect([record(s, alices.id), record(s, bobs.id)]).toEqual([
      { status: 'match', msg: '' },
      { status: 'match', msg: '' },
    ]);
    // A third unit: surplus of a shared parcel is said without numbers.
    s.scan('T1', 'X', 1);
    expect(record(s, alices.id)).toEqual({ status: 'unmatch', msg: '包裹到货与记录不一致，请核对您记录的数目' });
  });

  it('a task locked before another member recorded its parcel keeps its units; the late record waits for the admin', () => {
    const s = world(1, 1);
    s.addRecord(1, 'T1', 1);
    s.scan('T1', 'X', 1);
    expect(task(s, 1).status).toBe('locked');
    const bobs = s.addRecord(2, 'T1', 1);
    s.match({ trackingIds: ['T1'], actor: null });
    expect(task(s, 1).status).toBe('locked');
    expect(task(s, 2)).toEqual({ status: 'open', productCount: 0, canSplit: false });
    expect(record(s, bobs.id)).toEqual({ status: 'unmatch', msg: '该包裹正在核对中，请等待管理员处理' });
  });

  it("after the admin's assignment each record gets exactly its assigned units; a record assigned none gets none", () => {
    const s = world(2, 2);
    const bobs = s.addRecord(2, 'T1', 2);
    const alices = s.addRecord(1, 'T1', 2);
    s.scan('T1', 'X', 2);
    expect(task(s, 1).productCount + task(s, 2).productCount).toBe(0);
    alices.assignedCount = 2;
    bobs.assignedCount = 0;
    s.match({ trackingIds: ['T1'], actor: null });
    expect(task(s, 1)).toEqual({ status: 'locked', productCount: 2, canSplit: false });
    expect(task(s, 2)).toEqual({ status: 'open', productCount: 0, canSplit: false });
    expect(record(s, bobs.id)).toEqual({ status: 'unmatch', msg: '管理员核对后为此记录分配了0件' });
    expect(units(s, 'T1')).toEqual([{ upc: 'X', count: 2, status: 'match', taskId: 1, matchedUser: 'alice' }]);
  });

  it("an admin's assignment stops counting once one member is left on the parcel", () => {
    const s = world(2, 2);
    const bobs = s.addRecord(2, 'T1', 2);
    const alices = s.addRecord(1, 'T1', 2);
    s.scan('T1', 'X', 2);
    alices.assignedCount = 1;
    bobs.assignedCount = 1;
    s.match({ trackingIds: ['T1'], actor: null });
    expect([task(s, 1), task(s, 2)]).toEqual([
      { status: 'open', productCount: 1, canSplit: true },
      { status: 'open', productCount: 1, canSplit: true },
    ]);
    expect(record(s, bobs.id)).toEqual({ status: 'unmatch', msg: '管理员核对后为此记录分配了1件' });
    // Alice removes her record (her task is open): the parcel is bob's alone.
    s.records = s.records.filter((r) => r.id !== alices.id);
    s.match({ trackingIds: ['T1'], extraTaskIds: [1], actor: null });
    expect(task(s, 2)).toEqual({ status: 'locked', productCount: 2, canSplit: false });
    expect(task(s, 1)).toEqual({ status: 'open', productCount: 0, canSplit: false });
    expect(record(s, bobs.id)).toEqual({ status: 'match', msg: '' });
  });

  it('imported then scanned: the announced row counts for nothing until seen, then is written once as the scan, audited with the import as before', () => {
    const s = world(2);
    const rec = s.addRecord(1, 'T1', 2);
    const announced = s.addScan('T1', 'X', 5, { status: 'init' });
    s.match({ trackingIds: ['T1'], actor: null });
    expect(units(s, 'T1')).toEqual([{ upc: 'X', count: 5, status: 'init', taskId: null, matchedUser: null }]);
    expect(record(s, rec.id)).toEqual({ status: 'init', msg: '' });
    s.audits = [];

    // The clerk scans 2 of X (another item chosen): the scanned count and item replace the announced ones.
    s.match({
      trackingIds: ['T1'],
      actor: clerk(9),
      seen: new Map([[announced.id, { count: 2, action: 'scan', opUid: 9, item: { id: 7, itemName: 'scanned' } }]]),
    });
    expect(units(s, 'T1')).toEqual([{ upc: 'X', count: 2, status: 'match', taskId: 1, matchedUser: 'alice' }]);
    expect(s.scans[0]).toMatchObject({ id: announced.id, itemId: 7, itemName: 'scanned', opUid: 9 });
    expect(task(s, 1)).toEqual({ status: 'locked', productCount: 2, canSplit: false });
    expect(s.audits.filter((a) => a.entity === 'tracking')).toMatchObject([
      { action: 'scan', entityId: announced.id, opUid: 9, before: { status: 'init', count: 5 }, after: { status: 'match', count: 2 } },
    ]);
  });

  it('confirm: an announced row confirmed by the upload keeps its item; one of another tracking id read only to judge a task is not written', () => {
    const s = world(2);
    s.addRecord(1, 'T1', 1);
    s.addRecord(1, 'T2', 1);
    const a1 = s.addScan('T1', 'X', 1, { status: 'init' });
    const a2 = s.addScan('T2', 'X', 1, { status: 'init' });
    const seen = new Map([
      [a1.id, { count: 1, action: 'upload.confirm', opUid: 9 }],
      [a2.id, { count: 1, action: 'upload.confirm', opUid: 9 }],
    ]);
    // A slice of the upload holding T1 only: T2 counts as seen for the task's verdict.
    const { plan } = s.match({ trackingIds: ['T1'], actor: clerk(9), seen });
    expect(plan.scanUpdates.map((r) => r.id)).toEqual([a1.id]);
    expect(task(s, 1)).toEqual({ status: 'locked', productCount: 2, canSplit: false });
    expect(s.scans.find((r) => r.id === a1.id)).toMatchObject({ status: 'match', itemName: 'item X', taskId: 1 });
    expect(s.scans.find((r) => r.id === a2.id)).toMatchObject({ status: 'init' });
    // The next slice writes T2's row (the task is locked now: its record keeps the unit).
    s.match({ trackingIds: ['T2'], actor: clerk(9), seen });
    expect(s.scans.find((r) => r.id === a2.id)).toMatchObject({ status: 'match', taskId: 1 });
    expect(s.audits.filter((a) => a.entity === 'tracking').map((a) => [a.entityId, a.action])).toEqual([
      [a1.id, 'upload.confirm'],
      [a2.id, 'upload.confirm'],
    ]);
  });

  it("a scan's new row is inserted once in its final state, audited as the scan of its own clerk", () => {
    const s = world(1, 1);
    s.addRecord(1, 'T1', 1);
    s.addRecord(2, 'T1', 1);
    const { plan } = s.scan('T1', 'X', 2, clerk(9));
    expect(plan.scanUpdates).toEqual([]);
    expect(units(s, 'T1')).toEqual([
      { upc: 'X', count: 1, status: 'match', taskId: 1, matchedUser: 'alice' },
      { upc: 'X', count: 1, status: 'match', taskId: 2, matchedUser: 'bob' },
    ]);
    // Both shares are the scan's rows: audited 'scan' without a before, as the clerk's.
    expect(s.audits.filter((a) => a.entity === 'tracking')).toMatchObject([
      { action: 'scan', before: null, opUid: 9, taskId: 1 },
      { action: 'scan', before: null, opUid: 9, taskId: 2 },
    ]);
  });

  it("a settled task keeps its units and results; each tracking id's changes are audited as the clerk who scanned it", () => {
    const s = world(1, 1);
    // The locked task's record is judged again with the others: what it says (2 scanned, 1 recorded) is still true.
    const alices = s.addRecord(1, 'T1', 1, { status: 'unmatch', msg: '扫描到2件，多于记录的1件' });
    s.addScan('T1', 'X', 1, { status: 'match', taskId: 1, userId: 1, mainId: 1, subId: 0, matchedUser: 'alice' });
    s.tasks.set(1, { ...s.tasks.get(1)!, status: 'locked', productCount: 1 });
    s.addRecord(2, 'T2', 1);
    s.addScan('T1', 'X', 1);
    s.addScan('T2', 'X', 1);
    s.match({
      trackingIds: ['T1', 'T2'],
      actor: null,
      actors: new Map([
        ['T1', clerk(8)],
        ['T2', clerk(9)],
      ]),
    });
    expect(record(s, alices.id)).toEqual({ status: 'unmatch', msg: '扫描到2件，多于记录的1件' });
    expect(units(s, 'T1')).toEqual([
      { upc: 'X', count: 1, status: 'match', taskId: 1, matchedUser: 'alice' },
      { upc: 'X', count: 1, status: 'unmatch', taskId: null, matchedUser: null },
    ]);
    expect(task(s, 2)).toEqual({ status: 'locked', productCount: 1, canSplit: false });
    expect(s.audits.map((a) => [a.entity, a.trackingId ?? null, a.opUid])).toEqual([
      ['tracking', 'T1', 8],
      ['tracking', 'T2', 9],
      ['purchased', 'T2', 9],
      ['task', null, 9],
    ]);
  });

  it('judges every record of the parcel again: a record whose surplus a later record took no longer says so, though its task is locked', () => {
    // Issue 33's stale verdict: 2 units scanned, 1 recorded on task 1 (locked, its record says 2 > 1), then 1 on task 2.
    const s = world(1, 1);
    s.addScan('T1', 'X', 2);
    const alices = s.addRecord(1, 'T1', 1);
    s.match({ trackingIds: ['T1'], actor: null });
    expect(task(s, 1)).toEqual({ status: 'locked', productCount: 1, canSplit: false });
    expect(record(s, alices.id)).toEqual({ status: 'unmatch', msg: '扫描到2件，多于记录的1件' });
    const bobs = s.addRecord(2, 'T1', 1);
    s.match({ trackingIds: ['T1'], actor: null });
    expect([task(s, 1), task(s, 2)]).toEqual([
      { status: 'locked', productCount: 1, canSplit: false },
      { status: 'locked', productCount: 1, canSplit: false },
    ]);
    expect([record(s, alices.id), record(s, bobs.id)]).toEqual([
      { status: 'match', msg: '' },
      { status: 'match', msg: '' },
    ]);
    expect(s.audits.filter((a) => a.entity === 'purchased' && a.entityId === alices.id).map((a) => a.after)).toMatchObject([
      { status: 'unmatch' },
      { status: 'match', msg: '' },
    ]);
  });

  it('an unmatch task (more units than its count) locks once its count is raised to what arrived, though its counts stay the same', () => {
    // Units frozen to the task by a payment before its count was lowered: 3 arrived, count 2 -> unmatch (matchVerdict).
    const s = world(2);
    s.addRecord(1, 'T1', 3);
    s.addScan('T1', 'X', 3, { status: 'wait2pay', taskId: 1, userId: 1, mainId: 1, subId: 0, matchedUser: 'alice' });
    // The admin raises its count to 3 (the task keeps its stored status and counts until matching runs).
    s.tasks.set(1, { ...s.tasks.get(1)!, status: 'unmatch', productCount: 3, canSplit: false, count: 3 });
    const { plan } = s.match({ trackingIds: ['T1'], extraTaskIds: [1], actor: null });
    expect(task(s, 1)).toEqual({ status: 'locked', productCount: 3, canSplit: false });
    expect(plan.report.changedTaskIds).toEqual([1]);
  });

  it('leaves a settled task exactly as it is, even when the units tied to it changed', () => {
    const s = world(2);
    s.addRecord(1, 'T1', 2);
    s.addScan('T1', 'X', 1);
    s.tasks.set(1, { ...s.tasks.get(1)!, status: 'closed', productCount: 0 });
    const { plan } = s.match({ trackingIds: ['T1'], actor: null });
    expect(task(s, 1)).toEqual({ status: 'closed', productCount: 0, canSplit: false });
    expect(plan.taskUpdates).toEqual([]);
  });

  it('a task whose only stale fact is canSplit gets it right (the member’s pay-for-arrived button reads it)', () => {
    const s = world(5);
    s.addRecord(1, 'T1', 5);
    s.addScan('T1', 'X', 2, { status: 'match', taskId: 1, userId: 1, mainId: 1, subId: 0, matchedUser: 'alice' });
    s.tasks.set(1, { ...s.tasks.get(1)!, productCount: 2, canSplit: false });
    s.match({ trackingIds: ['T1'], actor: null });
    expect(task(s, 1)).toEqual({ status: 'open', productCount: 2, canSplit: true });
  });

  it('an open task counts every unit that arrives, though its status and canSplit stay the same', () => {
    const s = world(3);
    s.addRecord(1, 'T1', 3);
    s.scan('T1', 'X', 1);
    expect(task(s, 1)).toEqual({ status: 'open', productCount: 1, canSplit: true });
    s.scan('T1', 'X', 1);
    expect(task(s, 1)).toEqual({ status: 'open', productCount: 2, canSplit: true });
    // Matched again with nothing new: the open task gets no event, so its history gains no entry.
    const again = s.match({ trackingIds: ['T1'], actor: null }).plan;
    expect([again.report.changedTaskIds, again.taskUpdates, again.audits]).toEqual([[], [], []]);
  });

  it('names every task it judged once, in id order, those asked for included', () => {
    const s = world(1, 1);
    s.addRecord(2, 'T1', 1);
    s.addRecord(1, 'T1', 1);
    // 99: a task the snapshot does not hold (deleted since) is not judged.
    const { plan } = s.match({ trackingIds: ['T1'], extraTaskIds: [2, 1, 2, 99], actor: null });
    expect(plan.report.taskIds).toEqual([1, 2]);
  });

  it('a divided row’s new row is listed with its parcel’s rows, in id order', () => {
    const s = world(1);
    s.addRecord(1, 'T1', 1);
    const row = s.addScan('T1', 'X', 3);
    const plan = planMatching(s.read(['T1']), { trackingIds: ['T1'], actor: null }, NOW);
    const done = completePlan(plan, [1000]);
    expect(done.rows.get('T1')!.map((r) => [r.id, r.count, r.status])).toEqual([
      [row.id, 1, 'match'],
      [1000, 2, 'unmatch'],
    ]);
  });

  it('an announced row seen with no units is written once as the change made it, audited with the change’s action', () => {
    const s = world(1);
    s.addRecord(1, 'T1', 1);
    const announced = s.addScan('T1', 'X', 3, { status: 'init' });
    const other = s.addScan('T1', 'X', 1, { status: 'init' });
    const { plan } = s.match({ trackingIds: ['T1'], actor: clerk(9), seen: new Map([[announced.id, { count: 0, action: 'upload.confirm', opUid: 9 }]]) });
    expect(plan.scanUpdates).toMatchObject([{ id: announced.id, status: 'scan', count: 0, opUid: 9, updatedAt: NOW }]);
    expect(s.scans.find((r) => r.id === other.id)).toMatchObject({ status: 'init', count: 1 });
    expect(s.audits.filter((a) => a.entity === 'tracking')).toMatchObject([
      { action: 'upload.confirm', entityId: announced.id, before: { status: 'init', count: 3 }, after: { status: 'scan', count: 0 } },
    ]);
    expect(task(s, 1)).toEqual({ status: 'open', productCount: 0, canSplit: false });
  });

  it('a row the change does not name stays announced even when the change names its neighbour', () => {
    const s = world(1);
    s.addRecord(1, 'T1', 1);
    const named = s.addScan('T1', 'X', 1, { status: 'init' });
    const seenElsewhere = s.addScan('T1', 'X', 1);
    const { plan } = s.match({ trackingIds: ['T1'], actor: null, seen: new Map([[seenElsewhere.id, { count: 1, action: 'scan', opUid: 9 }]]) });
    expect(plan.scanUpdates.map((r) => r.id)).toEqual([seenElsewhere.id]);
    expect(s.scans.find((r) => r.id === named.id)).toMatchObject({ status: 'init' });
    expect(s.audits.filter((a) => a.entity === 'tracking').map((a) => a.action)).toEqual(['match']);
  });

  it('a divided row’s new rows are listed with their own parcel only, in id order whatever ids they take', () => {
    const s = world(1, 1);
    s.addRecord(1, 'T1', 1);
    s.addRecord(2, 'T2', 1);
    const r1 = s.addScan('T1', 'X', 2);
    const r2 = s.addScan('T2', 'X', 2);
    const plan = planMatching(s.read(['T1', 'T2']), { trackingIds: ['T1', 'T2'], actor: null }, NOW);
    const done = completePlan(plan, [1, 2]);
    expect(done.rows.get('T1')!.map((r) => r.id)).toEqual([1, r1.id]);
    expect(done.rows.get('T2')!.map((r) => r.id)).toEqual([2, r2.id]);
  });

  it('reads its snapshot only: planning twice gives the same plan and leaves the snapshot as it was', () => {
    const s = world(1, 2);
    s.addRecord(1, 'T1', 1);
    s.addRecord(2, 'T1', 2);
    s.addScan('T1', 'X', 2);
    const state = s.read(['T1']);
    const copy = structuredClone(state);
    const change = { trackingIds: ['T1'], actor: null };
    expect(planMatching(state, change, NOW)).toEqual(planMatching(state, change, NOW));
    expect(state).toEqual(copy);
  });
});

describe("a snapshot that lacks what its contract holds (a caller's bug: MatchingState)", () => {
  // Alice's task 1 has records on T1 and T2; T1 is matched, so T2 is read to judge the task.
  const snapshot = () => {
    const s = world(3);
    s.addRecord(1, 'T1', 1);
    s.addRecord(1, 'T2', 2);
    s.addScan('T1', 'X', 1);
    return s.read(['T1']);
  };
  const plan = (state: ReturnType<typeof snapshot>) => () => planMatching(state, { trackingIds: ['T1'], actor: null }, NOW);

  it.each([
    ['the scan rows of a tracking id matched', (st: ReturnType<typeof snapshot>) => st.scans.delete('T1'), 'scan rows of tracking id T1'],
    ['the records of a tracking id matched', (st: ReturnType<typeof snapshot>) => st.records.delete('T1'), 'records of tracking id T1'],
    ["the records of a task's other tracking id", (st: ReturnType<typeof snapshot>) => st.records.delete('T2'), 'records of tracking id T2'],
    ["a task's list of records", (st: ReturnType<typeof snapshot>) => st.recordsOfTask.delete(1), 'records of task 1'],
    ['a record its task lists', (st: ReturnType<typeof snapshot>) => st.recordsOfTask.get(1)!.push({ id: 99, trackingId: 'T1' }), 'record 99'],
  ])('is refused, naming what is missing: %s', (_, damage, missing) => {
    const state = snapshot();
    expect(plan(state)).not.toThrow();
    damage(state);
    expect(plan(state)).toThrow(`matching: the snapshot holds no ${missing}`);
  });
});

describe("a task's arrivals (arrivalsOf: the task's match dialog, /api/task/part/match)", () => {
  it('says per record, in record order, what arrived, its verdict and its words; a parcel not yet seen says nothing', () => {
    const s = world(5, 1);
    const seen = s.addRecord(1, 'T1', 2);
    const unseen = s.addRecord(1, 'T2', 2);
    const bobs = s.addRecord(2, 'T3', 1);
    const third = s.addRecord(1, 'T1', 1, { id: 50 });
    s.addScan('T1', 'X', 1);
    const state = s.read(['T1', 'T3'], [1]);
    expect(arrivalsOf(state, 1).map(({ record, ...rest }) => ({ id: record.id, ...rest }))).toEqual([
      { id: seen.id, arrived: 1, status: 'unmatch', msg: '已到货1件，记录2件' },
      { id: unseen.id, arrived: 0, status: 'init', msg: '' },
      { id: third.id, arrived: 0, status: 'unmatch', msg: '包裹中该商品只到货1件，已分配给更早的记录' },
    ]);
    expect(arrivalsOf(state, 2).map((a) => a.record.id)).toEqual([bobs.id]);
    // Read only: nothing is written.
    expect(record(s, seen.id)).toEqual({ status: 'init', msg: '' });
  });
});
