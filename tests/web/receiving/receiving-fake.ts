// A fake of the HTTP boundary of /admin/scan and /admin/scan2 for app-harness's renderApp: the scan
// calls (getScanTracking, createScanTrackings, modifyScanTracking, addScanTracking) and the item
// search, answering in the contract's envelopes on an in-memory list of records, as openapi.yaml
// describes them (a upc seen twice for a tracking id is refused; init records are seen), on
// support/fake-api.ts. It routes only the tracking ids, record ids and searches it is told about.
// `down` makes every scan call fail without an answer (a dropped connection); `answer` replaces one
// kind of answer. Only the web app is under test here; the real server is proven by tests/server.
import { isFrozen, isSeen, isUnmatched, scanRecordMessages, type UnmatchReason } from '../../../machines/scan-record.machine';
import type { components } from '../../../src/api/schema';
import { createFakeServer, ok, refuse, type Answer, type FakeServer } from '../support/fake-api';

type Schemas = components['schemas'];
export type ScanTracking = Schemas['ScanTracking'];
export type Item = Schemas['Item'];

export const NOW = Date.UTC(2026, 10, 20, 8, 0);

export function anItem(id: number, over: Partial<Item> = {}): Item {
  return {
    id,
    itemName: `商品${id}`,
    upc: `UPC${id}`,
    url: '',
    status: 'open',
    productId: `P-${id}`,
    price: null,
    createdAt: NOW,
    ...over,
  };
}

export function aScan(over: Partial<ScanTracking> = {}): ScanTracking {
  return {
    id: 1,
    trackingId: '1Z001',
    upc: 'UPC5',
    count: 1,
    itemId: 5,
    itemName: '商品5',
    status: 'scan',
    matchedUser: null,
    createdAt: NOW,
    updatedAt: NOW,
    opUid: 3,
    userId: null,
    mainId: null,
    subId: null,
    taskId: null,
    ...over,
  };
}

type AnswerKey = 'lookup' | 'add' | 'create' | 'modify';

export interface ReceivingFake extends FakeServer<AnswerKey> {
  records: ScanTracking[];
  items: Item[];
  /** The add reaches the server and is applied, but its answer is lost (once). */
  loseNextAddAnswer: boolean;
  /** Tracking ids whose records match a task (status match after a scan). */
  matching: Set<string>;
  /** Why the unmatch records of a tracking id matched nobody, as the server says (none: no reason answered). */
  unmatchReasons: Map<string, UnmatchReason>;
  /** Tracking ids no member recorded, with the records near them (their unmatch rows say so, decision 098). */
  nearMisses: Map<string, Schemas['NearMiss'][]>;
}

export interface ReceivingFakeOptions {
  items?: Item[];
  records?: ScanTracking[];
  trackingIds?: string[];
  /** Extra item searches to route (the upcs of the items are routed already). */
  searches?: string[];
}

export function createReceivingFake(options: ReceivingFakeOptions = {}): ReceivingFake {
  const server: ReceivingFake = Object.assign(createFakeServer<AnswerKey>(), {
    records: options.records ?? [],
    items: options.items ?? [anItem(5), anItem(6)],
    loseNextAddAnswer: false,
    matching: new Set<string>(),
    unmatchReasons: new Map<string, UnmatchReason>(),
    nearMisses: new Map<string, Schemas['NearMiss'][]>(),
  });
  const trackingIds = options.trackingIds ?? ['1Z001', '1Z002', '1Z003', '1Z004', '1Z005'];
  let nextId = 100;

  const recordsOf = (trackingId: string) => server.records.filter((r) => r.trackingId === trackingId);
  const itemOf = (id: number) => server.items.find((i) => i.id === id);
  const seen = (r: ScanTracking) => isSeen(r);
  const matchAll = (trackingId: string) => {
    for (const r of recordsOf(trackingId)) {
      if (seen(r)) r.status = server.matching.has(trackingId) ? 'match' : 'unmatch';
      if (isUnmatched(r) && server.unmatchReasons.has(trackingId)) r.unmatchReason = server.unmatchReasons.get(trackingId)!;
    }
    const near = server.nearMisses.get(trackingId);
    if (near) for (const r of recordsOf(trackingId)) if (isUnmatched(r)) Object.assign(r, { unmatchReason: 'notRecorded', nearMisses: near });
  };

  for (const trackingId of trackingIds) {
    const base = `/api/scan/admin/tracking/${encodeURIComponent(trackingId)}`;
    server.on(
      'GET',
      `${base}/list`,
      () => {
        const list = recordsOf(trackingId);
        return ok({ isExist: list.length > 0, scanTrackingList: list });
      },
      'lookup',
    );
    server.on(
      'POST',
      `${base}/add`,
      ({ body }) => {
        const { itemId, upc: givenUpc, count = 1 } = body as Schemas['ScanAddRequest'];
        if (!itemId) return refuse(scanRecordMessages.chooseItem);
        const item = itemOf(itemId);
        if (!item) return refuse('商品不存在');
        const upc = givenUpc || item.upc;
        const existing = recordsOf(trackingId).find((r) => r.upc === upc);
        if (existing && seen(existing)) return ok({ opStatus: 'failed', msg: scanRecordMessages.trackingSubmitted, scanTrackingList: recordsOf(trackingId) });
        if (existing) {
          existing.status = 'scan';
          existing.count = count;
        } else {
          server.records.push(aScan({ id: nextId++, trackingId, upc, count, itemId, itemName: item.itemName, status: 'scan' }));
        }
        matchAll(trackingId);
        if (server.loseNextAddAnswer) {
          server.loseNextAddAnswer = false;
          throw new TypeError('Failed to fetch');
        }
        return ok({ opStatus: 'succ', scanTrackingList: recordsOf(trackingId) });
      },
      'add',
    );
    server.on(
      'POST',
      `${base}/create`,
      ({ body }) => {
        const { items } = body as Schemas['ScanCreateRequest'];
        if (items.some((line) => !line.itemId)) return refuse('请填写所有项目对应的商品');
        const upcs = items.map((line) => line.upc);
        if (new Set(upcs).size !== upcs.length || recordsOf(trackingId).some((r) => seen(r) && upcs.includes(r.upc))) {
          return ok({ opStatus: 'failed', msg: scanRecordMessages.upcDuplicate, scanTrackingList: recordsOf(trackingId) });
        }
        for (const line of items) {
          const item = itemOf(line.itemId ?? 0);
          if (!item) return refuse('商品不存在');
          // An imported (init) row of the upc is seen now, with the scanned count (receiving/scan-service.ts).
          const announced = recordsOf(trackingId).find((r) => r.upc === line.upc && !seen(r));
          if (announced) Object.assign(announced, { status: 'scan', count: line.count ?? 1, itemId: item.id, itemName: item.itemName });
          else server.records.push(aScan({ id: nextId++, trackingId, upc: line.upc, count: line.count ?? 1, itemId: item.id, itemName: item.itemName }));
        }
        matchAll(trackingId);
        return ok({ opStatus: 'succ', scanTrackingList: recordsOf(trackingId) });
      },
      'create',
    );
  }

  const modify =
    (id: number): Answer =>
    ({ body }) => {
      const record = server.records.find((r) => r.id === id);
      if (!record) return refuse('记录不存在', 404, 'A00004');
      if (isFrozen(record)) return refuse(scanRecordMessages.frozen);
      const changes = body as Schemas['ScanModifyRequest'];
      Object.assign(record, changes);
      if (changes.itemId) record.itemName = itemOf(changes.itemId)?.itemName ?? record.itemName;
      return ok({ opStatus: 'succ', scanTracking: record });
    };
  for (const id of [1, 2, 3, 40, 41, 42]) server.on('POST', `/api/scan/admin/tracking/${id}/modify`, modify(id), 'modify');

  const search =
    (q: string): Answer =>
    () =>
      ok(server.items.filter((i) => [i.itemName, i.upc, i.productId].some((f) => f.toLowerCase().includes(q.toLowerCase()))));
  const queries = new Set([...server.items.flatMap((i) => [i.upc, i.itemName]), ...(options.searches ?? [])]);
  for (const q of queries) server.on('GET', `/api/item/info/like/${encodeURIComponent(q)}`, search(q));
  for (const item of server.items) server.on('GET', `/api/item/info/${item.id}`, () => ok(item));

  return server;
}
