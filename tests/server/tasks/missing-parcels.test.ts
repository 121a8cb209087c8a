// Missing parcels through the real API on a real database (decision 077): a tracking id a member
// recorded that no scan has seen after the MISSING_PARCEL_DAYS setting's days is listed for its
// member (never another's), flagged on their task list and counted on their home, listed for the
// admins with its age, carrier and member, filtered and paged; the member's note and lost report
// are audited and only taken on a missing parcel. Time is moved by setting the records' created date.
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { missingMessages } from '../../../src/server/tasks/missing-parcels.ts';
import { DAY } from '../support/board-fixtures.ts';
import { useTestApp } from '../support/harness.ts';
import { claim, notFound, record, refused, scan, taskWorld, UPC } from '../support/task-fixtures.ts';

const t = useTestApp();
const db = () => t().database.db;

interface Parcel {
  id: number;
  taskId: number;
  mainId: number;
  itemName: string;
  userId: number;
  nickName?: string;
  trackingId: string;
  ageDays: number;
  carrier: string | null;
  note: string;
  lostAt: number | null;
}
interface Page {
  content: Parcel[];
  totalPages: number;
  totalElements: number;
  days: number;
}

// A UPS id (its check digit passes), a USPS id, and plain ones no carrier writes so.
const UPS = '1Z999AA10123456784';
const USPS = '9400111899223197428490';

const recordedDaysAgo = (days: number, trackingIds: string[]) =>
  db()
    .update(purchasedRecords)
    .set({ createdAt: new Date(Date.now() - days * DAY - 60_000) })
    .where(inArray(purchasedRecords.trackingId, trackingIds));

/**
 * Member a: UPS (10 days), USPS (8 days), M-RECENT (3 days), M-ARRIVED (10 days, scanned); member b:
 * M-B (9 days). Missing at 7 days: a's UPS and USPS, b's M-B.
 */
async function world() {
  const { app, database } = t();
  const w = await taskWorld(app, database);
  const ta = await claim(w.a.api, w.boardTask.id, 5);
  for (const id of [UPS, USPS, 'MRECENT', 'MARRIVED']) await record(w.a.api, ta.id, id, 1);
  await scan(database, 'MARRIVED', UPC, 1);
  const tb = await claim(w.b.api, w.boardTask.id, 1);
  await record(w.b.api, tb.id, 'MB0001', 1);
  await recordedDaysAgo(10, [UPS, 'MARRIVED']);
  await recordedDaysAgo(8, [USPS]);
  await recordedDaysAgo(3, ['MRECENT']);
  await recordedDaysAgo(9, ['MB0001']);
  return { ...w, ta, tb };
}

describe('a member sees their own missing parcels', () => {
  it('lists what has not arrived after 7 days, oldest first, with its age and carrier; never another member’s', async () => {
    const w = await world();
    const page = (await w.a.api.get<Page>('/api/purchased/user/missing')).body.data!;
    expect(page).toMatchObject({ totalElements: 2, totalPages: 1, days: 7 });
    expect(page.content.map((p) => [p.trackingId, p.ageDays, p.carrier, p.taskId])).toEqual([
      [UPS, 10, 'UPS', w.ta.id],
      [USPS, 8, 'USPS（美国邮政）', w.ta.id],
    ]);
    const b = (await w.b.api.get<Page>('/api/purchased/user/missing')).body.data!;
    expect(b.content.map((p) => p.trackingId)).toEqual(['MB0001']);
  });

  it('flags the rows of the task list and counts them on the home', async () => {
    const w = await world();
    const tasks = (await w.a.api.get<{ content: { id: number; trackings: { trackingId: string; missingDays?: number }[] }[] }>('/api/task/info/user/list')).body
      .data!.content;
    const flags = tasks.find((x) => x.id === w.ta.id)!.trackings.map((r) => [r.trackingId, r.missingDays]);
    expect(flags).toEqual([
      [UPS, 10],
      [USPS, 8],
      ['MRECENT', undefined],
      ['MARRIVED', undefined],
    ]);
    expect((await w.a.api.get<{ missingParcels: unknown }>('/api/home/user')).body.data!.missingParcels).toEqual({ total: 2, lost: 0, days: 7 });
  });

  it('follows the MISSING_PARCEL_DAYS setting', async () => {
    const w = await world();
    t().config.missingParcelDays = 9;
    try {
      const page = (await w.a.api.get<Page>('/api/purchased/user/missing')).body.data!;
      expect(page.days).toBe(9);
      expect(page.content.map((p) => p.trackingId)).toEqual([UPS]);
      expect((await w.admin.get<{ notArrived: number; notArrivedDays: number }>('/api/home/admin')).body.data).toMatchObject({
        notArrived: 2,
        notArrivedDays: 9,
      });
      // /admin/tasks' not-arrived filter says the same days (its checkbox's label) and selects by them.
      const tasks = (await w.admin.get<{ content: { id: number }[]; notArrivedDays: number }>('/api/task/list/page?notArrived=true')).body.data!;
      expect(tasks.notArrivedDays).toBe(9);
      expect(tasks.content.map((x) => x.id).sort((x, y) => x - y)).toEqual([w.ta.id, w.tb.id]);
    } finally {
      t().config.missingParcelDays = 7;
    }
  });
});

describe('the member notes a missing parcel or reports it lost', () => {
  it('saves the note and the report, audited, and a second report keeps the first time', async () => {
    const w = await world();
    const [ups] = (await w.a.api.get<Page>('/api/purchased/user/missing')).body.data!.content;
    const noted = await w.a.api.post<Parcel>('/api/purchased/user/missing/report', { id: ups!.id, note: ' 卖家说已寄出 ' });
    expect(noted.body).toMatchObject({ code: 'A00000', msg: missingMessages.noted, data: { note: '卖家说已寄出', lostAt: null } });
    const lost = await w.a.api.post<Parcel>('/api/purchased/user/missing/report', { id: ups!.id, lost: true });
    expect(lost.body).toMatchObject({ msg: missingMessages.lost, data: { note: '卖家说已寄出' } });
    const lostAt = lost.body.data!.lostAt!;
    expect(lostAt).toBeGreaterThan(Date.now() - 60_000);
    expect((await w.a.api.post<Parcel>('/api/purchased/user/missing/report', { id: ups!.id, lost: true })).body.data!.lostAt).toBe(lostAt);
    expect((await w.a.api.get<{ missingParcels: unknown }>('/api/home/user')).body.data!.missingParcels).toEqual({ total: 2, lost: 1, days: 7 });

    const trail = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, ups!.id), eq(auditLog.action, 'record.missing')))
      .orderBy(auditLog.id);
    expect(trail).toHaveLength(3);
    expect(trail[0]).toMatchObject({ entity: 'purchased', opUid: w.a.user.id, userId: w.a.user.id, trackingId: UPS, taskId: w.ta.id });
    expect((trail[1]!.after as { lostAt: string | null }).lostAt).not.toBeNull();
    expect((trail[1]!.before as { lostAt: string | null }).lostAt).toBeNull();

    const back = await w.a.api.post<Parcel>('/api/purchased/user/missing/report', { id: ups!.id, lost: false });
    expect(back.body).toMatchObject({ msg: missingMessages.notLost, data: { lostAt: null } });
  });

  it('refuses a record that is not missing, and another member’s as if it did not exist', async () => {
    const w = await world();
    const [recent, arrived] = await db()
      .select()
      .from(purchasedRecords)
      .where(inArray(purchasedRecords.trackingId, ['MRECENT', 'MARRIVED']))
      .orderBy(purchasedRecords.trackingId);
    expect(await w.a.api.post('/api/purchased/user/missing/report', { id: recent!.id, lost: true })).toMatchObject(refused(missingMessages.notMissing));
    expect(await w.a.api.post('/api/purchased/user/missing/report', { id: arrived!.id, note: 'x' })).toMatchObject(refused(missingMessages.notMissing));
    const [bs] = (await w.b.api.get<Page>('/api/purchased/user/missing')).body.data!.content;
    expect(await w.a.api.post('/api/purchased/user/missing/report', { id: bs!.id, lost: true })).toMatchObject(notFound);
    expect((await w.a.api.post('/api/purchased/user/missing/report', { id: bs!.id, note: 'x'.repeat(501) })).body.code).toBe('A00001');
  });

  it('a parcel reported lost that turns up is matched as any other and leaves the lists', async () => {
    const w = await world();
    const [ups] = (await w.a.api.get<Page>('/api/purchased/user/missing')).body.data!.content;
    await w.a.api.post('/api/purchased/user/missing/report', { id: ups!.id, lost: true });
    await scan(t().database, UPS, UPC, 1);
    expect((await w.admin.post('/api/match/admin/tracking/match', { trackingId: UPS })).body.code).toBe('A00000');
    const page = (await w.a.api.get<Page>('/api/purchased/user/missing')).body.data!;
    expect(page.content.map((p) => p.trackingId)).toEqual([USPS]);
  });
});

describe('the admins list every missing parcel', () => {
  it('with age, carrier and member, filtered by member, state and tracking id, paged', async () => {
    const w = await world();
    const list = async (query = '') => (await w.admin.get<Page>(`/api/admin/purchased/missing${query}`)).body.data!;
    const all = await list();
    expect(all.content.map((p) => [p.trackingId, p.ageDays, p.carrier, p.nickName])).toEqual([
      [UPS, 10, 'UPS', '小A'],
      ['MB0001', 9, null, '小B'],
      [USPS, 8, 'USPS（美国邮政）', '小A'],
    ]);
    expect((await list(`?userId=${w.b.user.id}`)).content.map((p) => p.trackingId)).toEqual(['MB0001']);
    expect((await list('?trackingId=1z999')).content.map((p) => p.trackingId)).toEqual([UPS]);
    const paged = await list('?size=2&page=1');
    expect(paged).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(paged.content.map((p) => p.trackingId)).toEqual([USPS]);

    await w.b.api.post('/api/purchased/user/missing/report', { id: all.content[1]!.id, lost: true, note: '快递说丢了' });
    expect((await list('?state=lost')).content.map((p) => [p.trackingId, p.note])).toEqual([['MB0001', '快递说丢了']]);
    expect((await list('?state=missing')).content.map((p) => p.trackingId)).toEqual([UPS, USPS]);
  });

  it('refuses a member', async () => {
    const w = await world();
    expect((await w.a.api.get('/api/admin/purchased/missing')).status).toBe(403);
  });
});

describe('the MISSING_PARCEL_DAYS setting', () => {
  it('is 7 days unless set, takes 0 to 365 whole days, and refuses anything else at start', () => {
    expect(loadConfig({}).missingParcelDays).toBe(7);
    expect(loadConfig({ MISSING_PARCEL_DAYS: '14' }).missingParcelDays).toBe(14);
    expect(loadConfig({ MISSING_PARCEL_DAYS: '0' }).missingParcelDays).toBe(0);
    for (const bad of ['-1', '1.5', 'seven', '366']) expect(() => loadConfig({ MISSING_PARCEL_DAYS: bad }), bad).toThrow(/MISSING_PARCEL_DAYS/);
  });
});
