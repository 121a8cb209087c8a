// The member home through the real API on a real database (getMemberHome; decision 107): one call
// answers what needs the member (open boards not expired, tasks waiting for tracking numbers,
// parcels seen since the last visit, tasks whose records disagree with what arrived, what may be
// asked for payment now, the balance), each list capped with its total, a member's own only.
// The parts are src/server/home/member-home.ts.
import { describe, expect, it } from 'vitest';
import { CLAIM_PENDING_STATUS } from '../../../machines/task.machine.ts';
import { createBoard, createBoardTask, DAY, seedGroup, seedItem } from '../support/board-fixtures.ts';
import { useTestApp } from '../support/harness.ts';
import { agreedApplication, lockedTask } from '../support/money-fixtures.ts';
import { claim, client, record, scan, setTask, taskWorld, UPC, type Client } from '../support/task-fixtures.ts';
import { signIn } from '../support/board-fixtures.ts';

const t = useTestApp();

interface HomeTask {
  id: number;
  mainId: number;
  subId: number;
  itemName: string;
  count: number;
  productCount: number;
  recorded: number;
  status: string;
  trackingIds?: string;
  reason?: string;
  partial?: boolean;
  amount?: number;
}
interface Home {
  now: number;
  since: number;
  openBoards: { total: number; items: { id: number; uuid: string; boardName: string; remark: string; expireAt: number }[] };
  awaitingTracking: { total: number; items: HomeTask[] };
  arrived: {
    total: number;
    items: { id: number; trackingId: string; upc: string; itemName: string; count: number; status: string; seenAt: number; taskId: number | null }[];
  };
  disagreeing: { total: number; items: HomeTask[] };
  payable: { total: number; amount: number; items: HomeTask[] };
  balance: number;
}

const home = (api: Client, since?: number) => api.get<Home>(`/api/home/user${since === undefined ? '' : `?since=${since}`}`);

/**
 * Boards, tasks and parcels of members a and b, one of each kind the home sorts, with what must not
 * count beside each; b has one of everything too, so a's home shows none of b's.
 */
async function world() {
  const { app, database } = t();
  const start = Date.now() - 1000;
  const w = await taskWorld(app, database);
  const bt = w.boardTask.id;

  // Boards: B1 (the world's, +7 days), B2 closing sooner, an expired one, one only for b's other
  // group, one never published, one closed.
  const item = await seedItem(database);
  const g2 = await seedGroup(database, 'b only', [w.b.user.id]);
  const board = async (boardName: string, expireAt: number, groupId: number, then: 'publish' | 'draft' | 'close' = 'publish') => {
    const b = await createBoard(w.admin, { boardName, publishAt: Date.now() - 3 * DAY, expireAt });
    await createBoardTask(w.admin, b.id, { itemId: item.id, buyIn: 1, show: 5 });
    await w.admin.post(`/api/board/${b.id}/add?groupIds=${groupId}`);
    if (then !== 'draft') await w.admin.post(`/api/boardtask/publish/${b.id}`);
    if (then === 'close')
      await w.admin.post('/api/board/info', { id: b.id, boardName, remark: '本周截止', publishAt: Date.now() - 3 * DAY, expireAt, status: 'close' });
    return b;
  };
  const soon = await board('明天截止', Date.now() + DAY, w.group.id);
  await board('已过期', Date.now() - DAY, w.group.id);
  const bOnly = await board('只给B', Date.now() + 8 * DAY, g2.id);
  await board('草稿', Date.now() + DAY, w.group.id, 'draft');
  await board('已关闭', Date.now() + DAY, w.group.id, 'close');

  // a: waiting for tracking numbers (nothing recorded; 1 of 4 recorded); all recorded and not
  // arrived; a pending claim and a deleted one, which wait for nothing.
  const noRecords = await claim(w.a.api, bt, 3);
  const allRecorded = await claim(w.a.api, bt, 2);
  await record(w.a.api, allRecorded.id, 'AREC', 2);
  const oneOfFour = await claim(w.a.api, bt, 4);
  await record(w.a.api, oneOfFour.id, 'AONE', 1);
  const pending = await claim(w.a.api, bt, 1);
  await setTask(database, pending.id, { status: CLAIM_PENDING_STATUS });
  const deleted = await claim(w.a.api, bt, 1);
  await w.a.api.del(`/api/task/info/user/${deleted.id}`);

  // a: every unit arrived (payable whole); 1 of 3 arrived (payable in part, and disagreeing: the
  // record says 3); 3 scanned of 1 recorded (locked, and its record disagrees: 2 units are nobody's).
  const locked = await lockedTask(database, w, w.a, { count: 2 });
  const half = await claim(w.a.api, bt, 3);
  await scan(database, 'AHALF', UPC, 1);
  await record(w.a.api, half.id, 'AHALF', 3);
  const more = await claim(w.a.api, bt, 1);
  await scan(database, 'AMORE', UPC, 3);
  await record(w.a.api, more.id, 'AMORE', 1);
  // a: an agreed application (the balance); its parcel is being paid for, not an arrival.
  const agreed = await agreedApplication(database, w, w.a, { count: 1 });

  // b: one of each.
  const bWaiting = await claim(w.b.api, bt, 1);
  const bLocked = await lockedTask(database, w, w.b, { count: 1 });
  const bHalf = await claim(w.b.api, bt, 2);
  await scan(database, 'BHALF', UPC, 1);
  await record(w.b.api, bHalf.id, 'BHALF', 2);
  await agreedApplication(database, w, w.b, { count: 3 });

  return { ...w, start, soon, bOnly, noRecords, oneOfFour, locked, half, more, agreed, bWaiting, bLocked, bHalf };
}

describe('the member home (one call, what needs the member)', () => {
  it("answers each part from the member's own rows: open boards, tasks to record, arrivals, disagreements, payable, balance", async () => {
    const w = await world();
    const res = await home(w.a.api, w.start);
    expect(res).toMatchObject({ status: 200, body: { code: 'A00000' } });
    const h = res.body.data!;
    expect(h.since).toBe(w.start);
    expect(Math.abs(h.now - Date.now())).toBeLessThan(60_000);

    // Open and published to a, not expired, soonest to close first: not the expired, b's, the draft or the closed one.
    expect(h.openBoards.total).toBe(2);
    expect(h.openBoards.items.map((b) => [b.id, b.uuid, b.boardName])).toEqual([
      [w.soon.id, w.soon.uuid, '明天截止'],
      [w.board.id, w.board.uuid, w.board.boardName],
    ]);
    expect(h.openBoards.items[0]!.expireAt).toBe(w.soon.expireAt);

    expect(h.awaitingTracking).toEqual({
      total: 2,
      items: [
        { id: w.noRecords.id, mainId: w.noRecords.id, subId: 0, itemName: 'AirPods Pro', count: 3, productCount: 0, recorded: 0, status: 'open' },
        { id: w.oneOfFour.id, mainId: w.oneOfFour.id, subId: 0, itemName: 'AirPods Pro', count: 4, productCount: 0, recorded: 1, status: 'open' },
      ],
    });

    // Parcels of a's tracking ids seen since the visit, newest first: tied to a's tasks, or to
    // nobody (A-MORE's two extra units); the agreed application's parcel is being paid, not arriving.
    const parcels = h.arrived.items.map((p) => [p.trackingId, p.count, p.status, p.taskId]);
    expect(parcels).toEqual(
      expect.arrayContaining([
        [w.locked.trackingId, 2, 'match', w.locked.task.id],
        ['AHALF', 1, 'match', w.half.id],
        ['AMORE', 1, 'match', w.more.id],
        ['AMORE', 2, 'unmatch', null],
      ]),
    );
    expect(h.arrived.total).toBe(4);
    expect(parcels).toHaveLength(4);
    expect(h.arrived.items.map((p) => p.seenAt)).toEqual([...h.arrived.items.map((p) => p.seenAt)].sort((x, y) => y - x));

    expect(h.disagreeing.total).toBe(2);
    expect(h.disagreeing.items.map((x) => [x.id, x.trackingIds, x.reason, x.productCount, x.recorded]).sort()).toEqual(
      [
        [w.half.id, 'AHALF', '已到货1件，记录3件', 1, 3],
        [w.more.id, 'AMORE', '扫描到3件，多于记录的1件', 1, 1],
      ].sort(),
    );

    // Payable: the locked tasks (buyIn 12.50 x units) and the arrived unit of the half-arrived one.
    expect(h.payable.total).toBe(3);
    expect(h.payable.amount).toBe(50);
    expect(h.payable.items.map((x) => [x.id, x.status, x.partial, x.amount])).toEqual([
      [w.locked.task.id, 'locked', false, 25],
      [w.half.id, 'open', true, 12.5],
      [w.more.id, 'locked', false, 12.5],
    ]);

    expect(h.balance).toBe(w.agreed.apply.income);
  });

  it("never shows another member's boards, tasks, parcels or money", async () => {
    const w = await world();
    const a = (await home(w.a.api, w.start)).body.data!;
    const b = (await home(w.b.api, w.start)).body.data!;
    const taskIdsOf = (h: Home) => [...h.awaitingTracking.items, ...h.disagreeing.items, ...h.payable.items].map((x) => x.id);
    for (const id of [w.bWaiting.id, w.bLocked.task.id, w.bHalf.id]) expect(taskIdsOf(a)).not.toContain(id);
    expect(a.arrived.items.map((p) => p.trackingId)).not.toContain('BHALF');
    expect(a.arrived.items.map((p) => p.trackingId)).not.toContain(w.bLocked.trackingId);
    expect(a.openBoards.items.map((x) => x.id)).not.toContain(w.bOnly.id);
    // b's home is b's: its own board, tasks, parcels and balance.
    expect(b.openBoards.items.map((x) => x.id)).toEqual([w.soon.id, w.board.id, w.bOnly.id]);
    expect(b.awaitingTracking.items.map((x) => x.id)).toEqual([w.bWaiting.id]);
    expect(b.payable.items.map((x) => x.id)).toEqual([w.bLocked.task.id, w.bHalf.id]);
    expect(b.disagreeing.items.map((x) => x.id)).toEqual([w.bHalf.id]);
    expect(b.arrived.items.map((p) => p.trackingId).sort()).toEqual(['BHALF', w.bLocked.trackingId].sort());
    expect(b.balance).toBe(37.5);
    for (const id of [w.noRecords.id, w.locked.task.id, w.half.id, w.more.id]) expect(taskIdsOf(b)).not.toContain(id);
  });

  it('counts as new only the parcels seen after the last visit, and the past 7 days without one', async () => {
    const w = await world();
    expect((await home(w.a.api, Date.now() + 1000)).body.data!.arrived).toEqual({ total: 0, items: [] });
    const fresh = (await home(w.a.api)).body.data!;
    expect(fresh.arrived.total).toBe(4);
    expect(fresh.now - fresh.since).toBe(7 * DAY);
  });

  it('drops a board from the open ones once it expires', async () => {
    const w = await world();
    expect((await home(w.a.api)).body.data!.openBoards.items.map((b) => b.id)).toContain(w.soon.id);
    await w.admin.post('/api/board/info', {
      id: w.soon.id,
      boardName: '明天截止',
      remark: '本周截止',
      publishAt: Date.now() - 3 * DAY,
      expireAt: Date.now() - 1,
    });
    expect((await home(w.a.api)).body.data!.openBoards.items.map((b) => b.id)).toEqual([w.board.id]);
  });

  it('caps each list at 10 items and says the total', async () => {
    const { app, database } = t();
    const w = await taskWorld(app, database);
    const claimed = [];
    for (let i = 0; i < 12; i++) claimed.push(await claim(w.a.api, w.boardTask.id, 1));
    const h = (await home(w.a.api)).body.data!;
    expect(h.awaitingTracking.total).toBe(12);
    expect(h.awaitingTracking.items.map((x) => x.id)).toEqual(claimed.slice(0, 10).map((x) => x.id));
  });

  it('is for members only (A00003 to the admin side, A00002 without a session) and refuses a bad since (A00001)', async () => {
    const { app, database } = t();
    const w = await taskWorld(app, database);
    expect(await home(w.admin)).toMatchObject({ status: 403, body: { code: 'A00003' } });
    const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
    expect(await home(client(app, lower.token))).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect((await app.inject({ method: 'GET', url: '/api/home/user' })).statusCode).toBe(401);
    expect(await home(w.a.api, -1)).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await w.a.api.get('/api/home/user?since=yesterday')).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });
});
