// Bad input from anyone gets 400 A00001 naming the field, the same way on every operation, and
// changes nothing: ids outside their integer column, numbers that are not plain decimals, control
// characters, lone surrogates and badly encoded text, broken multipart bodies, `__proto__` keys, and
// what the framework refuses before routing. A client that posts back what it read is not refused.
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listOperations, loadSpec } from '../../../src/server/contract.ts';
import { CARD_LABELS, cardMessages } from '../../../machines/bank-card.ts';
import { notices } from '../../../src/server/db/schema/accounts.ts';
import { tasks } from '../../../src/server/db/schema/tasks.ts';
import { call, useTestApp } from '../support/harness.ts';
import { seedGroup, signIn } from '../support/board-fixtures.ts';
import { claim, client, record, scan, taskWorld, type TaskOut } from '../support/task-fixtures.ts';

const t = useTestApp();
const refused = (msg: string) => ({ status: 400, body: { code: 'A00001', msg } });

async function accounts() {
  const { app, database } = t();
  const admin = await signIn(app, database, 'admin@x.test', { roleType: 'admin' });
  const member = await signIn(app, database, 'm@x.test');
  return { admin: client(app, admin.token), member: client(app, member.token), adminToken: admin.token, memberToken: member.token };
}

describe('integers', () => {
  it('refuses ids no integer column holds, 1e308 and Infinity with 400 A00001 naming the field', async () => {
    const { app } = t();
    const { admin, memberToken } = await accounts();
    expect(await admin.get('/api/task/info/2147483648')).toMatchObject(refused('参数错误：字段 id 不能大于 2147483647'));
    const pay = await call(app, {
      method: 'POST',
      url: '/api/trade/user/pay/apply',
      headers: { 'x-token': memberToken, 'content-type': 'application/json' },
      payload: '{"taskId":1e308}',
    });
    expect(pay).toMatchObject(refused('参数错误：字段 taskId 不能大于 2147483647'));
    expect(await admin.get('/api/statistics/admin/task/amount/list?page=1e308')).toMatchObject(refused('参数错误：字段 page 应为十进制整数'));
    expect(await admin.get('/api/statistics/admin/task/amount/list?page=Infinity')).toMatchObject(refused('参数错误：字段 page 应为十进制整数'));
    expect(await admin.get('/api/statistics/admin/task/amount/list?page=2147483648')).toMatchObject(refused('参数错误：字段 page 不能大于 2147483647'));
    expect(await admin.get('/api/statistics/admin/task/amount/list?page=2147483647')).toMatchObject({ status: 200, body: { code: 'A00000' } });
    expect(await admin.post('/api/withdraw/admin/paid', { id: 2147483648 })).toMatchObject(refused('参数错误：字段 id 不能大于 2147483647'));
    // The largest id a column holds is a well-formed id that names nothing: 404, as any unknown id.
    expect(await admin.get('/api/task/info/2147483647')).toMatchObject({ status: 404, body: { code: 'A00004' } });
    expect(await admin.get('/api/usergroup/2147483647/info')).toMatchObject({ status: 404, body: { code: 'A00004' } });
  });

  it("takes path and query numbers as plain decimals only: ' 1 ', '+1', '0x10' and '1e3' are not ids (the task is not deleted)", async () => {
    const { app, database } = t();
    const w = await taskWorld(app, database);
    const task = await claim(w.a.api, w.boardTask.id, 1);
    for (const id of ['%201%20', '+1', '0x10', '1e0', '1.0', '01'].map((s) => s.replace('1', String(task.id)))) {
      expect(await w.a.api.del(`/api/task/info/user/${id}`), id).toMatchObject(refused('参数错误：字段 id 应为十进制整数'));
    }
    expect((await database.db.select().from(tasks).where(eq(tasks.id, task.id)))[0]!.status).toBe('open');
    expect(await w.admin.get(`/api/task/list/page?taskId=%20${task.id}`)).toMatchObject(refused('参数错误：字段 taskId 应为十进制整数'));
    expect(await w.admin.get('/api/scan/admin/tracking/list?timezone=0x8')).toMatchObject(refused('参数错误：字段 timezone 应为十进制数字'));
    expect(await w.admin.get('/api/scan/admin/tracking/list?timezone=5.5')).toMatchObject({ status: 200 });
    // A date filter is a day that exists.
    expect(await w.admin.get('/api/scan/admin/tracking/list?startTime=2026-02-30')).toMatchObject(
      refused('参数错误：字段 startTime 不是有效日期（2026-02-30）'),
    );
    expect(await w.admin.get('/api/scan/admin/tracking/list?startTime=2028-02-29')).toMatchObject({ status: 200 });
    expect(await w.a.api.del(`/api/task/info/user/${task.id}`)).toMatchObject({ status: 200, body: { code: 'A00000' } });
  });

  it('answers an out-of-range integer path parameter the same way on every operation: 400 A00001 naming it', async () => {
    const { app } = t();
    const { adminToken, memberToken } = await accounts();
    const failures: string[] = [];
    const spec = loadSpec() as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema: { type?: string; maximum?: number } }[] }>>;
    };
    let tried = 0;
    for (const op of listOperations()) {
      const params = (spec.paths[op.path]![op.method.toLowerCase()]!.parameters ?? []).filter((p) => p.in === 'path');
      for (const target of params.filter((p) => p.schema.type === 'integer')) {
        const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === target.name ? '2147483648' : '1'));
        const token = op.roles.includes('admin') ? adminToken : op.roles.includes('user') ? memberToken : undefined;
        const res = await call(app, { method: op.method as 'GET', url, headers: token ? { 'x-token': token } : {} });
        tried++;
        if (res.status !== 400 || res.body.code !== 'A00001' || res.body.msg !== `参数错误：字段 ${target.name} 不能大于 ${target.schema.maximum}`)
          failures.push(`${op.method} ${url} -> ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(tried).toBeGreaterThanOrEqual(38);
    expect(failures).toEqual([]);
  });

  it('checks comma-joined id lists id by id (uids, groupIds, taskIds, userIds)', async () => {
    const { admin, member } = await accounts();
    const msg = (f: string) => refused(`参数错误：字段 ${f} 应为逗号分隔的id（1至2147483647）`);
    expect(await member.get('/api/task/apply/exist?taskIds=1,2147483648')).toMatchObject(msg('taskIds'));
    expect(await member.get('/api/task/part/match?taskIds=%201')).toMatchObject(msg('taskIds'));
    expect(await admin.post('/api/usergroup/1/user?uids=+1')).toMatchObject(msg('uids'));
    expect(await admin.post('/api/board/1/add?groupIds=0x10')).toMatchObject(msg('groupIds'));
    expect(await member.get('/api/task/apply/exist?taskIds=1,2147483647')).toMatchObject({
      status: 200,
      body: { data: { applyRecords: { 1: false, 2147483647: false } } },
    });
  });
});

describe('text', () => {
  it('refuses NUL in any text, anonymous calls included, with 400 A00001 naming the field, and stores nothing', async () => {
    const { app } = t();
    const { admin } = await accounts();
    expect(await call(app, { method: 'POST', url: '/ext/login/login?mailAddr=a%00b@x.io&pwd=x' })).toMatchObject(
      refused('参数错误：字段 mailAddr 含有不允许的控制字符'),
    );
    expect(await call(app, { method: 'GET', url: '/ext/login/exist?mailAddr=a%00b' })).toMatchObject(refused('参数错误：字段 mailAddr 含有不允许的控制字符'));
    expect(await admin.post('/api/notice/save', { content: 'a\u0000b' })).toMatchObject(refused('参数错误：字段 content 含有不允许的控制字符'));
    expect(await admin.post('/api/notice/save', { content: 'a\u001bb' })).toMatchObject(refused('参数错误：字段 content 含有不允许的控制字符'));
    expect(await admin.post('/api/notice/save', { content: 'a\u0085b' })).toMatchObject(refused('参数错误：字段 content 含有不允许的控制字符'));
    const form = await call(app, {
      method: 'POST',
      url: '/ext/login/password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'mail=a%00b%40x.io',
    });
    expect(form).toMatchObject(refused('参数错误：字段 mail 含有不允许的控制字符'));
    expect(await admin.get('/api/item/info/like/a%00b')).toMatchObject(refused('参数错误：字段 q 含有不允许的控制字符'));
    expect(await admin.post('/api/scan/admin/tracking/1Z999/create', { items: [{ upc: 'x\u0000', itemId: 1 }] })).toMatchObject(
      refused('参数错误：字段 items.0.upc 含有不允许的控制字符'),
    );
    expect(await t().database.db.select().from(notices)).toEqual([]);
  });

  it('refuses a body nested deeper than any request of the contract, and a number too long to be one', async () => {
    const { app } = t();
    const { admin, adminToken } = await accounts();
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const res = await call(app, {
      method: 'POST',
      url: '/api/notice/save',
      headers: { 'x-token': adminToken, 'content-type': 'application/json' },
      payload: deep,
    });
    expect(res).toMatchObject(refused('参数错误：请求体嵌套过深'));
    expect(await admin.get(`/api/item/page?size=1${'0'.repeat(400)}`)).toMatchObject(refused('参数错误：字段 size 超出范围'));
    expect(await admin.get(`/api/board/list/admin?boardId=1${'0'.repeat(400)}`)).toMatchObject(refused('参数错误：字段 boardId 超出范围'));
    const huge = await call(app, {
      method: 'POST',
      url: '/api/withdraw/admin/paid',
      headers: { 'x-token': adminToken, 'content-type': 'application/json' },
      payload: '{"id":1e400}',
    });
    expect(huge).toMatchObject(refused('参数错误：字段 id 类型应为 integer'));
  });

  it('refuses a lone surrogate instead of storing U+FFFD; keeps tab, line feed, carriage return and paired surrogates', async () => {
    const { admin } = await accounts();
    expect(await admin.post('/api/notice/save', { content: 'a\ud800b' })).toMatchObject(refused('参数错误：字段 content 含有无效的Unicode字符'));
    expect(await admin.post('/api/notice/save', { content: 'a\udc00' })).toMatchObject(refused('参数错误：字段 content 含有无效的Unicode字符'));
    expect(await admin.get('/api/item/info/like/%ED%A0%80')).toMatchObject(refused('参数错误：路径不是有效的URL编码（UTF-8）'));
    const text = '第一行\t制表\r\n第二行 😀';
    expect(await admin.post('/api/notice/save', { content: text })).toMatchObject({ status: 200, body: { code: 'A00000' } });
    expect((await admin.get<{ content: string }>('/api/notice/get')).body.data!.content).toBe(text);
  });

  it('refuses bytes that are not UTF-8, in a JSON or form body, a query value or a path', async () => {
    const { app } = t();
    const { admin, adminToken } = await accounts();
    const raw = Buffer.concat([Buffer.from('{"content":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]);
    const json = await call(app, {
      method: 'POST',
      url: '/api/notice/save',
      headers: { 'x-token': adminToken, 'content-type': 'application/json' },
      payload: raw,
    });
    expect(json).toMatchObject(refused('参数错误：请求体不是有效的UTF-8'));
    const form = await call(app, {
      method: 'POST',
      url: '/ext/login/password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'mail=a%FFb',
    });
    expect(form).toMatchObject(refused('参数错误：字段 mail 不是有效的URL编码（UTF-8）'));
    expect(await call(app, { method: 'GET', url: '/ext/login/exist?mailAddr=a%C3%28b' })).toMatchObject(
      refused('参数错误：字段 mailAddr 不是有效的URL编码（UTF-8）'),
    );
    expect(await admin.get('/api/item/info/like/a%FFb')).toMatchObject(refused('参数错误：路径不是有效的URL编码（UTF-8）'));
    expect(await t().database.db.select().from(notices)).toEqual([]);
  });
});

describe('__proto__ and multipart', () => {
  const multipart = (parts: string[], boundary = 'XyZ') => Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`);
  const filePart = (name: string, filename: string) =>
    `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\nPK..`;

  it('names a __proto__ key of a JSON body as the field, wherever it is', async () => {
    const { app } = t();
    const { adminToken } = await accounts();
    const post = (url: string, payload: string) =>
      call(app, { method: 'POST', url, headers: { 'x-token': adminToken, 'content-type': 'application/json' }, payload });
    expect(await post('/api/notice/save', '{"content":"x","__proto__":{"isAdmin":true}}')).toMatchObject(refused('参数错误：不允许的字段 __proto__'));
    expect(await post('/api/scan/admin/tracking/1Z9/create', '{"items":[{"upc":"1","itemId":1,"__proto__":{}}]}')).toMatchObject(
      refused('参数错误：不允许的字段 items.0.__proto__'),
    );
    expect(await post('/api/notice/save', '{"content":"x","constructor":{"prototype":{}}}')).toMatchObject(refused('参数错误：不允许的字段 constructor'));
    expect(await t().database.db.select().from(notices)).toEqual([]);
  });

  it('answers a multipart body without a boundary, with two files, with a __proto__ field or too many fields in Chinese, naming what is wrong', async () => {
    const { app } = t();
    const { adminToken } = await accounts();
    const upload = (payload: Buffer, contentType = 'multipart/form-data; boundary=XyZ') =>
      call(app, { method: 'POST', url: '/api/scan/admin/excel/upload/import', headers: { 'x-token': adminToken, 'content-type': contentType }, payload });
    expect(await upload(multipart([filePart('file', 'a.xlsx')]), 'multipart/form-data')).toMatchObject(refused('参数错误：multipart请求缺少boundary'));
    expect(await upload(multipart([filePart('file', 'a.xlsx'), filePart('file2', 'b.xlsx')]))).toMatchObject(refused('参数错误：一次只能上传一个文件'));
    const proto = await upload(multipart(['Content-Disposition: form-data; name="__proto__"\r\n\r\nx', filePart('file', 'a.xlsx')]));
    expect(proto).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(proto.body.msg).toContain('__proto__');
    const many = Array.from({ length: 21 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\nx`);
    expect(await upload(multipart([...many, filePart('file', 'a.xlsx')]))).toMatchObject(refused('参数错误：表单字段过多'));
    expect(await upload(multipart([filePart('file', 'a\u0000.xlsx')]))).toMatchObject(refused('参数错误：字段 file 含有不允许的控制字符'));
    const whole = multipart([filePart('file', 'a.xlsx')]);
    expect(await upload(whole.subarray(0, 60))).toMatchObject(refused('参数错误：multipart请求体格式错误'));
  });
});

describe('no body', () => {
  it('answers a POST without a body, where the contract requires one, 400 A00001 in Chinese (not a TypeError 500); an empty object is still checked field by field', async () => {
    const { app } = t();
    const { memberToken } = await accounts();
    const bare = (url: string, token?: string) => call(app, { method: 'POST', url, headers: token ? { 'x-token': token } : {} });
    for (const url of ['/api/match/user/tracking/match', '/api/purchased/user/1/create', '/api/trade/user/pay/apply', '/api/withdraw/user/bind/card'])
      expect(await bare(url, memberToken), url).toMatchObject(refused('参数错误：缺少请求体'));
    // Anonymous operations too; and the session is judged first: no token, 401.
    expect(await bare('/ext/login/register')).toMatchObject(refused('参数错误：缺少请求体'));
    expect(await bare('/api/trade/user/pay/apply')).toMatchObject({ status: 401, body: { code: 'A00002' } });
    const empty = await call(app, {
      method: 'POST',
      url: '/api/trade/user/pay/apply',
      headers: { 'x-token': memberToken, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(empty).toMatchObject({ status: 400, body: { code: 'A00001' } });
    expect(empty.body.msg).toMatch(/^参数错误：缺少字段/);
  });
});

describe('answers outside the routes', () => {
  it('takes path parameters as long as the contract allows (128), and answers longer ones in the envelope', async () => {
    const { app } = t();
    const { admin } = await accounts();
    expect(await admin.get(`/api/item/info/like/${'a'.repeat(128)}`)).toMatchObject({ status: 200, body: { code: 'A00000', data: [] } });
    const checked = await call(app, { method: 'GET', url: `/ext/login/token/exist?token=${'t'.repeat(128)}` });
    expect(checked).toMatchObject({ status: 200, body: { code: 'A00000' } });
    expect(await call(app, { method: 'GET', url: `/ext/excel/board/${'t'.repeat(128)}` })).toMatchObject({
      body: { code: expect.stringMatching(/^A0000[1-4]$/) },
    });
    expect(await admin.get(`/api/item/info/like/${'a'.repeat(129)}`)).toMatchObject(refused('参数错误：路径参数最多 128 个字符'));
    expect(await admin.get('/api/no/such/call')).toMatchObject({ status: 404, body: { code: 'A00004', msg: '接口不存在' } });
  });

  it('answers what Node refuses before routing (a malformed request, a URL over its header limit) in the envelope', async () => {
    const { app } = t();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
        let data = '';
        socket.on('data', (d) => (data += d.toString('utf8')));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
    const bodyOf = (res: string) => JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4)) as unknown;
    const malformed = await raw('GET /api/notice/get HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(malformed)).toEqual({ code: 'A00001', msg: '参数错误：请求格式错误' });
    const long = await raw(`GET /api/item/info/like/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(long).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(long)).toEqual({ code: 'A00001', msg: '参数错误：地址或请求头过长' });
  });

  it('answers a body over the limit with 413 A00001', async () => {
    const { admin } = await accounts();
    expect(await admin.post('/api/notice/save', { content: 'x'.repeat(1024 * 1024) })).toMatchObject({
      status: 413,
      body: { code: 'A00001', msg: '参数错误：上传内容过大' },
    });
  });
});

describe('posting back what was read', () => {
  it('accepts each save call with the body its read call answered: read-only fields are ignored, unknown ones still refused', async () => {
    const { app, database } = t();
    const w = await taskWorld(app, database);
    const admin = w.admin;
    const ok = { status: 200, body: { code: 'A00000' } };

    // Board (with uuid, createdAt, updatedAt, expire and its status as read).
    const board = (await admin.get<Record<string, unknown>>(`/api/board/info/${w.board.id}`)).body.data!;
    expect(await admin.post('/api/board/info', board)).toMatchObject(ok);
    expect(await admin.post('/api/board/info', { ...board, uuid: 'other' })).toMatchObject(ok);
    expect((await admin.get<{ uuid: string }>(`/api/board/info/${w.board.id}`)).body.data!.uuid).toBe(board.uuid);
    expect(await admin.post('/api/board/info', { ...board, status: 'unpublish' })).toMatchObject(refused('已发布的看板不能改回未发布'));
    expect(await admin.post('/api/board/info', { ...board, colour: 'red' })).toMatchObject(refused('参数错误：不允许的字段 colour'));
    const draft = (await admin.post<Record<string, unknown>>('/api/board/info', { boardName: 'b', remark: 'r', publishAt: 1, expireAt: 2 })).body.data!;
    expect(await admin.post('/api/board/info', draft)).toMatchObject(ok);

    // Board task (SPEC section 3: boardId, userId, itemName, upc, allCount, claimCount, createdAt...).
    const boardTask = (await admin.get<Record<string, unknown>>(`/api/boardtask/${w.board.id}/info/${w.boardTask.id}`)).body.data!;
    expect(boardTask).toHaveProperty('itemName');
    expect(await admin.post(`/api/boardtask/${w.board.id}/info`, boardTask)).toMatchObject(ok);
    expect(await admin.post(`/api/boardtask/${w.board.id}/info`, { ...boardTask, itemName: 'renamed', claimCount: 99 })).toMatchObject(ok);
    expect((await admin.get<Record<string, unknown>>(`/api/boardtask/${w.board.id}/info/${w.boardTask.id}`)).body.data).toMatchObject({
      itemName: boardTask.itemName,
      claimCount: boardTask.claimCount,
    });
    expect(await admin.post(`/api/boardtask/${w.board.id}/info`, { ...boardTask, colour: 'red' })).toMatchObject(refused('参数错误：不允许的字段 colour'));

    // Item.
    const item = (await admin.get<Record<string, unknown>>(`/api/item/info/${w.item.id}`)).body.data!;
    expect(await admin.post('/api/item/info', item)).toMatchObject(ok);

    // Group and notice.
    const seeded = await seedGroup(database, '华东一组');
    const group = (await admin.get<Record<string, unknown>>(`/api/usergroup/${seeded.id}/info`)).body.data!;
    expect(await admin.post('/api/usergroup/update', group)).toMatchObject(ok);
    expect(await admin.post('/api/notice/save', { content: '通知' })).toMatchObject(ok);
    const notice = (await admin.get<Record<string, unknown>>('/api/notice/get')).body.data!;
    expect(await admin.post('/api/notice/save', notice)).toMatchObject(ok);

    // Task (admin edit), with its status and null price as read.
    const claimed: TaskOut = await claim(w.a.api, w.boardTask.id, 2);
    await database.db.update(tasks).set({ price: null }).where(eq(tasks.id, claimed.id));
    const task = (await admin.get<Record<string, unknown>>(`/api/task/info/${claimed.id}`)).body.data!;
    expect(task).toMatchObject({ status: 'open', price: null });
    expect(await admin.post('/api/task/info', task)).toMatchObject(ok);
    expect(await admin.post('/api/task/info', { ...task, status: 'locked' })).toMatchObject(refused('参数错误：字段 status 只能改为 closed 或 deleted'));
    expect((await admin.get<Record<string, unknown>>(`/api/task/info/${claimed.id}`)).body.data).toMatchObject({ status: 'open', price: null, count: 2 });

    // Purchased record (the member's own).
    await record(w.a.api, claimed.id, '1Z-READ', 1);
    const records = (await w.a.api.get<{ purchasedItems: Record<string, unknown>[] }>(`/api/purchased/${claimed.id}/taskTracking`)).body.data!.purchasedItems;
    expect(await w.a.api.post('/api/purchased/user/update', records[0])).toMatchObject(ok);

    // Bank card: bind has no update, so a card posted back as listed would be a new card. Its
    // read-only id and createdAt are ignored, but its masked number is not a card's (the holder name
    // comes back in full to its owner): refused, naming the field, and no card is added.
    const typed = { paymentType: 'Paypal', accountName: 'Alice Smith', cardNo: 'alice@pay.test', address: '1 Main St' };
    expect(await w.a.api.post('/api/withdraw/user/bind/card', typed)).toMatchObject(ok);
    const cards = async () => (await w.a.api.get<{ userCardList: Record<string, unknown>[] }>('/api/withdraw/user/show/cards')).body.data!.userCardList;
    const card = (await cards())[0]!;
    expect(card).toMatchObject({ accountName: typed.accountName, cardNo: expect.stringMatching(/^\*{4}/) });
    const masked = await w.a.api.post<unknown>('/api/withdraw/user/bind/card', card);
    expect(masked).toMatchObject(refused(cardMessages.maskedValue(CARD_LABELS.cardNo)));
    expect(await cards()).toHaveLength(1);
    expect(await w.a.api.post('/api/withdraw/user/bind/card', { ...card, ...typed })).toMatchObject(ok);
    expect(await cards()).toHaveLength(2);

    // A user of the admin list, and a scan record of the tracking lookup (itemId null as read).
    const listed = (await admin.get<{ content: Record<string, unknown>[] }>(`/api/admin/user/list?mailAddr=b%40x.test`)).body.data!.content[0]!;
    expect(await admin.post('/api/admin/user/update', listed)).toMatchObject(ok);
    const row = await scan(database, '1Z-SCAN', 'UPC-1', 1, 'init');
    const lookup = (await admin.get<{ scanTrackingList: Record<string, unknown>[] }>('/api/scan/admin/tracking/1Z-SCAN/list')).body.data!.scanTrackingList[0]!;
    expect(lookup).toMatchObject({ id: row.id, itemId: null });
    expect(await admin.post(`/api/scan/admin/tracking/${row.id}/modify`, lookup)).toMatchObject(ok);
  });
});
