// Boards and board tasks through the real API on a real database (SPEC §2, §3, §4, §5 "Board" and
// "Admin board task form", §7 "Boards" and "Board tasks"; DECISIONS "Boards, claims and tasks",
// "Roles", "Mail"). Publishing rules are machines/board.machine.ts's, with its messages.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { boardMessages } from '../../../machines/board.machine.ts';
import { outbox } from '../../../src/server/db/schema/accounts.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { boardUsers, DEFAULT_BOARD_TASK_ADDRESS } from '../../../src/server/db/schema/boards.ts';
import { userGroupMembers } from '../../../src/server/db/schema/groups.ts';
import { useTestApp } from '../support/harness.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import {
  as,
  boardForm,
  createBoard,
  createBoardTask,
  DAY,
  openBoard,
  seedGroup,
  seedItem,
  signIn,
  type Api,
  type BoardOut,
} from '../support/board-fixtures.ts';

let sink: SmtpSink;
let backupSink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  backupSink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  await backupSink.close();
});
const t = useTestApp({ smtpUrl: () => sink.url, smtpBackupUrl: () => backupSink.url });
// Publishing kicks the outbox; each test waits for its mail to go so none arrives in the next one.
afterEach(async () => {
  await t().outbox.drain();
});
beforeEach(() => {
  sink.mails.length = 0;
  backupSink.mails.length = 0;
});

async function adminApi(role: 'admin' | 'lowerAdmin' = 'admin') {
  const { app, database } = t();
  return as(app, (await signIn(app, database, `${role.toLowerCase()}@x.test`, { roleType: role })).token);
}

async function memberApi(mail: string, groupId?: number) {
  const { app, database } = t();
  const { user, token } = await signIn(app, database, mail, { groupId });
  return { user, api: as(app, token) };
}

type Page = { data: BoardOut[]; pageNumber: number };

describe('saving a board', () => {
  it('creates an unpublished board with a uuid, answering 创建成功, and reads it back by id and uuid', async () => {
    const admin = await adminApi('lowerAdmin');
    const form = boardForm();
    const res = await admin.post<BoardOut>('/api/board/info', form);
    expect(res.body).toMatchObject({
      code: 'A00000',
      msg: '创建成功',
      data: { boardName: '四月采购', remark: '本周截止', status: 'unpublish', expire: false, publishAt: form.publishAt, expireAt: form.expireAt },
    });
    const board = res.body.data!;
    expect(board.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await admin.get(`/api/board/info/${board.id}`)).body.data).toMatchObject({ id: board.id, uuid: board.uuid });
    expect((await admin.get(`/api/board/infouuid/${board.uuid}`)).body.data).toMatchObject({ id: board.id });
    expect(await admin.get('/api/board/info/999')).toMatchObject({ status: 404, body: { code: 'A00004' } });
  });

  it("requires every field ('{field}必填' after trimming) and expireAt after publishAt", async () => {
    const admin = await adminApi();
    expect((await admin.post('/api/board/info', boardForm({ boardName: '   ' }))).body).toEqual({ code: 'A00001', msg: '看板名称必填' });
    expect((await admin.post('/api/board/info', boardForm({ boardName: '' }))).body).toEqual({ code: 'A00001', msg: '看板名称必填' });
    expect((await admin.post('/api/board/info', boardForm({ remark: ' ' }))).body).toEqual({ code: 'A00001', msg: '备注必填' });
    const missing = await admin.post('/api/board/info', { boardName: 'x', remark: 'y', publishAt: 1 });
    expect(missing).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(missing.body.msg).toContain('expireAt');
    const now = Date.now();
    expect((await admin.post('/api/board/info', boardForm({ publishAt: now, expireAt: now }))).body).toEqual({
      code: 'A00001',
      msg: '截止时间必须晚于发布时间',
    });
    expect((await admin.get<Page>('/api/board/list/admin')).body.data!.data).toHaveLength(0);
  });

  it('computes expire from expireAt and the clock', async () => {
    const admin = await adminApi();
    const board = await createBoard(admin, { publishAt: Date.now() - 3 * DAY, expireAt: Date.now() - DAY });
    expect(board.expire).toBe(true);
  });

  it('edits the fields, and changes status only open <-> close through the machine', async () => {
    const { database } = t();
    const admin = await adminApi();
    const g = await seedGroup(database, 'g1');
    expect((await admin.post('/api/board/info', boardForm({ status: 'open' }))).body).toEqual({ code: 'A00001', msg: boardMessages.notClosed });

    const board = await createBoard(admin);
    const edit = (over: Record<string, unknown>) => admin.post<BoardOut>('/api/board/info', boardForm({ id: board.id, ...over }));
    expect((await edit({ boardName: '五月采购' })).body).toMatchObject({
      code: 'A00000',
      msg: '保存成功',
      data: { boardName: '五月采购', status: 'unpublish' },
    });
    expect((await edit({ status: 'close' })).body).toEqual({ code: 'A00001', msg: boardMessages.notOpen });
    expect((await edit({ status: 'open' })).body).toEqual({ code: 'A00001', msg: boardMessages.notClosed });

    const item = await seedItem(database);
    await createBoardTask(admin, board.id, { itemId: item.id, buyIn: 1, show: 1 });
    await admin.post(`/api/board/${board.id}/add?groupIds=${g.id}`);
    await admin.post(`/api/boardtask/publish/${board.id}`);
    expect((await edit({ status: 'open' })).body.data).toMatchObject({ status: 'open' });
    expect((await edit({ status: 'close' })).body.data).toMatchObject({ status: 'close' });
    expect((await admin.post(`/api/boardtask/publish/${board.id}`)).body).toEqual({ code: 'A00001', msg: boardMessages.closed });
    expect((await edit({ status: 'open' })).body.data).toMatchObject({ status: 'open' });
    expect(await admin.post('/api/board/info', boardForm({ id: 999 }))).toMatchObject({ status: 404, body: { code: 'A00004' } });
    // The board's trail: each save as what it did (a refused one left nothing), with the status it left.
    const trail = await database.db
      .select({ action: auditLog.action, status: auditLog.status })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'board'), eq(auditLog.entityId, board.id)))
      .orderBy(asc(auditLog.id));
    expect(trail).toEqual([
      { action: 'create', status: 'unpublish' },
      { action: 'edit', status: 'unpublish' },
      { action: 'groups.add', status: null },
      { action: 'publish.all', status: 'open' },
      { action: 'edit', status: 'open' },
      { action: 'close', status: 'close' },
      { action: 'reopen', status: 'open' },
    ]);
  });

  it('is admin-side: a member gets 403', async () => {
    const { api } = await memberApi('m@x.test');
    expect(await api.post('/api/board/info', boardForm())).toMatchObject({ status: 403, body: { code: 'A00003' } });
  });
});

describe('board lists', () => {
  it('pages the admin list ({data, pageNumber}, 10 by default, newest first) and filters by boardId, boardTaskId, itemId', async () => {
    const { database } = t();
    const admin = await adminApi();
    const boards: BoardOut[] = [];
    for (let i = 0; i < 11; i++) boards.push(await createBoard(admin, { boardName: `b${i}` }));
    const first = (await admin.get<Page>('/api/board/list/admin')).body.data!;
    expect(first.pageNumber).toBe(2);
    expect(first.data).toHaveLength(10);
    expect(first.data[0]!.boardName).toBe('b10');
    expect((await admin.get<Page>('/api/board/list/admin?page=1')).body.data!.data.map((b) => b.boardName)).toEqual(['b0']);
    expect((await admin.get<Page>('/api/board/list/admin?isDesc=false&size=2')).body.data).toMatchObject({
      pageNumber: 6,
      data: [{ boardName: 'b0' }, { boardName: 'b1' }],
    });

    const item = await seedItem(database, { itemName: 'Switch' });
    const other = await seedItem(database, { itemName: 'Kindle' });
    const bt = await createBoardTask(admin, boards[3]!.id, { itemId: item.id, buyIn: 1, show: 1 });
    await createBoardTask(admin, boards[5]!.id, { itemId: item.id, buyIn: 1, show: 1 });
    await createBoardTask(admin, boards[6]!.id, { itemId: other.id, buyIn: 1, show: 1 });
    const names = async (q: string) => (await admin.get<Page>(`/api/board/list/admin?${q}`)).body.data!.data.map((b) => b.boardName);
    expect(await names(`boardId=${boards[2]!.id}`)).toEqual(['b2']);
    expect(await names(`boardTaskId=${bt.id}`)).toEqual(['b3']);
    expect(await names(`itemId=${item.id}`)).toEqual(['b5', 'b3']);
  });

  it('shows a member only open boards published to them, 10 per page by default', async () => {
    const { database } = t();
    const admin = await adminApi();
    const g = await seedGroup(database, 'bound');
    const { api: member } = await memberApi('m@x.test', g.id);
    const { api: outsider } = await memberApi('o@x.test');
    const open = await openBoard(admin, database, g.id);
    await createBoard(admin, { boardName: 'draft' });
    const closed = await openBoard(admin, database, g.id, { boardOver: { boardName: 'closed' } });
    await admin.post('/api/board/info', boardForm({ id: closed.board.id, boardName: 'closed', status: 'close' }));

    const list = (await member.get<Page>('/api/board/list/user')).body.data!;
    expect(list).toEqual({ pageNumber: 1, data: [expect.objectContaining({ id: open.board.id, status: 'open' })] });
    expect((await outsider.get<Page>('/api/board/list/user')).body.data).toEqual({ data: [], pageNumber: 0 });
    expect((await member.get<Page>(`/api/board/list/user?itemId=${open.item.id}`)).body.data!.data).toHaveLength(1);
    expect((await member.get<Page>(`/api/board/list/user?boardTaskId=${open.boardTask.id}`)).body.data!.data).toHaveLength(1);
    expect((await member.get<Page>('/api/board/list/user?boardId=999')).body.data!.data).toHaveLength(0);
    expect(await member.get('/api/board/list/admin')).toMatchObject({ status: 403 });
  });
});

describe('group binding', () => {
  it('binds and unbinds groups (idempotently, answering true) and lists them; unknown ids are A00004', async () => {
    const { database } = t();
    const admin = await adminApi();
    const board = await createBoard(admin);
    const g1 = await seedGroup(database, '一组');
    const g2 = await seedGroup(database, '二组');
    expect((await admin.post(`/api/board/${board.id}/add?groupIds=${g1.id},${g2.id}`)).body).toMatchObject({ code: 'A00000', data: true });
    expect((await admin.post(`/api/board/${board.id}/add?groupIds=${g1.id}`)).body).toMatchObject({ code: 'A00000', data: true });
    expect((await admin.get(`/api/board/${board.id}/userGroups`)).body.data).toEqual([
      { id: g1.id, groupName: '一组', remark: '' },
      { id: g2.id, groupName: '二组', remark: '' },
    ]);
    expect((await admin.post(`/api/board/${board.id}/remove?groupIds=${g1.id}`)).body).toMatchObject({ code: 'A00000', data: true });
    expect((await admin.get(`/api/board/${board.id}/userGroups`)).body.data).toEqual([{ id: g2.id, groupName: '二组', remark: '' }]);
    expect(await admin.post(`/api/board/${board.id}/add?groupIds=999`)).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await admin.post(`/api/board/999/add?groupIds=${g1.id}`)).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await admin.get('/api/board/999/userGroups')).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await admin.post(`/api/board/${board.id}/add?groupIds=a,b`)).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });
});

describe('publishing', () => {
  async function boardWithTask(admin: Api) {
    const item = await seedItem(t().database);
    const board = await createBoard(admin);
    await createBoardTask(admin, board.id, { itemId: item.id, buyIn: 3, show: 5 });
    return board;
  }

  it('refuses what the board machine refuses, with its message: no tasks, no groups, closed', async () => {
    const { database } = t();
    const admin = await adminApi();
    const g = await seedGroup(database, 'g');
    const empty = await createBoard(admin);
    await admin.post(`/api/board/${empty.id}/add?groupIds=${g.id}`);
    expect((await admin.post(`/api/boardtask/publish/${empty.id}`)).body).toEqual({ code: 'A00001', msg: boardMessages.noTasks });

    const board = await boardWithTask(admin);
    expect((await admin.post(`/api/boardtask/publish/${board.id}`)).body).toEqual({ code: 'A00001', msg: boardMessages.noGroups });
    expect((await admin.post(`/api/boardtask/backup/publish/${board.id}`)).body).toEqual({ code: 'A00001', msg: boardMessages.noGroups });
    expect((await admin.get<BoardOut>(`/api/board/info/${board.id}`)).body.data!.status).toBe('unpublish');

    // A board whose only task is deleted has nothing to claim.
    const deletedOnly = await createBoard(admin);
    const item = await seedItem(database);
    await createBoardTask(admin, deletedOnly.id, { itemId: item.id, buyIn: 1, show: 1, status: 'deleted' });
    await admin.post(`/api/board/${deletedOnly.id}/add?groupIds=${g.id}`);
    expect((await admin.post(`/api/boardtask/publish/${deletedOnly.id}`)).body).toEqual({ code: 'A00001', msg: boardMessages.noTasks });

    await admin.post(`/api/board/${board.id}/add?groupIds=${g.id}`);
    expect((await admin.post(`/api/boardtask/publish/${board.id}`)).body.code).toBe('A00000');
    await admin.post('/api/board/info', boardForm({ id: board.id, status: 'close' }));
    for (const url of [`/api/boardtask/publish/${board.id}`, `/api/boardtask/backup/publish/${board.id}`])
      expect((await admin.post(url)).body).toEqual({ code: 'A00001', msg: boardMessages.closed });
    expect((await admin.post(`/api/boardtask/publish/${board.id}/users`, { userIds: [1] })).body).toEqual({ code: 'A00001', msg: boardMessages.closed });
    expect(await admin.post('/api/boardtask/publish/999')).toMatchObject({ status: 404, body: { code: 'A00004' } });
  });

  it('opens the board and mails each member of the bound groups once, through the outbox', async () => {
    const { database, outbox: worker, config } = t();
    const admin = await adminApi();
    const g1 = await seedGroup(database, 'g1');
    const g2 = await seedGroup(database, 'g2');
    const unbound = await seedGroup(database, 'unbound');
    const a = await memberApi('a@x.test', g1.id);
    const b = await memberApi('b@x.test', g2.id);
    await database.db.insert(userGroupMembers).values({ groupId: g2.id, userId: a.user.id });
    await memberApi('c@x.test', unbound.id);
    const board = await boardWithTask(admin);
    await admin.post(`/api/board/${board.id}/add?groupIds=${g1.id},${g2.id}`);

    const res = await admin.post(`/api/boardtask/publish/${board.id}`);
    expect(res.body).toEqual({ code: 'A00000', msg: '操作成功', data: { status: 'succ', msg: '操作成功', mailQueued: 2 } });
    expect((await admin.get<BoardOut>(`/api/board/info/${board.id}`)).body.data!.status).toBe('open');
    const queued = await database.db.select().from(outbox).where(eq(outbox.kind, 'board.publish'));
    expect(queued.map((r) => [r.toAddr, r.transport]).sort()).toEqual([
      ['a@x.test', 'primary'],
      ['b@x.test', 'primary'],
    ]);

    expect(await worker.drain()).toBeGreaterThanOrEqual(0);
    const mail = await sink.waitFor('a@x.test');
    await sink.waitFor('b@x.test');
    expect(mail.subject).toContain('四月采购');
    expect(mail.links).toContain(`${config.appUrl}/user/board/${board.uuid}`);
    expect(sink.mails.map((m) => m.to).sort()).toEqual(['a@x.test', 'b@x.test']);
    expect(backupSink.mails).toHaveLength(0);
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'board'), eq(auditLog.action, 'publish.all')));
    expect(audit).toMatchObject({ entityId: board.id, status: 'open', count: 2 });
    // The trail says who was mailed (each member once, though a is in both groups).
    expect(audit!.after).toMatchObject({ status: 'open', audience: [a.user.id, b.user.id].sort((x, y) => x - y) });

    // The members now see it; an open board may be published again (and mails again).
    expect((await a.api.get<BoardOut>(`/api/board/infouuid/${board.uuid}`)).body.data).toMatchObject({ id: board.id, status: 'open' });
    expect((await admin.post(`/api/boardtask/publish/${board.id}`)).body.data).toMatchObject({ status: 'succ', mailQueued: 2 });
    await worker.drain();
    expect(sink.mails.map((m) => m.to).sort()).toEqual(['a@x.test', 'a@x.test', 'b@x.test', 'b@x.test']);
  });

  it('backup publish sends the same mails through the backup transport', async () => {
    const { database, outbox: worker } = t();
    const admin = await adminApi();
    const g = await seedGroup(database, 'g');
    await memberApi('a@x.test', g.id);
    const board = await boardWithTask(admin);
    await admin.post(`/api/board/${board.id}/add?groupIds=${g.id}`);
    expect((await admin.post(`/api/boardtask/backup/publish/${board.id}`)).body).toEqual({
      code: 'A00000',
      msg: '操作成功',
      data: { status: 'succ', msg: '操作成功', mailQueued: 1 },
    });
    expect((await database.db.select().from(outbox).where(eq(outbox.kind, 'board.publish'))).map((r) => r.transport)).toEqual(['backup']);
    await worker.drain();
    const mail = await backupSink.waitFor('a@x.test');
    expect(mail.links.some((l) => l.endsWith(`/user/board/${board.uuid}`))).toBe(true);
    expect(sink.mails).toHaveLength(0);
  });

  it('publishes to chosen users: records them, mails them, and they (only) see the board', async () => {
    const { database, outbox: worker } = t();
    const admin = await adminApi();
    const chosen = await memberApi('chosen@x.test');
    const other = await memberApi('other@x.test');
    const board = await boardWithTask(admin);
    const url = `/api/boardtask/publish/${board.id}/users`;
    expect(await admin.post(url, { userIds: [] })).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await admin.post(url, { userIds: [chosen.user.id, 999] })).toMatchObject({ status: 404, body: { code: 'A00004', msg: '用户不存在：999' } });
    expect((await admin.get<BoardOut>(`/api/board/info/${board.id}`)).body.data!.status).toBe('unpublish');

    expect((await admin.post(url, { userIds: [chosen.user.id] })).body).toEqual({
      code: 'A00000',
      msg: '操作成功',
      data: { status: 'succ', msg: '操作成功', mailQueued: 1 },
    });
    expect(await database.db.select({ userId: boardUsers.userId }).from(boardUsers).where(eq(boardUsers.boardId, board.id))).toEqual([
      { userId: chosen.user.id },
    ]);
    await worker.drain();
    await sink.waitFor('chosen@x.test');
    expect(sink.mails.map((m) => m.to)).toEqual(['chosen@x.test']);

    expect((await chosen.api.get<Page>('/api/board/list/user')).body.data!.data.map((b) => b.id)).toEqual([board.id]);
    expect((await chosen.api.get(`/api/boardtask/uuid/${board.uuid}/list`)).body.code).toBe('A00000');
    expect(await other.api.get(`/api/board/infouuid/${board.uuid}`)).toMatchObject({ status: 404, body: { code: 'A00004' } });
    // Publishing to the same user again is no error.
    expect((await admin.post(url, { userIds: [chosen.user.id] })).body.code).toBe('A00000');
    await worker.drain();
    expect(sink.mails.map((m) => m.to)).toEqual(['chosen@x.test', 'chosen@x.test']);
  });

  it('is admin-side', async () => {
    const { api } = await memberApi('m@x.test');
    for (const url of ['/api/boardtask/publish/1', '/api/boardtask/backup/publish/1']) expect(await api.post(url)).toMatchObject({ status: 403 });
  });
});

describe('visibility', () => {
  it('hides from a member every board that is not open and published to them (A00004 as if it did not exist)', async () => {
    const { database } = t();
    const admin = await adminApi();
    const bound = await seedGroup(database, 'bound');
    const member = await memberApi('m@x.test', bound.id);
    const outsider = await memberApi('o@x.test');
    const { board, boardTask } = await openBoard(admin, database, bound.id);

    const urls = (b: { id: number; uuid: string }, btId: number) => [
      `/api/board/infouuid/${b.uuid}`,
      `/api/boardtask/uuid/${b.uuid}/list`,
      `/api/boardtask/${b.id}/info/${btId}`,
      `/api/boardtask/${btId}/status`,
      `/api/task/info/user/board/list?boardUuid=${b.uuid}`,
    ];
    for (const url of urls(board, boardTask.id)) {
      expect((await member.api.get(url)).body.code, url).toBe('A00000');
      expect(await outsider.api.get(url), url).toMatchObject({ status: 404, body: { code: 'A00004' } });
    }

    // Unpublished: invisible to the bound member, visible to the admin.
    const draft = await createBoard(admin, { boardName: 'draft' });
    const item = await seedItem(database);
    const draftTask = await createBoardTask(admin, draft.id, { itemId: item.id, buyIn: 1, show: 1 });
    await admin.post(`/api/board/${draft.id}/add?groupIds=${bound.id}`);
    for (const url of urls(draft, draftTask.id)) expect(await member.api.get(url), url).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect((await admin.get(`/api/board/infouuid/${draft.uuid}`)).body.data).toMatchObject({ status: 'unpublish' });
    expect((await admin.get(`/api/boardtask/uuid/${draft.uuid}/list`)).body.data).toHaveLength(1);

    // Closed: invisible again; unbinding the group hides it too.
    await admin.post('/api/board/info', boardForm({ id: board.id, status: 'close' }));
    expect(await member.api.get(`/api/board/infouuid/${board.uuid}`)).toMatchObject({ status: 404 });
    await admin.post('/api/board/info', boardForm({ id: board.id, status: 'open' }));
    expect((await member.api.get(`/api/board/infouuid/${board.uuid}`)).body.code).toBe('A00000');
    await admin.post(`/api/board/${board.id}/remove?groupIds=${bound.id}`);
    expect(await member.api.get(`/api/board/infouuid/${board.uuid}`)).toMatchObject({ status: 404 });
  });
});

describe('board tasks', () => {
  type BT = Record<string, unknown> & { id: number };

  it('creates with the form rules: item name copied, http:// prefixed, empty price/url from the item, defaults, cents', async () => {
    const { database } = t();
    const admin = await adminApi();
    const item = await seedItem(database, { itemName: 'Dyson V8', upc: '885609020358', url: 'www.dyson.com/v8', price: 36999 });
    const board = await createBoard(admin);
    const res = await admin.post<{ status: string; msg: string; boardTask: BT }>(`/api/boardtask/${board.id}/info`, {
      itemId: item.id,
      buyIn: 19.99,
      show: 10,
      url: '  ',
    });
    expect(res.body).toMatchObject({ code: 'A00000', msg: '创建成功', data: { status: 'succ', msg: '创建成功' } });
    expect(res.body.data!.boardTask).toMatchObject({
      boardId: board.id,
      itemId: item.id,
      itemName: 'Dyson V8',
      upc: '885609020358',
      url: 'http://www.dyson.com/v8',
      price: 369.99,
      buyIn: 19.99,
      show: 10,
      need: 10,
      averageCost: null,
      allCount: 0,
      claimCount: 0,
      address: DEFAULT_BOARD_TASK_ADDRESS,
      status: 'normal',
      note: '',
      itemSource: '',
    });

    const full = await createBoardTask(admin, board.id, {
      itemId: item.id,
      buyIn: 5,
      show: 8,
      need: 6,
      price: 300.5,
      url: 'shop.example/x',
      averageCost: 250.25,
      address: 'CA-1',
      status: 'urgent',
      note: 'n',
      itemSource: 'Amazon',
    });
    expect(full).toMatchObject({
      url: 'http://shop.example/x',
      price: 300.5,
      need: 6,
      averageCost: 250.25,
      address: 'CA-1',
      status: 'urgent',
      note: 'n',
      itemSource: 'Amazon',
    });
    const https = await createBoardTask(admin, board.id, { itemId: item.id, buyIn: 5, show: 8, url: 'https://shop.example/y' });
    expect(https.url).toBe('https://shop.example/y');

    const noPrice = await seedItem(database, { price: null, url: '', upc: null });
    expect(await createBoardTask(admin, board.id, { itemId: noPrice.id, buyIn: 1, show: 1 })).toMatchObject({ price: null, url: '', upc: '' });

    // Update: the item's name follows the item; what the form leaves out is kept.
    const upd = await admin.post<{ boardTask: BT }>(`/api/boardtask/${board.id}/info`, { id: full.id, itemId: item.id, buyIn: 6, show: 9, price: 301 });
    expect(upd.body).toMatchObject({ code: 'A00000', msg: '保存成功' });
    expect(upd.body.data!.boardTask).toMatchObject({
      id: full.id,
      buyIn: 6,
      show: 9,
      need: 6,
      price: 301,
      averageCost: 250.25,
      address: 'CA-1',
      status: 'urgent',
      note: 'n',
      itemSource: 'Amazon',
      url: 'http://www.dyson.com/v8',
    });
  });

  it('refuses unknown boards, board tasks, items, closed items, three-decimal money and members', async () => {
    const { database } = t();
    const admin = await adminApi();
    const item = await seedItem(database);
    const closed = await seedItem(database, { status: 'close' });
    const board = await createBoard(admin);
    const other = await createBoard(admin);
    const bt = await createBoardTask(admin, board.id, { itemId: item.id, buyIn: 1, show: 1 });
    expect(await admin.post('/api/boardtask/999/info', { itemId: item.id, buyIn: 1, show: 1 })).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await admin.post(`/api/boardtask/${other.id}/info`, { id: bt.id, itemId: item.id, buyIn: 1, show: 1 })).toMatchObject({
      status: 404,
      body: { code: 'A00004', msg: '任务不存在' },
    });
    expect((await admin.post(`/api/boardtask/${board.id}/info`, { itemId: 999, buyIn: 1, show: 1 })).body).toEqual({ code: 'A00001', msg: '商品不存在' });
    expect((await admin.post(`/api/boardtask/${board.id}/info`, { itemId: closed.id, buyIn: 1, show: 1 })).body).toEqual({
      code: 'A00001',
      msg: '商品已关闭，不能添加到看板',
    });
    expect(await admin.post(`/api/boardtask/${board.id}/info`, { itemId: item.id, buyIn: 1.234, show: 1 })).toMatchObject({
      status: 400,
      body: { code: 'A00001' },
    });
    expect(await admin.post(`/api/boardtask/${board.id}/info`, { itemId: item.id, show: 1 })).toMatchObject({ status: 400, body: { code: 'A00001' } });
    const { api } = await memberApi('m@x.test');
    expect(await api.post(`/api/boardtask/${board.id}/info`, { itemId: item.id, buyIn: 1, show: 1 })).toMatchObject({ status: 403 });
  });

  it("gives members the board's tasks without the admin's numbers and without deleted ones; admins everything", async () => {
    const { database } = t();
    const admin = await adminApi();
    const g = await seedGroup(database, 'g');
    const member = await memberApi('m@x.test', g.id);
    const { board, boardTask, item } = await openBoard(admin, database, g.id, { taskOver: { need: 7, averageCost: 9.5 } });
    const gone = await createBoardTask(admin, board.id, { itemId: item.id, buyIn: 1, show: 1, status: 'deleted' });

    const mine = (await member.api.get<BT[]>(`/api/boardtask/uuid/${board.uuid}/list`)).body.data!;
    expect(mine.map((b) => b.id)).toEqual([boardTask.id]);
    expect(mine[0]).toMatchObject({ id: boardTask.id, show: 10, claimCount: 0, itemName: 'AirPods Pro', upc: '194253397168' });
    for (const k of ['need', 'averageCost', 'allCount']) expect(mine[0]).not.toHaveProperty(k);
    const one = (await member.api.get<BT>(`/api/boardtask/${board.id}/info/${boardTask.id}`)).body.data!;
    expect(one).not.toHaveProperty('need');
    expect(await member.api.get(`/api/boardtask/${board.id}/info/${gone.id}`)).toMatchObject({ status: 404 });

    const all = (await admin.get<BT[]>(`/api/boardtask/${board.id}/list`)).body.data!;
    expect(all.map((b) => b.id)).toEqual([boardTask.id, gone.id]);
    expect(all[0]).toMatchObject({ need: 7, averageCost: 9.5, allCount: 0 });
    expect((await admin.get<BT[]>(`/api/boardtask/uuid/${board.uuid}/list`)).body.data).toHaveLength(2);
    expect((await admin.get<BT>(`/api/boardtask/${board.id}/info/${boardTask.id}`)).body.data).toMatchObject({ need: 7 });
    expect(await admin.get(`/api/boardtask/${board.id + 1}/info/${boardTask.id}`)).toMatchObject({ status: 404 });
    expect(await member.api.get(`/api/boardtask/${board.id}/list`)).toMatchObject({ status: 403 });
  });

  it("answers several boards' tasks in one call (the deal cards), each as one board at a time; boards a member may not see are left out", async () => {
    const { database } = t();
    const admin = await adminApi();
    const g = await seedGroup(database, 'g');
    const member = await memberApi('m@x.test', g.id);
    const outsider = await memberApi('o@x.test');
    const first = await openBoard(admin, database, g.id, { taskOver: { need: 7 } });
    const gone = await createBoardTask(admin, first.board.id, { itemId: first.item.id, buyIn: 1, show: 1, status: 'deleted' });
    const second = await openBoard(admin, database, g.id, { boardOver: { boardName: '第二个看板' } });
    const draft = await createBoard(admin, { boardName: 'draft' });
    await admin.post(`/api/board/${draft.id}/add?groupIds=${g.id}`);
    type Group = { boardId: number; boardTasks: BT[] };
    const many = async (api: Api, ids: number[]) => api.get<Group[]>(`/api/boardtask/list/boards?${ids.map((id) => `boardId=${id}`).join('&')}`);
    const single = async (api: Api, uuid: string) => (await api.get<BT[]>(`/api/boardtask/uuid/${uuid}/list`)).body.data!;

    // In the order asked, each once; the unpublished board and one that does not exist left out.
    const asked = [second.board.id, draft.id, first.board.id, 999_999, second.board.id];
    const groups = (await many(member.api, asked)).body.data!;
    expect(groups.map((x) => x.boardId)).toEqual([second.board.id, first.board.id]);
    // Each board's tasks as its own call answers them: no deleted board task, no admin numbers.
    expect(groups[0]!.boardTasks).toEqual(await single(member.api, second.board.uuid));
    expect(groups[1]!.boardTasks).toEqual(await single(member.api, first.board.uuid));
    expect(groups[1]!.boardTasks.map((b) => b.id)).toEqual([first.boardTask.id]);
    expect(groups[1]!.boardTasks[0]).not.toHaveProperty('need');
    // A member of no group sees none of them; a single board is a list of one.
    expect((await many(outsider.api, asked)).body).toMatchObject({ code: 'A00000', data: [] });
    expect((await many(member.api, [first.board.id])).body.data!.map((x) => x.boardId)).toEqual([first.board.id]);
    // The admin side sees every board, deleted board tasks and its numbers included.
    const adminGroups = (await many(admin, asked)).body.data!;
    expect(adminGroups.map((x) => [x.boardId, x.boardTasks.map((b) => b.id)])).toEqual([
      [second.board.id, [second.boardTask.id]],
      [draft.id, []],
      [first.board.id, [first.boardTask.id, gone.id]],
    ]);
    expect(adminGroups[2]!.boardTasks[0]).toMatchObject({ need: 7 });
    // No board, or more than a page of them, is a bad request.
    expect(await member.api.get('/api/boardtask/list/boards')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    const tooMany = Array.from({ length: 101 }, (_, i) => i + 1);
    expect(await many(member.api, tooMany)).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(await many(member.api, [0])).toMatchObject({ status: 400, body: { code: 'A00001' } });
  });

  it('reports claim progress {count, need} against the shown quantity, and who claimed how much', async () => {
    const { database } = t();
    const admin = await adminApi();
    const g = await seedGroup(database, 'g');
    const a = await memberApi('a@x.test', g.id);
    const b = await memberApi('b@x.test', g.id);
    const { board, boardTask } = await openBoard(admin, database, g.id, { show: 10, taskOver: { need: 4 } });
    await a.api.post(`/api/task/${boardTask.id}/user/create/2`);
    await b.api.post(`/api/task/${boardTask.id}/user/create/3`);
    await a.api.post(`/api/task/${boardTask.id}/user/create/1`);

    expect((await a.api.get(`/api/boardtask/${boardTask.id}/status`)).body.data).toEqual({ count: 6, need: 10 });
    expect((await admin.get(`/api/boardtask/${boardTask.id}/status`)).body.data).toEqual({ count: 6, need: 10 });
    expect((await a.api.get<BT[]>(`/api/boardtask/uuid/${board.uuid}/list`)).body.data![0]).toMatchObject({ claimCount: 6 });
    expect((await admin.get(`/api/boardtask/${boardTask.id}/users`)).body.data).toEqual([
      { userId: a.user.id, nickName: 'a', mailAddr: 'a@x.test', count: 3 },
      { userId: b.user.id, nickName: 'b', mailAddr: 'b@x.test', count: 3 },
    ]);
    expect(await admin.get('/api/boardtask/999/users')).toMatchObject({ status: 404 });
    expect(await admin.get('/api/boardtask/999/status')).toMatchObject({ status: 404 });
  });
});
