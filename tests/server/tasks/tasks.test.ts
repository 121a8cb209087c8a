// A member's and an admin's task changes through the API on a real database (SPEC §4 task status,
// §5 'count必填', §7 "Tasks", §8 '拆分失败'; DECISIONS "Boards, claims and tasks", "Roles"). The
// machine's rules per state and event are proven in task-model.test.ts; here every message, the
// fields each call changes, ownership, audit entries and split.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { claimMessages } from '../../../machines/claim.machine.ts';
import { taskMessages } from '../../../machines/task.machine.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { paymentApplies } from '../../../src/server/db/schema/money.ts';
import { purchasedRecords, tasks } from '../../../src/server/db/schema/tasks.ts';
import { dbDriver, useTestApp } from '../support/harness.ts';
import { claim, notFound, record, refused, scan, scansOf, setTask, storedTask, taskWorld, UPC, type TaskOut } from '../support/task-fixtures.ts';

const t = useTestApp();
afterEach(async () => {
  await t().outbox.drain();
});

const world = (v: { show?: number } = {}) => taskWorld(t().app, t().database, v);
type Change = { status: string; msg: string; task: TaskOut };
type Split = { status: string; msg: string; tasks: TaskOut[] };
const auditsOf = (taskId: number) => t().database.db.select().from(auditLog).where(eq(auditLog.taskId, taskId)).orderBy(auditLog.id);

describe('deleting a task (member)', () => {
  it('deletes an own open or unmatch task with nothing arrived, freeing its units, with an audit entry', async () => {
    const w = await world({ show: 5 });
    const task = await claim(w.a.api, w.boardTask.id, 5);
    expect(await w.b.api.del(`/api/task/info/user/${task.id}`)).toMatchObject(notFound);
    const res = await w.a.api.del(`/api/task/info/user/${task.id}`);
    expect(res.body).toEqual({ code: 'A00000', msg: '删除成功', data: { status: 'succ', msg: '删除成功' } });
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'deleted' });
    expect((await claim(w.b.api, w.boardTask.id, 5)).count).toBe(5);
    const [entry] = (await auditsOf(task.id)).filter((x) => x.action === 'delete');
    expect(entry).toMatchObject({
      entity: 'task',
      opUid: w.a.user.id,
      userId: w.a.user.id,
      status: 'deleted',
      before: { status: 'open' },
      after: { status: 'deleted' },
    });

    const un = await claim(w.a.api, w.boardTask2.id, 1);
    await setTask(t().database, un.id, { status: 'unmatch' });
    expect((await w.a.api.del(`/api/task/info/user/${un.id}`)).body.code).toBe('A00000');
  });

  it('refuses when units arrived or the task is not open/unmatch, with the machine message', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 3);
    await setTask(t().database, task.id, { productCount: 1, canSplit: true });
    expect(await w.a.api.del(`/api/task/info/user/${task.id}`)).toMatchObject(refused(taskMessages.deleteRule));
    await setTask(t().database, task.id, { productCount: 0, canSplit: false, status: 'locked' });
    expect(await w.a.api.del(`/api/task/info/user/${task.id}`)).toMatchObject(refused(taskMessages.deleteRule));
    expect(await w.a.api.del('/api/task/info/user/99999')).toMatchObject(notFound);
    expect(await w.admin.del(`/api/task/info/user/${task.id}`)).toMatchObject({ status: 403 });
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'locked' });
  });
});

describe("editing a task's count (member)", () => {
  it('changes count within the remaining shown quantity plus its own, with the claim rules and words', async () => {
    const w = await world({ show: 10 });
    const task = await claim(w.a.api, w.boardTask.id, 4);
    await claim(w.b.api, w.boardTask.id, 3);
    const qty = (n: number | string, m?: number) => `/api/task/info/user/${task.id}/qty/${n}${m === undefined ? '' : `/label/${m}`}`;
    // remaining 3 + own 4 = 7
    expect(await w.a.api.post(qty(8))).toMatchObject(refused(claimMessages.tooMany(7)));
    expect(await w.a.api.post(qty(0))).toMatchObject(refused(claimMessages.atLeastOne));
    expect(await w.a.api.post(qty(-1))).toMatchObject(refused(claimMessages.notNumber));
    expect(await w.a.api.post(qty('x'))).toMatchObject({ status: 400, body: { code: 'A00001' } });
    const res = await w.a.api.post<Change>(qty(7));
    expect(res.body).toMatchObject({ code: 'A00000', msg: '保存成功', data: { status: 'succ', task: { id: task.id, count: 7, status: 'open' } } });
    expect(await w.b.api.post(`/api/task/${w.boardTask.id}/user/create/1`)).toMatchObject(refused(claimMessages.tooMany(0)));
    const [edit] = (await auditsOf(task.id)).filter((x) => x.action === 'edit');
    expect(edit).toMatchObject({ opUid: w.a.user.id, count: 7, before: { count: 4 }, after: { count: 7 } });
  });

  it('changes labelCount with /label/{m}, keeping isHome, state and zipCode', async () => {
    const w = await world();
    const res = await w.a.api.post<Change>(`/api/task/${w.boardTask.id}/user/create/2/label/2`, { isHome: true, state: 'CA', zipCode: '94016' });
    const task = res.body.data!.task;
    expect(await w.a.api.post(`/api/task/info/user/${task.id}/qty/3/label/0`)).toMatchObject(refused(claimMessages.notNumber));
    const edited = await w.a.api.post<Change>(`/api/task/info/user/${task.id}/qty/3/label/5`);
    expect(edited.body.data!.task).toMatchObject({ count: 3, labelCount: 5, isHome: true, state: 'CA', zipCode: '94016' });
    const plain = await w.a.api.post<Change>(`/api/task/info/user/${task.id}/qty/2`);
    expect(plain.body.data!.task).toMatchObject({ count: 2, labelCount: 5 });
  });

  it("refuses a task that is not open (machine message) and another member's task (A00004)", async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    expect(await w.b.api.post(`/api/task/info/user/${task.id}/qty/1`)).toMatchObject(notFound);
    for (const status of ['unmatch', 'locked', 'pending', 'closed'] as const) {
      await setTask(t().database, task.id, { status });
      expect(await w.a.api.post(`/api/task/info/user/${task.id}/qty/1`)).toMatchObject(refused(taskMessages.editOpenOnly));
    }
    expect(await storedTask(t().database, task.id)).toMatchObject({ count: 2 });
  });

  it('matches again after a count change: fewer units claimed can mean all arrived', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 3);
    await record(w.a.api, task.id, 'T1', 2);
    await scan(t().database, 'T1', UPC, 2);
    await w.admin.post('/api/match/admin/tracking/match', { trackingId: 'T1' });
    expect(await storedTask(t().database, task.id)).toMatchObject({ status: 'open', productCount: 2, canSplit: true });
    const res = await w.a.api.post<Change>(`/api/task/info/user/${task.id}/qty/2`);
    expect(res.body.data!.task).toMatchObject({ count: 2, status: 'locked', productCount: 2, canSplit: false });
  });
});

describe('admin edit (/admin/task/{id})', () => {
  it("requires count ('count必填'), stores the fields in cents and audits before and after", async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    expect(await w.admin.post('/api/task/info', { id: task.id })).toMatchObject(refused('count必填'));
    const res = await w.admin.post<Change>('/api/task/info', { id: task.id, count: 6, labelCount: 2, price: 10.5, buyIn: 12.25, bonus: 3, punish: 1.1 });
    expect(res.body).toMatchObject({
      code: 'A00000',
      msg: '保存成功',
      data: { task: { count: 6, labelCount: 2, price: 10.5, buyIn: 12.25, bonus: 3, punish: 1.1, status: 'open' } },
    });
    expect(await storedTask(t().database, task.id)).toMatchObject({ count: 6, labelCount: 2, price: 1050, buyIn: 1225, bonus: 300, punish: 110 });
    const [edit] = (await auditsOf(task.id)).filter((x) => x.action === 'edit');
    expect(edit).toMatchObject({ opUid: w.adminUser.id, userId: w.a.user.id, before: { count: 2, bonus: 0 }, after: { count: 6, bonus: 300 } });
    // The audit screen reads the snapshots in the API's units: amounts, and times in epoch ms.
    const listed = await w.admin.get<{ content: { action: string; before: string; after: string }[] }>(`/api/audit/task/list?taskId=${task.id}`);
    const shown = listed.body.data!.content.find((x) => x.action === 'edit')!;
    expect(JSON.parse(shown.before)).toMatchObject({ count: 2, bonus: 0, createdAt: expect.any(Number) });
    expect(JSON.parse(shown.after)).toMatchObject({ count: 6, price: 10.5, buyIn: 12.25, bonus: 3, punish: 1.1, updatedAt: expect.any(Number) });
    expect(await w.admin.post('/api/task/info', { id: task.id, count: 1, bonus: 1.234 })).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await w.admin.post('/api/task/info', { id: 99999, count: 1 })).toMatchObject(notFound);
    expect(await w.a.api.post('/api/task/info', { id: task.id, count: 1 })).toMatchObject({ status: 403 });
  });

  it('edits any task but a pending or deleted one, and closes or deletes it through the machine', async () => {
    const w = await world();
    const { database } = t();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    await setTask(database, task.id, { status: 'locked', productCount: 2 });
    expect((await w.admin.post<Change>('/api/task/info', { id: task.id, count: 2, bonus: 5 })).body.data!.task).toMatchObject({ status: 'locked', bonus: 5 });
    const closed = await w.admin.post<Change>('/api/task/info', { id: task.id, count: 2, status: 'closed' });
    expect(closed.body.data!.task.status).toBe('closed');
    expect((await auditsOf(task.id)).map((x) => x.action)).toEqual(['claim', 'edit', 'close']);
    // closed -> closed is no event: a plain edit, which the admin may do on a closed task.
    expect((await w.admin.post('/api/task/info', { id: task.id, count: 2, status: 'closed' })).body.code).toBe('A00000');
    expect(await w.admin.post('/api/task/info', { id: task.id, count: 2, status: 'deleted' })).toMatchObject(refused(taskMessages.deleteRule));

    const pending = await claim(w.b.api, w.boardTask.id, 1);
    await setTask(database, pending.id, { status: 'pending' });
    expect(await w.admin.post('/api/task/info', { id: pending.id, count: 1 })).toMatchObject(refused(taskMessages.editNotPending));
    const del = await w.admin.post<Change>('/api/task/info', { id: (await claim(w.b.api, w.boardTask.id, 1)).id, count: 1, status: 'deleted' });
    expect(del.body).toMatchObject({ code: 'A00000', msg: '删除成功', data: { task: { status: 'deleted' } } });
    await setTask(database, task.id, { status: 'processing' });
    expect(await w.admin.post('/api/task/info', { id: task.id, count: 2, status: 'closed' })).toMatchObject(refused(taskMessages.closeRule));
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'processing' });
  });
});

describe('accept and reject (admin)', () => {
  it('go through the task machine: only pending tasks, audited as accept / reject', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    expect(await w.admin.post(`/api/task/accept/${task.id}`)).toMatchObject(refused(taskMessages.notPending));
    await setTask(t().database, task.id, { status: 'pending' });
    expect((await w.admin.post<Change>(`/api/task/accept/${task.id}`)).body.data!.task.status).toBe('open');
    await setTask(t().database, task.id, { status: 'pending' });
    expect((await w.admin.post<Change>(`/api/task/reject/${task.id}`)).body.data!.task.status).toBe('deleted');
    expect((await auditsOf(task.id)).map((x) => [x.action, x.status])).toEqual([
      ['claim', 'open'],
      ['accept', 'open'],
      ['reject', 'deleted'],
    ]);
  });
});

describe('splitting (member)', () => {
  it('splits the arrived units into a locked sibling mainId-1; records and scan rows follow their units', async () => {
    const w = await world();
    const { database } = t();
    const task = await claim(w.a.api, w.boardTask.id, 5);
    await record(w.a.api, task.id, 'T1', 3);
    await record(w.a.api, task.id, 'T2', 2);
    await scan(database, 'T1', UPC, 2);
    await scan(database, 'T2', UPC, 2);
    await w.admin.post('/api/match/admin/tracking/match', { trackingId: 'T1' });
    await w.admin.post('/api/match/admin/tracking/match', { trackingId: 'T2' });
    await w.admin.post('/api/task/info', { id: task.id, count: 5, bonus: 2 });
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'open', productCount: 4, canSplit: true });

    expect(await w.b.api.post(`/api/task/user/split?taskId=${task.id}`)).toMatchObject(notFound);
    const res = await w.a.api.post<Split>(`/api/task/user/split?taskId=${task.id}`);
    expect(res.body).toMatchObject({ code: 'A00000', msg: '拆分成功', data: { status: 'succ' } });
    const [original, sibling] = res.body.data!.tasks;
    expect(original).toMatchObject({ id: task.id, mainId: task.id, subId: 0, count: 1, productCount: 0, canSplit: false, status: 'open', bonus: 2 });
    expect(sibling).toMatchObject({
      mainId: task.id,
      subId: 1,
      count: 4,
      productCount: 4,
      canSplit: false,
      status: 'locked',
      bonus: 0,
      userId: w.a.user.id,
      boardTaskId: w.boardTask.id,
      upc: UPC,
    });

    const recs = await database.db.select().from(purchasedRecords).orderBy(purchasedRecords.id);
    expect(recs.map((r) => [r.taskId, r.trackingId, r.productCount, r.status])).toEqual([
      [task.id, 'T1', 1, 'unmatch'],
      [sibling!.id, 'T2', 2, 'match'],
      [sibling!.id, 'T1', 2, 'match'],
    ]);
    expect((await scansOf(database, 'T1')).map((r) => [r.taskId, r.subId, r.status])).toEqual([[sibling!.id, 1, 'match']]);
    // The claim still holds its 5 units on the board task (1 + 4).
    expect((await w.admin.get(`/api/boardtask/${w.boardTask.id}/status`)).body.data).toMatchObject({ count: 5 });
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'task'), eq(auditLog.mainId, task.id)))
      .orderBy(auditLog.id);
    expect(audits.filter((x) => x.action.startsWith('split')).map((x) => [x.action, x.taskId, x.status])).toEqual([
      ['split.create', sibling!.id, 'locked'],
      ['split', task.id, 'open'],
    ]);
    // Each record moved or divided is in the trail once, under the task it belongs to after (with that task's status).
    const recordAudits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'purchased'), eq(auditLog.action, 'split')))
      .orderBy(auditLog.id);
    expect(recordAudits.map((x) => [x.entityId, x.taskId, x.trackingId, x.count, x.status])).toEqual([
      [recs[0]!.id, task.id, 'T1', 1, 'open'],
      [recs[2]!.id, sibling!.id, 'T1', 2, 'locked'],
      [recs[1]!.id, sibling!.id, 'T2', 2, 'locked'],
    ]);
    expect(recordAudits[1]!.before).toEqual({ splitFrom: recs[0]!.id });

    // The last unit arrives: the original locks; nothing is left to split.
    await scan(database, 'T1', UPC, 1);
    await w.a.api.post('/api/match/user/tracking/match', { trackingId: 'T1' });
    expect(await storedTask(database, task.id)).toMatchObject({ status: 'locked', productCount: 1 });
    expect(await w.a.api.post(`/api/task/user/split?taskId=${task.id}`)).toMatchObject(refused(taskMessages.splitRule));
    // A second split of the same claim takes the next subId.
    await setTask(database, task.id, { status: 'open', count: 3, productCount: 1, canSplit: true });
    const again = await w.a.api.post<Split>(`/api/task/user/split?taskId=${task.id}`);
    expect(again.body.data!.tasks[1]).toMatchObject({ mainId: task.id, subId: 2, count: 1, status: 'locked' });
  });

  it("refuses without canSplit (machine message) and answers '拆分失败' when nothing or everything would split off", async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 2);
    expect(await w.a.api.post(`/api/task/user/split?taskId=${task.id}`)).toMatchObject(refused(taskMessages.splitRule));
    await setTask(t().database, task.id, { canSplit: true, productCount: 0 });
    expect(await w.a.api.post(`/api/task/user/split?taskId=${task.id}`)).toMatchObject(refused('拆分失败'));
    await setTask(t().database, task.id, { canSplit: true, productCount: 2 });
    expect(await w.a.api.post(`/api/task/user/split?taskId=${task.id}`)).toMatchObject(refused('拆分失败'));
    expect(await t().database.db.select().from(tasks)).toHaveLength(1);
  });
});

describe('payment applications of tasks', () => {
  it('answers per task id whether an application exists; a member only about own tasks', async () => {
    const w = await world();
    const { database } = t();
    const a1 = await claim(w.a.api, w.boardTask.id, 1);
    const a2 = await claim(w.a.api, w.boardTask.id, 1);
    const b1 = await claim(w.b.api, w.boardTask.id, 1);
    const apply = (task: TaskOut, userId: number) => ({
      taskId: task.id,
      mainId: task.mainId,
      subId: 0,
      userId,
      itemName: 'x',
      buyIn: 100,
      count: 1,
      income: 100,
    });
    await database.db.insert(paymentApplies).values([apply(a1, w.a.user.id), apply(b1, w.b.user.id)]);
    const q = `/api/task/apply/exist?taskIds=${a1.id},${a2.id},${b1.id}`;
    expect((await w.a.api.get(q)).body.data).toEqual({ applyRecords: { [a1.id]: true, [a2.id]: false, [b1.id]: false } });
    expect((await w.admin.get(q)).body.data).toEqual({ applyRecords: { [a1.id]: true, [a2.id]: false, [b1.id]: true } });
    expect(await w.a.api.get('/api/task/apply/exist?taskIds=1,x')).toMatchObject({ status: 400 });
  });
});

describe('the task audit (user log)', () => {
  it('lists task and purchased entries newest first, with before/after, filtered by mainId, taskId, user, item and status', async () => {
    const w = await world();
    const ta = await claim(w.a.api, w.boardTask.id, 2);
    const tb = await claim(w.b.api, w.boardTask2.id, 1);
    await record(w.a.api, ta.id, 'T1', 2);
    await w.b.api.del(`/api/task/info/user/${tb.id}`);
    type Entry = {
      entity: string;
      action: string;
      taskId: number;
      status: string;
      opName: string;
      before: string | null;
      after: string | null;
      itemName: string;
    };
    type Page = { content: Entry[]; totalElements: number; totalPages: number };
    const list = async (q = '') => (await w.admin.get<Page>(`/api/audit/task/list?${q}`)).body.data!;
    const all = await list();
    expect(all.content.map((x) => [x.entity, x.action, x.taskId])).toEqual([
      ['task', 'delete', tb.id],
      ['purchased', 'create', ta.id],
      ['task', 'claim', tb.id],
      ['task', 'claim', ta.id],
    ]);
    expect(all.content[1]).toMatchObject({ opName: '小A', status: 'open', itemName: 'AirPods Pro', before: null });
    expect(JSON.parse(all.content[1]!.after!)).toMatchObject({ trackingId: 'T1', productCount: 2, status: 'init' });
    expect(JSON.parse(all.content[0]!.before!)).toMatchObject({ status: 'open' });
    expect((await list(`mainId=${ta.id}`)).totalElements).toBe(2);
    expect((await list(`taskId=${tb.id}`)).totalElements).toBe(2);
    expect((await list(`userId=${w.b.user.id}`)).content.map((x) => x.action)).toEqual(['delete', 'claim']);
    expect((await list('itemName=switch')).totalElements).toBe(2);
    expect((await list('status=deleted')).content.map((x) => x.action)).toEqual(['delete']);
    expect((await list('isDesc=false&size=1&page=1')).content.map((x) => [x.action, x.taskId])).toEqual([['claim', tb.id]]);
    expect(await w.admin.get('/api/audit/task/list?status=pending')).toMatchObject({ status: 400 });
    expect(await w.a.api.get('/api/audit/task/list')).toMatchObject({ status: 403 });
  });

  it('lists tracking and purchased entries in the tracking audit (admin log)', async () => {
    const w = await world();
    const task = await claim(w.a.api, w.boardTask.id, 1);
    await scan(t().database, 'T1', UPC, 1);
    await record(w.a.api, task.id, 'T1', 1);
    type Page = { content: { entity: string; action: string; status: string; trackingId: string }[]; totalElements: number };
    const list = async (q = '') => (await w.admin.get<Page>(`/api/audit/tracking/list?${q}`)).body.data!;
    expect((await list()).content.map((x) => [x.entity, x.action, x.status])).toEqual([
      ['purchased', 'match', 'open'],
      ['tracking', 'match', 'match'],
      ['purchased', 'create', 'open'],
    ]);
    expect((await list('status=match')).content.map((x) => x.entity)).toEqual(['tracking']);
    expect((await list('trackingId=T2')).totalElements).toBe(0);
    expect((await list(`upc=${UPC}&opUid=${w.a.user.id}`)).totalElements).toBe(3);
  });
});

// Meaningful only on PostgreSQL, where requests run in parallel on a pool of connections (PGlite
// runs transactions one after another), so these run only with TEST_DB=pg.
describe('concurrency (TEST_DB=pg)', () => {
  it.skipIf(dbDriver() !== 'pg')('count edits and claims running together never over-claim a board task', async () => {
    const w = await world({ show: 10 });
    const task = await claim(w.a.api, w.boardTask.id, 2);
    const calls = Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0 ? w.a.api.post(`/api/task/info/user/${task.id}/qty/${2 + (i % 7)}`) : w.b.api.post(`/api/task/${w.boardTask.id}/user/create/${1 + (i % 3)}`),
    );
    const answers = await Promise.all(calls);
    for (const r of answers) {
      if (r.body.code !== 'A00000') expect(r.body).toMatchObject({ code: 'A00001', msg: expect.stringMatching(/^不能认领超过\d+件$/) });
    }
    const rows = await t().database.db.select().from(tasks).where(eq(tasks.boardTaskId, w.boardTask.id));
    expect(rows.reduce((n, r) => n + r.count, 0)).toBeLessThanOrEqual(10);
  });

  it.skipIf(dbDriver() !== 'pg')('record changes of two members sharing two parcels, and scans of them, never deadlock', async () => {
    const w = await world();
    const { database } = t();
    const ta = await claim(w.a.api, w.boardTask.id, 50);
    const tb = await claim(w.b.api, w.boardTask.id, 50);
    const [ra1] = await record(w.a.api, ta.id, 'T1', 1);
    const [, ra2] = await record(w.a.api, ta.id, 'T2', 1);
    const [rb1] = await record(w.b.api, tb.id, 'T1', 1);
    const [, rb2] = await record(w.b.api, tb.id, 'T2', 1);
    const calls = [];
    for (let i = 2; i < 14; i++) {
      calls.push(w.a.api.post('/api/purchased/user/update', { id: (i % 2 ? ra1 : ra2)!.id, trackingId: i % 2 ? 'T1' : 'T2', productCount: i }));
      calls.push(w.b.api.post('/api/purchased/user/update', { id: (i % 2 ? rb2 : rb1)!.id, trackingId: i % 2 ? 'T2' : 'T1', productCount: i }));
      calls.push(w.admin.post('/api/match/admin/tracking/match', { trackingId: i % 2 ? 'T1' : 'T2' }));
    }
    const answers = await Promise.all(calls);
    expect(answers.map((r) => r.body.code).filter((c) => c !== 'A00000')).toEqual([]);
    expect(await database.db.select().from(purchasedRecords)).toHaveLength(4);
    // And with parcels arriving meanwhile: refusals are the rules' (A00001: a record matched, a
    // task no longer open), never a deadlock or another system error.
    const more = [];
    for (let i = 2; i < 10; i++) {
      more.push(scan(database, i % 2 ? 'T1' : 'T2', UPC, 1).then(() => w.admin.post('/api/match/admin/tracking/match', { trackingId: i % 2 ? 'T1' : 'T2' })));
      more.push(w.a.api.post('/api/purchased/user/update', { id: (i % 2 ? ra1 : ra2)!.id, trackingId: i % 2 ? 'T1' : 'T2', productCount: 20 + i }));
      more.push(w.b.api.post('/api/purchased/user/update', { id: (i % 2 ? rb2 : rb1)!.id, trackingId: i % 2 ? 'T2' : 'T1', productCount: 20 + i }));
    }
    expect((await Promise.all(more)).map((r) => r.body.code).filter((c) => c !== 'A00000' && c !== 'A00001')).toEqual([]);
  });
});
