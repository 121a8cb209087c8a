// Uploads share the server with everyone else (docs/decisions/060-uploads-in-slices.md and
// 061-upload-queue.md): a large upload is applied in slices, each its own transaction, and other
// requests are answered between them (on PGlite, whose one connection a transaction holds, they
// could not be otherwise); a member has one upload in flight at a time (a second is answered 429
// A00001 at once); the admin side is not queued behind members' files. Orderings are asserted, not
// durations: the CI machine is busy.
import { setImmediate } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSession } from '../../../src/server/auth/sessions.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { scanTrackings } from '../../../src/server/db/schema/receiving.ts';
import { UPLOAD_BUSY } from '../../../src/server/files/upload-gate.ts';
import { SliceTurns } from '../../../src/server/files/slices.ts';
import { lockTrackings } from '../../../src/server/db/matching-store.ts';
import { call, useTestApp } from '../support/harness.ts';
import { signIn } from '../support/board-fixtures.ts';
import { claim, taskWorld, UPC } from '../support/task-fixtures.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const PURCHASES = '/api/purchased/user/excel/upload/import';

function post(token: string, url: string, bytes: Buffer) {
  const body = multipart(bytes);
  return call<{ succ: number; skip: number; error: number }>(t().app, {
    method: 'POST',
    url,
    headers: { 'x-token': token, ...body.headers },
    payload: body.payload,
  });
}

const noticeOf = (token: string) => call(t().app, { method: 'GET', url: '/api/notice/get', headers: { 'x-token': token } });

describe('a large upload', () => {
  it('lets other requests through between its slices until it answers', async () => {
    const { app, database } = t();
    const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
    const member = await signIn(app, database, 'm@x.test');
    const rows = 3000;
    const file = xlsxOf([['tracking', 'upc', '数量'], ...Array.from({ length: rows }, (_, i) => [`FAIR${String(i).padStart(5, '0')}`, UPC, 1])]);
    let answered = false;
    const uploading = post(admin.token, '/api/scan/admin/excel/upload/import', file).finally(() => (answered = true));
    // A member reads the notice again and again while the upload runs; after each read, how many of
    // the file's rows are stored. With the file in one transaction that is 0 until the upload answers.
    const storedDuring: number[] = [];
    while (!answered) {
      // Each read comes as a new request does, from the network: in a later turn of the event loop
      // (app.inject and PGlite answer through promises only, which would never let the upload's turn come).
      await setImmediate();
      expect((await noticeOf(member.token)).body.code).toBe('A00000');
      const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(scanTrackings);
      if (!answered) storedDuring.push(Number(row!.n));
    }
    expect((await uploading).body.data).toMatchObject({ succ: rows, error: 0 });
    expect(storedDuring.length).toBeGreaterThanOrEqual(3);
    // Reads were answered at two different points inside the upload, between its slices.
    expect(new Set(storedDuring.filter((n) => n > 0 && n < rows)).size).toBeGreaterThanOrEqual(2);
  });
});

describe('slices of two uploads on PGlite', () => {
  it('let a request that arrived during one slice run before the next slice of either upload', async () => {
    const turns = new SliceTurns();
    const order: string[] = [];
    // A slice runs in promises only (PGlite's statements): a request that arrives meanwhile is a
    // callback of a later turn of the event loop.
    const slice = (name: string) => async () => {
      order.push(name);
      setImmediate().then(() => order.push(`request during ${name}`));
      await Promise.resolve();
    };
    await Promise.all([turns.run(slice('A1')), turns.run(slice('B1')), turns.run(slice('A2'))]);
    await setImmediate();
    expect(order).toEqual(['A1', 'request during A1', 'B1', 'request during B1', 'A2', 'request during A2']);
  });
});

describe('the upload queue', () => {
  it("answers a member's second upload 429 at once while the first is in flight; the first is applied", async () => {
    const { app, database } = t();
    const w = await taskWorld(app, database);
    // Three units: the three records this test keeps stay within the task's count (decision 090).
    const task = await claim(w.a.api, w.boardTask.id, 3);
    const token = await createSession(database.db, w.a.user.id, false);
    // A session is looked up once and then kept for a while: the refusal needs no database.
    expect((await noticeOf(token)).body.code).toBe('A00000');
    // Hold what the uploads need: on PGlite the one connection, on PostgreSQL the parcel's lock.
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const hold = database.db.transaction(async (tx) => {
      await lockTrackings(tx, ['HOLD-1']);
      holding();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    const file = (extra: string) =>
      xlsxOf([
        ['任务ID', 'tracking', '数量'],
        [task.id, 'HOLD-1', 1],
        [task.id, extra, 1],
      ]);
    const both = [post(token, PURCHASES, file('ONE-2')), post(token, PURCHASES, file('TWO-2'))];
    // Neither can finish while the hold lasts, so whichever came second is refused, and answered now.
    const refused = await Promise.race(both);
    expect(refused).toMatchObject({ status: 429, body: { code: 'A00001', msg: UPLOAD_BUSY } });
    release();
    await hold;
    const answers = await Promise.all(both);
    const applied = answers.filter((a) => a.status === 200);
    expect(applied).toHaveLength(1);
    expect(applied[0]!.body.data).toMatchObject({ succ: 2, error: 0 });
    // As typed in the file (the key drops the dashes, decision 097).
    const stored = await database.db.select({ trackingId: purchasedRecords.typedTrackingId }).from(purchasedRecords);
    expect(stored.map((r) => r.trackingId).sort()).toEqual(['HOLD-1', answers[0] === applied[0] ? 'ONE-2' : 'TWO-2'].sort());
    // Once answered, the member may upload again.
    expect((await post(token, PURCHASES, file('THREE-2'))).body.data).toMatchObject({ succ: 1, skip: 1 });
  });

  it("parses an admin's file before members' files that were waiting", async () => {
    const { app, database } = t();
    const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
    const members = await Promise.all([1, 2, 3, 4].map((i) => signIn(app, database, `m${i}@x.test`)));
    // Members' files of rows naming no task: parsed, checked and reported, nothing written.
    const big = xlsxOf([['任务ID', 'tracking', '数量'], ...Array.from({ length: 5000 }, (_, i) => [999_999, `BIG${i}`, 1])]);
    const order: string[] = [];
    const sent = (name: string, answer: ReturnType<typeof post>) => answer.then((a) => (order.push(name), a));
    const memberAnswers = members.map((m, k) => sent(`member${k + 1}`, post(m.token, PURCHASES, big)));
    // One member's file is parsed at a time: the others wait.
    // (The queue of the thread where uploads run: a worker on PostgreSQL, files/upload-jobs.ts.)
    await vi.waitFor(async () => expect((await app.appCtx.uploads.queueState()).waiting.member).toBe(3), { timeout: 30_000, interval: 5 });
    const adminAnswer = sent(
      'admin',
      post(
        admin.token,
        PURCHASES,
        xlsxOf([
          ['任务ID', 'tracking', '数量'],
          [999_999, 'A-1', 1],
        ]),
      ),
    );
    expect((await adminAnswer).body.data).toMatchObject({ error: 1 });
    for (const a of await Promise.all(memberAnswers)) expect(a.body.data).toMatchObject({ error: 5000 });
    // The admin's file went ahead of the three waiting ones: at most the member whose file was being
    // parsed (whichever of the four reached the parser first) is answered before it.
    expect(order).toHaveLength(5);
    expect(order.indexOf('admin')).toBeLessThanOrEqual(1);
  });
});
