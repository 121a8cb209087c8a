// The scan batcher (receiving/scan-batcher.ts) on a real database: scans that arrive while others
// are being written are written together, and each clerk still gets their own answer, their own
// audit entries and their own errors; the scans of one parcel keep their order; a batch that fails
// is written again scan by scan.
import { and, eq } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { pipelinedRunner, type Tx } from '../../../src/server/db/client.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { ScanBatcher } from '../../../src/server/receiving/scan-batcher.ts';
import { addJob, createJob, runScanJobs, scanMessages, type ScanJob, type ScanOutcome } from '../../../src/server/receiving/scan-service.ts';
import { dbDriver, useTestApp } from '../support/harness.ts';
import { signIn } from '../support/board-fixtures.ts';
import { actorOf, claim, record, scansOf, storedTask, taskWorld, UPC, UPC2 } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

async function world() {
  const { app, database } = t();
  const w = await taskWorld(app, database);
  const lowerIn = await signIn(app, database, 'lower@x.test', { roleType: 'lowerAdmin', nickName: '仓库' });
  return { ...w, lowerActor: actorOf(lowerIn.user) };
}

/** A batcher over the test database that counts the transactions it opens. */
function counted() {
  const db = t().database.db;
  const stats = { transactions: 0 };
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      // db.transaction, or on PostgreSQL the pipelined transactions the batcher opens (db/client.ts).
      if (key === 'transaction' || key === pipelinedRunner) {
        const open = Reflect.get(target, key) as ((...args: unknown[]) => Promise<unknown>) | undefined;
        return (
          open &&
          ((...args: unknown[]) => {
            stats.transactions++;
            return open.apply(target, args);
          })
        );
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { batcher: new ScanBatcher(proxy), stats };
}

/** Every job submitted at once; each one's outcome or error. */
const settle = (batcher: ScanBatcher, jobs: ScanJob[]) => Promise.allSettled(jobs.map((j) => batcher.submit(j)));
const value = (r: PromiseSettledResult<ScanOutcome>) => {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
};

async function trackingAudits(trackingId: string) {
  const { db } = t().database;
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'tracking'), eq(auditLog.trackingId, trackingId)))
    .orderBy(auditLog.id);
}

describe('scan batcher', () => {
  it('writes the scans that queued together in one transaction, each answered, matched and audited as its own clerk', async () => {
    const w = await world();
    const { database } = t();
    const ta = await claim(w.a.api, w.boardTask.id, 1);
    const tb = await claim(w.b.api, w.boardTask2.id, 1);
    await record(w.a.api, ta.id, 'T1', 1);
    await record(w.b.api, tb.id, 'T2', 1);
    const { batcher, stats } = counted();

    // Two scans start at once (two transactions in flight); the three that arrive meanwhile wait and go together.
    const results = (
      await settle(batcher, [
        createJob(w.adminActor, 'N1', [{ upc: UPC, itemId: w.item.id }]),
        addJob(w.lowerActor, 'N2', { itemId: w.item2.id }),
        createJob(w.adminActor, 'T1', [{ upc: UPC, count: 1, itemId: w.item.id }]),
        addJob(w.lowerActor, 'T2', { itemId: w.item2.id }),
        createJob(w.lowerActor, 'N3', [{ upc: UPC2, count: 2, itemId: w.item2.id }]),
      ])
    ).map(value);
    expect(stats.transactions).toBe(3);

    expect(results.map((r) => [r.opStatus, r.msg, r.rows.map((row) => [row.trackingId, row.upc, row.count, row.status, row.taskId, row.opUid])])).toEqual([
      ['succ', scanMessages.created, [['N1', UPC, 1, 'unmatch', null, w.adminUser.id]]],
      ['succ', scanMessages.added, [['N2', UPC2, 1, 'unmatch', null, w.lowerActor.id]]],
      ['succ', scanMessages.created, [['T1', UPC, 1, 'match', ta.id, w.adminUser.id]]],
      ['succ', scanMessages.added, [['T2', UPC2, 1, 'match', tb.id, w.lowerActor.id]]],
      ['succ', scanMessages.created, [['N3', UPC2, 2, 'unmatch', null, w.lowerActor.id]]],
    ]);
    // The answers are what is stored.
    for (const r of results) expect((await scansOf(database, r.rows[0]!.trackingId)).map((row) => row.id)).toEqual(r.rows.map((row) => row.id));

    // Both members' parcels arrived in the same transaction; each task moved, on its own clerk's name.
    expect(await storedTask(database, ta.id)).toMatchObject({ status: 'locked', productCount: 1 });
    expect(await storedTask(database, tb.id)).toMatchObject({ status: 'locked', productCount: 1 });
    const taskAudits = await database.db.select().from(auditLog).where(eq(auditLog.entity, 'task')).orderBy(auditLog.id);
    expect(taskAudits.filter((a) => a.action === 'match').map((a) => [a.entityId, a.opUid])).toEqual([
      [ta.id, w.adminUser.id],
      [tb.id, w.lowerActor.id],
    ]);
    expect((await trackingAudits('T1')).map((a) => [a.action, a.opUid])).toEqual([['scan', w.adminUser.id]]);
    expect((await trackingAudits('T2')).map((a) => [a.action, a.opUid])).toEqual([['add', w.lowerActor.id]]);
    const recordAudits = await database.db.select().from(auditLog).where(eq(auditLog.entity, 'purchased')).orderBy(auditLog.id);
    expect(recordAudits.filter((a) => a.action === 'match').map((a) => [a.trackingId, a.opUid])).toEqual([
      ['T1', w.adminUser.id],
      ['T2', w.lowerActor.id],
    ]);
  });

  // The receiving speed target, kept by decision 095: inside its transaction a batch of scans is the
  // tracking locks, the task locks, one read and one write (pipelined on PostgreSQL: two round trips
  // with begin and commit), whatever it matches; only a row divided between two tasks asks for ids first. Counted on PGlite, whose
  // client a second drizzle handle with a logger shares (PostgreSQL runs the same code).
  it.runIf(dbDriver() === 'pglite')('writes a batch of scans with two lock statements, one read and one write', async () => {
    const w = await world();
    const ta = await claim(w.a.api, w.boardTask.id, 1);
    const tb = await claim(w.b.api, w.boardTask.id, 1);
    await record(w.a.api, ta.id, 'T1', 1);
    await record(w.b.api, tb.id, 'T1', 1);
    const statements: string[] = [];
    const logged = drizzle((t().database.db as unknown as { $client: PGlite }).$client, { logger: { logQuery: (q) => void statements.push(q) } });
    const batch = (jobs: ScanJob[]) => logged.transaction((tx) => runScanJobs(tx as unknown as Tx, jobs));
    const out = await batch([createJob(w.adminActor, 'N1', [{ upc: UPC, itemId: w.item.id }]), addJob(w.lowerActor, 'N2', { itemId: w.item2.id })]);
    expect(out.map((o) => (o instanceof Error ? o.message : o.opStatus))).toEqual(['succ', 'succ']);
    expect(statements).toHaveLength(4);
    // Two units of one parcel for two members: the row is divided, whose second share needs an id.
    statements.length = 0;
    const [divided] = await batch([createJob(w.adminActor, 'T1', [{ upc: UPC, count: 2, itemId: w.item.id }])]);
    expect(divided).toMatchObject({ opStatus: 'succ', rows: [{ taskId: ta.id }, { taskId: tb.id }] });
    expect(statements).toHaveLength(5);
  });

  it('keeps the scans of one parcel in arrival order: a repeat waits for the first and is answered as a duplicate', async () => {
    const w = await world();
    const { batcher } = counted();
    const results = (
      await settle(batcher, [
        addJob(w.adminActor, 'P1', { itemId: w.item.id }),
        addJob(w.lowerActor, 'P1', { itemId: w.item.id }),
        createJob(w.adminActor, 'P2', [{ upc: UPC, itemId: w.item.id }]),
        createJob(w.lowerActor, 'P2', [{ upc: UPC, itemId: w.item.id }]),
        addJob(w.adminActor, 'P1', { itemId: w.item.id, count: 5 }),
      ])
    ).map(value);
    expect(results.map((r) => [r.opStatus, r.msg])).toEqual([
      ['succ', scanMessages.added],
      ['failed', scanMessages.trackingSubmitted],
      ['succ', scanMessages.created],
      ['failed', scanMessages.upcDuplicate],
      ['failed', scanMessages.trackingSubmitted],
    ]);
    // The first scan of each parcel is the one stored, once; the repeats are shown its row.
    const p1 = await scansOf(t().database, 'P1');
    expect(p1.map((r) => [r.count, r.opUid])).toEqual([[1, w.adminUser.id]]);
    expect(results[1]!.rows.map((r) => r.id)).toEqual(p1.map((r) => r.id));
    expect((await scansOf(t().database, 'P2')).map((r) => r.opUid)).toEqual([w.adminUser.id]);
  });

  it('refuses only the scan that is wrong: an unknown item fails its own scan, the batch goes on', async () => {
    const w = await world();
    const { batcher, stats } = counted();
    const results = await settle(batcher, [
      addJob(w.adminActor, 'Q1', { itemId: w.item.id }),
      addJob(w.adminActor, 'Q2', { itemId: w.item.id }),
      addJob(w.adminActor, 'Q3', { itemId: 999_999 }),
      createJob(w.lowerActor, 'Q4', [{ upc: UPC2, itemId: w.item2.id }]),
    ]);
    expect(stats.transactions).toBe(3);
    expect(results[2]).toMatchObject({ status: 'rejected', reason: { code: 'A00001', httpStatus: 400, message: scanMessages.itemNotFound } });
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => value(r).opStatus)).toEqual(['succ', 'succ', 'succ']);
    expect(await scansOf(t().database, 'Q3')).toEqual([]);
    expect((await scansOf(t().database, 'Q4')).map((r) => r.upc)).toEqual([UPC2]);
  });

  it('writes each scan of a failed batch alone, so one scan the database refuses costs no other scan', async () => {
    const w = await world();
    const { batcher, stats } = counted();
    // A upc the checks would refuse (a NUL character), handed straight to the batcher: the database
    // itself refuses it, in the middle of the batch's transaction.
    const broken: ScanJob = { kind: 'create', actor: w.adminActor, trackingId: 'R3', lines: [{ upc: 'bad\u0000upc', count: 1, itemId: w.item.id }] };
    const results = await settle(batcher, [
      addJob(w.adminActor, 'R1', { itemId: w.item.id }),
      addJob(w.adminActor, 'R2', { itemId: w.item.id }),
      broken,
      addJob(w.lowerActor, 'R4', { itemId: w.item2.id }),
      createJob(w.lowerActor, 'R5', [{ upc: UPC, itemId: w.item.id }]),
    ]);
    // Two alone, the failed batch of three, then each of those three alone.
    expect(stats.transactions).toBe(6);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    for (const id of ['R1', 'R2', 'R4', 'R5']) expect(await scansOf(t().database, id)).toHaveLength(1);
    expect(await scansOf(t().database, 'R3')).toEqual([]);
    expect(await trackingAudits('R3')).toEqual([]);
    expect((await trackingAudits('R4')).map((a) => a.action)).toEqual(['add']);
  });
});
