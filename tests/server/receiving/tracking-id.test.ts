// One parcel however it is written (decision 097): a member types the id as a courier site shows it,
// the scanner sends its barcode with decorations, and the parcel matches; the record keeps what the
// member typed. The migration's SQL re-keys old rows as the app's function does and lists the rows
// whose ids collide instead of failing.
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { canonicalTrackingId, GS1_SEPARATOR } from '../../../machines/tracking-id.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { purchasedRecords, tasks } from '../../../src/server/db/schema/tasks.ts';
import { rowsOf } from '../../../src/server/db/client.ts';
import { rekeyCollisionsLine } from '../../../src/server/receiving/tracking-rekeys.ts';
import { useTestApp } from '../support/harness.ts';
import { claim, record, scansOf, storedTask, taskWorld, UPC } from '../support/task-fixtures.ts';

const t = useTestApp();

const create = (w: Awaited<ReturnType<typeof taskWorld>>, trackingId: string, itemId: number, count = 1) =>
  w.admin.post<{ opStatus: string; scanTrackingList: { trackingId: string; status: string; taskId: number | null }[] }>(
    `/api/scan/admin/tracking/${encodeURIComponent(trackingId)}/create`,
    { items: [{ upc: UPC, count, itemId }] },
  );

describe('a parcel written differently by the member and the scanner', () => {
  const cases: [string, string, string][] = [
    ['pasted with a zero-width space, scanned plain', '1Z999AA10123456784\u200b', '1Z999AA10123456784'],
    ['lower case and spaced, scanned with its AIM prefix', '1z 999 aa1 0123 456 784', ']C11Z999AA10123456784'],
    ['full-width digits from a Chinese input method', '７７６６３２５１７５１０', '9622001900000000000000776632517510'],
    ['USPS id typed, IMpb barcode with GS1 separator', '9505 5110 6960 5048 6006 24', `]C142090210${GS1_SEPARATOR}9505511069605048600624`],
    ['Amazon id typed, scanner sends ]C1', 'tba-123456789-000', ']C1TBA123456789000'],
  ];
  it.each(cases)('%s: the record matches and keeps what was typed', async (_, typed, scanned) => {
    const w = await taskWorld(t().app, t().database);
    const task = await claim(w.a.api, w.boardTask.id, 1);
    const [rec] = await record(w.a.api, task.id, typed, 1);
    const key = canonicalTrackingId(typed);
    expect(rec).toMatchObject({ trackingId: key, typedTrackingId: typed.trim() });
    const res = await create(w, scanned, w.item.id);
    expect(res.body).toMatchObject({ code: 'A00000', data: { opStatus: 'succ', scanTrackingList: [{ trackingId: key, status: 'match', taskId: task.id }] } });
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked', productCount: 1, trackingId: key });
    // The clerk's lookup by any written form finds the parcel.
    const found = await w.admin.get<{ isExist: boolean }>(`/api/scan/admin/tracking/${encodeURIComponent(typed)}/list`);
    expect(found.body).toMatchObject({ code: 'A00000', data: { isExist: true } });
  });

  it('refuses another control character in a tracking id, and a key of nothing', async () => {
    const w = await taskWorld(t().app, t().database);
    const task = await claim(w.a.api, w.boardTask.id, 1);
    const bell = await w.a.api.post(`/api/purchased/user/${task.id}/create`, { trackingId: 'T\u0007X', productCount: 1 });
    expect(bell).toMatchObject({ status: 400, body: { code: 'A00001', msg: '参数错误：字段 trackingId 含有不允许的控制字符' } });
    const nothing = await w.a.api.post(`/api/purchased/user/${task.id}/create`, { trackingId: '\u200b -', productCount: 1 });
    expect(nothing).toMatchObject({ status: 400, body: { code: 'A00001', msg: '请填写trackingId' } });
  });

  it('a second record of the same parcel on a task, written differently, is the same record', async () => {
    const w = await taskWorld(t().app, t().database);
    const task = await claim(w.a.api, w.boardTask.id, 2);
    await record(w.a.api, task.id, '1Z999AA10123456784', 1);
    const again = await w.a.api.post(`/api/purchased/user/${task.id}/create`, { trackingId: '1z 999 aa1 0123 456 784', productCount: 1 });
    expect(again.body).toMatchObject({ code: 'A00001', msg: '该快递单号已记录' });
  });
});

describe('the migration of old rows', () => {
  const migration = fs.readFileSync(path.resolve(import.meta.dirname, '../../../src/server/db/migrations/0012_canonical_tracking_ids.sql'), 'utf8');
  // The data steps (after the functions and the table): run again on rows written the old way.
  const dataSteps = migration
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter((s) => /^(UPDATE|INSERT)/.test(s));

  it("the SQL function gives the app's key for every form old rows can hold", async () => {
    const forms = [
      '1Z999AA10123456784',
      ' 1z999aa10123456784\u200b',
      '\ufeff1Z 999 AA1-0123-456-784\u00ad',
      '１Ｚ９９９ＡＡ１０１２３４５６７８４',
      '1Z\u3000999AA1\u20600123456784',
      ']C1TBA123456789000',
      ']c1]e0tba123456789000',
      '420902109505511069605048600624',
      '4209021012349505511069605048600624',
      '9622001900000000000000776632517510',
      '9622001560001234567100794808390594',
      '9611020987654312345672',
      '0012345678901',
      'sf 1234 5678 90123',
      'rr－123－456－785－cn',
      'A\u2010B\u2212C\u30fcD',
    ];
    const got = await rowsOf<{ k: string }>(
      t().database.db.execute(sql`select canonical_tracking_id(f) as k from unnest(${sql.param(forms)}::text[]) with ordinality as u(f, n) order by n`),
    );
    expect(got.map((r) => r.k)).toEqual(forms.map(canonicalTrackingId));
  });

  it('re-keys records and scan rows, keeps what was typed, and lists collisions instead of failing', async () => {
    const w = await taskWorld(t().app, t().database);
    const db = t().database.db;
    const a = await claim(w.a.api, w.boardTask.id, 3);
    const b = await claim(w.b.api, w.boardTask.id, 1);
    // Written as the app stored them before decision 097.
    const [a1, a2, a3] = await db
      .insert(purchasedRecords)
      .values([
        { taskId: a.id, userId: w.a.user.id, trackingId: '1z999aa10123456784', productCount: 1 },
        { taskId: a.id, userId: w.a.user.id, trackingId: '1Z 999 AA1 0123 456 784', productCount: 1 },
        { taskId: a.id, userId: w.a.user.id, trackingId: 'TBA123456789000', productCount: 1 },
      ])
      .returning();
    const [b1] = await db
      .insert(purchasedRecords)
      .values({ taskId: b.id, userId: w.b.user.id, trackingId: '１Ｚ９９９ＡＡ１０１２３４５６７８４', productCount: 1 })
      .returning();
    await db.update(tasks).set({ trackingId: '1z999aa10123456784' }).where(eq(tasks.id, a.id));
    const [s1] = await db.insert(scanTrackings).values({ trackingId: ']C1TBA123456789000', upc: UPC, count: 1, status: 'scan' }).returning();

    for (const step of dataSteps) await db.execute(sql.raw(step));

    const rec = async (id: number) => (await db.select().from(purchasedRecords).where(eq(purchasedRecords.id, id)))[0]!;
    expect(await rec(a1!.id)).toMatchObject({ trackingId: '1Z999AA10123456784', typedTrackingId: '1z999aa10123456784' });
    // The same task already has the key: this record is left as it was, and listed.
    expect(await rec(a2!.id)).toMatchObject({ trackingId: '1Z 999 AA1 0123 456 784', typedTrackingId: '1Z 999 AA1 0123 456 784' });
    expect(await rec(a3!.id)).toMatchObject({ trackingId: 'TBA123456789000', typedTrackingId: 'TBA123456789000' });
    expect(await rec(b1!.id)).toMatchObject({ trackingId: '1Z999AA10123456784' });
    expect((await scansOf(t().database, 'TBA123456789000')).map((r) => r.id)).toEqual([s1!.id]);
    expect(await storedTask(t().database, a.id)).toMatchObject({ trackingId: '1Z999AA10123456784' });

    const listed = await rowsOf<{ table_name: string; row_id: number; before: string; after: string; note: string }>(
      db.execute(sql`select table_name, row_id, before, after, note from tracking_id_rekeys order by table_name, row_id`),
    );
    expect(listed).toEqual([
      { table_name: 'purchased_records', row_id: a1!.id, before: '1z999aa10123456784', after: '1Z999AA10123456784', note: 'collides' },
      {
        table_name: 'purchased_records',
        row_id: a2!.id,
        before: '1Z 999 AA1 0123 456 784',
        after: '1Z999AA10123456784',
        note: 'kept: the task has a record of this key',
      },
      { table_name: 'purchased_records', row_id: b1!.id, before: '１Ｚ９９９ＡＡ１０１２３４５６７８４', after: '1Z999AA10123456784', note: 'collides' },
      { table_name: 'scan_trackings', row_id: s1!.id, before: ']C1TBA123456789000', after: 'TBA123456789000', note: 'collides' },
    ]);
    // The start-up log says an admin has rows to look at.
    expect(await rekeyCollisionsLine(db)).toBe(
      'Tracking ids in canonical form (decision 097): 3 re-keyed rows share a key with another stored id, 1 records were kept as they were because their task already had the key; see table tracking_id_rekeys.',
    );
    // Run again: nothing left to re-key.
    await db.execute(sql`delete from tracking_id_rekeys`);
    for (const step of dataSteps) await db.execute(sql.raw(step));
    expect(await rowsOf(db.execute(sql`select * from tracking_id_rekeys where note not like 'kept%'`))).toEqual([]);
    await db.execute(sql`delete from tracking_id_rekeys`);
    expect(await rekeyCollisionsLine(db)).toBeNull();
  });
});
