// Claims, their review and the task lists through the real API on a real database (SPEC §2, §4, §5
// "Claim", §7 "Tasks"; DECISIONS "Boards, claims and tasks", "Roles"). What may be claimed is
// machines/claim.machine.ts's, with its messages.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { claimMessages } from '../../../machines/claim.machine.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { tasks } from '../../../src/server/db/schema/tasks.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { useTestApp } from '../support/harness.ts';
import { as, boardForm, createBoardTask, DAY, openBoard, seedGroup, signIn, type Api } from '../support/board-fixtures.ts';

const t = useTestApp();
// Publishing kicks the outbox; each test waits for its mail to go so none arrives in the next one.
afterEach(async () => {
  await t().outbox.drain();
});

interface TaskOut {
  id: number;
  mainId: number;
  subId: number;
  boardId: number;
  boardTaskId: number;
  userId: number;
  status: string;
  count: number;
  [k: string]: unknown;
}
type Change = { status: string; msg: string; task: TaskOut };
type TaskPage = { content: TaskOut[]; totalPages: number; totalElements: number };

/** An admin, a bound group with members a and b, an outsider, and an open board with one board task. */
async function world(v: Parameters<typeof openBoard>[3] = {}) {
  const { app, database } = t();
  const admin = as(app, (await signIn(app, database, 'admin@x.test', { roleType: 'admin' })).token);
  const g = await seedGroup(database, 'bound');
  const a = await signIn(app, database, 'a@x.test', { groupId: g.id, nickName: '小A' });
  const b = await signIn(app, database, 'b@x.test', { groupId: g.id });
  const o = await signIn(app, database, 'o@x.test');
  const opened = await openBoard(admin, database, g.id, v);
  return { admin, groupId: g.id, a: { ...a, api: as(app, a.token) }, b: { ...b, api: as(app, b.token) }, outsider: { ...o, api: as(app, o.token) }, ...opened };
}

const claimUrl = (btId: number, count: number | string, labelCount?: number) =>
  `/api/task/${btId}/user/create/${count}${labelCount === undefined ? '' : `/label/${labelCount}`}`;
const refused = (msg: string) => ({ status: 400, body: { code: 'A00001', msg } });

describe('claiming', () => {
  it('creates an open task (mainId = id, subId 0) copying the board task and item, with an audit entry', async () => {
    const w = await world({ taskOver: { price: 249.99, buyIn: 30.5 } });
    const res = await w.a.api.post<Change>(claimUrl(w.boardTask.id, 3));
    expect(res.body).toMatchObject({ code: 'A00000', msg: '认领成功', data: { status: 'succ', msg: '认领成功' } });
    const task = res.body.data!.task;
    expect(task).toMatchObject({
      mainId: task.id,
      subId: 0,
      boardId: w.board.id,
      boardTaskId: w.boardTask.id,
      userId: w.a.user.id,
      itemId: w.item.id,
      itemName: 'AirPods Pro',
      url: 'http://www.apple.com/airpods',
      price: 249.99,
      buyIn: 30.5,
      bonus: 0,
      punish: 0,
      count: 3,
      productCount: 0,
      status: 'open',
      isHome: false,
      state: '',
      zipCode: '',
      labelCount: 0,
      upc: '194253397168',
      canSplit: false,
      trackingId: '',
      boardUuid: w.board.uuid,
    });
    const { database } = t();
    const [row] = await database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ mainId: task.id, subId: 0, price: 24999, buyIn: 3050, count: 3, status: 'open' });
    const audits = await database.db.select().from(auditLog).where(eq(auditLog.entity, 'task'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      action: 'claim',
      opUid: w.a.user.id,
      userId: w.a.user.id,
      mainId: task.id,
      subId: 0,
      count: 3,
      itemName: 'AirPods Pro',
      status: 'open',
      before: null,
    });
    expect(audits[0]!.after).toMatchObject({ id: task.id, count: 3 });

    // A second claim takes the next id as its own mainId.
    const second = (await w.b.api.post<Change>(claimUrl(w.boardTask.id, 1))).body.data!.task;
    expect(second.mainId).toBe(second.id);
    expect(second.id).toBeGreaterThan(task.id);
  });

  it("refuses more than the remaining shown quantity ('不能认领超过N件'), and counts below 1", async () => {
    const w = await world({ show: 5 });
    expect((await w.a.api.post(claimUrl(w.boardTask.id, 6))).body).toEqual({ code: 'A00001', msg: claimMessages.tooMany(5) });
    expect((await w.a.api.post(claimUrl(w.boardTask.id, 3))).body.code).toBe('A00000');
    expect(await w.b.api.post(claimUrl(w.boardTask.id, 3))).toMatchObject(refused('不能认领超过2件'));
    expect((await w.b.api.post(claimUrl(w.boardTask.id, 2))).body.code).toBe('A00000');
    expect(await w.a.api.post(claimUrl(w.boardTask.id, 1))).toMatchObject(refused('不能认领超过0件'));
    expect(await w.a.api.post(claimUrl(w.boardTask.id, 0))).toMatchObject(refused(claimMessages.atLeastOne));
    expect(await w.a.api.post(claimUrl(w.boardTask.id, -2))).toMatchObject(refused(claimMessages.notNumber));
    expect(await w.a.api.post(claimUrl(w.boardTask.id, 'abc'))).toMatchObject({ status: 400, body: { code: 'A00001' } });
    const rows = await t().database.db.select().from(tasks);
    expect(rows.map((r) => r.count).sort()).toEqual([2, 3]);
    // The board task's status is left alone when its claims reach show.
    expect((await w.admin.get(`/api/boardtask/${w.board.id}/info/${w.boardTask.id}`)).body.data).toMatchObject({ status: 'normal', claimCount: 5 });
  });

  it('makes the claim pending on a closed board task or an expired board', async () => {
    const w = await world({ show: 10 });
    await createBoardTask(w.admin, w.board.id, { id: w.boardTask.id, itemId: w.item.id, buyIn: 12.5, show: 10, status: 'closed' });
    const res = await w.a.api.post<Change>(claimUrl(w.boardTask.id, 2));
    expect(res.body).toMatchObject({
      code: 'A00000',
      msg: '认领成功，等待管理员审核',
      data: { status: 'succ', msg: '认领成功，等待管理员审核', task: { status: 'pending', count: 2 } },
    });

    await createBoardTask(w.admin, w.board.id, { id: w.boardTask.id, itemId: w.item.id, buyIn: 12.5, show: 10, status: 'urgent' });
    expect((await w.a.api.post<Change>(claimUrl(w.boardTask.id, 1))).body.data!.task.status).toBe('open');

    await w.admin.post('/api/board/info', boardForm({ id: w.board.id, publishAt: Date.now() - 3 * DAY, expireAt: Date.now() - DAY }));
    expect((await w.a.api.get(`/api/board/infouuid/${w.board.uuid}`)).body.data).toMatchObject({ expire: true, status: 'open' });
    const late = await w.a.api.post<Change>(claimUrl(w.boardTask.id, 1));
    expect(late.body).toMatchObject({ msg: '认领成功，等待管理员审核', data: { task: { status: 'pending' } } });
    // Pending claims hold their units: 2 + 1 + 1 of 10.
    expect(await w.b.api.post(claimUrl(w.boardTask.id, 7))).toMatchObject(refused('不能认领超过6件'));
  });

  it('refuses a full or deleted board task with the machine message', async () => {
    const w = await world();
    await createBoardTask(w.admin, w.board.id, { id: w.boardTask.id, itemId: w.item.id, buyIn: 1, show: 10, status: 'full' });
    expect(await w.a.api.post(claimUrl(w.boardTask.id, 1))).toMatchObject(refused(claimMessages.full));
    await createBoardTask(w.admin, w.board.id, { id: w.boardTask.id, itemId: w.item.id, buyIn: 1, show: 10, status: 'deleted' });
    expect(await w.a.api.post(claimUrl(w.boardTask.id, 1, 1), { isHome: false })).toMatchObject(refused(claimMessages.deleted));
    expect(await t().database.db.select().from(tasks)).toHaveLength(0);
  });

  it('requires state, zipCode and labelCount with isHome, and stores them', async () => {
    const w = await world();
    const id = w.boardTask.id;
    expect(await w.a.api.post(claimUrl(id, 1, 2), { isHome: true, zipCode: '94016' })).toMatchObject(refused(claimMessages.stateRequired));
    expect(await w.a.api.post(claimUrl(id, 1, 2), { isHome: true, state: 'CA', zipCode: ' ' })).toMatchObject(refused(claimMessages.zipCodeRequired));
    expect(await w.a.api.post(claimUrl(id, 1, 0), { isHome: true, state: 'CA', zipCode: '94016' })).toMatchObject(refused(claimMessages.notNumber));
    expect(await w.a.api.post(claimUrl(id, 1, 2), { isHome: true, state: 'CA', zipCode: '94016', extra: 1 })).toMatchObject({
      status: 400,
      body: { code: 'A00001' },
    });
    expect(await t().database.db.select().from(tasks)).toHaveLength(0);

    const home = await w.a.api.post<Change>(claimUrl(id, 2, 3), { isHome: true, state: ' CA ', zipCode: '94016' });
    expect(home.body).toMatchObject({
      code: 'A00000',
      msg: '认领成功',
      data: { task: { isHome: true, state: 'CA', zipCode: '94016', labelCount: 3, count: 2 } },
    });
    const plain = await w.a.api.post<Change>(claimUrl(id, 1, 1), { isHome: false, state: 'NY' });
    expect(plain.body.data!.task).toMatchObject({ isHome: false, state: '', zipCode: '', labelCount: 1 });
  });

  it('answers A00004 to a member who cannot see the board, as if the board task did not exist', async () => {
    const w = await world();
    expect(await w.outsider.api.post(claimUrl(w.boardTask.id, 1))).toMatchObject({ status: 404, body: { code: 'A00004', msg: '任务不存在' } });
    expect(await w.outsider.api.post(claimUrl(w.boardTask.id, 1, 1), { isHome: true, state: 'CA', zipCode: '1' })).toMatchObject({
      status: 404,
      body: { code: 'A00004' },
    });
    expect(await w.a.api.post(claimUrl(99_999, 1))).toMatchObject({ status: 404, body: { code: 'A00004', msg: '任务不存在' } });
    // A closed board is no longer visible either.
    await w.admin.post('/api/board/info', boardForm({ id: w.board.id, status: 'close' }));
    expect(await w.a.api.post(claimUrl(w.boardTask.id, 1))).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await t().database.db.select().from(tasks)).toHaveLength(0);
    // Claiming is the members' own act.
    expect(await w.admin.post(claimUrl(w.boardTask.id, 1))).toMatchObject({ status: 403 });
  });
});

describe('the remaining quantity', () => {
  type BT = { id: number; show: number; claimCount: number; remaining: number };
  const remainingSeen = async (api: Api, w: { board: { id: number; uuid: string }; boardTask: { id: number } }) => ({
    list: (await api.get<BT[]>(`/api/boardtask/uuid/${w.board.uuid}/list`)).body.data!.map((bt) => [bt.show, bt.claimCount, bt.remaining]),
    one: (({ show, claimCount, remaining }) => [show, claimCount, remaining])(
      (await api.get<BT>(`/api/boardtask/${w.board.id}/info/${w.boardTask.id}`)).body.data!,
    ),
  });

  // show is the total the admin set and stays 10; what the member's board shows falling is remaining.
  it('falls as claims come in (pending ones too), rises when a claim is rejected, and never goes below 0', async () => {
    const w = await world({ show: 10 });
    expect(await remainingSeen(w.a.api, w)).toEqual({ list: [[10, 0, 10]], one: [10, 0, 10] });
    await w.a.api.post(claimUrl(w.boardTask.id, 3));
    expect(await remainingSeen(w.b.api, w)).toEqual({ list: [[10, 3, 7]], one: [10, 3, 7] });

    // A claim on a closed board task is pending and holds its units all the same.
    await createBoardTask(w.admin, w.board.id, { id: w.boardTask.id, itemId: w.item.id, buyIn: 12.5, show: 10, status: 'closed' });
    const pending = (await w.b.api.post<Change>(claimUrl(w.boardTask.id, 5))).body.data!.task;
    expect(pending.status).toBe('pending');
    expect(await remainingSeen(w.a.api, w)).toEqual({ list: [[10, 8, 2]], one: [10, 8, 2] });
    expect((await w.admin.get<BT>(`/api/boardtask/${w.board.id}/info/${w.boardTask.id}`)).body.data).toMatchObject({ show: 10, claimCount: 8, remaining: 2 });

    await w.admin.post(`/api/task/reject/${pending.id}`);
    expect(await remainingSeen(w.a.api, w)).toEqual({ list: [[10, 3, 7]], one: [10, 3, 7] });

    // The admin lowers show below what is claimed: nothing is left, not a negative number.
    await createBoardTask(w.admin, w.board.id, { id: w.boardTask.id, itemId: w.item.id, buyIn: 12.5, show: 2, status: 'normal' });
    expect(await remainingSeen(w.a.api, w)).toEqual({ list: [[2, 3, 0]], one: [2, 3, 0] });
  });
});

describe('reviewing pending claims', () => {
  async function pendingWorld() {
    const w = await world({ show: 10, taskOver: { status: 'closed' } });
    const p1 = (await w.a.api.post<Change>(claimUrl(w.boardTask.id, 4))).body.data!.task;
    const p2 = (await w.b.api.post<Change>(claimUrl(w.boardTask.id, 5))).body.data!.task;
    return { ...w, p1, p2 };
  }

  it('lists pending claims for the admin, accepts (-> open) and rejects (-> deleted, freeing the units)', async () => {
    const w = await pendingWorld();
    const pending = (await w.admin.get<TaskPage>('/api/task/list/page?taskStatus=pending')).body.data!;
    expect(pending.totalElements).toBe(2);
    expect(pending.content.map((x) => x.id)).toEqual([w.p2.id, w.p1.id]);
    expect(pending.content[1]).toMatchObject({ nickName: '小A', boardName: '四月采购', boardUuid: w.board.uuid });

    const acc = await w.admin.post<Change>(`/api/task/accept/${w.p1.id}`);
    expect(acc.body).toMatchObject({ code: 'A00000', data: { status: 'succ', task: { id: w.p1.id, status: 'open' } } });
    expect(await w.admin.post(`/api/task/accept/${w.p1.id}`)).toMatchObject(refused('只有待审核的任务可以审核'));
    expect(await w.admin.post(`/api/task/reject/${w.p1.id}`)).toMatchObject(refused('只有待审核的任务可以审核'));

    expect(await w.a.api.post(claimUrl(w.boardTask.id, 2))).toMatchObject(refused('不能认领超过1件'));
    const rej = await w.admin.post<Change>(`/api/task/reject/${w.p2.id}`);
    expect(rej.body).toMatchObject({ code: 'A00000', data: { task: { id: w.p2.id, status: 'deleted' } } });
    expect((await w.admin.get(`/api/boardtask/${w.boardTask.id}/status`)).body.data).toEqual({ count: 4, need: 10 });
    expect((await w.a.api.post<Change>(claimUrl(w.boardTask.id, 6))).body.code).toBe('A00000');

    const audits = await t().database.db.select().from(auditLog).where(eq(auditLog.entity, 'task'));
    expect(audits.map((x) => [x.action, x.status, x.taskId])).toEqual(
      expect.arrayContaining([
        ['accept', 'open', w.p1.id],
        ['reject', 'deleted', w.p2.id],
      ]),
    );
    expect(audits.find((x) => x.action === 'accept')).toMatchObject({ userId: w.a.user.id, before: expect.objectContaining({ status: 'pending' }) });

    expect(await w.admin.post('/api/task/accept/99999')).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await w.a.api.post(`/api/task/accept/${w.p1.id}`)).toMatchObject({ status: 403 });
  });
});

describe('task lists', () => {
  async function claimed() {
    const w = await world({ show: 50 });
    const mk = async (api: Api, n: number) => (await api.post<Change>(claimUrl(w.boardTask.id, n))).body.data!.task;
    const a1 = await mk(w.a.api, 1);
    const b1 = await mk(w.b.api, 2);
    const a2 = await mk(w.a.api, 3);
    return { ...w, a1, b1, a2 };
  }

  it("lists a board task's user tasks for the admin's expandable rows", async () => {
    const w = await claimed();
    const rows = (await w.admin.get<TaskOut[]>(`/api/task/info/admin/list/${w.boardTask.id}`)).body.data!;
    expect(rows.map((x) => [x.id, x.userId, x.count])).toEqual([
      [w.a1.id, w.a.user.id, 1],
      [w.b1.id, w.b.user.id, 2],
      [w.a2.id, w.a.user.id, 3],
    ]);
    expect(rows[0]).toMatchObject({ nickName: '小A' });
    expect(await w.admin.get('/api/task/info/admin/list/99999')).toMatchObject({ status: 404 });
    expect(await w.a.api.get(`/api/task/info/admin/list/${w.boardTask.id}`)).toMatchObject({ status: 403 });
  });

  it('filters the admin task list by user, status, item, item name, board, board task, task id and tracking id', async () => {
    const w = await claimed();
    const { database } = t();
    await database.db.insert(purchasedRecords).values([
      { taskId: w.b1.id, userId: w.b.user.id, trackingId: '1Z999', productCount: 1 },
      { taskId: w.b1.id, userId: w.b.user.id, trackingId: '1Z888', productCount: 1 },
    ]);
    const ids = async (q: string) => (await w.admin.get<TaskPage>(`/api/task/list/page?${q}`)).body.data!.content.map((x) => x.id);
    expect(await ids('')).toEqual([w.a2.id, w.b1.id, w.a1.id]);
    expect(await ids('isDesc=false')).toEqual([w.a1.id, w.b1.id, w.a2.id]);
    expect(await ids(`userId=${w.a.user.id}`)).toEqual([w.a2.id, w.a1.id]);
    expect(await ids('taskStatus=open')).toHaveLength(3);
    expect(await ids('taskStatus=locked')).toEqual([]);
    expect(await ids(`itemId=${w.item.id}`)).toHaveLength(3);
    expect(await ids('itemName=airpods')).toHaveLength(3);
    expect(await ids('itemName=%25')).toEqual([]);
    expect(await ids(`boardId=${w.board.id}`)).toHaveLength(3);
    expect(await ids(`boardTaskId=${w.boardTask.id + 1}`)).toEqual([]);
    expect(await ids(`taskId=${w.b1.id}`)).toEqual([w.b1.id]);
    expect(await ids('trackingId=1Z888')).toEqual([w.b1.id]);
    const page = (await w.admin.get<TaskPage>('/api/task/list/page?size=2&page=1')).body.data!;
    expect(page).toMatchObject({ totalPages: 2, totalElements: 3 });
    expect(page.content.map((x) => x.id)).toEqual([w.a1.id]);
    const b1 = (await w.admin.get<TaskPage>(`/api/task/list/page?taskId=${w.b1.id}`)).body.data!.content[0]!;
    expect(b1.trackingId).toBe('1Z999,1Z888');
  });

  it("gives a member only their own tasks: the list, a board's tasks, and one task (another's is A00004)", async () => {
    const w = await claimed();
    const mine = (await w.a.api.get<TaskPage>('/api/task/info/user/list')).body.data!;
    expect(mine).toMatchObject({ totalElements: 2, totalPages: 1 });
    expect(mine.content.map((x) => x.id)).toEqual([w.a2.id, w.a1.id]);
    expect((await w.a.api.get<TaskPage>(`/api/task/info/user/list?taskId=${w.a1.id}`)).body.data!.content.map((x) => x.id)).toEqual([w.a1.id]);
    expect((await w.a.api.get<TaskPage>(`/api/task/info/user/list?taskId=${w.b1.id}`)).body.data!.content).toEqual([]);
    expect((await w.a.api.get<TaskPage>('/api/task/info/user/list?taskStatus=pending')).body.data!.content).toEqual([]);
    expect((await w.a.api.get<TaskPage>(`/api/task/info/user/list?boardId=${w.board.id}&itemName=AIR`)).body.data!.totalElements).toBe(2);

    const onBoard = (await w.a.api.get<TaskOut[]>(`/api/task/info/user/board/list?boardUuid=${w.board.uuid}`)).body.data!;
    expect(onBoard.map((x) => x.id)).toEqual([w.a1.id, w.a2.id]);
    expect((await w.outsider.api.get(`/api/task/info/user/board/list?boardUuid=${w.board.uuid}`)).status).toBe(404);

    expect((await w.a.api.get<TaskOut>(`/api/task/info/${w.a1.id}`)).body.data).toMatchObject({ id: w.a1.id, userId: w.a.user.id });
    expect(await w.a.api.get(`/api/task/info/${w.b1.id}`)).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect((await w.admin.get<TaskOut>(`/api/task/info/${w.b1.id}`)).body.data).toMatchObject({ id: w.b1.id });
    expect(await w.admin.get('/api/task/info/99999')).toMatchObject({ status: 404 });
    expect(await w.admin.get('/api/task/info/user/list')).toMatchObject({ status: 403 });
  });

  it("filters a member's own list by one status or several (a repeated taskStatus); a status not in the contract is A00001 naming the field", async () => {
    const w = await claimed();
    await t().database.db.update(tasks).set({ status: 'unmatch' }).where(eq(tasks.id, w.a2.id));
    const ids = async (query: string) => (await w.a.api.get<TaskPage>(`/api/task/info/user/list?${query}`)).body.data!.content.map((x) => x.id);
    expect(await ids('taskStatus=open')).toEqual([w.a1.id]);
    expect(await ids('taskStatus=unmatch')).toEqual([w.a2.id]);
    expect(await ids('taskStatus=open&taskStatus=unmatch')).toEqual([w.a2.id, w.a1.id]);
    expect(await ids('taskStatus=locked&taskStatus=unmatch')).toEqual([w.a2.id]);
    expect(await ids('taskStatus=locked&taskStatus=closed')).toEqual([]);
    const bad = await w.a.api.get('/api/task/info/user/list?taskStatus=open&taskStatus=bogus');
    expect(bad).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect((bad.body as { msg: string }).msg).toMatch(/^参数错误：字段 taskStatus\b/);
  });
});
