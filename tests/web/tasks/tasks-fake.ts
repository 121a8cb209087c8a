// A fake of the HTTP boundary of the member's task screens, for app-harness's renderApp: routes
// (support/fake-api.ts) answering the calls of /user/my-task, the task record dialog, the edit-count
// dialog and /user/upload the way openapi.yaml describes them (envelopes, field names, status
// codes), on a small in-memory state, with a log of the calls. Task changes go through the task machine as the server's applyTaskEvent
// does, so a refused event is A00001 with the machine's words. Tests replace single answers through
// `answer`. Only the web app is under test here; the real server is proven by tests/server.
import { decide } from '../../../machines/stored-state';
import { decideApplyForArrived, explainTaskRefusal, taskMachine, type MatchOutcome, type TaskEvent } from '../../../machines/task.machine';
import { parsePurchasedLines } from '../../../machines/purchased-record';
import type { components } from '../../../src/api/schema';
import { createFakeServer, notFound, ok, pageOf, refuse, type Call, type FakeServer, type Routes } from '../support/fake-api';

export { refuse, type Call };

type Schemas = components['schemas'];
export type Task = Schemas['Task'];
export type PurchasedItem = Schemas['PurchasedItem'];
export type UploadResult = Schemas['UploadResult'];
export type UploadResultRow = Schemas['UploadResultRow'];
export type BoardTask = Schemas['BoardTask'];

export const NOW = Date.UTC(2026, 10, 20, 8, 0);

export function aTask(over: Partial<Task> = {}): Task {
  return {
    id: 100,
    mainId: 100,
    subId: 0,
    boardId: 1,
    boardUuid: 'b-1',
    boardName: '十一月采购',
    boardTaskId: 12,
    userId: 3,
    itemId: 5,
    itemName: '蓝牙耳机',
    url: 'https://shop.example.com/p/5',
    price: 19.99,
    buyIn: 21.5,
    bonus: 1,
    punish: 0.5,
    count: 2,
    productCount: 0,
    status: 'open',
    isHome: false,
    state: '',
    zipCode: '',
    labelCount: 0,
    upc: '0123456789012',
    canSplit: false,
    trackingId: '',
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

export function aRecord(over: Partial<PurchasedItem> = {}): PurchasedItem {
  return { id: 1, taskId: 100, trackingId: '1Z999', productCount: 1, status: 'init', msg: '', ...over };
}

export function aBoardTask(over: Partial<BoardTask> = {}): BoardTask {
  const bt: Omit<BoardTask, 'remaining'> = {
    id: 12,
    boardId: 1,
    itemId: 5,
    itemName: '蓝牙耳机',
    upc: '0123456789012',
    url: 'https://shop.example.com/p/5',
    price: 19.99,
    buyIn: 21.5,
    show: 10,
    claimCount: 4,
    address: 'NJ-01',
    status: 'normal',
    note: '',
    itemSource: 'amazon',
    createdAt: NOW,
    ...over,
  };
  // remaining follows show and claimCount as the server's does, unless the test sets it.
  return { ...bt, remaining: over.remaining ?? Math.max(0, bt.show - bt.claimCount) };
}

type AnswerKey = 'list' | 'delete' | 'split' | 'match' | 'qty' | 'create' | 'bulk' | 'update' | 'remove' | 'import' | 'updateExcel' | 'excelToken' | 'pdfToken';

export interface TasksFake {
  handlers: Routes;
  /** Shared with the caller (the board page's fake lists the same array). */
  tasks: Task[];
  records: PurchasedItem[];
  boardTasks: BoardTask[];
  calls: Call[];
  /** What the next match decides (the server compares parcels and records). */
  matchOutcome: MatchOutcome;
  /** The answer of an upload. */
  uploadResult: UploadResult;
  /** The fine rows the server keeps for a large upload's answer (resultId 'r-1'; any other id has expired). */
  fineRows: UploadResultRow[];
  /** Replace one kind of answer (a refusal, say). */
  answer: FakeServer<AnswerKey>['answer'];
  /** Tasks that have a payment application (checkTaskApplyExists). */
  appliedTaskIds: Set<number>;
}

/** Ids given to split siblings. */
const SIBLING_IDS = [9001, 9002, 9003];

export function createTasksFake(seed: { tasks?: Task[]; records?: PurchasedItem[]; boardTasks?: BoardTask[] } = {}): TasksFake {
  const http = createFakeServer<AnswerKey>();
  const server: TasksFake = {
    handlers: http.handlers,
    tasks: seed.tasks ?? [aTask()],
    records: seed.records ?? [],
    boardTasks: seed.boardTasks ?? [aBoardTask()],
    calls: http.calls,
    matchOutcome: 'open',
    uploadResult: { rows: [], succ: 0, skip: 0, error: 0 },
    fineRows: [],
    answer: http.answer,
    appliedTaskIds: new Set(),
  };
  let nextSibling = 0;
  let nextRecordId = 500;

  const taskOf = (id: string | number | undefined) => server.tasks.find((t) => t.id === Number(id) && t.status !== 'deleted');
  const noTask = () => notFound('任务不存在');
  const recordsOf = (taskId: number) => server.records.filter((r) => r.taskId === taskId);

  /** The task machine, as the server applies it. */
  function apply(task: Task, event: TaskEvent): { ok: true } | { ok: false; response: Response } {
    const decision = decide(taskMachine, task.status, { productCount: task.productCount, canSplit: task.canSplit }, event, explainTaskRefusal);
    if (!decision.ok) return { ok: false, response: refuse(decision.msg) };
    task.status = decision.next;
    return { ok: true };
  }

  http.on(
    'GET',
    '/api/task/info/user/list',
    ({ query }, request) => {
      // taskStatus may repeat: the tasks in any of the statuses.
      const statuses = new URL(request.url).searchParams.getAll('taskStatus');
      const matching = server.tasks.filter(
        (t) =>
          (statuses.length === 0 || statuses.includes(t.status)) &&
          (!query.itemName || t.itemName.includes(query.itemName)) &&
          (!query.trackingId || t.trackingId.split(',').includes(query.trackingId)) &&
          (!query.taskId || t.id === Number(query.taskId) || t.mainId === Number(query.taskId)),
      );
      // As the server orders them: isDesc, newest first (created, then id).
      if (query.isDesc === 'true') matching.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
      return ok(pageOf(matching, query));
    },
    'list',
  );

  http.on(
    'POST',
    '/api/task/user/split',
    ({ query }) => {
      const task = taskOf(query.taskId);
      if (!task) return noTask();
      const applied = apply(task, { type: 'task.split' });
      if (!applied.ok) return applied.response;
      const id = SIBLING_IDS[nextSibling++]!;
      const sibling = { ...task, id, subId: task.subId + nextSibling, count: task.productCount, status: 'locked' as const, canSplit: false };
      task.count -= task.productCount;
      task.productCount = 0;
      task.canSplit = false;
      task.status = 'open';
      server.tasks.push(sibling);
      return ok({ status: 'succ', msg: '拆分成功', tasks: [task, sibling] });
    },
    'split',
  );

  http.on(
    'POST',
    '/api/match/user/task/match',
    ({ body }) => {
      const task = taskOf((body as { taskId: number }).taskId);
      if (!task) return noTask();
      const applied = apply(task, { type: 'task.match', outcome: server.matchOutcome });
      if (!applied.ok) return applied.response;
      return ok({ opStatus: 'succ', msg: '匹配完成', tasks: [task] });
    },
    'match',
  );

  http.on('GET', '/api/task/apply/exist', ({ query }) => {
    const ids = (query.taskIds ?? '').split(',').map(Number);
    return ok({ applyRecords: Object.fromEntries(ids.map((id) => [String(id), server.appliedTaskIds.has(id)])) });
  });

  http.on('POST', '/api/trade/user/pay/apply', async ({ body }) => {
    const { taskId } = body as { taskId: number };
    const task = taskOf(taskId);
    if (!task) return noTask();
    if (server.appliedTaskIds.has(task.id)) return ok({ status: 'failed', msg: '该任务已申请付款' });
    const applied = apply(task, { type: 'task.apply' });
    if (!applied.ok) return applied.response;
    server.appliedTaskIds.add(task.id);
    return ok({ status: 'succ', msg: '申请成功' });
  });

  // Paying for what arrived (decision 053): the arrived units split off into a sub-task, applied for.
  http.on('POST', '/api/trade/user/pay/apply-arrived', ({ body }) => {
    const task = taskOf((body as { taskId: number }).taskId);
    if (!task) return noTask();
    if (server.appliedTaskIds.has(task.id)) return ok({ status: 'failed', msg: '该任务已申请付款' });
    const decision = decideApplyForArrived(task);
    if (!decision.ok) return refuse(decision.msg);
    const id = SIBLING_IDS[nextSibling++]!;
    const sub = { ...task, id, subId: task.subId + nextSibling, count: task.productCount, punish: 0, status: 'processing' as const, canSplit: false };
    Object.assign(task, { count: task.count - task.productCount, productCount: 0, canSplit: false, status: 'open' });
    server.tasks.push(sub);
    server.appliedTaskIds.add(sub.id);
    return ok({ status: 'succ', msg: '申请成功', tasks: [task, sub] });
  });

  http.on('GET', '/api/task/part/match', ({ query }) => {
    const ids = (query.taskIds ?? '').split(',').map(Number);
    return ok(
      server.tasks
        .filter((t) => ids.includes(t.id))
        .map((t) => {
          const records = recordsOf(t.id);
          return {
            taskId: t.id,
            count: t.count,
            productCount: t.productCount,
            canSplit: t.canSplit,
            status: t.status,
            recordedCount: records.reduce((sum, r) => sum + r.productCount, 0),
            arrivedCount: t.productCount,
            records: records.map((r) => ({ id: r.id, trackingId: r.trackingId, productCount: r.productCount, arrived: 0, status: r.status, msg: r.msg })),
          };
        }),
    );
  });

  http.on(
    'POST',
    '/api/purchased/user/update',
    ({ body }) => {
      const values = body as { id: number; trackingId: string; productCount: number };
      const record = server.records.find((r) => r.id === values.id);
      if (!record) return notFound('记录不存在');
      if (record.status === 'match') return refuse('已匹配的记录不能修改');
      record.trackingId = values.trackingId;
      record.productCount = values.productCount;
      return ok({ status: 'succ', purchasedItems: recordsOf(record.taskId) });
    },
    'update',
  );

  http.on(
    'POST',
    '/api/purchased/user/remove',
    ({ body }) => {
      const record = server.records.find((r) => r.id === (body as { id: number }).id);
      if (!record) return notFound('记录不存在');
      if (record.status === 'match') return refuse('已匹配的记录不能删除');
      server.records = server.records.filter((r) => r !== record);
      return ok({ status: 'succ', purchasedItems: recordsOf(record.taskId) });
    },
    'remove',
  );

  http.on('GET', '/api/download/excel/user-task/token', () => ok({ token: 'xls-token', expireAt: NOW + 300_000 }), 'excelToken');
  http.on('POST', '/api/purchased/user/excel/upload/import', () => ok(server.uploadResult), 'import');
  http.on('POST', '/api/purchased/user/excel/upload/update', () => ok(server.uploadResult), 'updateExcel');
  http.on('GET', '/api/upload/result/{resultId}', ({ params, query }) =>
    params.resultId === 'r-1' ? ok(pageOf(server.fineRows, query)) : notFound('上传结果已过期，请重新上传文件查看（已保存的行会跳过）'),
  );

  http.on('GET', '/api/boardtask/{boardId}/info/{taskId}', ({ params }) => {
    const boardTask = server.boardTasks.find((x) => x.id === Number(params.taskId) && x.boardId === Number(params.boardId));
    return boardTask ? ok(boardTask) : notFound('任务不存在');
  });

  http.on('GET', '/api/task/info/{id}', ({ params }) => {
    const task = taskOf(params.id);
    return task ? ok(task) : noTask();
  });
  http.on(
    'DELETE',
    '/api/task/info/user/{id}',
    ({ params }) => {
      const task = taskOf(params.id);
      if (!task) return noTask();
      const applied = apply(task, { type: 'task.delete', by: 'user' });
      return applied.ok ? ok({ status: 'succ', msg: '删除成功' }) : applied.response;
    },
    'delete',
  );

  const editCount = ({ params }: Call) => {
    const task = taskOf(params.id);
    if (!task) return noTask();
    const applied = apply(task, { type: 'task.edit', by: 'user' });
    if (!applied.ok) return applied.response;
    task.count = Number(params.n);
    if (params.m !== undefined) task.labelCount = Number(params.m);
    return ok({ status: 'succ', task });
  };
  http.on('POST', '/api/task/info/user/{id}/qty/{n}', editCount, 'qty');
  http.on('POST', '/api/task/info/user/{id}/qty/{n}/label/{m}', editCount, 'qty');

  http.on('GET', '/api/purchased/{id}/taskTracking', ({ params }) => (taskOf(params.id) ? ok({ purchasedItems: recordsOf(Number(params.id)) }) : noTask()));
  http.on(
    'POST',
    '/api/purchased/user/{id}/create',
    ({ params, body }) => {
      const id = Number(params.id);
      const values = body as { trackingId?: string; productCount?: number };
      if (!taskOf(id)) return noTask();
      if (!values.trackingId?.trim()) return refuse('请填写trackingId');
      if (!values.productCount) return refuse('请填写数目');
      server.records.push({ id: nextRecordId++, taskId: id, trackingId: values.trackingId.trim(), productCount: values.productCount, status: 'init', msg: '' });
      return ok({ status: 'succ', purchasedItems: recordsOf(id) });
    },
    'create',
  );
  // The paste box (decision 105): the server's parser and checks, all or nothing.
  http.on(
    'POST',
    '/api/purchased/user/{taskId}/bulk',
    ({ params, body }) => {
      const id = Number(params.taskId);
      const task = taskOf(id);
      if (!task) return noTask();
      const text = (body as { text?: string }).text ?? '';
      const own = recordsOf(id);
      const parsed = parsePurchasedLines(text, {
        recorded: own.map((r) => r.trackingId),
        count: task.count,
        recordedUnits: own.reduce((n, r) => n + r.productCount, 0),
      });
      if (parsed.error) return refuse(parsed.error);
      const refused = parsed.lines.filter((l) => !l.ok).length;
      if (refused) return ok({ status: 'failed', msg: `${refused}行有误，未添加任何记录`, rows: parsed.lines, purchasedItems: own });
      for (const l of parsed.lines)
        server.records.push({ id: nextRecordId++, taskId: id, trackingId: l.tracking, productCount: l.qty!, status: 'init', msg: '' });
      const rows = parsed.lines.map((l) => ({ ...l, msg: '创建成功' }));
      return ok({ status: 'succ', msg: `已添加${rows.length}条记录`, rows, purchasedItems: recordsOf(id) });
    },
    'bulk',
  );
  http.on('GET', '/api/download/pdf/{id}/token', ({ params }) => ok({ token: `pdf-token-${params.id}`, expireAt: NOW + 300_000 }), 'pdfToken');

  return server;
}
