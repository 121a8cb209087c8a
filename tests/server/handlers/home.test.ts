// The admin home's counts through the real API on a real database (decision 052; DECISIONS
// "Roles"): one call answers what waits (claims pending, unmatched scans of the caller's today,
// tracking ids not arrived, applications to agree; to the admin also the withdraw lines to pay and
// the cancels asked), each count the one its list shows, and /admin/tasks?notArrived lists the
// tasks behind the not-arrived count. The counts are src/server/admin-home.ts.
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CLAIM_PENDING_STATUS } from '../../../machines/task.machine.ts';
import { NOT_ARRIVED_AFTER_DAYS, RECENT_CLAIM_DAYS } from '../../../machines/scan-record.machine.ts';
import { bankCards, withdrawOrders, withdrawRequests } from '../../../src/server/db/schema/money.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { DAY, signIn } from '../support/board-fixtures.ts';
import { useTestApp } from '../support/harness.ts';
import { appliedApplication } from '../support/money-fixtures.ts';
import { claim, client, record, scan, setTask, taskWorld, UPC } from '../support/task-fixtures.ts';

const t = useTestApp();
const db = () => t().database.db;
const HOUR = 3_600_000;

interface Home {
  pendingClaims: number;
  scannedTodayUnmatched: number;
  notArrived: number;
  notArrivedRecords: number;
  notArrivedDays: number;
  appliesToAgree: number;
  contestedParcels: number;
  withdrawalsWaiting?: { count: number; total: number };
  requestedCancels?: number;
}
type Api = ReturnType<typeof client>;

const home = async (api: Api, timezone?: number) => api.get<Home>(`/api/home/admin${timezone === undefined ? '' : `?timezone=${timezone}`}`);
const taskIds = async (api: Api, query: string) =>
  (await api.get<{ content: { id: number }[]; totalElements: number }>(`/api/task/list/page?size=100&${query}`)).body
    .data!.content.map((x) => x.id)
    .sort((x, y) => x - y);

/** Sets back the creation time of the records of these tracking ids. */
const recordedDaysAgo = (days: number, trackingIds: string[]) =>
  db()
    .update(purchasedRecords)
    .set({ createdAt: new Date(Date.now() - days * DAY) })
    .where(inArray(purchasedRecords.trackingId, trackingIds));

/** Two timezones: in `early` it is 00:30 now, so an hour ago was yesterday; in `late` it is 02:30 now. */
function timezones() {
  const h = (Date.now() % DAY) / HOUR;
  let early = 0.5 - h;
  if (early < -12) early += 24;
  early = Math.round(early * 100) / 100;
  return { early, late: early + 2 };
}

/**
 * A world where every count differs: 1 claim pending, 2 applications to agree, 3 withdraw lines to
 * pay (15.84 in all), 4 tracking ids not arrived in 5 records (of a's and b's open tasks), 5 unmatched scans
 * made now and 1 an hour ago, 7 cancels asked; with what must not count beside each.
 */
async function world() {
  const { app, database } = t();
  const w = await taskWorld(app, database);
  const lower = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin' });
  const bt = w.boardTask.id;

  // Claims: one pending (as a claim on a closed board task is); the others open.
  const pending = await claim(w.b.api, bt, 1);
  await setTask(database, pending.id, { status: CLAIM_PENDING_STATUS });

  // Applications: two applied (their parcels arrived and matched); one agreed does not count.
  await appliedApplication(database, w, w.a);
  await appliedApplication(database, w, w.b);

  // Parcels. Not arrived: NA-1 (recorded by a and by b), NA-2, NA-3, NA-6 (only announced by an
  // import, not seen). Arrived: NA-4 (scanned). Too recent: NA-5. On a deleted task: NA-7.
  const t1 = await claim(w.a.api, bt, 3);
  await scan(database, 'NA6', UPC, 1, 'init');
  for (const id of ['NA1', 'NA2', 'NA6']) await record(w.a.api, t1.id, id, 1);
  const t2 = await claim(w.b.api, bt, 2);
  for (const id of ['NA1', 'NA3']) await record(w.b.api, t2.id, id, 1);
  const t3 = await claim(w.a.api, bt, 1);
  await record(w.a.api, t3.id, 'NA7', 1);
  expect((await w.a.api.del(`/api/task/info/user/${t3.id}`)).body.code).toBe('A00000');
  const t4 = await claim(w.a.api, bt, 1);
  await scan(database, 'NA4', UPC, 1);
  await record(w.a.api, t4.id, 'NA4', 1);
  const t5 = await claim(w.b.api, bt, 1);
  await record(w.b.api, t5.id, 'NA5', 1);
  await recordedDaysAgo(NOT_ARRIVED_AFTER_DAYS + 1, ['NA1', 'NA2', 'NA3', 'NA4', 'NA6', 'NA7']);
  await recordedDaysAgo(NOT_ARRIVED_AFTER_DAYS - 1, ['NA5']);

  // Scans the warehouse could not match: five now, one an hour ago, one two days ago; a seen row now.
  const now = Date.now();
  const unmatched = (trackingId: string, at: number) => ({ trackingId, upc: '000000000001', count: 1, status: 'unmatch' as const, createdAt: new Date(at) });
  await db()
    .insert(scanTrackings)
    .values([
      ...['U1', 'U2', 'U3', 'U4', 'U5'].map((id) => unmatched(id, now)),
      unmatched('UHOUR', now - HOUR),
      unmatched('UOLD', now - 2 * DAY),
      { trackingId: 'S1', upc: UPC, count: 1, status: 'scan' as const },
    ]);

  // Withdraw lines, written straight into the tables (their flows are withdraw.test.ts's).
  const [card] = await db()
    .insert(bankCards)
    .values({ userId: w.a.user.id, paymentType: 'Zelle', accountNameEncrypt: 'x', accountNameLast4: 'Lee' })
    .returning();
  const lines = [
    ...[100, 250, 1234].map((amount) => ({ status: 'waited' as const, amount })),
    ...Array.from({ length: 7 }, () => ({ status: 'requestedCancel' as const, amount: 500 })),
    { status: 'paid' as const, amount: 900 },
    { status: 'canceled' as const, amount: 800 },
  ];
  for (const [i, l] of lines.entries()) {
    // The public orderId is the order's id, and order_id its text (withdraw-service.ts).
    const id = 1000 + i;
    const orderId = String(id);
    await db().insert(withdrawOrders).values({ id, orderId, userId: w.a.user.id });
    await db().insert(withdrawRequests).values({
      orderId,
      userId: w.a.user.id,
      cardId: card!.id,
      paymentType: 'Zelle',
      accountNameEncrypt: 'x',
      accountNameLast4: 'Lee',
      withdrawAmount: l.amount,
      status: l.status,
    });
  }
  return { ...w, lower: client(app, lower.token), t1, t2, t3, t4, t5, pending };
}

describe('the admin home (one call, every count of what waits)', () => {
  it('answers the admin every count, each the one of its list, and the withdraw lines to pay with their total', async () => {
    const w = await world();
    const { early, late } = timezones();
    const res = await home(w.admin, late);
    expect(res).toMatchObject({ status: 200, body: { code: 'A00000' } });
    expect(res.body.data).toEqual({
      pendingClaims: 1,
      scannedTodayUnmatched: 6,
      notArrived: 4,
      notArrivedRecords: 5,
      notArrivedDays: NOT_ARRIVED_AFTER_DAYS,
      appliesToAgree: 2,
      contestedParcels: 0,
      // The seven unmatched parcels nobody recorded are unknown (decision 169); none claimed yet.
      parcelClaims: { unknown: 7, claimed: 0, days: RECENT_CLAIM_DAYS },
      withdrawalsWaiting: { count: 3, total: 15.84 },
      requestedCancels: 7,
    });
    expect((await w.a.api.get<{ totalElements: number }>('/api/purchased/user/unknown?size=100')).body.data!.totalElements).toBe(7);
    // The lists the counts link to show as many: the not-arrived card's list a row per member who
    // recorded the parcel (NA-1 by a and by b: 5 rows of 4 tracking ids).
    expect(await taskIds(w.admin, `taskStatus=${CLAIM_PENDING_STATUS}`)).toEqual([w.pending.id]);
    const missing = (await w.admin.get<{ content: { trackingId: string }[]; totalElements: number }>('/api/admin/purchased/missing?size=100')).body.data!;
    expect(missing.totalElements).toBe(5);
    expect(new Set(missing.content.map((p) => p.trackingId)).size).toBe(4);
    const applies = await w.admin.get<{ content: unknown[] }>('/api/apply/list/page?status=applied&size=100');
    expect(applies.body.data!.content).toHaveLength(2);
    const waiting = await w.admin.get<{ requestPage: { content: unknown[] } }>('/api/withdraw/admin/requests?status=waited&size=100');
    expect(waiting.body.data!.requestPage.content).toHaveLength(3);
    // "Today" is the caller's: where it is 00:30 now, the scan of an hour ago was yesterday's.
    expect((await home(w.admin, early)).body.data!.scannedTodayUnmatched).toBe(5);
  });

  it('answers a lowerAdmin the same counts without the withdrawals, and a member nothing (A00003)', async () => {
    const w = await world();
    const { late } = timezones();
    expect((await home(w.lower, late)).body.data).toEqual({
      pendingClaims: 1,
      scannedTodayUnmatched: 6,
      notArrived: 4,
      notArrivedRecords: 5,
      notArrivedDays: NOT_ARRIVED_AFTER_DAYS,
      appliesToAgree: 2,
      contestedParcels: 0,
      parcelClaims: { unknown: 7, claimed: 0, days: RECENT_CLAIM_DAYS },
    });
    expect(await home(w.a.api)).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect((await t().app.inject({ method: 'GET', url: '/api/home/admin' })).statusCode).toBe(401);
  });

  it('refuses a timezone out of range (A00001)', async () => {
    const w = await world();
    expect(await home(w.admin, 15)).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });
});

describe('/admin/tasks?notArrived: the tasks behind the not-arrived count', () => {
  it('lists the tasks with a tracking id not arrived; a parcel scanned leaves the count, and its task once none of its parcels is missing', async () => {
    const w = await world();
    expect(await taskIds(w.admin, 'notArrived=true')).toEqual([w.t1.id, w.t2.id]);
    expect(await taskIds(w.lower, `notArrived=true&userId=${w.b.user.id}`)).toEqual([w.t2.id]);
    // false is no filter.
    expect((await taskIds(w.admin, 'notArrived=false')).length).toBeGreaterThan(2);

    // NA-3 (b's only missing parcel) arrives at the warehouse and is scanned.
    const scanned = await w.admin.post('/api/scan/admin/tracking/NA-3/create', { items: [{ upc: UPC, count: 1, itemId: w.item.id }] });
    expect(scanned.body.code).toBe('A00000');
    // NA-1 is b's too, and still missing: b's task stays.
    expect((await home(w.admin)).body.data!.notArrived).toBe(3);
    expect(await taskIds(w.admin, 'notArrived=true')).toEqual([w.t1.id, w.t2.id]);
    await w.admin.post('/api/scan/admin/tracking/NA-1/create', { items: [{ upc: UPC, count: 2, itemId: w.item.id }] });
    expect((await home(w.admin)).body.data!.notArrived).toBe(2);
    expect(await taskIds(w.admin, 'notArrived=true')).toEqual([w.t1.id]);
  });

  it('counts a parcel recorded exactly past the limit, not one recorded since', async () => {
    const w = await world();
    await db()
      .update(purchasedRecords)
      .set({ createdAt: sql`now() - make_interval(days => ${NOT_ARRIVED_AFTER_DAYS}) - interval '1 minute'` })
      .where(inArray(purchasedRecords.trackingId, ['NA5']));
    expect((await home(w.admin)).body.data!.notArrived).toBe(5);
    expect(await taskIds(w.admin, 'notArrived=true')).toEqual([w.t1.id, w.t2.id, w.t5.id]);
  });
});
