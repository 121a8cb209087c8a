// A fake of the HTTP boundary of the admin receiving pages (/admin/tracking-list, /admin/upload,
// /admin/tracking-audit), for app-harness's renderApp: handlers answering the contract's calls
// (envelopes, field names, status codes) on a small in-memory state, and a log of every call with
// its query and body. The products come from the catalog fake (the item picker's calls). Tests
// replace single answers through `answer`. Only the web app is under test; the real server is
// proven by tests/server.
import type { components } from '../../../src/api/schema';
import { json, ok, type Handler } from '../app-harness';
import { fakeCatalogApi, item, searchHandlers } from '../catalog/fake-catalog-api';

type Schemas = components['schemas'];
export type ScanTracking = Schemas['ScanTracking'];
export type AuditEntry = Schemas['AuditEntry'];
export type User = Schemas['User'];
export type UploadResult = Schemas['UploadResult'];
export type UploadResultRow = Schemas['UploadResultRow'];

export const NOW = Date.UTC(2025, 2, 10, 8, 0);

export const ITEMS = [item(7, { itemName: '蓝牙耳机', upc: '0123456789', productId: 'P7' }), item(8, { itemName: '保温杯', upc: '0987654321', productId: 'P8' })];

export const USERS: User[] = [
  { id: 3, nickName: 'admin-name', mailAddr: 'admin@example.com', phoneNo: '', qq: '', roleType: 'admin' },
  { id: 4, nickName: 'carol', mailAddr: 'carol@demo.local', phoneNo: '', qq: '', roleType: 'lowerAdmin' },
  { id: 21, nickName: 'alice', mailAddr: 'alice@demo.local', phoneNo: '', qq: '', roleType: 'user' },
];

export function aRecord(over: Partial<ScanTracking> = {}): ScanTracking {
  return {
    id: 11,
    trackingId: '1Z100',
    upc: '0123456789',
    count: 2,
    itemId: 7,
    itemName: '蓝牙耳机',
    status: 'match',
    matchedUser: 'alice',
    createdAt: NOW,
    updatedAt: NOW + 60_000,
    opUid: 4,
    userId: 21,
    mainId: 501,
    subId: 1,
    taskId: 9001,
    ...over,
  };
}

export function anAudit(over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 7001,
    entity: 'tracking',
    action: 'modify',
    mainId: 501,
    subId: 0,
    opUid: 4,
    opName: 'carol',
    userId: 21,
    upc: '0123456789',
    count: 3,
    itemName: '蓝牙耳机',
    status: 'match',
    trackingId: '1Z100',
    taskId: 501,
    before: JSON.stringify({ id: 11, trackingId: '1Z100', count: 2, status: 'match' }),
    after: JSON.stringify({ id: 11, trackingId: '1Z100', count: 3, status: 'match' }),
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

type AnswerKey = 'modify' | 'token' | 'upload';

export interface TrackingFake {
  handlers: Record<string, Handler>;
  records: ScanTracking[];
  audits: AuditEntry[];
  calls: Call[];
  /** What every upload answers (unless `answer.upload` says otherwise). */
  uploadResult: UploadResult;
  /** Set on the next list page (more rows than were counted). */
  totalCapped: boolean;
  answer: Partial<Record<AnswerKey, (call: Call) => Response | Promise<Response>>>;
}

/** Record ids the fake routes (the harness matches exact paths). */
const MAX_ID = 60;

export function refuse(msg: string, status = 400, code = 'A00001'): Response {
  return json({ code, msg }, status);
}

export function createTrackingFake(seed: { records?: ScanTracking[]; audits?: AuditEntry[] } = {}): TrackingFake {
  const catalog = fakeCatalogApi([...ITEMS]);
  const fake: TrackingFake = {
    handlers: { ...catalog.handlers, ...searchHandlers(catalog, ['P', 'P7', 'P8', '保', '保温', '保温杯']) },
    records: seed.records ?? [aRecord()],
    audits: seed.audits ?? [],
    calls: [],
    uploadResult: { rows: [], succ: 0, skip: 0, error: 0 },
    totalCapped: false,
    answer: {},
  };
  const h = fake.handlers;

  /** Logs the call, then answers it with the override for `key` or with `answer`. */
  const route =
    (key: AnswerKey | null, answer: (call: Call) => Response | Promise<Response>): Handler =>
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
      fake.calls.push(call);
      const override = key ? fake.answer[key] : undefined;
      return override ? override(call) : answer(call);
    };

  const pageOf = <T>(rows: T[], q: Record<string, string>) => {
    const page = Number(q.page ?? 0);
    const size = Number(q.size ?? 20);
    return { rows: rows.slice(page * size, page * size + size), page, size, totalPages: Math.ceil(rows.length / size), totalElements: rows.length };
  };

  h['GET /api/scan/admin/tracking/list'] = route(null, ({ query: q }) => {
    let rows = [...fake.records];
    if (q.trackingId) rows = rows.filter((r) => r.trackingId === q.trackingId);
    if (q.status) rows = rows.filter((r) => r.status === q.status);
    if (q.itemId) rows = rows.filter((r) => r.itemId === Number(q.itemId));
    rows.sort((a, b) => (q.isDesc === 'false' ? a.createdAt - b.createdAt || a.id - b.id : b.createdAt - a.createdAt || b.id - a.id));
    const p = pageOf(rows, q);
    return ok({ content: p.rows, totalPages: p.totalPages, size: p.size, ...(fake.totalCapped && { totalCapped: true }) });
  });

  h['GET /api/user/list'] = route(null, () => ok(USERS));

  for (let id = 1; id <= MAX_ID; id++) {
    h[`POST /api/scan/admin/tracking/${id}/modify`] = route('modify', ({ body }) => {
      const record = fake.records.find((r) => r.id === id);
      if (!record) return refuse('扫描记录不存在', 404, 'A00004');
      Object.assign(record, body as Partial<ScanTracking>, { updatedAt: record.updatedAt + 1 });
      return json({ code: 'A00000', msg: '保存成功', data: { opStatus: 'succ', msg: '保存成功', scanTracking: record } });
    });
  }

  h['GET /api/download/excel/tracking/token'] = route('token', () => ok({ token: 'trk-token', expireAt: NOW + 300_000 }));

  h['GET /api/audit/tracking/list'] = route(null, ({ query: q }) => {
    let rows = [...fake.audits];
    if (q.trackingId) rows = rows.filter((a) => a.trackingId === q.trackingId);
    if (q.upc) rows = rows.filter((a) => a.upc === q.upc);
    if (q.opUid) rows = rows.filter((a) => a.opUid === Number(q.opUid));
    if (q.status) rows = rows.filter((a) => a.status === q.status);
    rows.sort((a, b) => (q.isDesc === 'false' ? a.id - b.id : b.id - a.id));
    const p = pageOf(rows, q);
    return ok({ content: p.rows, totalPages: p.totalPages, totalElements: p.totalElements });
  });

  const upload = route('upload', () => json({ code: 'A00000', msg: '上传完成', data: fake.uploadResult }));
  for (const path of [
    '/api/scan/admin/excel/upload/import',
    '/api/scan/admin/excel/upload/update',
    '/api/scan/admin/excel/upload/confirm',
    '/api/purchased/user/excel/upload/import',
    '/api/purchased/user/excel/upload/update',
  ]) {
    h[`POST ${path}`] = upload;
  }

  return fake;
}
