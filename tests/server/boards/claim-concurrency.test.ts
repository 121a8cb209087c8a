// A rush of simultaneous claims never over-claims (DECISIONS "Boards, claims and tasks": "Concurrent
// claims never over-claim"). Meaningful only on PostgreSQL, where requests really run in parallel on
// a pool of connections (PGlite has one connection and runs transactions one after another), so it
// runs only with TEST_DB=pg.
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { tasks } from '../../../src/server/db/schema/tasks.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { call, dbDriver, useTestApp } from '../support/harness.ts';
import { as, openBoard, seedGroup, signIn } from '../support/board-fixtures.ts';

const t = useTestApp();
// Publishing kicks the outbox; each test waits for its mail to go so none arrives in the next one.
afterEach(async () => {
  await t().outbox.drain();
});
const onPg = dbDriver() === 'pg';

describe('claim concurrency', () => {
  it.skipIf(!onPg)(
    '100 simultaneous claims of 1-3 units by 10 members on a board task showing 30 claim exactly 30 units (needs TEST_DB=pg)',
    async () => {
      const { app, database } = t();
      const admin = as(app, (await signIn(app, database, 'admin@x.test', { roleType: 'admin' })).token);
      const g = await seedGroup(database, 'rush');
      const members: { token: string }[] = [];
      for (let i = 0; i < 10; i++) members.push(await signIn(app, database, `m${i}@x.test`, { groupId: g.id }));
      const { boardTask } = await openBoard(admin, database, g.id, { show: 30 });

      // 34 of the 100 claims are of 1 unit: while any unit is left some claim can take it, so a
      // correct server ends at exactly 30 whatever order the claims run in.
      const counts = Array.from({ length: 100 }, (_, i) => (i % 3) + 1).sort(() => Math.random() - 0.5);
      const answers = await Promise.all(
        counts.map((count, i) =>
          call<{ status: string; task: { id: number; count: number } }>(app, {
            method: 'POST',
            url: `/api/task/${boardTask.id}/user/create/${count}`,
            headers: { 'x-token': members[i % 10]!.token },
          }),
        ),
      );

      const ok = answers.filter((a) => a.body.code === 'A00000');
      const refused = answers.filter((a) => a.body.code !== 'A00000');
      for (const r of refused) {
        expect(r.status).toBe(400);
        expect(r.body.code).toBe('A00001');
        expect(r.body.msg).toMatch(/^不能认领超过\d+件$/);
      }
      expect(ok.reduce((s, a) => s + a.body.data!.task.count, 0)).toBe(30);

      const rows = await database.db.select().from(tasks).where(eq(tasks.boardTaskId, boardTask.id));
      expect(rows).toHaveLength(ok.length);
      expect(rows.reduce((s, r) => s + r.count, 0)).toBe(30);
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set(ok.map((a) => a.body.data!.task.id)));
      for (const r of rows) expect(r.mainId).toBe(r.id);
      const [audits] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(eq(auditLog.action, 'claim'));
      expect(audits!.n).toBe(ok.length);
      expect((await admin.get(`/api/boardtask/${boardTask.id}/status`)).body.data).toEqual({ count: 30, need: 30 });
    },
    120_000,
  );
});
