// A fake of the HTTP boundary of the admin receiving pages (/admin/tracking-list, /admin/upload,
// /admin/tracking-audit), for app-harness's renderApp: routes (support/fake-api.ts) answering the
// contract's calls (envelopes, field names, status codes) on a small in-memory state, and a log of
// every call with its query and body. The products come from the catalog fake (the item picker's
// calls). Tests replace single answers through `answer`. Only the web app is under test; the real
// server is proven by tests/server.
import type { components } from '../../../src/api/schema';
import { createFakeServer, notFound, ok, pageOf, refuse, type Call, type FakeServer, type Routes } from '../support/fake-api';
import { createCatalogFake, item } from '../catalog/catalog-fake';

export { refuse, type Call };

type Schemas = components['schemas'];
export type ScanTracking = Schemas['ScanTracking'];
export type AuditEntry = Schemas['AuditEntry'];
export type PayoutAuditEntry = Schemas['PayoutAuditEntry'];
export type User = Schemas['User'];
export type UploadResult = Schemas['UploadResult'];
export type UploadResultRow = Schemas['UploadResultRow'];

export const NOW = Date.UTC(2025, 2, 10, 8, 0);

export const ITEMS = [
  item(7, { itemName: '蓝牙耳机', upc: '0123456789', productId: 'P7' }),
  item(8, { itemName: '保温杯', upc: '0987654321', productId: 'P8' }),
];

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

/** A read of a line's payout details by the admin (#3) of alice's (#21) line, masked. */
export function aPayoutAudit(over: Partial<PayoutAuditEntry> = {}): PayoutAuditEntry {
  return {
    id: 9001,
    action: 'reveal',
    opUid: 3,
    opName: 'admin-name',
    userId: 21,
    userName: 'alice',
    lineId: 41,
    orderId: '17',
    paymentType: 'Wire',
    accountName: '****Ann',
    cardNo: '****6789',
    withdrawAmount: 20,
    createdAt: NOW,
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

type AnswerKey = 'modify' | 'token' | 'upload';

export interface TrackingFake {
  handlers: Routes;
  records: ScanTracking[];
  audits: AuditEntry[];
  /** The payout log's entries (listPayoutAudits, decision 168). */
  payouts: PayoutAuditEntry[];
  calls: Call[];
  /** What every upload answers (unless `answer.upload` says otherwise). */
  uploadResult: UploadResult;
  /** Set on the next list page (more rows than were counted). */
  totalCapped: boolean;
  answer: FakeServer<AnswerKey>['answer'];
}

export function createTrackingFake(seed: { records?: ScanTracking[]; audits?: AuditEntry[]; payouts?: PayoutAuditEntry[] } = {}): TrackingFake {
  const catalog = createCatalogFake([...ITEMS]);
  const server = createFakeServer<AnswerKey>();
  const fake: TrackingFake = {
    handlers: server.handlers,
    records: seed.records ?? [aRecord()],
    audits: seed.audits ?? [],
    payouts: seed.payouts ?? [],
    calls: server.calls,
    uploadResult: { rows: [], succ: 0, skip: 0, error: 0 },
    totalCapped: false,
    answer: server.answer,
  };
  Object.assign(server.handlers, catalog.handlers);

  server.on('GET', '/api/scan/admin/tracking/list', ({ query: q }) => {
    let rows = [...fake.records];
    if (q.trackingId) rows = rows.filter((r) => r.trackingId === q.trackingId);
    if (q.status) rows = rows.filter((r) => r.status === q.status);
    if (q.itemId) rows = rows.filter((r) => r.itemId === Number(q.itemId));
    rows.sort((a, b) => (q.isDesc === 'false' ? a.createdAt - b.createdAt || a.id - b.id : b.createdAt - a.createdAt || b.id - a.id));
    const { content, totalPages } = pageOf(rows, q);
    return ok({ content, totalPages, size: Number(q.size ?? 20), ...(fake.totalCapped && { totalCapped: true }) });
  });

  server.on('GET', '/api/user/list', () => ok(USERS));

  server.on(
    'POST',
    '/api/scan/admin/tracking/{id}/modify',
    ({ params, body }) => {
      const record = fake.records.find((r) => r.id === Number(params.id));
      if (!record) return notFound('扫描记录不存在');
      Object.assign(record, body as Partial<ScanTracking>, { updatedAt: record.updatedAt + 1 });
      return ok({ opStatus: 'succ', msg: '保存成功', scanTracking: record }, '保存成功');
    },
    'modify',
  );

  server.on('GET', '/api/download/excel/tracking/token', () => ok({ token: 'trk-token', expireAt: NOW + 300_000 }), 'token');

  server.on('GET', '/api/audit/tracking/list', ({ query: q }) => {
    let rows = [...fake.audits];
    if (q.trackingId) rows = rows.filter((a) => a.trackingId === q.trackingId);
    if (q.upc) rows = rows.filter((a) => a.upc === q.upc);
    if (q.opUid) rows = rows.filter((a) => a.opUid === Number(q.opUid));
    if (q.status) rows = rows.filter((a) => a.status === q.status);
    rows.sort((a, b) => (q.isDesc === 'false' ? a.id - b.id : b.id - a.id));
    return ok(pageOf(rows, q));
  });

  server.on('GET', '/api/audit/payout/list', ({ query: q }) => {
    let rows = [...fake.payouts];
    if (q.action) rows = rows.filter((a) => a.action === q.action);
    if (q.opUid) rows = rows.filter((a) => a.opUid === Number(q.opUid));
    if (q.userId) rows = rows.filter((a) => a.userId === Number(q.userId));
    rows.sort((a, b) => (q.isDesc === 'false' ? a.id - b.id : b.id - a.id));
    return ok(pageOf(rows, q));
  });

  for (const path of [
    '/api/scan/admin/excel/upload/import',
    '/api/scan/admin/excel/upload/update',
    '/api/scan/admin/excel/upload/confirm',
    '/api/purchased/user/excel/upload/import',
    '/api/purchased/user/excel/upload/update',
  ]) {
    server.on('POST', path, () => ok(fake.uploadResult, '上传完成'), 'upload');
  }

  return fake;
}
