// A fake of the HTTP boundary of the member's task screens, for app-harness's renderApp: handlers
// answering the calls of /user/my-task, the task record dialog, the edit-count dialog and
// /user/upload the way openapi.yaml describes them (envelopes, field names, status codes), on a
// small in-memory state. Task changes go through the task machine as the server's applyTaskEvent
// does, so a refused event is A00001 with the machine's words. Tests replace single answers through
// `answer`. Only the web app is under test here; the real server is proven by tests/server.
import { decide } from '../../../machines/stored-state';
import { explainTaskRefusal, taskMachine, type MatchOutcome, type TaskEvent } from '../../../machines/task.machine';
import type { components } from '../../../src/api/schema';
import { json, ok, type Handler } from '../app-harness';

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
  return {
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
}

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

type AnswerKey = 'list' | 'delete' | 'split' | 'match' | 'qty' | 'create' | 'update' | 'remove' | 'import' | 'updateExcel' | 'excelToken' | 'pdfToken';

export interface FakeTaskServer {
  handlers: Record<string, Handler>;
  /** Shared with the caller (the board page's fake lists the same array). */
  tasks: Task[];
  records: PurchasedItem[];
  boardTasks: BoardTask[];
  calls: Call[];
  /** What the next match decides (the server compares parcels and records). */
  matchOutcome: MatchOutcome;
  /** The answer of an upload. */
  uploadResult: UploadResult;
  /** Replace one kind of answer (a refusal, say). */
  answer: Partial<Record<AnswerKey, (call: Call) => Response>>;
}

/** Largest count and labelCount the fake routes (renderApp matches exact paths). */
const MAX_PATH_NUMBER = 12;
/** Ids given to split siblings (their routes exist from the start). */
const SIBLING_IDS = [9001, 9002, 9003];

export function refuse(msg: string, status = 400, code = 'A00001'): Response {
  return json({ code, msg }, status);
}

export function fakeTaskServer(seed: { tasks?: Task[]; records?: PurchasedItem[]; boardTasks?: BoardTask[] } = {}): FakeTaskServer {
  const server: FakeTaskServer = {
    handlers: {},
    tasks: seed.tasks ?? [aTask()],
    records: seed.records ?? [],
    boardTasks: seed.boardTasks ?? [aBoardTask()],
    calls: [],
    matchOutcome: 'open',
    uploadResult: { rows: [], succ: 0, skip: 0, error: 0 },
    answer: {},
  };
  const h = server.handlers;
  let nextSibling = 0;
  let nextRecordId = 500;

  /** Records the call, then answers it with the override for `key` or with `answer`. */
  const route =
    (key: AnswerKey | null, answer: (call: Call, request: Request) => Response | Promise<Response>): Handler =>
    async (request) => {
      const url = new URL(request.url);
      const type = request.headers.get('content-type') ?? '';
      let body: unknown;
      if (type.includes('json')) {
        const text = await request.text();
        body = text ? JSON.parse(text) : undefined;
      } else if (type.includes('multipart')) {
        const form = await request.formData();
        const file = form.get('file');
        body = { file: file instanceof Blob ? { name: (file as File).name, size: file.size } : file };
      }
      const call: Call = { method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body };
      server.calls.push(call);
      const override = key ? server.answer[key] : undefined;
      return override ? override(call) : answer(call, request);
    };

  const taskOf = (id: number) => server.tasks.find((t) => t.id === id && t.status !== 'deleted');
  const notFound = () => refuse('任务不存在', 404, 'A00004');
  const recordsOf = (taskId: number) => server.records.filter((r) => r.taskId === taskId);

  /** The task machine, as the server applies it. */
  function apply(task: Task, event: TaskEvent): { ok: true } | { ok: false; response: Response } {
    const decision = decide(taskMachine, task.status, { productCount: task.productCount, canSplit: task.canSplit }, event, explainTaskRefusal);
    if (!decision.ok) return { ok: false, response: refuse(decision.msg) };
    task.status = decision.next;
    return { ok: true };
  }

  h['GET /api/task/info/user/list'] = route('list', ({ query }) => {
    const page = Number(query.page ?? 0);
    const size = Number(query.size ?? 20);
    const matching = server.tasks.filter(
      (t) =>
        (!query.taskStatus || t.status === query.taskStatus) &&
        (!query.itemName || t.itemName.includes(query.itemName)) &&
        (!query.trackingId || t.trackingId.split(',').includes(query.trackingId)) &&
        (!query.taskId || t.id === Number(query.taskId) || t.mainId === Number(query.taskId)),
    );
    return ok({
      content: matching.slice(page * size, page * size + size),
      totalPages: Math.ceil(matching.length / size),
      totalElements: matching.length,
    });
  });

  h['POST /api/task/user/split'] = route('split', ({ query }) => {
    const task = taskOf(Number(query.taskId));
    if (!task) return notFound();
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
  });

  h['POST /api/match/user/task/match'] = route('match', ({ body }) => {
    const task = taskOf((body as { taskId: number }).taskId);
    if (!task) return notFound();
    const applied = apply(task, { type: 'task.match', outcome: server.matchOutcome });
    if (!applied.ok) return applied.response;
    return ok({ opStatus: 'succ', msg: '匹配完成', tasks: [task] });
  });

  h['GET /api/task/part/match'] = route(null, ({ query }) => {
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

  h['POST /api/purchased/user/update'] = route('update', ({ body }) => {
    const values = body as { id: number; trackingId: string; productCount: number };
    const record = server.records.find((r) => r.id === values.id);
    if (!record) return refuse('记录不存在', 404, 'A00004');
    if (record.status === 'match') return refuse('已匹配的记录不能修改');
    record.trackingId = values.trackingId;
    record.productCount = values.productCount;
    return ok({ status: 'succ', purchasedItems: recordsOf(record.taskId) });
  });

  h['POST /api/purchased/user/remove'] = route('remove', ({ body }) => {
    const record = server.records.find((r) => r.id === (body as { id: number }).id);
    if (!record) return refuse('记录不存在', 404, 'A00004');
    if (record.status === 'match') return refuse('已匹配的记录不能删除');
    server.records = server.records.filter((r) => r !== record);
    return ok({ status: 'succ', purchasedItems: recordsOf(record.taskId) });
  });

  h['GET /api/download/excel/user-task/token'] = route('excelToken', () => ok({ token: 'xls-token', expireAt: NOW + 300_000 }));
  h['POST /api/purchased/user/excel/upload/import'] = route('import', () => ok(server.uploadResult));
  h['POST /api/purchased/user/excel/upload/update'] = route('updateExcel', () => ok(server.uploadResult));

  for (const bt of server.boardTasks) {
    h[`GET /api/boardtask/${bt.boardId}/info/${bt.id}`] = route(null, () => ok(server.boardTasks.find((x) => x.id === bt.id)));
  }

  const ids = [...new Set([...server.tasks.map((t) => t.id), ...SIBLING_IDS])];
  for (const id of ids) {
    h[`GET /api/task/info/${id}`] = route(null, () => {
      const task = taskOf(id);
      return task ? ok(task) : notFound();
    });
    h[`DELETE /api/task/info/user/${id}`] = route('delete', () => {
      const task = taskOf(id);
      if (!task) return notFound();
      const applied = apply(task, { type: 'task.delete', by: 'user' });
      return applied.ok ? ok({ status: 'succ', msg: '删除成功' }) : applied.response;
    });
    const editCount = (n: number, m: number | null) =>
      route('qty', () => {
        const task = taskOf(id);
        if (!task) return notFound();
        const applied = apply(task, { type: 'task.edit', by: 'user' });
        if (!applied.ok) return applied.response;
        task.count = n;
        if (m !== null) task.labelCount = m;
        return ok({ status: 'succ', task });
      });
    for (let n = 1; n <= MAX_PATH_NUMBER; n++) {
      h[`POST /api/task/info/user/${id}/qty/${n}`] = editCount(n, null);
      for (let m = 0; m <= MAX_PATH_NUMBER; m++) h[`POST /api/task/info/user/${id}/qty/${n}/label/${m}`] = editCount(n, m);
    }
    h[`GET /api/purchased/${id}/taskTracking`] = route(null, () => (taskOf(id) ? ok({ purchasedItems: recordsOf(id) }) : notFound()));
    h[`POST /api/purchased/user/${id}/create`] = route('create', ({ body }) => {
      const values = body as { trackingId?: string; productCount?: number };
      if (!taskOf(id)) return notFound();
      if (!values.trackingId?.trim()) return refuse('请填写trackingId');
      if (!values.productCount) return refuse('请填写数目');
      server.records.push({ id: nextRecordId++, taskId: id, trackingId: values.trackingId.trim(), productCount: values.productCount, status: 'init', msg: '' });
      return ok({ status: 'succ', purchasedItems: recordsOf(id) });
    });
    h[`GET /api/download/pdf/${id}/token`] = route('pdfToken', () => ok({ token: `pdf-token-${id}`, expireAt: NOW + 300_000 }));
  }

  return server;
}
