// Unknown parcels claimed by their owners through the real API on a real database (decision 169):
// a parcel scanned that no member recorded is listed for members masked to its last 6 characters
// with its product and the caller's tasks that could take it; a member claims it by its full id on
// a task of theirs and it matches at once; wrong ids, products and other members' tasks are refused
// and change nothing; a record made on an unknown parcel by the record dialog is a claim too; the
// admins list the claims and the home counts them; an admin undoes one (audited) and the parcel is
// unknown again, but not once the task is applied for payment.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { UNKNOWN_PARCEL_DAYS } from '../../../machines/scan-record.machine.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { claimMessages } from '../../../src/server/tasks/parcel-claims.ts';
import { taskMessages } from '../../../machines/task.machine.ts';
import { useTestApp } from '../support/harness.ts';
import { claim, notFound, record, refused, scansOf, setTask, storedTask, taskWorld, UPC, type TaskWorld } from '../support/task-fixtures.ts';

const t = useTestApp();

interface UnknownParcel {
  maskedTrackingId: string;
  carrier: string | null;
  products: { itemName: string; upc: string; count: number }[];
  myTasks: { id: number; taskDisplayId: string; room: number }[];
}
interface Claim {
  id: number;
  taskId: number;
  nickName: string;
  trackingId: string;
  productCount: number;
  status: string;
  undoable: boolean;
}

const UPS = '1Z999AA10123456784';

/** The clerk scans a parcel at /admin/scan: the product's UPC on the tracking id (matching runs). */
async function scanParcel(w: TaskWorld, trackingId: string, count = 1, item = w.item) {
  const res = await w.admin.post(`/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/create`, {
    items: [{ upc: item.upc, count, itemId: item.id }],
  });
  expect(res.body.code).toBe('A00000');
}

const unknownOf = async (w: TaskWorld, who: 'a' | 'b' = 'a') =>
  (await w[who].api.get<{ content: UnknownParcel[]; totalElements: number }>('/api/purchased/user/unknown')).body.data!;
const claimIt = (w: TaskWorld, who: 'a' | 'b', taskId: number, trackingId: string) =>
  w[who].api.post<{ purchasedItems: { trackingId: string; status: string; productCount: number; claimedAt?: number }[] }>('/api/purchased/user/unknown/claim', {
    taskId,
    trackingId,
  });
const claimsOf = async (w: TaskWorld) => (await w.admin.get<{ content: Claim[]; totalElements: number }>('/api/admin/purchased/claims')).body.data!;
const homeOf = async (w: TaskWorld) =>
  (await w.admin.get<{ parcelClaims: { unknown: number; claimed: number; days: number } }>('/api/home/admin')).body.data!.parcelClaims;

async function world() {
  const w = await taskWorld(t().app, t().database);
  const ta = await claim(w.a.api, w.boardTask.id, 2);
  // Two units of the board's product arrive on a UPS parcel nobody recorded.
  await scanParcel(w, UPS, 2);
  return { ...w, ta };
}

describe('members see unknown parcels masked', () => {
  it('lists a parcel nobody recorded by its last 6 characters, its product and the caller’s tasks that could take it', async () => {
    const w = await world();
    const page = await unknownOf(w);
    expect(page.totalElements).toBe(1);
    const [p] = page.content;
    expect(p).toMatchObject({ maskedTrackingId: '****456784', carrier: 'UPS', products: [{ upc: UPC, count: 2 }] });
    expect(p!.myTasks.map((x) => [x.id, x.room])).toEqual([[w.ta.id, 2]]);
    // The full id is nowhere in the answer.
    expect(JSON.stringify(page)).not.toContain('1Z999AA1');
    // Member b has no task of the product: the parcel is listed, with nothing to claim it on.
    expect((await unknownOf(w, 'b')).content[0]!.myTasks).toEqual([]);
    expect(await homeOf(w)).toEqual({ unknown: 1, claimed: 0, days: 7 });
  });

  it('lists and counts the parcels of the last 90 days; an older one is still claimed by its full id', async () => {
    const w = await world();
    await t()
      .database.db.update(scanTrackings)
      .set({ createdAt: new Date(Date.now() - (UNKNOWN_PARCEL_DAYS + 1) * 86_400_000) })
      .where(eq(scanTrackings.trackingId, UPS));
    expect((await unknownOf(w)).totalElements).toBe(0);
    expect((await homeOf(w)).unknown).toBe(0);
    expect((await claimIt(w, 'a', w.ta.id, UPS)).body).toMatchObject({ code: 'A00000', msg: claimMessages.claimed(2) });
  });
});

describe('a member claims an unknown parcel by its full id', () => {
  it('records the parcel’s units on the task and matches them at once; the parcel leaves the list', async () => {
    const w = await world();
    const res = await claimIt(w, 'a', w.ta.id, '1z999aa1 0123 456784'); // as typed from a label, any form
    expect(res.body).toMatchObject({ code: 'A00000', msg: claimMessages.claimed(2) });
    expect(res.body.data!.purchasedItems).toMatchObject([{ trackingId: UPS, productCount: 2, status: 'match' }]);
    expect(res.body.data!.purchasedItems[0]!.claimedAt).toEqual(expect.any(Number));
    expect((await storedTask(t().database, w.ta.id)).status).toBe('locked');
    expect((await scansOf(t().database, UPS)).map((s) => [s.status, s.taskId])).toEqual([['match', w.ta.id]]);
    expect((await unknownOf(w)).totalElements).toBe(0);
    const audit = await t()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'purchased'), eq(auditLog.action, 'record.claim')));
    expect(audit).toHaveLength(1);
    expect(await homeOf(w)).toEqual({ unknown: 0, claimed: 1, days: 7 });
    const claims = await claimsOf(w);
    expect(claims.content).toMatchObject([{ taskId: w.ta.id, nickName: '小A', trackingId: UPS, productCount: 2, status: 'match', undoable: true }]);
  });

  it('records no more units than the task has left', async () => {
    const w = await world();
    const one = await claim(w.a.api, w.boardTask.id, 1);
    const res = await claimIt(w, 'a', one.id, UPS);
    expect(res.body).toMatchObject({ code: 'A00000', msg: claimMessages.claimed(1) });
    expect((await storedTask(t().database, one.id)).status).toBe('locked');
  });

  it('refuses a wrong id, another product, another member’s task and a task that takes no records, and writes nothing', async () => {
    const w = await world();
    const before = await t().database.db.select().from(purchasedRecords);
    // Only the last 6 characters right: not the parcel.
    expect(await claimIt(w, 'a', w.ta.id, '1Z999AA10000456784')).toMatchObject(refused(claimMessages.notUnknown));
    expect(await claimIt(w, 'a', w.ta.id, '')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    // A task of another product.
    const other = await claim(w.a.api, w.boardTask2.id, 1);
    expect(await claimIt(w, 'a', other.id, UPS)).toMatchObject(refused(claimMessages.otherProduct));
    // Member b on member a's task: as if it did not exist.
    expect(await claimIt(w, 'b', w.ta.id, UPS)).toMatchObject(notFound);
    // A task in locked takes no record from its member.
    await setTask(t().database, w.ta.id, { status: 'locked' });
    expect((await claimIt(w, 'a', w.ta.id, UPS)).body.code).toBe('A00001');
    expect(await t().database.db.select().from(purchasedRecords)).toEqual(before);
    expect((await unknownOf(w)).totalElements).toBe(1);
  });

  it('a parcel some member recorded is not unknown: nobody else can claim it', async () => {
    const w = await world();
    const tb = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.b.api, tb.id, 'RECORDED1', 1);
    await scanParcel(w, 'RECORDED1', 1);
    expect(await claimIt(w, 'a', w.ta.id, 'RECORDED1')).toMatchObject(refused(claimMessages.notUnknown));
  });

  it('a record made in the record dialog on an unknown parcel is a claim too', async () => {
    const w = await world();
    await record(w.a.api, w.ta.id, UPS, 2);
    const claims = await claimsOf(w);
    expect(claims.content.map((c) => [c.trackingId, c.status])).toEqual([[UPS, 'match']]);
    // A record made before its parcel arrives is not.
    const tb = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.b.api, tb.id, 'EARLY1', 1);
    await scanParcel(w, 'EARLY1', 1);
    expect((await claimsOf(w)).totalElements).toBe(1);
  });
});

describe('an admin undoes a claim', () => {
  it('removes the record, opens the task again, and the parcel is unknown once more; audited', async () => {
    const w = await world();
    await claimIt(w, 'a', w.ta.id, UPS);
    const [c] = (await claimsOf(w)).content;
    const res = await w.admin.post<Claim>('/api/admin/purchased/claims/undo', { id: c!.id });
    expect(res.body).toMatchObject({ code: 'A00000', msg: claimMessages.undone, data: { id: c!.id, trackingId: UPS } });
    expect(await storedTask(t().database, w.ta.id)).toMatchObject({ status: 'open', productCount: 0 });
    expect((await scansOf(t().database, UPS)).map((s) => [s.status, s.taskId])).toEqual([['unmatch', null]]);
    expect((await unknownOf(w)).content.map((p) => p.maskedTrackingId)).toEqual(['****456784']);
    expect((await claimsOf(w)).totalElements).toBe(0);
    const audit = await t().database.db.select().from(auditLog).where(eq(auditLog.action, 'record.unclaim'));
    expect(audit).toHaveLength(1);
    // Undone twice: the record is gone.
    expect(await w.admin.post('/api/admin/purchased/claims/undo', { id: c!.id })).toMatchObject(notFound);
  });

  it('is refused once the task is applied for payment, for a record that is no claim, and for a member', async () => {
    const w = await world();
    await claimIt(w, 'a', w.ta.id, UPS);
    const [c] = (await claimsOf(w)).content;
    expect(await w.a.api.post('/api/admin/purchased/claims/undo', { id: c!.id })).toMatchObject({ status: 403 });
    await setTask(t().database, w.ta.id, { status: 'processing' });
    expect((await claimsOf(w)).content[0]!.undoable).toBe(false);
    expect(await w.admin.post('/api/admin/purchased/claims/undo', { id: c!.id })).toMatchObject(refused(taskMessages.unclaimRule));
    const tb = await claim(w.b.api, w.boardTask.id, 1);
    const [r] = await record(w.b.api, tb.id, 'PLAIN1', 1);
    expect(await w.admin.post('/api/admin/purchased/claims/undo', { id: r!.id })).toMatchObject(refused(claimMessages.notClaim));
  });
});
