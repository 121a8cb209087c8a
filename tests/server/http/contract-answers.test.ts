// Real answers of every operation of openapi.yaml, a success and the usual errors of each, checked
// against the contract with Ajv (contract-answers.ts): the status is declared, the body is the
// envelope with the right code and matches the declared schema, files carry their declared type.
// The success path walks a world holding every kind of entity (contract-world.ts) as its users
// would; the errors are derived from the contract for every operation (no token, a role x-roles
// leaves out, a malformed parameter or body, an id that does not exist) plus the conflicts, limits
// and refusals the server has. The test fails listing each mismatch, so the contract cannot drift.
// A server whose database cannot be reached answers every enveloped operation 503 A00005 (or a 4xx
// its input earns before any read), as declared (decision 162).
import type { InjectOptions } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { openDatabase } from '../../../src/server/db/client.ts';
import { checkAnswer, checkResponse, operationOf, operations, parametersOf } from '../support/contract-answers.ts';
import { contractWorld, type ContractWorld } from '../support/contract-world.ts';
import { TEST_PASSWORD, useTestApp } from '../support/harness.ts';
import { multipart, xlsxOf } from '../support/sheets.ts';
import { ANSWER_ALL_ROWS } from '../../../src/server/files/upload-rows.ts';
import { scan, UPC } from '../support/task-fixtures.ts';
import { markWithdrawing } from '../support/money-fixtures.ts';
import { purchasedRecords } from '../../../src/server/db/schema/tasks.ts';
import { eq } from 'drizzle-orm';

const t = useTestApp();

interface Seen {
  opId: string;
  request: string;
  status: number;
  problems: string[];
}

type Who = 'anonymous' | 'admin' | 'lowerAdmin' | 'a' | 'b' | { token: string };
type Body =
  { json: unknown } | { form: string } | { multipart: { payload: Buffer; headers: Record<string, string> } } | { raw: string | Buffer; type?: string };

function recorder(w: ContractWorld) {
  const seen: Seen[] = [];
  const failedSteps: string[] = [];
  const tokenOf = (who: Who) =>
    typeof who === 'object' ? who.token : who === 'anonymous' ? undefined : who === 'a' || who === 'b' ? w.tokens[who] : w.tokens[who];
  async function hit<T = Record<string, unknown>>(who: Who, method: string, url: string, body?: Body) {
    const token = tokenOf(who);
    const headers: Record<string, string> = token ? { 'x-token': token } : {};
    const opts: InjectOptions = { method: method as 'GET', url, headers };
    if (body && 'json' in body) opts.payload = body.json as Record<string, unknown>;
    if (body && 'form' in body) Object.assign(opts, { payload: body.form, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });
    if (body && 'multipart' in body) Object.assign(opts, { payload: body.multipart.payload, headers: { ...headers, ...body.multipart.headers } });
    if (body && 'raw' in body) Object.assign(opts, { payload: body.raw, headers: { ...headers, ...(body.type ? { 'content-type': body.type } : {}) } });
    const res = await t().app.inject(opts);
    const op = operationOf(`${method} ${url}`);
    const request = `${typeof who === 'object' ? 'session' : who} ${method} ${url.length > 140 ? `${url.slice(0, 140)}...` : url}`;
    const problems = checkResponse(`${method} ${url}`, res);
    if (res.statusCode >= 500) problems.push(`HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`);
    seen.push({ opId: op?.operationId ?? '?', request, status: res.statusCode, problems });
    let json: { code?: string; msg?: string; data?: T } = {};
    try {
      json = res.json();
    } catch {
      // a file
    }
    return { status: res.statusCode, body: json, data: json.data as T, raw: res };
  }
  /** A step of the success path: answered A00000, and succ where the answer has a status. */
  async function ok<T = Record<string, unknown>>(who: Who, method: string, url: string, body?: Body) {
    const res = await hit<T>(who, method, url, body);
    const d = res.data as { status?: string; opStatus?: string; sendStatus?: string } | undefined;
    const file = res.status === 200 && !String(res.raw.headers['content-type']).startsWith('application/json');
    const outcome = d && typeof d === 'object' && !Array.isArray(d) ? (d.opStatus ?? d.sendStatus ?? d.status) : undefined;
    if (!file && (res.body.code !== 'A00000' || outcome === 'failed'))
      failedSteps.push(`${method} ${url} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res;
  }
  return { hit, ok, seen, failedSteps };
}

const isInt = (s: { type?: unknown }) => s.type === 'integer';

describe('the answers of every operation hold to openapi.yaml', () => {
  it('a success and the usual errors of each operation match their declared status, envelope and schema', async () => {
    const { app, database } = t();
    const w = await contractWorld(app, database);
    const { hit, ok, seen, failedSteps } = recorder(w);
    const A = w.ids.a;
    const B = w.ids.b;
    const bt = w.boardTask.id;

    // --- Errors derived from the contract, for every operation ---
    const roleWho = { user: 'a', lowerAdmin: 'lowerAdmin', admin: 'admin' } as const;
    for (const op of operations) {
      const pathParams = new Map(
        parametersOf(op)
          .filter((p) => p.in === 'path')
          .map((p) => [p.name, p.schema]),
      );
      const url = (fill: (name: string, schema: { type?: unknown }) => string) =>
        op.path.replace(/\{(\w+)\}/g, (_m, name: string) => fill(name, pathParams.get(name) ?? {}));
      const sample = url((name, s) => (name === 'kind' ? 'tracking' : isInt(s) ? '1' : 'X1'));
      if (!op.roles.includes('anonymous')) await hit('anonymous', op.method, sample);
      const outsider = (['user', 'lowerAdmin', 'admin'] as const).find((r) => !op.roles.includes(r));
      if (outsider && !op.roles.includes('anonymous')) await hit(roleWho[outsider], op.method, sample);
      const who: Who = op.roles.includes('anonymous') ? 'anonymous' : op.roles.includes('user') ? 'a' : 'admin';
      if (/\{\w+\}/.test(op.path)) {
        await hit(
          who,
          op.method,
          url((name, s) => (name === 'kind' ? 'nothing' : isInt(s) ? 'abc' : 'x'.repeat(200))),
        );
        if (op.method === 'GET' || op.requestTypes.length === 0)
          await hit(
            who,
            op.method,
            url((name, s) => (name === 'kind' ? 'tracking' : isInt(s) ? '999999' : 'NO-SUCH-ID')),
          );
      }
      const required = parametersOf(op).filter((p) => p.in === 'query' && p.required);
      if (required.length) await hit(who, op.method, sample);
      if (op.requestTypes.includes('application/json')) await hit(who, op.method, sample, { json: { zzz: 1 } });
      if (op.requestTypes.includes('application/json')) await hit(who, op.method, sample, { raw: '{"a":', type: 'application/json' });
      if (op.requestTypes.includes('application/x-www-form-urlencoded')) await hit(who, op.method, sample, { form: 'zzz=1' });
      if (op.requestTypes.includes('multipart/form-data'))
        await hit(who, op.method, sample, { multipart: multipart(Buffer.from('not a workbook'), { field: 'other' }) });
    }

    // --- The success path, with the refusals met on the way ---
    // Accounts.
    await ok('anonymous', 'GET', '/ext/login/exist?mailAddr=new%40x.test');
    await hit('anonymous', 'GET', '/ext/login/exist?mailAddr=a%40x.test');
    await ok('anonymous', 'GET', `/ext/login/token/exist?token=${w.inviteToken}&type=register`);
    await hit('anonymous', 'GET', '/ext/login/token/exist?token=nope&type=change');
    await ok('anonymous', 'POST', '/ext/login/register', {
      json: { mailAddr: 'invited@x.test', pwd: 'new-pass-1', nickName: '新人', phoneNo: '13900000000', qq: '123', token: w.inviteToken },
    });
    await hit('anonymous', 'POST', '/ext/login/register', {
      json: { mailAddr: 'invited@x.test', pwd: 'new-pass-1', nickName: '  ', phoneNo: '1', qq: '1', token: w.inviteToken },
    });
    await ok('anonymous', 'POST', '/ext/login/reset', { json: { pwd: 'brand-new-1', token: w.resetToken, mailAddr: 'm@x.test' } });
    await hit('anonymous', 'POST', '/ext/login/reset', { json: { pwd: 'brand-new-2', token: w.resetToken, mailAddr: 'm@x.test' } });
    // After the reset: a newer reset mail ends the older links of the account.
    await ok('anonymous', 'POST', '/ext/login/password', { form: 'mail=m%40x.test' });
    const login = await ok<{ token: string }>('anonymous', 'POST', `/ext/login/login?mailAddr=a%40x.test&pwd=${TEST_PASSWORD}&keepflag=true`);
    await hit('anonymous', 'POST', '/ext/login/login?mailAddr=a%40x.test&pwd=wrong-password');
    await ok({ token: login.data?.token ?? 'none' }, 'POST', '/ext/login/logout');
    await hit({ token: login.data?.token ?? 'none' }, 'GET', '/api/user/info');
    // Too many failures for one address: the limit's answer.
    for (let i = 0; i < 11; i++) await hit('anonymous', 'POST', '/ext/login/login?mailAddr=ghost%40x.test&pwd=nope');
    await app.appCtx.rateLimits.clear();
    await ok('a', 'GET', '/api/user/info');
    await ok('admin', 'POST', '/api/admin/invite', { form: `mails=${encodeURIComponent('z@x.test, a@x.test, not-an-address')}` });
    await ok('lowerAdmin', 'GET', '/api/user/list');
    await ok('admin', 'GET', '/api/admin/user/list?page=0&size=20&roleType=user&isDesc=true');
    await ok('lowerAdmin', 'GET', '/api/admin/user/list?mailAddr=x.test&nickName=%E5%B0%8F');
    await ok('admin', 'POST', '/api/admin/user/update', { json: { id: w.b.user.id, groupIds: [w.groupId] } });
    await hit('admin', 'POST', '/api/admin/user/update', { json: { id: w.adminUser.id, roleType: 'user' } });
    await hit('lowerAdmin', 'POST', '/api/admin/user/update', { json: { id: w.b.user.id, roleType: 'admin' } });
    await ok('a', 'GET', '/api/user/balance');
    await ok('admin', 'GET', '/api/notice/get');
    await ok('admin', 'POST', '/api/notice/save', { json: { content: '本周六截止', isMail: false } });
    await hit('admin', 'POST', '/api/notice/save', { json: { content: 'x'.repeat(1_100_000) } });

    // Groups.
    await ok('lowerAdmin', 'GET', `/api/usergroup/${w.groupId}/info`);
    await ok('lowerAdmin', 'GET', '/api/usergroup/list');
    await ok('lowerAdmin', 'GET', `/api/usergroup/list/${w.groupId}`);
    const group = await ok<{ id: number }>('admin', 'POST', '/api/usergroup/update', { json: { groupName: '华南组', remark: '新建' } });
    await hit('admin', 'POST', '/api/usergroup/update', { json: { groupName: '华南组' } });
    const g2 = group.data?.id ?? 0;
    await ok('admin', 'POST', '/api/usergroup/update', { json: { id: g2, groupName: '华南一组', remark: '' } });
    await ok('admin', 'POST', `/api/usergroup/${g2}/user?uids=${w.b.user.id}`);
    await hit('admin', 'POST', `/api/usergroup/${g2}/user?uids=999999`);
    await ok('admin', 'DELETE', `/api/usergroup/${g2}/user?uids=${w.b.user.id}`);

    // Boards and board tasks.
    const now = Date.now();
    const board2 = await ok<{ id: number; uuid: string }>('admin', 'POST', '/api/board/info', {
      json: { boardName: '五月采购', remark: '新看板', publishAt: now - 1000, expireAt: now + 7 * 86_400_000 },
    });
    const b2 = board2.data?.id ?? 0;
    await hit('admin', 'POST', '/api/board/info', { json: { boardName: '五月采购', remark: '新看板', publishAt: now, expireAt: now - 1 } });
    await ok('admin', 'GET', `/api/board/info/${w.board.id}`);
    await ok('a', 'GET', `/api/board/infouuid/${w.board.uuid}`);
    await hit('a', 'GET', `/api/board/infouuid/${board2.data?.uuid ?? 'x'}`);
    await ok('admin', 'GET', '/api/board/list/admin?page=0&size=10');
    await ok('a', 'GET', '/api/board/list/user?page=0&size=10');
    await ok('admin', 'GET', `/api/board/${w.board.id}/userGroups`);
    await ok('admin', 'POST', `/api/board/${b2}/add?groupIds=${w.groupId},${g2}`);
    await ok('admin', 'POST', `/api/board/${b2}/remove?groupIds=${g2}`);
    await ok('admin', 'POST', `/api/boardtask/${b2}/info`, { json: { itemId: w.item.id, buyIn: 5, show: 10, price: 9.99, note: '限购' } });
    await hit('admin', 'POST', `/api/boardtask/${b2}/info`, { json: { itemId: 999999, buyIn: 5, show: 10 } });
    await ok('admin', 'POST', `/api/boardtask/publish/${b2}`);
    await ok('admin', 'POST', `/api/boardtask/publish/${b2}/users`, { json: { userIds: [w.a.user.id] } });
    await ok('admin', 'POST', `/api/boardtask/backup/publish/${b2}`);
    await ok('a', 'GET', `/api/boardtask/${w.board.id}/info/${bt}`);
    await ok('admin', 'GET', `/api/boardtask/${w.board.id}/info/${bt}`);
    await ok('admin', 'GET', `/api/boardtask/${bt}/users`);
    await ok('admin', 'GET', `/api/boardtask/${w.board.id}/list`);
    await ok('a', 'GET', `/api/boardtask/${bt}/status`);
    await ok('a', 'GET', `/api/boardtask/uuid/${w.board.uuid}/list`);
    await ok('admin', 'GET', `/api/boardtask/uuid/${w.board.uuid}/list`);
    await ok('a', 'GET', `/api/boardtask/list/boards?boardId=${w.board.id}&boardId=${b2}`);
    await ok('admin', 'GET', `/api/boardtask/list/boards?boardId=${w.board.id}&boardId=${b2}`);

    // Items.
    await ok('a', 'GET', '/api/item/list');
    await ok('admin', 'GET', '/api/item/page?page=0&size=10&productIdLike=P&status=open');
    await ok('a', 'GET', '/api/item/info/like/Air');
    await ok('a', 'GET', `/api/item/info/${w.item.id}`);
    await ok('admin', 'POST', '/api/item/info', {
      json: { itemName: 'Switch Lite', status: 'open', productId: 'P-9', upc: '045496882648', url: 'nintendo.com', price: 199.99 },
    });
    await ok('admin', 'POST', '/api/item/info', { json: { id: w.item2.id, itemName: 'Switch Pro', status: 'open', productId: 'P-2', price: null } });

    // Tasks.
    await ok('admin', 'GET', `/api/task/info/admin/list/${bt}`);
    await ok('admin', 'GET', '/api/task/list/page?taskStatus=open&page=0&size=20');
    await ok('admin', 'GET', `/api/task/list/page?userId=${w.a.user.id}&itemName=Air&trackingId=PAY`);
    await ok('a', 'GET', '/api/task/info/user/list?page=0&size=20');
    await ok('a', 'GET', '/api/task/info/user/list?recorded=true');
    await ok('a', 'GET', `/api/task/info/user/board/list?boardUuid=${w.board.uuid}`);
    await ok('a', 'GET', `/api/task/apply/exist?taskIds=${A.lockedTask},${A.appliedTask}`);
    await ok('a', 'GET', `/api/task/part/match?taskIds=${A.openTask}`);
    await ok('a', 'POST', `/api/task/${bt}/user/create/1`);
    await hit('a', 'POST', `/api/task/${bt}/user/create/100000`);
    await hit('a', 'POST', `/api/task/${bt}/user/create/0`);
    await ok('a', 'POST', `/api/task/${bt}/user/create/1/label/2`, { json: { isHome: true, state: 'CA', zipCode: '94016' } });
    await ok('a', 'DELETE', `/api/task/info/user/${A.bareTask}`);
    await hit('a', 'DELETE', `/api/task/info/user/${B.bareTask}`);
    await ok('admin', 'POST', `/api/task/accept/${w.pending.id}`);
    await hit('admin', 'POST', `/api/task/accept/${w.pending.id}`);
    const pendingB = await ok<{ task: { id: number } }>('b', 'POST', `/api/task/${w.closedBoardTask.id}/user/create/1`);
    await ok('admin', 'POST', `/api/task/reject/${pendingB.data?.task.id ?? 0}`);
    await ok('a', 'GET', `/api/task/info/${A.openTask}`);
    await hit('a', 'GET', `/api/task/info/${B.openTask}`);
    await ok('admin', 'GET', `/api/task/info/${B.openTask}`);
    await ok('admin', 'POST', '/api/task/info', { json: { id: A.openTask, count: 3, bonus: 1.5, punish: 0.5 } });
    await hit('admin', 'POST', '/api/task/info', { json: { id: A.openTask } });
    await ok('a', 'POST', `/api/task/info/user/${A.openTask}/qty/4`);
    await ok('a', 'POST', `/api/task/info/user/${A.openTask}/qty/4/label/1`);
    await hit('a', 'POST', `/api/task/info/user/${A.lockedTask}/qty/9`);
    // A task with some units arrived splits.
    const splitTask = await ok<{ task: { id: number } }>('a', 'POST', `/api/task/${bt}/user/create/2`);
    const sid = splitTask.data?.task.id ?? 0;
    await ok('a', 'POST', `/api/purchased/user/${sid}/create`, { json: { trackingId: 'SPLIT-1', productCount: 2 } });
    await scan(database, 'SPLIT-1', UPC, 1);
    await ok('admin', 'POST', '/api/match/admin/tracking/match', { json: { trackingId: 'SPLIT-1' } });
    await ok('a', 'GET', `/api/task/part/match?taskIds=${sid}`);
    await ok('a', 'POST', `/api/task/user/split?taskId=${sid}`);
    await hit('a', 'POST', `/api/task/user/split?taskId=${A.bareTask}`);
    // Records pasted at once, and a partly arrived task paid for in one step.
    const arrivedTask = await ok<{ task: { id: number } }>('a', 'POST', `/api/task/${bt}/user/create/2`);
    const aid = arrivedTask.data?.task.id ?? 0;
    await ok('a', 'POST', `/api/purchased/user/${aid}/bulk`, { json: { text: 'ARRIVED-1\t2' } });
    await hit('a', 'POST', `/api/purchased/user/${aid}/bulk`, { json: { text: 'ARRIVED-1 2\nARRIVED-2 x' } });
    await hit('a', 'POST', `/api/purchased/user/${B.openTask}/bulk`, { json: { text: 'ARRIVED-3' } });
    await scan(database, 'ARRIVED-1', UPC, 1);
    await ok('admin', 'POST', '/api/match/admin/tracking/match', { json: { trackingId: 'ARRIVED-1' } });
    await ok('a', 'POST', '/api/trade/user/pay/apply-arrived', { json: { taskId: aid, bonus: 1, note: '到货部分' } });
    await hit('a', 'POST', '/api/trade/user/pay/apply-arrived', { json: { taskId: aid } });

    // Purchased records and matching.
    const rec = await ok<{ purchasedItems: { id: number; trackingId: string }[] }>('a', 'POST', `/api/purchased/user/${A.openTask}/create`, {
      json: { trackingId: 'NEW-REC-1', productCount: 1 },
    });
    await hit('a', 'POST', `/api/purchased/user/${A.openTask}/create`, { json: { trackingId: '  ' } });
    const newRec = rec.data?.purchasedItems.find((r) => r.trackingId === 'NEWREC1')?.id ?? 0;
    await ok('a', 'POST', '/api/purchased/user/update', { json: { id: newRec, trackingId: 'NEW-REC-2', productCount: 1 } });
    await ok('a', 'GET', `/api/purchased/${A.openTask}/taskTracking`);
    await ok('admin', 'GET', `/api/purchased/${A.openTask}/taskTracking`);
    await ok('a', 'POST', '/api/purchased/user/remove', { json: { id: newRec } });
    await hit('a', 'POST', '/api/purchased/user/remove', { json: { id: B.record } });
    await ok('a', 'POST', '/api/match/user/tracking/match', { json: { trackingId: A.recordTracking } });
    await ok('admin', 'POST', '/api/match/admin/tracking/match', { json: { trackingId: A.recordTracking } });
    await ok('a', 'POST', '/api/match/user/task/match', { json: { taskId: A.openTask } });
    await ok('admin', 'POST', '/api/match/admin/task/match', { json: { taskId: A.openTask } });
    // A parcel both members record, one unit arrived: contested (decision 096), listed and assigned.
    const contestA = await ok<{ task: { id: number } }>('a', 'POST', `/api/task/${bt}/user/create/1`);
    const contestB = await ok<{ task: { id: number } }>('b', 'POST', `/api/task/${bt}/user/create/1`);
    await ok('a', 'POST', `/api/purchased/user/${contestA.data?.task.id ?? 0}/create`, { json: { trackingId: 'CONTEST1', productCount: 1 } });
    await ok('b', 'POST', `/api/purchased/user/${contestB.data?.task.id ?? 0}/create`, { json: { trackingId: 'CONTEST1', productCount: 1 } });
    await scan(database, 'CONTEST1', UPC, 1);
    await ok('admin', 'POST', '/api/match/admin/tracking/match', { json: { trackingId: 'CONTEST1' } });
    const contested = await ok<{ trackingId: string; records: { recordId: number; settled: boolean }[] }[]>('admin', 'GET', '/api/match/admin/contested');
    const waiting = (contested.data ?? []).find((p) => p.trackingId === 'CONTEST1')?.records.filter((r) => !r.settled) ?? [];
    await ok('admin', 'POST', '/api/match/admin/contested/assign', {
      json: { trackingId: 'CONTEST1', upc: UPC, records: waiting.map((r, i) => ({ recordId: r.recordId, count: i === 0 ? 1 : 0 })) },
    });
    await hit('admin', 'POST', '/api/match/admin/contested/assign', { json: { trackingId: 'CONTEST1', upc: UPC, records: [] } });
    // Missing parcels (decision 077): a record set back past the setting's days, listed, reported lost, listed for the admins.
    const missingTask = await ok<{ task: { id: number } }>('a', 'POST', `/api/task/${bt}/user/create/1`);
    await ok('a', 'POST', `/api/purchased/user/${missingTask.data?.task.id ?? 0}/create`, { json: { trackingId: 'MISSING1', productCount: 1 } });
    const [gone] = await database.db
      .update(purchasedRecords)
      .set({ createdAt: new Date(Date.now() - 30 * 86_400_000) })
      .where(eq(purchasedRecords.trackingId, 'MISSING1'))
      .returning();
    await ok('a', 'GET', '/api/purchased/user/missing?page=0&size=20');
    await ok('a', 'POST', '/api/purchased/user/missing/report', { json: { id: gone?.id ?? 0, note: '卖家已补发', lost: true } });
    await hit('a', 'POST', '/api/purchased/user/missing/report', { json: { id: A.record, lost: true } });
    await ok('lowerAdmin', 'GET', `/api/admin/purchased/missing?state=lost&userId=${w.a.user.id}&trackingId=missing`);
    // Unknown parcels (decision 169): one scanned that nobody recorded, listed masked, claimed, listed for the admins, undone.
    await ok('admin', 'POST', '/api/scan/admin/tracking/UNKNOWN-PARCEL-1/create', { json: { items: [{ upc: UPC, count: 1, itemId: w.item.id }] } });
    const claimTask = await ok<{ task: { id: number } }>('a', 'POST', `/api/task/${bt}/user/create/1`);
    await ok('a', 'GET', '/api/purchased/user/unknown?page=0&size=20');
    await hit('a', 'POST', '/api/purchased/user/unknown/claim', { json: { taskId: claimTask.data?.task.id ?? 0, trackingId: 'NOT-A-PARCEL' } });
    await ok('a', 'POST', '/api/purchased/user/unknown/claim', { json: { taskId: claimTask.data?.task.id ?? 0, trackingId: 'unknown-parcel-1' } });
    const claims = await ok<{ content: { id: number }[] }>('lowerAdmin', 'GET', `/api/admin/purchased/claims?userId=${w.a.user.id}&trackingId=unknown`);
    await ok('admin', 'POST', '/api/admin/purchased/claims/undo', { json: { id: claims.data?.content[0]?.id ?? 0 } });
    await hit('admin', 'POST', '/api/admin/purchased/claims/undo', { json: { id: A.record } });

    // Scans, audits, statistics.
    await ok('admin', 'GET', '/api/scan/admin/tracking/list?page=0&size=20&status=scan&startTime=2020-01-01&endTime=2099-12-31&timezone=8');
    await ok('admin', 'GET', `/api/scan/admin/tracking/${encodeURIComponent(w.scanned.trackingId)}/list`);
    await ok('admin', 'GET', '/api/scan/admin/tracking/UNSEEN-1/list');
    await ok('admin', 'POST', '/api/scan/admin/tracking/NEW-PARCEL-1/create', { json: { items: [{ upc: UPC, count: 1, itemId: w.item.id }] } });
    await hit('admin', 'POST', '/api/scan/admin/tracking/NEW-PARCEL-2/create', { json: { items: [{ upc: UPC, count: 1 }] } });
    await hit('admin', 'POST', '/api/scan/admin/tracking/NEW-PARCEL-1/add', { json: { itemId: w.item.id, count: 1 } });
    await ok('lowerAdmin', 'POST', '/api/scan/admin/tracking/NEW-PARCEL-3/add', { json: { itemId: w.item.id, count: 1 } });
    await ok('admin', 'POST', `/api/scan/admin/tracking/${w.scanned.id}/modify`, { json: { count: 2 } });
    await hit('admin', 'POST', '/api/scan/admin/tracking/999999/modify', { json: { count: 2 } });
    await ok('admin', 'GET', '/api/statistics/admin/task/amount/list?page=0&size=20&isAsc=true&orderItem=2&startTime=2020-01-01&endTime=2099-12-31');
    await ok('admin', 'GET', '/api/audit/tracking/list?page=0&size=20');
    await ok('admin', 'GET', `/api/audit/task/list?userId=${w.a.user.id}`);

    // Payments.
    await ok('a', 'GET', '/api/apply/list/page?page=0&size=20');
    await ok('admin', 'GET', `/api/apply/list/page?status=applied&userId=${w.a.user.id}`);
    const applied2 = await ok<{ paymentApply: { id: number } }>('a', 'POST', '/api/trade/user/pay/apply', {
      json: { taskId: A.lockedTask, bonus: 1, note: '辛苦' },
    });
    await hit('a', 'POST', '/api/trade/user/pay/apply', { json: { taskId: A.lockedTask } });
    await hit('a', 'POST', '/api/trade/user/pay/apply', { json: { taskId: B.lockedTask } });
    await ok('admin', 'POST', '/api/trade/admin/pay/agree', { json: { paymentApplyId: A.applied, bonus: 2 } });
    await hit('admin', 'POST', '/api/trade/admin/pay/agree', { json: { paymentApplyId: A.applied } });
    await markWithdrawing(database, w.a.actor, [A.applied]);
    await ok('admin', 'POST', '/api/trade/admin/pay/confirm', { json: { paymentApplyId: A.applied } });
    await ok('a', 'POST', '/api/trade/user/collect/confirm', { json: { paymentApplyId: A.applied } });
    await hit('a', 'POST', '/api/trade/user/collect/confirm', { json: { paymentApplyId: A.applied } });
    await ok('a', 'GET', '/api/user/balance');

    // Cards and withdrawals.
    await ok('a', 'GET', '/api/apply/user/withdraw');
    await ok('a', 'GET', '/api/withdraw/user/show/cards');
    const card = await ok<{ card: { id: number } }>('a', 'POST', '/api/withdraw/user/bind/card', {
      json: {
        paymentType: 'Wire',
        accountName: 'Ann Lee',
        cardNo: '6222000011112222',
        routingNumber: '021000021',
        bankInfo: 'Chase',
        cardType: 'debit',
        address: '1 Main St',
      },
    });
    await ok('a', 'POST', '/api/withdraw/user/unbind/card', { json: { cardId: card.data?.card.id ?? 0 } });
    await hit('a', 'POST', '/api/withdraw/user/unbind/card', { json: { cardId: B.card } });
    const order = await ok<{ orderId: number }>('a', 'POST', '/api/withdraw/user/request', {
      json: { requests: [{ cardId: A.card, withdrawAmount: 3, userNote: '谢谢' }], taskIds: [A.agreedTask] },
    });
    await hit('a', 'POST', '/api/withdraw/user/request', { json: { requests: [{ cardId: A.card, withdrawAmount: 5 }], taskIds: [A.agreedTask] } });
    const o3 = order.data?.orderId ?? 0;
    await ok('a', 'GET', '/api/withdraw/user/requests?page=0&size=20&status=waited');
    await ok('a', 'GET', `/api/withdraw/user/request/orders?orderId=${o3}`);
    await ok('a', 'POST', '/api/withdraw/user/cancel/order', { json: { orderId: o3 } });
    await ok('admin', 'POST', '/api/withdraw/admin/agree/cancel', { json: { orderId: o3 } });
    await hit('admin', 'POST', '/api/withdraw/admin/agree/cancel', { json: { orderId: o3 } });
    await ok('b', 'POST', '/api/withdraw/user/cancel/order', { json: { orderId: B.order } });
    await ok('admin', 'POST', '/api/withdraw/admin/reject/cancel', { json: { orderId: B.order } });
    await ok('b', 'POST', '/api/withdraw/user/change/card', { json: { requestId: B.line, cardId: B.spareCard } });
    await hit('b', 'POST', '/api/withdraw/user/change/card', { json: { requestId: B.line, cardId: A.card } });
    await ok('admin', 'POST', '/api/withdraw/admin/adminnote/save', { json: { requestId: B.line, adminNote: '已核对', adminNote2: '2026-11-25' } });
    await ok('admin', 'GET', `/api/withdraw/admin/requests?page=0&size=20&userId=${w.b.user.id}`);
    await ok('admin', 'POST', '/api/withdraw/admin/paid', { json: { id: B.line } });
    await hit('admin', 'POST', '/api/withdraw/admin/paid', { json: { id: B.line } });
    await ok('a', 'POST', '/api/withdraw/user/paid/request', { json: { id: A.line } });
    // The confirm upload pays a waited line.
    const again = await ok<{ orderId: number }>('a', 'POST', '/api/withdraw/user/request', {
      json: { requests: [{ cardId: A.spareCard, withdrawAmount: 3 }], taskIds: [A.agreedTask] },
    });
    const lines = await ok<{ requestOrders: { content: { id: number; orderId: number }[] } }>(
      'a',
      'GET',
      `/api/withdraw/user/request/orders?orderId=${again.data?.orderId ?? 0}`,
    );
    const line = lines.data?.requestOrders.content[0];
    const confirmFile = xlsxOf(
      [
        ['提现ID', '订单号', '金额'],
        [line?.id ?? 0, line?.orderId ?? 0, 3],
      ],
      '提现记录',
    );
    await ok('admin', 'POST', '/api/withdraw/admin/confirm', { multipart: multipart(confirmFile) });
    await hit('admin', 'POST', '/api/withdraw/admin/confirm', { multipart: multipart(Buffer.alloc(11 * 1024 * 1024, 0x41)) });
    // The admin's payouts: a second application of a, agreed and withdrawn, its card revealed, its
    // payment file downloaded, paid in bulk; then the admin home.
    const agreed2 = await ok<{ paymentApply: { income: number } }>('admin', 'POST', '/api/trade/admin/pay/agree', {
      json: { paymentApplyId: applied2.data?.paymentApply.id ?? 0 },
    });
    const order2 = await ok<{ orderId: number }>('a', 'POST', '/api/withdraw/user/request', {
      json: { requests: [{ cardId: A.card, withdrawAmount: agreed2.data?.paymentApply.income ?? 0 }], taskIds: [A.lockedTask] },
    });
    const lines2 = await ok<{ requestOrders: { content: { id: number }[] } }>(
      'a',
      'GET',
      `/api/withdraw/user/request/orders?orderId=${order2.data?.orderId ?? 0}`,
    );
    const line2 = lines2.data?.requestOrders.content[0]?.id ?? 0;
    await ok('admin', 'POST', '/api/withdraw/admin/card/reveal', { json: { id: line2 } });
    await ok('admin', 'GET', '/api/audit/payout/list?page=0&size=20&action=reveal');
    const payFile = await ok<{ token: string }>('admin', 'POST', '/api/withdraw/admin/payment-file/token', { json: { ids: [line2], timezone: 8 } });
    await ok('anonymous', 'GET', `/ext/excel/withdraw-payment/${payFile.data?.token ?? 'none'}`);
    await hit('admin', 'POST', '/api/withdraw/admin/payment-file/token', { json: { userId: w.b.user.id } });
    await ok('admin', 'POST', '/api/withdraw/admin/paid/batch', { json: { ids: [line2] } });
    await hit('admin', 'POST', '/api/withdraw/admin/paid/batch', { json: { ids: [line2, 999999] } });
    await ok('admin', 'GET', '/api/home/admin?timezone=8');
    await ok('lowerAdmin', 'GET', '/api/home/admin');
    await ok('a', 'GET', '/api/home/user');
    await ok('b', 'GET', `/api/home/user?since=${Date.now() - 3_600_000}`);
    await ok('a', 'GET', `/api/apply/list/page?orderId=${order2.data?.orderId ?? 0}`);
    await ok('lowerAdmin', 'GET', '/api/task/list/page?notArrived=true');

    // Uploads.
    const tracking = xlsxOf(
      [
        ['快递单号', 'UPC', '商品ID', '商品名称', '快递公司', '数量'],
        ['UP-1', UPC, null, null, 'UPS', 2],
      ],
      '扫描记录',
    );
    await ok('admin', 'POST', '/api/scan/admin/excel/upload/import', { multipart: multipart(tracking) });
    await ok('admin', 'POST', '/api/scan/admin/excel/upload/update', { multipart: multipart(tracking) });
    await ok('lowerAdmin', 'POST', '/api/scan/admin/excel/upload/confirm', { multipart: multipart(tracking) });
    const purchased = xlsxOf([
      ['任务ID', '商品ID', '商品名称', '快递单号', '快递公司', '数量'],
      [A.openTask, null, null, 'UP-2', 'UPS', 1],
    ]);
    await ok('a', 'POST', '/api/purchased/user/excel/upload/import', { multipart: multipart(purchased) });
    await ok('a', 'POST', '/api/purchased/user/excel/upload/update', { multipart: multipart(purchased) });
    await hit('a', 'POST', '/api/purchased/user/excel/upload/import', { multipart: multipart(Buffer.from('not a workbook')) });
    // A file over ANSWER_ALL_ROWS answers the rows that need attention; its fine rows are paged (decision 172).
    const large = xlsxOf(
      [
        ['快递单号', 'UPC', '商品ID', '商品名称', '快递公司', '数量'],
        ...Array.from({ length: ANSWER_ALL_ROWS + 1 }, (_, i) => [`UP-L${i}`, UPC, null, null, 'UPS', 1]),
      ],
      '扫描记录',
    );
    const bounded = await ok<{ resultId?: string }>('admin', 'POST', '/api/scan/admin/excel/upload/import', { multipart: multipart(large) });
    await ok('admin', 'GET', `/api/upload/result/${bounded.data?.resultId ?? 'none'}?page=1&size=20`);
    await hit('lowerAdmin', 'GET', `/api/upload/result/${bounded.data?.resultId ?? 'none'}?page=0`);

    // Downloads: a token, then the file it opens.
    const pdf = await ok<{ token: string }>('a', 'GET', `/api/download/pdf/${A.openTask}/token`);
    await ok('anonymous', 'GET', `/ext/pdf/${A.openTask}/${pdf.data?.token ?? 'x'}`);
    await hit('anonymous', 'GET', `/ext/pdf/${A.openTask}/${pdf.data?.token ?? 'x'}x`);
    const excel = async (who: Who, kind: string, query: string, link: (token: string) => string) => {
      const tok = await ok<{ token: string }>(who, 'GET', `/api/download/excel/${kind}/token${query}`);
      await ok('anonymous', 'GET', link(tok.data?.token ?? 'none'));
    };
    await excel('a', 'withdraw', '?timezone=8', (tk) => `/ext/excel/withdraw/${tk}`);
    await excel('admin', 'withdraw', '', (tk) => `/ext/excel/withdraw/${tk}?status=paid&userId=${w.b.user.id}`);
    await excel('a', 'user-task', '?taskStatus=open', (tk) => `/ext/excel/user-task/${tk}`);
    await excel('admin', 'tracking', '?status=scan', (tk) => `/ext/excel/tracking/${tk}`);
    await excel('lowerAdmin', 'board', `?boardId=${w.board.id}`, (tk) => `/ext/excel/board/${tk}?boardId=${w.board.id}`);
    await excel('admin', 'task-amount', '?startTime=2020-01-01&endTime=2099-12-31', (tk) => `/ext/excel/task-amount/${tk}?userIds=${w.a.user.id}&orderItem=2`);
    await hit('admin', 'GET', '/api/download/excel/board/token');
    await ok('anonymous', 'GET', '/ext/excel/template/purchased');
    await ok('anonymous', 'GET', '/ext/excel/template/tracking');
    await t().outbox.drain();

    // The live stream stays open: its head is checked and its first message read, then it is closed
    // (its messages are checked in tests/server/live).
    const abort = new AbortController();
    const stream = await t().app.inject({ method: 'GET', url: '/api/events', headers: { 'x-token': w.tokens.a }, payloadAsStream: true, signal: abort.signal });
    const first = await new Promise<string>((resolve) => stream.stream().once('data', (d: Buffer) => resolve(String(d))));
    abort.abort();
    seen.push({
      opId: 'streamEvents',
      request: 'a GET /api/events',
      status: stream.statusCode,
      problems: [
        ...checkAnswer('streamEvents', { statusCode: stream.statusCode, headers: stream.headers, body: '' }),
        ...(first.startsWith('event: ready\n') ? [] : [`first message: ${first}`]),
      ],
    });

    // --- The probes (tag ops): their own JSON, outside the envelope, with or without a session ---
    await hit('anonymous', 'GET', '/healthz');
    await hit('a', 'GET', '/healthz');
    await hit('anonymous', 'GET', '/readyz');
    await hit('admin', 'GET', '/readyz?x=1');

    // --- What the server answered, against the contract ---
    const problems = seen.filter((s) => s.problems.length).map((s) => `${s.request} -> ${s.status}: ${s.problems.join('; ')}`);
    const missing: string[] = [];
    for (const op of operations) {
      const mine = seen.filter((s) => s.opId === op.operationId);
      if (!mine.some((s) => s.status === 200)) missing.push(`${op.operationId}: no success answer was checked`);
      // An anonymous operation without parameters (a template) has no error to give.
      const canFail = !op.roles.includes('anonymous') || parametersOf(op).length > 0 || op.requestTypes.length > 0;
      if (canFail && !mine.some((s) => s.status >= 400 && s.status < 500)) missing.push(`${op.operationId}: no error answer was checked`);
    }
    console.log(`contract answers: ${seen.length} answers of ${operations.length} operations checked`);
    expect({ failedSteps, problems, missing }).toEqual({ failedSteps: [], problems: [], missing: [] });
  }, 180_000);

  it('a server whose database cannot be reached answers 503 A00005 as declared, never 500', async () => {
    const { config, mailer, outbox } = t();
    // A PostgreSQL server nobody listens for (port 1): every connection is refused, as in a network cut.
    const gone = await openDatabase({ url: 'postgres://root@127.0.0.1:1/gone', migrated: true });
    const app = await buildApp({ db: gone.db, config, mailer, outbox, logger: pino({ level: 'silent' }) });
    const problems: string[] = [];
    const unavailable = new Set<string>();
    try {
      for (const op of operations.filter((o) => o.enveloped && o.operationId !== 'streamEvents')) {
        const url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'kind' ? 'tracking' : '1'));
        // A token the server has not seen: the session is read from the database.
        const res = await app.inject({ method: op.method as 'GET', url, headers: { 'x-token': 'not-cached-session-token' } });
        const found = checkResponse(`${op.method} ${url}`, res);
        if (res.statusCode === 503) {
          const body = res.json<{ code: string; msg: string }>();
          if (body.code === 'A00005' && body.msg === '数据库暂时不可用，请稍后重试') unavailable.add(op.operationId);
          else found.push(`503 ${res.body}`);
        } else if (res.statusCode >= 500) found.push(`HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`);
        if (found.length) problems.push(`${op.method} ${url} -> ${res.statusCode}: ${found.join('; ')}`);
      }
    } finally {
      await app.close();
      await gone.close();
    }
    expect(problems).toEqual([]);
    // Every operation that takes a session reads it from the database first.
    const withSession = operations.filter((o) => o.enveloped && !o.roles.includes('anonymous') && o.operationId !== 'streamEvents').map((o) => o.operationId);
    expect(withSession.filter((id) => !unavailable.has(id))).toEqual([]);
  }, 60_000);
});
