// /admin/scan2's rules (machines/scan2.machine.ts): one product, many tracking ids; no scan lost,
// nothing sent twice.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { createTestModel, getShortestPaths } from 'xstate/graph';
import {
  RETRY_MAX_MS,
  SCAN2_STATUS,
  SETTLED_ROWS_KEPT,
  CHOICES_MAX,
  canDeleteRow,
  choiceByDigit,
  checkOutcome,
  lastPendingRow,
  loadedItems,
  persistedOf,
  productChoices,
  retryDelayOf,
  scan2Machine,
  scan2Messages,
  scanVerdict,
  settledMessage,
  settledStatus,
  type AddInput,
  type LookupInput,
  type Scan2Input,
  type Scan2Item,
  type Scan2Record,
  type Scan2Candidate,
  type Scan2Row,
  type Scan2SendError,
} from '../../machines/scan2.machine';

const earbuds: Scan2Item = { id: 5, itemName: '蓝牙耳机', upc: '0123456789012' };
const charger: Scan2Item = { id: 6, itemName: '充电器', upc: '999000111' };

const record = (over: Partial<Scan2Record> = {}): Scan2Record => ({
  id: 1,
  trackingId: '1Z001',
  upc: earbuds.upc,
  count: 1,
  itemId: earbuds.id,
  status: 'scan',
  ...over,
});

const aRow = (over: Partial<Scan2Row> = {}): Scan2Row => ({
  key: 1,
  trackingId: '1Z001',
  itemId: earbuds.id,
  itemName: earbuds.itemName,
  upc: earbuds.upc,
  status: SCAN2_STATUS.pending,
  message: '',
  retryable: true,
  attempts: 0,
  sent: false,
  scannedAt: 0,
  ...over,
});

type Call =
  | { kind: 'lookup'; input: LookupInput; resolve: (records: Scan2Record[]) => void; reject: (e: Scan2SendError) => void }
  | { kind: 'add'; input: AddInput; resolve: (records: Scan2Record[]) => void; reject: (e: Scan2SendError) => void };

/** The real machine with its two calls settled by hand. */
function harness(input: Scan2Input = {}) {
  const calls: Call[] = [];
  /** The catalog searches (findItems), settled by hand too. */
  const finds: { upc: string; resolve: (items: Scan2Candidate[]) => void; reject: (e: unknown) => void }[] = [];
  const feedback = vi.fn();
  const logic = scan2Machine.provide({
    actors: {
      lookupTracking: fromPromise<Scan2Record[], LookupInput>(
        ({ input }) => new Promise((resolve, reject) => calls.push({ kind: 'lookup', input, resolve, reject })),
      ),
      addScan: fromPromise<Scan2Record[], AddInput>(({ input }) => new Promise((resolve, reject) => calls.push({ kind: 'add', input, resolve, reject }))),
      findItems: fromPromise<Scan2Candidate[], { upc: string }>(
        ({ input }) => new Promise((resolve, reject) => finds.push({ upc: input.upc, resolve, reject })),
      ),
    },
    actions: { feedback: (_, params) => void (params.kind && feedback(params.kind)) },
  });
  const actor = createActor(logic, { input });
  actor.start();
  const snap = () => actor.getSnapshot();
  const last = (kind: Call['kind']) => {
    const call = calls.at(-1);
    if (!call || call.kind !== kind) throw new Error(`expected a ${kind} call, got ${call?.kind ?? 'none'}`);
    return call;
  };
  const settled = async (done: () => void) => {
    const before = calls.length;
    done();
    // The promise settles on a microtask; then the sender may start the next call.
    await waitFor(actor, () => true);
    await Promise.resolve();
    await Promise.resolve();
    return calls.length > before;
  };
  return {
    actor,
    calls,
    feedback,
    snap,
    rows: () => snap().context.rows,
    row: (key = 1) => snap().context.rows.find((r) => r.key === key)!,
    select: (item: Scan2Item | null = earbuds) => actor.send({ type: 'item.select', item }),
    scan: (code: string) => actor.send({ type: 'scan.code', code }),
    lookupAnswers: (records: Scan2Record[] = []) => settled(() => last('lookup').resolve(records)),
    lookupFails: (error: Scan2SendError = { retryable: true, message: '' }) => settled(() => last('lookup').reject(error)),
    addAnswers: (records: Scan2Record[] = [record()]) => settled(() => last('add').resolve(records)),
    addFails: (error: Scan2SendError = { retryable: true, message: '' }) => settled(() => last('add').reject(error)),
    finds,
    /** The catalog's answer to the last search. */
    catalogAnswers: (items: Scan2Candidate[]) => settled(() => finds.at(-1)!.resolve(items)),
    catalogFails: () => settled(() => finds.at(-1)!.reject(new Error('offline'))),
    last,
  };
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('scan2 rules as functions', () => {
  it('a scan needs a product, is trimmed, and a tracking id already listed is a duplicate (deleted rows do not count)', () => {
    expect(scanVerdict({ item: null, rows: [] }, '1Z1')).toEqual({ ok: false, kind: 'refused', message: '请选择商品' });
    expect(scanVerdict({ item: earbuds, rows: [] }, '  1Z1 ')).toEqual({ ok: true, code: '1Z1' });
    expect(scanVerdict({ item: earbuds, rows: [] }, '   ')).toEqual({ ok: false, kind: 'ignored', message: '' });
    for (const status of [2, 4, 5] as const) {
      expect(scanVerdict({ item: earbuds, rows: [aRow({ status })] }, '1Z001')).toEqual({ ok: false, kind: 'duplicate', message: 'tracking已提交过' });
    }
    // Not on the server yet: it is already waiting, not 'submitted'.
    for (const status of [0, 1, 3] as const) {
      expect(scanVerdict({ item: earbuds, rows: [aRow({ status })] }, '1Z001')).toEqual({ ok: false, kind: 'duplicate', message: scan2Messages.waiting });
    }
    expect(scanVerdict({ item: earbuds, rows: [aRow({ status: SCAN2_STATUS.deleted })] }, '1Z001')).toEqual({ ok: true, code: '1Z001' });
  });

  it('only pending rows may be deleted or submitted by hand', () => {
    expect([0, 1, 2, 3, 4, 5, 9].filter((status) => canDeleteRow(aRow({ status: status as never })))).toEqual([0]);
  });

  it('the status after an add comes from the records of the row’s product: match 4, unmatch 5, else 2', () => {
    expect(settledStatus([record({ status: 'match' })], aRow())).toBe(4);
    expect(settledStatus([record({ status: 'unmatch' })], aRow())).toBe(5);
    expect(settledStatus([record({ status: 'scan' })], aRow())).toBe(2);
    // Another product's match says nothing about this row.
    expect(settledStatus([record({ upc: 'other', itemId: 9, status: 'match' }), record()], aRow())).toBe(2);
    // The row's product however its upc is written (decision 075).
    expect(settledStatus([record({ upc: '045496883386', status: 'match' })], aRow({ upc: '0045496883386' }))).toBe(4);
  });

  it('a command barcode of /admin/scan is a command here too, in any case, never a tracking id', () => {
    const item = { id: 1, itemName: '耳机', upc: '999' };
    expect(scanVerdict({ item, rows: [] }, 'PH-CMD-SUBMIT')).toEqual({ ok: false, kind: 'command', command: 'submit' });
    expect(scanVerdict({ item: null, rows: [] }, ' ph-cmd-cancel ')).toEqual({ ok: false, kind: 'command', command: 'cancel' });
    expect(scanVerdict({ item, rows: [] }, '1ZNEXT')).toEqual({ ok: true, code: '1ZNEXT' });
  });

  it('a settled row says whose task it matched, or why it did not match', () => {
    const tied = { status: 'match' as const, matchedUser: '小王', mainId: 41, subId: 2 };
    expect(settledMessage([record(tied)], aRow())).toBe('已匹配：小王 的任务 41-2');
    expect(settledMessage([record({ ...tied, subId: 0 })], aRow())).toBe('已匹配：小王 的任务 41');
    // Units of the product matched, and more arrived: the surplus is untied (decision 090).
    expect(settledMessage([record({ id: 2, status: 'unmatch' }), record(tied)], aRow())).toBe('已匹配：小王 的任务 41-2');
    // Unmatched: the server's reason, in the scan record machine's words.
    expect(settledMessage([record({ status: 'unmatch', unmatchReason: 'moreThanRecorded' })], aRow())).toBe('到货数量多于会员记录，多出的件数未匹配');
    expect(settledMessage([record({ status: 'unmatch', unmatchReason: 'notRecorded' })], aRow())).toBe('没有会员记录此快递单号');
    // A record one edit away (decision 098): 可能是… with its task and member.
    const nearMisses = [{ trackingId: '1Z999AA10123456784', taskDisplayId: '12-1', nickName: '小陈' }];
    expect(settledMessage([record({ status: 'unmatch', unmatchReason: 'notRecorded', nearMisses })], aRow())).toBe(
      '没有会员记录此快递单号；可能是 1Z999AA10123456784（任务 12-1，会员 小陈）',
    );
    expect(settledMessage([record({ status: 'unmatch', unmatchReason: 'otherProduct' })], aRow())).toBe('会员为此快递单号记录的是其他商品');
    expect(settledMessage([record({ status: 'unmatch', unmatchReason: 'contested' })], aRow())).toBe('多位会员记录了此商品，到货不足，等待管理员在首页分配');
    // Another product's reason is not this row's.
    expect(settledMessage([record({ upc: 'other', status: 'unmatch', unmatchReason: 'otherProduct' })], aRow())).toBe('');
    expect(settledMessage([record({ status: 'scan' })], aRow())).toBe('');
  });

  it('the check before a send: first send, repeat scan, earlier add arrived or not', () => {
    expect(checkOutcome(aRow(), [])).toEqual({ kind: 'send' });
    // Imported, not yet seen: the add sees it.
    expect(checkOutcome(aRow(), [record({ status: 'init', count: 2 })])).toEqual({ kind: 'send' });
    // Already scanned with this product: 'tracking已提交过'.
    expect(checkOutcome(aRow(), [record({ status: 'scan' })])).toEqual({ kind: 'duplicate' });
    // Another product on the same tracking does not make it a repeat.
    expect(checkOutcome(aRow(), [record({ upc: 'other', itemId: 9 })])).toEqual({ kind: 'send' });
    // An add may have arrived: the product seen now -> arrived, never sent again, whatever the units
    // (an add sees an imported row with the scanned count: 2 announced, 1 scanned).
    expect(checkOutcome(aRow({ sent: true }), [record({ status: 'match' })])).toEqual({ kind: 'arrived', status: 4 });
    expect(checkOutcome(aRow({ sent: true }), [record({ status: 'unmatch', count: 1 })])).toEqual({ kind: 'arrived', status: 5 });
    expect(checkOutcome(aRow({ sent: true }), [])).toEqual({ kind: 'send' });
    // Still only imported, or only another product seen: the add did not arrive.
    expect(checkOutcome(aRow({ sent: true }), [record({ status: 'init', count: 3 })])).toEqual({ kind: 'send' });
    expect(checkOutcome(aRow({ sent: true }), [record({ upc: 'other', itemId: 9, status: 'scan' })])).toEqual({ kind: 'send' });
  });

  it('the retry backoff doubles from 1 s up to 60 s', () => {
    expect([0, 1, 2, 3, 10].map(retryDelayOf)).toEqual([1000, 2000, 4000, 8000, RETRY_MAX_MS]);
  });
});

describe('scan2 machine: scanning', () => {
  it("refuses a scan without a product with '请选择商品' and the failure sound", () => {
    const h = harness();
    h.scan('1Z001');
    expect(h.rows()).toEqual([]);
    expect(h.snap().context.notice).toEqual({ kind: 'refused', code: '1Z001', message: scan2Messages.itemRequired });
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
  });

  it('each scan becomes a pending row; the next scan submits the previous one', () => {
    const h = harness();
    h.select();
    h.scan(' 1Z001 ');
    expect(h.rows()).toMatchObject([{ key: 1, trackingId: '1Z001', itemId: 5, upc: earbuds.upc, status: 0 }]);
    expect(h.calls).toHaveLength(0);
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    h.scan('1Z002');
    expect(h.rows().map((r) => [r.trackingId, r.status])).toEqual([
      ['1Z001', 1],
      ['1Z002', 0],
    ]);
    expect(h.last('lookup').input).toEqual({ trackingId: '1Z001' });
  });

  it("a pending tracking id scanned again is already waiting (not 'tracking已提交过'), with the duplicate sound; a deleted one may be scanned again", () => {
    const h = harness();
    h.select();
    h.scan('1Z001');
    h.scan('1Z001');
    expect(h.rows()).toHaveLength(1);
    expect(h.snap().context.notice).toEqual({ kind: 'duplicate', code: '1Z001', message: '该快递单号已在列表中，等待提交' });
    expect(h.feedback).toHaveBeenLastCalledWith('duplicate');
    h.actor.send({ type: 'row.delete', key: 1 });
    expect(h.row().status).toBe(9);
    h.scan('1Z001');
    expect(h.rows().map((r) => r.status)).toEqual([9, 0]);
    expect(h.calls).toHaveLength(0); // the deleted row is never sent
  });

  it('rows keep the product they were scanned with', () => {
    const h = harness();
    h.select(earbuds);
    h.scan('1Z001');
    h.select(charger);
    h.scan('1Z002');
    expect(h.rows().map((r) => r.itemId)).toEqual([5, 6]);
    expect(h.snap().context.item).toEqual(charger);
  });

  it('only pending rows may be deleted or submitted by hand', async () => {
    const h = harness();
    h.select();
    h.scan('1Z001');
    h.actor.send({ type: 'row.submit', key: 1 });
    expect(h.row().status).toBe(1);
    h.actor.send({ type: 'row.delete', key: 1 });
    h.actor.send({ type: 'row.submit', key: 1 });
    expect(h.row().status).toBe(1);
    expect(h.calls).toHaveLength(1);
    await h.lookupAnswers();
    await h.addAnswers([record({ status: 'scan' })]);
    h.actor.send({ type: 'row.delete', key: 1 });
    expect(h.row().status).toBe(2);
  });

  it('rows.submitPending submits every pending row, one call at a time, oldest first', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ key: 1, trackingId: 'A' }), aRow({ key: 2, trackingId: 'B' })] });
    expect(h.calls).toHaveLength(0);
    h.actor.send({ type: 'rows.submitPending' });
    expect(h.rows().map((r) => r.status)).toEqual([1, 1]);
    expect(h.calls.map((c) => c.input)).toEqual([{ trackingId: 'A' }]);
    await h.lookupAnswers([]);
    expect(h.last('add').input).toEqual({ trackingId: 'A', itemId: 5, upc: earbuds.upc, count: 1 });
    await h.addAnswers([record({ trackingId: 'A' })]);
    expect(h.last('lookup').input).toEqual({ trackingId: 'B' });
  });
});

describe('scan2 machine: sending', () => {
  async function sentOne(records: Scan2Record[]) {
    const h = harness({ item: earbuds });
    h.scan('1Z001');
    h.actor.send({ type: 'row.submit', key: 1 });
    await h.lookupAnswers([]);
    await h.addAnswers(records);
    return h;
  }

  it('a matched record gives 4 and the matched sound; unmatched 5; otherwise 2', async () => {
    let h = await sentOne([record({ status: 'match' })]);
    expect(h.row()).toMatchObject({ status: 4, sent: false });
    expect(h.feedback).toHaveBeenLastCalledWith('matched');
    h = await sentOne([record({ status: 'unmatch' })]);
    expect(h.row().status).toBe(5);
    expect(h.feedback).toHaveBeenLastCalledWith('unmatched');
    h = await sentOne([record({ status: 'scan' })]);
    expect(h.row().status).toBe(2);
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
  });

  it("a parcel the server already holds as scanned with this product is 'tracking已提交过', never sent", async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupAnswers([record({ status: 'match' })]);
    expect(h.row()).toMatchObject({ status: 3, retryable: false, message: 'tracking已提交过' });
    expect(h.calls.filter((c) => c.kind === 'add')).toHaveLength(0);
    expect(h.feedback).toHaveBeenLastCalledWith('duplicate');
  });

  it('a refusal of the server stays failed with its words and is not retried', async () => {
    vi.useFakeTimers();
    try {
      const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
      await h.lookupAnswers([]);
      await h.addFails({ retryable: false, message: '商品不存在' });
      expect(h.row()).toMatchObject({ status: 3, retryable: false, message: '商品不存在', sent: false });
      await vi.advanceTimersByTimeAsync(10 * RETRY_MAX_MS);
      expect(h.calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('scan2 machine: no scan lost, nothing sent twice', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('a dropped connection leaves the row failed and it is retried after 1 s, then 2 s', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupFails();
    expect(h.row()).toMatchObject({ status: 3, retryable: true, attempts: 1 });
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
    await vi.advanceTimersByTimeAsync(999);
    expect(h.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.calls).toHaveLength(2);
    expect(h.row().status).toBe(1);
    h.feedback.mockClear();
    await h.lookupFails();
    expect(h.feedback).not.toHaveBeenCalled(); // retries stay quiet
    await vi.advanceTimersByTimeAsync(1999);
    expect(h.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.calls).toHaveLength(3);
  });

  it("retry.now (the browser's 'online') retries at once", async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupFails();
    h.actor.send({ type: 'retry.now' });
    await flush();
    expect(h.calls).toHaveLength(2);
    expect(h.row().status).toBe(1);
  });

  it('an add whose answer was lost is not sent again when the check finds it arrived', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupAnswers([]);
    await h.addFails(); // the request went out; no answer came back
    expect(h.row()).toMatchObject({ status: 3, sent: true });
    await vi.advanceTimersByTimeAsync(1000);
    await h.lookupAnswers([record({ status: 'match' })]);
    expect(h.row()).toMatchObject({ status: 4, sent: false });
    expect(h.calls.filter((c) => c.kind === 'add')).toHaveLength(1);
  });

  it('an add that did not arrive (the imported parcel still unseen) is sent again', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupAnswers([record({ status: 'init', count: 2 })]);
    await h.addFails();
    await vi.advanceTimersByTimeAsync(1000);
    await h.lookupAnswers([record({ status: 'init', count: 2 })]);
    expect(h.calls.filter((c) => c.kind === 'add')).toHaveLength(2);
    expect(h.row()).toMatchObject({ status: 1, sent: true });
    await h.addAnswers([record({ status: 'scan', count: 1 })]);
    expect(h.row().status).toBe(2);
  });

  it('an imported parcel whose add arrived without its answer is settled by the check, not sent again as a repeat', async () => {
    // 2 units announced; the add sees that row with the 1 unit scanned: the units did not grow.
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupAnswers([record({ status: 'init', count: 2 })]);
    await h.addFails();
    await vi.advanceTimersByTimeAsync(1000);
    h.feedback.mockClear();
    await h.lookupAnswers([record({ status: 'match', count: 1, matchedUser: '小王', mainId: 41, subId: 0 })]);
    expect(h.row()).toMatchObject({ status: 4, message: '已匹配：小王 的任务 41' });
    expect(h.feedback).toHaveBeenLastCalledWith('matched');
    expect(h.calls.filter((c) => c.kind === 'add')).toHaveLength(1);
  });

  it('a success retries the failed rows at once (the server answers again)', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ key: 1, trackingId: 'A', status: 1 }), aRow({ key: 2, trackingId: 'B', status: 0 })] });
    await h.lookupFails();
    h.actor.send({ type: 'row.submit', key: 2 });
    await flush();
    await h.lookupAnswers([]);
    await h.addAnswers([record({ trackingId: 'B' })]);
    expect(h.row(1).status).toBe(1);
    expect(h.last('lookup').input).toEqual({ trackingId: 'A' });
  });

  it('restored rows: pending stay pending, a row caught in 1 by the reload is checked again at once', async () => {
    const h = harness({
      item: earbuds,
      nextKey: 3,
      rows: [aRow({ key: 1, trackingId: 'A', status: 1, sent: true }), aRow({ key: 2, trackingId: 'B', status: 0 })],
    });
    expect(h.snap().context.item).toEqual(earbuds);
    expect(h.last('lookup').input).toEqual({ trackingId: 'A' });
    await h.lookupAnswers([record({ trackingId: 'A' })]);
    expect(h.row(1).status).toBe(2);
    expect(h.row(2).status).toBe(0);
    h.scan('C');
    expect(h.row(3).trackingId).toBe('C');
  });

  it('what the page stores is the rows, the product, the next key and the scans that wait (none here)', () => {
    const h = harness({ item: earbuds });
    h.scan('1Z001');
    expect(persistedOf(h.snap().context)).toEqual({
      item: earbuds,
      rows: [expect.objectContaining({ trackingId: '1Z001', status: 0 })],
      nextKey: 2,
      choice: null,
      held: [],
      vetting: null,
    });
  });

  it(`keeps every unsettled row and at most ${SETTLED_ROWS_KEPT} settled ones`, () => {
    const settled = Array.from({ length: SETTLED_ROWS_KEPT + 5 }, (_, i) => aRow({ key: i + 10, trackingId: `S${i}`, status: 2 }));
    const h = harness({ item: earbuds, rows: [aRow({ key: 1, trackingId: 'P', status: 3 }), ...settled] });
    h.scan('NEW');
    const rows = h.rows();
    expect(rows.filter((r) => r.status === 2)).toHaveLength(SETTLED_ROWS_KEPT);
    expect(rows.some((r) => r.trackingId === 'P')).toBe(true);
    expect(rows.at(-1)?.trackingId).toBe('NEW');
    h.actor.send({ type: 'rows.clearSettled' });
    expect(h.rows().map((r) => r.trackingId)).toEqual(['P', 'NEW']);
  });
});

// ------------------------------------------------------------------ model-based
//
// The life of one scanned row as its own small machine (createTestModel cannot drive invoke/after):
// what the clerk, the server and the clock can do and the status that must follow. Every shortest
// path is replayed against the real actor; the row under test is the first one scanned.

const rowSpec = createMachine({
  id: 'scan2RowSpec',
  initial: 'noProduct',
  states: {
    noProduct: { on: { 'scan.first': 'noProduct', 'item.select': 'ready' } },
    ready: { on: { 'scan.first': 'pending' } },
    pending: { on: { 'scan.first': 'pending', 'row.delete': 'deleted', 'row.submit': 'checking', 'scan.next': 'checking' } },
    checking: {
      on: { 'lookup.clear': 'sending', 'lookup.scanned': 'duplicate', 'lookup.fails': 'failedBeforeSend', 'row.delete': 'checking' },
    },
    sending: {
      on: {
        'add.match': 'matchOk',
        'add.unmatch': 'matchFailed',
        'add.scan': 'submitted',
        'add.lost': 'failedAfterSend',
        'add.refused': 'refused',
      },
    },
    failedBeforeSend: { on: { 'retry.now': 'checking', 'row.delete': 'failedBeforeSend' } },
    failedAfterSend: { on: { 'retry.now': 'rechecking' } },
    rechecking: { on: { 'lookup.arrived': 'matchOk', 'lookup.clear': 'sending' } },
    submitted: { on: { 'row.delete': 'submitted', 'scan.first': 'submitted' } },
    matchOk: {},
    matchFailed: {},
    refused: { on: { 'retry.now': 'refused' } },
    duplicate: {},
    deleted: { on: { 'scan.first': 'pendingAgain' } },
    pendingAgain: {},
  },
});

const serializeState = (s: { value: unknown }) => JSON.stringify(s.value);

describe('scan2 machine: model', () => {
  it('the real machine reaches every combination of sender and retry states', () => {
    const paths = getShortestPaths(scan2Machine, {
      input: { item: earbuds, rows: [aRow({ status: 1 })] },
      events: [
        { type: 'xstate.done.actor.0.scan2.sender.checking', output: [] },
        { type: 'xstate.error.actor.0.scan2.sender.checking', error: { retryable: true, message: '' } },
        { type: 'xstate.done.actor.0.scan2.sender.sending', output: [record()] },
        { type: 'retry.now' },
      ] as never,
      serializeState,
    });
    const reached = new Set(paths.map((p) => serializeState(p.state)));
    expect(reached).toContain(JSON.stringify({ scanner: 'ready', sender: 'checking', retry: 'idle' }));
    expect(reached).toContain(JSON.stringify({ scanner: 'ready', sender: 'sending', retry: 'idle' }));
    expect(reached).toContain(JSON.stringify({ scanner: 'ready', sender: 'idle', retry: 'waiting' }));
  });

  const model = createTestModel(rowSpec, { serializeState });
  const paths = model.getShortestPaths();

  it('the replayed paths visit every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((step) => serializeState(step.state))));
    expect(reached.size).toBe(Object.keys(rowSpec.root.states).length);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const h = harness();
      const status = () => h.row(1)?.status;
      const addCalls = () => h.calls.filter((c) => c.kind === 'add').length;
      await path.test({
        events: {
          'item.select': () => void h.select(),
          'scan.first': () => void h.scan('1Z001'),
          'scan.next': () => void h.scan('1Z002'),
          'row.submit': () => void h.actor.send({ type: 'row.submit', key: 1 }),
          'row.delete': () => void h.actor.send({ type: 'row.delete', key: 1 }),
          'lookup.clear': async () => void (await h.lookupAnswers([])),
          'lookup.scanned': async () => void (await h.lookupAnswers([record({ status: 'scan' })])),
          'lookup.arrived': async () => void (await h.lookupAnswers([record({ status: 'match' })])),
          'lookup.fails': async () => void (await h.lookupFails()),
          'add.match': async () => void (await h.addAnswers([record({ status: 'match' })])),
          'add.unmatch': async () => void (await h.addAnswers([record({ status: 'unmatch' })])),
          'add.scan': async () => void (await h.addAnswers([record({ status: 'scan' })])),
          'add.lost': async () => void (await h.addFails({ retryable: true, message: '' })),
          'add.refused': async () => void (await h.addFails({ retryable: false, message: '商品不存在' })),
          'retry.now': async () => {
            h.actor.send({ type: 'retry.now' });
            await flush();
          },
        },
        states: {
          noProduct: () => {
            expect(h.rows()).toEqual([]);
            expect(h.snap().context.item).toBeNull();
          },
          ready: () => expect(h.rows()).toEqual([]),
          pending: () => {
            expect(status()).toBe(0);
            expect(h.rows()).toHaveLength(1);
          },
          checking: () => {
            expect(status()).toBe(1);
            expect(h.last('lookup').input).toEqual({ trackingId: '1Z001' });
          },
          sending: () => {
            expect(status()).toBe(1);
            expect(h.last('add').input).toEqual({ trackingId: '1Z001', itemId: 5, upc: earbuds.upc, count: 1 });
            expect(h.row(1).sent).toBe(true);
          },
          failedBeforeSend: () => expect(h.row(1)).toMatchObject({ status: 3, retryable: true, sent: false }),
          failedAfterSend: () => expect(h.row(1)).toMatchObject({ status: 3, retryable: true, sent: true }),
          rechecking: () => {
            expect(status()).toBe(1);
            expect(h.last('lookup').input).toEqual({ trackingId: '1Z001' });
            expect(addCalls()).toBe(1);
          },
          submitted: () => expect(status()).toBe(2),
          matchOk: () => {
            expect(status()).toBe(4);
            expect(addCalls()).toBe(1); // never twice
          },
          matchFailed: () => expect(status()).toBe(5),
          refused: () => expect(h.row(1)).toMatchObject({ status: 3, retryable: false, message: '商品不存在' }),
          duplicate: () => {
            expect(h.row(1)).toMatchObject({ status: 3, retryable: false, message: 'tracking已提交过' });
            expect(addCalls()).toBe(0);
          },
          deleted: () => expect(status()).toBe(9),
          pendingAgain: () => expect(h.rows().map((r) => r.status)).toEqual([9, 0]),
        },
      });
    });
  }
});

// ------------------------------------------------------------------ a product code is not a tracking id (decision 074)

describe('a product code scanned on scan2', () => {
  const nintendo: Scan2Item = { id: 11, itemName: 'Nintendo Switch', upc: '045496883386' };

  it('knows the chosen product and those of its rows, newest first, once each', () => {
    const rows = [aRow({ key: 1 }), aRow({ key: 2, itemId: charger.id, itemName: charger.itemName, upc: charger.upc }), aRow({ key: 3 })];
    expect(loadedItems({ item: nintendo, rows })).toEqual([nintendo, earbuds, charger]);
    expect(loadedItems({ item: null, rows: [] })).toEqual([]);
    // The oldest row's product too.
    expect(loadedItems({ item: null, rows: [rows[1]!, rows[0]!] })).toEqual([earbuds, charger]);
  });

  it('the chosen product’s own code makes no tracking row: the product stays chosen, with a warning and its own sound', () => {
    const h = harness({ item: nintendo });
    for (const code of ['045496883386', '0045496883386']) {
      h.scan(code);
      expect(h.rows()).toEqual([]);
      expect(h.snap().context.notice).toEqual({ kind: 'product', code, message: scan2Messages.productChosen('Nintendo Switch') });
      expect(h.feedback).toHaveBeenLastCalledWith('productCode');
    }
    expect(h.calls).toEqual([]);
    h.scan('1Z999AA10123456784');
    expect(h.rows()).toMatchObject([{ trackingId: '1Z999AA10123456784', itemId: nintendo.id }]);
  });

  it('the code of a product of earlier rows chooses that product for the next scans', () => {
    const h = harness({ item: nintendo, rows: [aRow({ status: SCAN2_STATUS.submitted })] });
    h.scan(earbuds.upc);
    expect(h.snap().context.item).toEqual(earbuds);
    expect(h.rows()).toHaveLength(1);
    h.scan('TBA123456789000');
    expect(h.rows().at(-1)).toMatchObject({ trackingId: 'TBA123456789000', itemId: earbuds.id, upc: earbuds.upc });
  });

  it('with no product chosen, a loaded product’s code chooses it; a code that is no valid GTIN stays a tracking id', () => {
    const h = harness({ rows: [aRow({ status: SCAN2_STATUS.submitted })] });
    expect(scanVerdict(h.snap().context, earbuds.upc)).toEqual({
      ok: false,
      kind: 'select',
      message: '已选择商品：蓝牙耳机，请扫描包裹的快递单号',
      item: earbuds,
    });
    // charger's upc (999000111) is no GTIN: a parcel may carry that number.
    expect(scanVerdict({ item: charger, rows: [] }, charger.upc)).toEqual({ ok: true, code: charger.upc });
    // A valid GTIN of no loaded product is asked of the catalog first; told it is no product's, it is a tracking id.
    expect(scanVerdict({ item: charger, rows: [] }, '4901234567894')).toEqual({ ok: false, kind: 'catalog' });
    expect(scanVerdict({ item: charger, rows: [] }, '4901234567894', true)).toEqual({ ok: true, code: '4901234567894' });
    // Already listed (the catalog said so before): a repeat, not asked again.
    const listed = aRow({ trackingId: '4901234567894', status: SCAN2_STATUS.pending });
    expect(scanVerdict({ item: charger, rows: [listed] }, '4901234567894')).toEqual({ ok: false, kind: 'duplicate', message: scan2Messages.waiting });
    expect(scanVerdict({ item: charger, rows: [{ ...listed, status: SCAN2_STATUS.deleted }] }, '4901234567894')).toEqual({ ok: false, kind: 'catalog' });
    // No product chosen: asked all the same (that is how a product is chosen by the scanner alone).
    expect(scanVerdict({ item: null, rows: [] }, '4901234567894')).toEqual({ ok: false, kind: 'catalog' });
    expect(scanVerdict({ item: null, rows: [] }, '4901234567894', true)).toEqual({ ok: false, kind: 'refused', message: '请选择商品' });
  });
});

// ------------------------------------------------------------------ what the clerk reads and hears
//
// Rules a mutation run (decision 042) showed no test pinned: the banner's code and words, a row's
// time and message, which rows a retry or the clear button touches, the numbering after a reload.

describe('scan2 machine: the banner and a new row', () => {
  const notice = (h: ReturnType<typeof harness>) => h.snap().context.notice;

  it('a new row carries the time it was scanned and no words yet; the banner names the accepted code', () => {
    const h = harness({ item: earbuds });
    h.actor.send({ type: 'scan.code', code: ' 1Z001 ', at: 1_764_400_000_000 });
    expect(h.row()).toMatchObject({ status: 0, scannedAt: 1_764_400_000_000, message: '', attempts: 0, retryable: true, sent: false });
    expect(notice(h)).toEqual({ kind: 'accepted', code: '1Z001' });
  });

  it('the banner shows a repeat, a refused code and a product code as scanned, without the blanks around it', () => {
    const h = harness({ item: earbuds });
    h.scan('1Z001');
    h.scan(' 1Z001 ');
    expect(notice(h)).toEqual({ kind: 'duplicate', code: '1Z001', message: '该快递单号已在列表中，等待提交' });
    h.select(null);
    h.scan(' 1Z002 ');
    expect(notice(h)).toEqual({ kind: 'refused', code: '1Z002', message: '请选择商品' });
    h.select(earbuds);
    h.scan(` ${earbuds.upc} `);
    expect(notice(h)).toEqual({
      kind: 'product',
      code: earbuds.upc,
      message: '这是商品条码（UPC），不是快递单号：请扫描包裹上的快递面单（已选择商品：蓝牙耳机）',
    });
    expect(h.rows()).toHaveLength(1);
  });

  it('a blank scan (the scanner’s Enter alone) makes no row, no banner and no sound', () => {
    const h = harness({ item: earbuds });
    h.scan('   ');
    expect(h.rows()).toEqual([]);
    expect(notice(h)).toBeNull();
    expect(h.feedback).not.toHaveBeenCalled();
  });

  it('choosing a product clears the last banner', () => {
    const h = harness();
    h.scan('1Z001');
    expect(notice(h)?.kind).toBe('refused');
    h.select();
    expect(notice(h)).toBeNull();
  });

  it('with a UPC the UPC decides: a record of the same item under another code is another product', () => {
    expect(settledStatus([record({ upc: '4901234567894', status: 'match' })], aRow())).toBe(2);
    expect(checkOutcome(aRow(), [record({ upc: '4901234567894', status: 'scan' })])).toEqual({ kind: 'send' });
  });

  it('a product without a UPC is known by its item', () => {
    const soap = aRow({ itemId: 8, itemName: '手工皂', upc: '' });
    expect(checkOutcome(soap, [record({ upc: 'SOAP-8', itemId: 8, status: 'scan' })])).toEqual({ kind: 'duplicate' });
    expect(settledStatus([record({ upc: 'SOAP-8', itemId: 8, status: 'match' })], soap)).toBe(4);
    expect(settledStatus([record({ upc: 'SOAP-9', itemId: 9, status: 'match' })], soap)).toBe(2);
  });

  it('a matched record without its task names no task', () => {
    expect(settledMessage([record({ status: 'match', matchedUser: '小王', mainId: null })], aRow())).toBe('');
  });

  it('only a pending row offers delete and submit: a settled row beside a pending one keeps its status', () => {
    const h = harness({ item: earbuds, rows: [aRow({ key: 1, trackingId: 'A', status: 2 }), aRow({ key: 2, trackingId: 'B', status: 0 })] });
    expect(h.snap().can({ type: 'row.delete', key: 1 })).toBe(false);
    expect(h.snap().can({ type: 'row.submit', key: 1 })).toBe(false);
    h.actor.send({ type: 'row.delete', key: 1 });
    h.actor.send({ type: 'row.submit', key: 1 });
    expect(h.rows().map((r) => r.status)).toEqual([2, 0]);
    expect(h.calls).toEqual([]);
  });

  it('submitting all pending rows, or the next scan, leaves the rows already sent or failed as they are', () => {
    const rows = [
      aRow({ key: 1, trackingId: 'A', status: 2 }),
      aRow({ key: 2, trackingId: 'B', status: 3, retryable: false }),
      aRow({ key: 3, trackingId: 'C' }),
    ];
    let h = harness({ item: earbuds, rows });
    h.actor.send({ type: 'rows.submitPending' });
    expect(h.rows().map((r) => r.status)).toEqual([2, 3, 1]);
    h = harness({ item: earbuds, rows });
    h.scan('D');
    expect(h.rows().map((r) => r.status)).toEqual([2, 3, 1, 0]);
  });
});

describe('scan2 machine: failures and retries the clerk sees', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('a check the server refuses keeps its words and is tried again neither after the backoff nor on retry.now', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupFails({ retryable: false, message: 'A00003 无权限' });
    expect(h.row()).toMatchObject({ status: 3, retryable: false, message: 'A00003 无权限' });
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
    await vi.advanceTimersByTimeAsync(10 * RETRY_MAX_MS);
    h.actor.send({ type: 'retry.now' });
    await flush();
    expect(h.calls).toHaveLength(1);
  });

  it('a refusal without words shows none (the stored list holds text)', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupFails({ retryable: false } as Scan2SendError);
    expect(h.row()).toMatchObject({ status: 3, retryable: false, message: '' });
  });

  it('without the page’s calls (the bare machine) a queued row fails, is kept and will be retried', async () => {
    const actor = createActor(scan2Machine, { input: { item: earbuds, rows: [aRow({ status: 1 })] } }).start();
    await flush();
    expect(actor.getSnapshot().context.rows).toMatchObject([{ status: 3, retryable: true, message: '' }]);
    actor.stop();
  });

  it('a call rejected with anything else (text, nothing) leaves the row failed and retried, with no words', async () => {
    for (const error of ['oops', null, undefined]) {
      const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
      await h.lookupFails(error as unknown as Scan2SendError);
      expect(h.row()).toMatchObject({ status: 3, retryable: true, message: '' });
      await vi.advanceTimersByTimeAsync(1000);
      expect(h.calls).toHaveLength(2);
    }
  });

  it('retry.now starts the backoff again: the next wait is a full second', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupFails();
    await vi.advanceTimersByTimeAsync(500);
    h.actor.send({ type: 'retry.now' });
    await flush();
    await h.lookupFails();
    await vi.advanceTimersByTimeAsync(999);
    expect(h.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.calls).toHaveLength(3);
  });

  it('a row after settled ones is checked, sent and sounded as itself', async () => {
    const done = aRow({ key: 1, trackingId: 'A', itemId: charger.id, itemName: charger.itemName, upc: charger.upc, status: 2, attempts: 3 });
    const h = harness({ item: earbuds, rows: [done, aRow({ key: 2, trackingId: 'B', status: 1 })] });
    await h.lookupAnswers([]);
    expect(h.last('add').input).toEqual({ trackingId: 'B', itemId: earbuds.id, upc: earbuds.upc, count: 1 });
    await h.addFails();
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
    await vi.advanceTimersByTimeAsync(1000);
    await h.lookupAnswers([]);
    await h.addAnswers([record({ trackingId: 'B', status: 'scan' })]);
    expect(h.row(2).status).toBe(2);
    expect(h.feedback.mock.calls).toEqual([['failed'], ['accepted']]);
  });

  it('a repeat found by the check of a row after another product’s row is refused, and the next row is checked', async () => {
    const other = aRow({ key: 1, trackingId: 'A', itemId: charger.id, itemName: charger.itemName, upc: charger.upc, status: 2 });
    const h = harness({ item: earbuds, rows: [other, aRow({ key: 2, trackingId: 'B', status: 1 }), aRow({ key: 3, trackingId: 'C', status: 1 })] });
    await h.lookupAnswers([record({ trackingId: 'B', status: 'scan' })]);
    expect(h.row(2)).toMatchObject({ status: 3, retryable: false, message: 'tracking已提交过' });
    expect(h.last('lookup').input).toEqual({ trackingId: 'C' });
    expect(h.calls.filter((c) => c.kind === 'add')).toHaveLength(0);
  });

  it('a dropped check shows the words of its failure and is retried', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupFails({ retryable: true, message: '网络连接失败' });
    expect(h.row()).toMatchObject({ status: 3, retryable: true, message: '网络连接失败' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.calls).toHaveLength(2);
  });

  it('a failure without the words of an answer (a thrown TypeError) is retried and shows no words of its own', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupFails(new TypeError('Failed to fetch') as unknown as Scan2SendError);
    expect(h.row()).toMatchObject({ status: 3, retryable: true, message: '' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.calls).toHaveLength(2);
  });

  it('only the first failed add of a row sounds; its retries stay quiet', async () => {
    const h = harness({ item: earbuds, rows: [aRow({ status: 1 })] });
    await h.lookupAnswers([]);
    await h.addFails();
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
    h.feedback.mockClear();
    await vi.advanceTimersByTimeAsync(1000);
    await h.lookupAnswers([]);
    await h.addFails();
    expect(h.feedback).not.toHaveBeenCalled();
    expect(h.row()).toMatchObject({ status: 3, attempts: 2 });
  });

  it('a refused row stays failed when the others are retried, after the backoff and on retry.now', async () => {
    const h = harness({
      item: earbuds,
      rows: [aRow({ key: 1, trackingId: 'A', status: 3, retryable: false, message: '商品不存在' }), aRow({ key: 2, trackingId: 'B', status: 1 })],
    });
    await h.lookupFails();
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.row(2).status).toBe(1);
    await h.lookupFails();
    h.actor.send({ type: 'retry.now' });
    await flush();
    expect(h.row(1)).toMatchObject({ status: 3, message: '商品不存在' });
    expect(h.calls.map((c) => c.input.trackingId)).toEqual(['B', 'B', 'B']);
  });

  it('an earlier add found arrived sounds as settled and retries the failed rows at once', async () => {
    const h = harness({
      item: earbuds,
      rows: [aRow({ key: 1, trackingId: 'A', status: 3, attempts: 1 }), aRow({ key: 2, trackingId: 'B', status: 1, sent: true })],
    });
    await h.lookupAnswers([record({ trackingId: 'B', status: 'unmatch' })]);
    expect(h.row(2).status).toBe(5);
    expect(h.feedback).toHaveBeenLastCalledWith('unmatched');
    expect(h.row(1).status).toBe(1);
    expect(h.last('lookup').input).toEqual({ trackingId: 'A' });
  });
});

describe('scan2 machine: the list', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('clearing the list drops the rows that are done (2, 4, 5, 9, refused 3) and keeps every row not yet on the server', () => {
    const rows = (
      [
        ['P', 0, true],
        ['Q', 1, true],
        ['R', 3, true],
        ['X', 3, false],
        ['S', 2, true],
        ['M', 4, true],
        ['U', 5, true],
        ['D', 9, true],
      ] as const
    ).map(([trackingId, status, retryable], i) => aRow({ key: i + 1, trackingId, status, retryable }));
    const h = harness({ item: earbuds, rows });
    h.actor.send({ type: 'rows.clearSettled' });
    expect(h.rows().map((r) => r.trackingId)).toEqual(['P', 'Q', 'R']);
  });

  it(`past ${SETTLED_ROWS_KEPT} rows done, the oldest drop off first`, () => {
    const done = [2, 4, 5, 9] as const;
    const rows = Array.from({ length: SETTLED_ROWS_KEPT + 2 }, (_, i) => aRow({ key: i + 10, trackingId: `S${i}`, status: done[i % 4]! }));
    const h = harness({ item: earbuds, rows });
    h.scan('NEW');
    expect(h.rows()).toHaveLength(SETTLED_ROWS_KEPT + 1);
    expect(h.rows()[0]!.trackingId).toBe('S2');
    expect(h.rows().at(-2)!.trackingId).toBe(`S${SETTLED_ROWS_KEPT + 1}`);
  });

  it('a restored list numbers a new row after its last one: deleting the new row leaves the others', () => {
    const h = harness({ item: earbuds, rows: [aRow({ key: 1, trackingId: 'A' }), aRow({ key: 2, trackingId: 'B' })] });
    h.scan('C');
    h.actor.send({ type: 'row.delete', key: 3 });
    expect(h.rows().map((r) => [r.key, r.trackingId, r.status])).toEqual([
      [1, 'A', 1],
      [2, 'B', 1],
      [3, 'C', 9],
    ]);
  });

  it('the stored numbering goes on after rows were cleared', () => {
    const h = harness({ item: earbuds, nextKey: 40, rows: [aRow({ key: 1, trackingId: 'A', status: 2 })] });
    h.scan('C');
    expect(h.rows().map((r) => r.key)).toEqual([1, 40]);
  });
});

// ------------------------------------------------------------------ by the scanner alone (decision 085)
//
// A product chosen by scanning its code (the catalog asked for a code no loaded product has), several
// products of one code chosen by their number, and the command barcodes of /admin/scan.

describe('scan2 rules as functions: the products of a code, a number of the choice', () => {
  const a: Scan2Candidate = { id: 21, itemName: '钢化膜', upc: '690000000300', status: 'open' };
  const b: Scan2Candidate = { id: 22, itemName: '防窥膜', upc: '0690000000300', status: 'open' };
  const closed: Scan2Candidate = { id: 23, itemName: '旧款膜', upc: '690000000300', status: 'close' };
  const other: Scan2Candidate = { id: 24, itemName: '名字里有690000000300', upc: '690000000317' };

  it('offers the items of the code (however written), the open ones when there are any, at most nine', () => {
    expect(productChoices('690000000300', [a, other, b, closed])).toEqual([
      { id: 21, itemName: '钢化膜', upc: '690000000300' },
      { id: 22, itemName: '防窥膜', upc: '0690000000300' },
    ]);
    // None open: the others (a parcel of a closed item still arrives).
    expect(productChoices('690000000300', [closed, other])).toEqual([{ id: 23, itemName: '旧款膜', upc: '690000000300' }]);
    // An item without a status counts as open.
    expect(productChoices('690000000300', [{ ...a, status: undefined }, closed])).toEqual([{ id: 21, itemName: '钢化膜', upc: '690000000300' }]);
    expect(productChoices('690000000300', [other])).toEqual([]);
    const many = Array.from({ length: CHOICES_MAX + 3 }, (_, i) => ({ ...a, id: 100 + i }));
    expect(productChoices('690000000300', many).map((item) => item.id)).toEqual(many.slice(0, CHOICES_MAX).map((item) => item.id));
  });

  it('a number of the choice is 1-9 as typed (blanks around it), within the products offered', () => {
    const choice = { code: '690000000300', items: [a, b] };
    expect(choiceByDigit(choice, '1')).toBe(a);
    expect(choiceByDigit(choice, ' 2 ')).toBe(b);
    for (const typed of ['3', '0', '12', '01', '1.', '1a', '', '２']) expect(choiceByDigit(choice, typed), typed).toBeNull();
    expect(choiceByDigit(null, '1')).toBeNull();
  });

  it('the newest pending row is the one 取消 takes back', () => {
    expect(lastPendingRow([aRow({ key: 1 }), aRow({ key: 2 }), aRow({ key: 3, status: 1 })])?.key).toBe(2);
    expect(lastPendingRow([aRow({ key: 1, status: 2 })])).toBeNull();
  });
});

describe('scan2 machine: a product chosen by its code', () => {
  const film: Scan2Item = { id: 21, itemName: '钢化膜', upc: '690000000300' };
  const privacy: Scan2Item = { id: 22, itemName: '防窥膜', upc: '690000000300' };
  const notice = (h: ReturnType<typeof harness>) => h.snap().context.notice;
  const scanner = (h: ReturnType<typeof harness>) => (h.snap().value as { scanner: string }).scanner;

  it('with no product chosen, a product’s code is asked of the catalog and the one product is chosen, with the accepted sound; the labels then go in', async () => {
    const h = harness();
    h.scan(' 690000000317 ');
    expect(scanner(h)).toBe('vetting');
    expect(h.finds.map((f) => f.upc)).toEqual(['690000000317']);
    await h.catalogAnswers([{ id: 24, itemName: '支架', upc: '690000000317', status: 'open' }]);
    expect(h.snap().context.item).toEqual({ id: 24, itemName: '支架', upc: '690000000317' });
    expect(notice(h)).toEqual({ kind: 'chosen', message: '已选择商品：支架，请扫描包裹的快递单号' });
    expect(h.feedback.mock.calls).toEqual([['accepted']]);
    expect(scanner(h)).toBe('ready');
    h.scan('1Z001');
    expect(h.rows()).toMatchObject([{ trackingId: '1Z001', itemId: 24, upc: '690000000317', status: 0 }]);
    // Known now: its code again is the chosen product's, not asked again.
    h.scan('690000000317');
    expect(h.finds).toHaveLength(1);
    expect(notice(h)?.kind).toBe('product');
  });

  it('the only open product of a code is chosen without asking the clerk', async () => {
    const h = harness();
    h.scan(film.upc);
    await h.catalogAnswers([
      { ...film, status: 'open' },
      { ...privacy, status: 'close' },
    ]);
    expect(h.snap().context.item).toEqual(film);
    expect(scanner(h)).toBe('ready');
  });

  it('a valid GTIN the catalog names no product of is a tracking id, with the time it was scanned; so is one the catalog could not be asked about', async () => {
    const h = harness({ item: earbuds });
    h.actor.send({ type: 'scan.code', code: '4901234567894', at: 1_764_400_000_000 });
    expect(h.rows()).toEqual([]);
    await h.catalogAnswers([{ id: 30, itemName: '别的', upc: '4901234567900', status: 'open' }]);
    expect(h.rows()).toMatchObject([{ trackingId: '4901234567894', itemId: earbuds.id, scannedAt: 1_764_400_000_000, status: 0 }]);
    expect(notice(h)).toEqual({ kind: 'accepted', code: '4901234567894' });
    h.scan('690000000324');
    await h.catalogFails();
    expect(h.rows().map((r) => [r.trackingId, r.status])).toEqual([
      ['4901234567894', 1],
      ['690000000324', 0],
    ]);
    expect(h.snap().context.vetting).toBeNull();
    // No product chosen: the catalog's no makes it a tracking id that needs one.
    const bare = harness();
    bare.scan('4901234567894');
    await bare.catalogAnswers([]);
    expect(notice(bare)).toEqual({ kind: 'refused', code: '4901234567894', message: '请选择商品' });
    expect(bare.feedback).toHaveBeenLastCalledWith('failed');
  });

  it('scans that come while the catalog is asked wait and are taken in order after it, with their times', async () => {
    const h = harness();
    h.scan(film.upc);
    h.actor.send({ type: 'scan.code', code: '1Z001', at: 11 });
    h.actor.send({ type: 'scan.code', code: '1Z002', at: 12 });
    expect(h.rows()).toEqual([]);
    expect(h.snap().context.held).toEqual([
      { code: '1Z001', at: 11 },
      { code: '1Z002', at: 12 },
    ]);
    await h.catalogAnswers([film]);
    expect(h.rows().map((r) => [r.trackingId, r.itemId, r.scannedAt, r.status])).toEqual([
      ['1Z001', film.id, 11, 1],
      ['1Z002', film.id, 12, 0],
    ]);
    expect(h.snap().context.held).toEqual([]);
    expect(notice(h)).toEqual({ kind: 'accepted', code: '1Z002' });
  });

  it('a code the catalog names no product of goes in before the scans that waited behind it', async () => {
    const h = harness({ item: earbuds });
    h.scan('4901234567894');
    h.scan('1Z001');
    await h.catalogAnswers([]);
    expect(h.rows().map((r) => r.trackingId)).toEqual(['4901234567894', '1Z001']);
  });

  it('a command barcode scanned while the catalog is asked waits its turn too', async () => {
    const h = harness({ item: earbuds });
    h.scan('4901234567894');
    h.scan('PH-CMD-SUBMIT');
    await h.catalogAnswers([]);
    expect(h.rows().map((r) => [r.trackingId, r.status])).toEqual([['4901234567894', 1]]);
    expect(notice(h)).toEqual({ kind: 'command', message: '已提交 1 条待提交记录' });
  });

  it('another loaded product’s code chooses it at once, with the accepted sound (no catalog)', () => {
    const h = harness({ item: earbuds, rows: [aRow({ itemId: film.id, itemName: film.itemName, upc: film.upc, status: 2 })] });
    h.scan(film.upc);
    expect(h.snap().context.item).toEqual(film);
    expect(notice(h)).toEqual({ kind: 'chosen', message: '已选择商品：钢化膜，请扫描包裹的快递单号' });
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    expect(h.finds).toEqual([]);
  });
});

describe('scan2 machine: several products of one code, chosen by number', () => {
  const film: Scan2Item = { id: 21, itemName: '钢化膜', upc: '690000000300' };
  const privacy: Scan2Item = { id: 22, itemName: '防窥膜', upc: '690000000300' };
  const notice = (h: ReturnType<typeof harness>) => h.snap().context.notice;
  const scanner = (h: ReturnType<typeof harness>) => (h.snap().value as { scanner: string }).scanner;

  async function choosing(input: Scan2Input = {}) {
    const h = harness(input);
    h.scan(film.upc);
    await h.catalogAnswers([film, privacy]);
    return h;
  }

  it('opens the choice: the products listed, what to type, and the sound of a product to be named', async () => {
    const h = await choosing();
    expect(scanner(h)).toBe('choosing');
    expect(h.snap().context.choice).toEqual({ code: film.upc, items: [film, privacy] });
    expect(notice(h)).toEqual({ kind: 'choose', code: film.upc, message: '此UPC对应 2 个商品：按数字键 1–2 后回车选择，或扫描「取消」' });
    expect(h.feedback.mock.calls).toEqual([['unknown']]);
    expect(h.snap().context.item).toBeNull();
  });

  it('the number typed (then Enter) chooses that product and closes the choice; the labels then go in', async () => {
    const h = await choosing();
    h.scan('2');
    expect(h.snap().context.item).toEqual(privacy);
    expect(h.snap().context.choice).toBeNull();
    expect(notice(h)).toEqual({ kind: 'chosen', message: '已选择商品：防窥膜，请扫描包裹的快递单号' });
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    expect(scanner(h)).toBe('ready');
    h.scan('2');
    expect(h.rows()).toMatchObject([{ trackingId: '2', itemId: privacy.id }]);
  });

  it('a number beyond the list is refused while the choice is open (a mistyped choice, not a parcel); a blank scan says nothing', async () => {
    const h = await choosing({ item: earbuds });
    h.scan(' 3 ');
    expect(notice(h)).toEqual({ kind: 'refused', code: '3', message: '请先选择商品：按数字键 1–2 后回车，或扫描「取消」' });
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
    expect(h.snap().context.held).toEqual([]);
    h.scan('1Z001');
    h.scan('9');
    expect(notice(h)).toEqual({ kind: 'refused', code: '9', message: '请先选择商品：按数字键 1–2 后回车，或扫描「取消」（已暂存 1 个快递单号）' });
    expect(h.rows()).toEqual([]);
    expect(h.snap().context.item).toEqual(earbuds);
    h.feedback.mockClear();
    h.scan('  ');
    expect(h.feedback).not.toHaveBeenCalled();
    expect(h.snap().context.held).toHaveLength(1);
    expect(scanner(h)).toBe('choosing');
  });

  it('a parcel’s label scanned while the choice is open is kept, in order, with the sound of the choice and the count in the banner; no row yet', async () => {
    const h = await choosing({ item: earbuds });
    h.feedback.mockClear();
    h.actor.send({ type: 'scan.code', code: ' 1Z001 ', at: 11 });
    expect(notice(h)).toEqual({ kind: 'kept', code: '1Z001', message: '请先选择商品：按数字键 1–2 后回车，或扫描「取消」（已暂存 1 个快递单号）' });
    expect(h.feedback.mock.calls).toEqual([['unknown']]);
    h.actor.send({ type: 'scan.code', code: '1Z002', at: 12 });
    expect(notice(h)).toMatchObject({ kind: 'kept', code: '1Z002', message: expect.stringContaining('（已暂存 2 个快递单号）') });
    expect(h.snap().context.held).toEqual([
      { code: ' 1Z001 ', at: 11 },
      { code: '1Z002', at: 12 },
    ]);
    expect(h.rows()).toEqual([]);
    // The product chosen before does not take them: nobody chose it for these parcels.
    expect(h.snap().context.item).toEqual(earbuds);
    expect(scanner(h)).toBe('choosing');
  });

  it('the number then Enter: the kept labels become rows under the chosen product, in order, with their times, as if scanned after it', async () => {
    const h = await choosing();
    h.actor.send({ type: 'scan.code', code: '1Z001', at: 11 });
    h.actor.send({ type: 'scan.code', code: '1Z002', at: 12 });
    h.scan('2');
    expect(scanner(h)).toBe('ready');
    expect(h.snap().context).toMatchObject({ item: privacy, choice: null, held: [] });
    expect(h.rows().map((r) => [r.key, r.trackingId, r.itemId, r.upc, r.scannedAt, r.status])).toEqual([
      [1, '1Z001', privacy.id, privacy.upc, 11, 1],
      [2, '1Z002', privacy.id, privacy.upc, 12, 0],
    ]);
    expect(notice(h)).toEqual({ kind: 'accepted', code: '1Z002' });
    expect(h.feedback.mock.calls.slice(-3)).toEqual([['accepted'], ['accepted'], ['accepted']]);
    expect(h.last('lookup').input).toEqual({ trackingId: '1Z001' });
  });

  it('a kept label is taken as it would be after the choice: a repeat of a listed or kept label is refused as a repeat, not added twice', async () => {
    const h = await choosing({ item: earbuds, rows: [aRow({ key: 1, trackingId: 'A', status: 2 })] });
    for (const code of ['A', 'B', 'B']) h.scan(code);
    expect(notice(h)).toMatchObject({ kind: 'kept', message: expect.stringContaining('已暂存 3 个') });
    h.actor.send({ type: 'choice.pick', index: 0 });
    expect(h.rows().map((r) => [r.trackingId, r.itemId])).toEqual([
      ['A', earbuds.id],
      ['B', film.id],
    ]);
    expect(notice(h)).toEqual({ kind: 'duplicate', code: 'B', message: scan2Messages.waiting });
    expect(h.feedback.mock.calls.slice(-4)).toEqual([['accepted'], ['duplicate'], ['accepted'], ['duplicate']]);
  });

  it('without a product chosen before, a label is kept all the same (not refused for want of a product)', async () => {
    const bare = await choosing();
    bare.scan('1Z001');
    expect(notice(bare)).toMatchObject({ kind: 'kept', code: '1Z001' });
    bare.actor.send({ type: 'choice.pick', index: 1 });
    expect(bare.rows()).toMatchObject([{ trackingId: '1Z001', itemId: privacy.id, status: 0 }]);
  });

  it('the product chosen before, scanned while the choice is open, stays chosen and closes the choice', async () => {
    const h = await choosing({ item: earbuds });
    h.scan(earbuds.upc);
    expect(scanner(h)).toBe('ready');
    expect(notice(h)).toMatchObject({ kind: 'product', code: earbuds.upc });
    expect(h.snap().context).toMatchObject({ item: earbuds, choice: null });
  });

  it('取消 with labels kept closes the choice and drops them, saying how many, with the failure sound: they have no product', async () => {
    const h = await choosing({ item: earbuds });
    h.scan('1Z001');
    h.scan('1Z002');
    h.scan('PH-CMD-CANCEL');
    expect(scanner(h)).toBe('ready');
    expect(h.snap().context).toMatchObject({ item: earbuds, choice: null, held: [] });
    expect(notice(h)).toEqual({ kind: 'command', message: '已取消选择商品：2 个暂存的快递单号未加入，请选择商品后重新扫描' });
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
    expect(h.rows()).toEqual([]);
    // Scanned again, they go in under the product chosen before.
    h.scan('1Z001');
    expect(h.rows()).toMatchObject([{ trackingId: '1Z001', itemId: earbuds.id }]);
    // The cancel on the screen does the same.
    const tapped = await choosing();
    tapped.scan('1Z003');
    tapped.feedback.mockClear();
    tapped.actor.send({ type: 'choice.cancel' });
    expect(tapped.snap().context).toMatchObject({ choice: null, held: [] });
    expect(notice(tapped)).toEqual({ kind: 'command', message: '已取消选择商品：1 个暂存的快递单号未加入，请选择商品后重新扫描' });
    expect(tapped.feedback.mock.calls).toEqual([['failed']]);
  });

  it('取消 closes the choice and keeps the product chosen before', async () => {
    const h = await choosing({ item: earbuds });
    h.scan('PH-CMD-CANCEL');
    expect(scanner(h)).toBe('ready');
    expect(h.snap().context.choice).toBeNull();
    expect(h.snap().context.item).toEqual(earbuds);
    expect(notice(h)).toEqual({ kind: 'command', message: '已取消选择商品' });
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    h.scan('1Z001');
    expect(h.rows()).toMatchObject([{ trackingId: '1Z001', itemId: earbuds.id }]);
  });

  it('another product’s code replaces the choice', async () => {
    const h = await choosing({ rows: [aRow({ status: 2 })] });
    h.scan(earbuds.upc);
    expect(h.snap().context.item).toEqual(earbuds);
    expect(h.snap().context.choice).toBeNull();
    expect(scanner(h)).toBe('ready');
    const again = await choosing();
    again.scan('690000000317');
    expect(scanner(again)).toBe('vetting');
    expect(again.finds.map((f) => f.upc)).toEqual([film.upc, '690000000317']);
  });

  it('提交 and 下一个包裹 work while the choice is open, and it stays open with its kept labels', async () => {
    const h = await choosing({ item: earbuds, rows: [aRow({ key: 1, trackingId: 'A' })] });
    h.scan('1Z001');
    h.scan('PH-CMD-SUBMIT');
    expect(h.row(1).status).toBe(1);
    expect(scanner(h)).toBe('choosing');
    h.scan('PH-CMD-NEXT');
    expect(notice(h)).toEqual({ kind: 'command', message: '请扫描下一个包裹的快递单号' });
    expect(scanner(h)).toBe('choosing');
    expect(h.snap().context.held).toEqual([{ code: '1Z001' }]);
    expect(h.rows()).toHaveLength(1);
  });

  it('another product’s code: the one product it names, or a loaded product, takes the kept labels; a new choice keeps them', async () => {
    // A code the catalog names one product of.
    const one = await choosing();
    one.scan('1Z001');
    one.scan('690000000317');
    expect(scanner(one)).toBe('vetting');
    one.scan('1Z002');
    await one.catalogAnswers([{ id: 24, itemName: '支架', upc: '690000000317', status: 'open' }]);
    expect(one.rows().map((r) => [r.trackingId, r.itemId])).toEqual([
      ['1Z001', 24],
      ['1Z002', 24],
    ]);
    expect(one.snap().context).toMatchObject({ choice: null, held: [], vetting: null });
    // A loaded product's code (the one chosen before): chosen at once, the labels go in under it.
    const loaded = await choosing({ item: earbuds });
    loaded.scan('1Z001');
    loaded.scan(earbuds.upc);
    expect(scanner(loaded)).toBe('ready');
    expect(loaded.rows()).toMatchObject([{ trackingId: '1Z001', itemId: earbuds.id }]);
    expect(loaded.snap().context.held).toEqual([]);
    // A code of several other products: a new choice, the labels kept for it, in order.
    const again = await choosing();
    again.scan('1Z001');
    again.scan('690000000324');
    again.scan('1Z002');
    const cable: Scan2Item = { id: 31, itemName: '数据线', upc: '690000000324' };
    const cable2: Scan2Item = { id: 32, itemName: '数据线 2米', upc: '690000000324' };
    await again.catalogAnswers([cable, cable2]);
    expect(scanner(again)).toBe('choosing');
    expect(again.snap().context.choice).toEqual({ code: cable.upc, items: [cable, cable2] });
    expect(again.snap().context.held.map((x) => x.code)).toEqual(['1Z001', '1Z002']);
    expect(notice(again)).toMatchObject({ kind: 'kept', message: expect.stringContaining('已暂存 2 个') });
    again.scan('2');
    expect(again.rows().map((r) => [r.trackingId, r.itemId])).toEqual([
      ['1Z001', cable2.id],
      ['1Z002', cable2.id],
    ]);
  });

  it('a label shaped like a product code, named no product by the catalog (or not answered), is kept in its place and the choice stays open', async () => {
    const h = await choosing({ item: earbuds });
    h.actor.send({ type: 'scan.code', code: '1Z001', at: 1 });
    h.actor.send({ type: 'scan.code', code: '4901234567894', at: 2 });
    expect(scanner(h)).toBe('vetting');
    h.actor.send({ type: 'scan.code', code: '1Z002', at: 3 });
    await h.catalogAnswers([]);
    expect(scanner(h)).toBe('choosing');
    expect(h.snap().context.choice?.code).toBe(film.upc);
    expect(h.snap().context.held).toEqual([
      { code: '1Z001', at: 1 },
      { code: '4901234567894', at: 2, tracking: true },
      { code: '1Z002', at: 3 },
    ]);
    expect(notice(h)).toMatchObject({ kind: 'kept', code: '1Z002', message: expect.stringContaining('已暂存 3 个') });
    h.scan('690000000324');
    await h.catalogFails();
    expect(scanner(h)).toBe('choosing');
    expect(h.snap().context.held.map((x) => x.code)).toEqual(['1Z001', '4901234567894', '1Z002', '690000000324']);
    h.scan('1');
    // Not asked of the catalog again: the labels go in, in order.
    expect(h.finds).toHaveLength(3);
    expect(h.rows().map((r) => [r.trackingId, r.itemId, r.scannedAt])).toEqual([
      ['1Z001', film.id, 1],
      ['4901234567894', film.id, 2],
      ['1Z002', film.id, 3],
      ['690000000324', film.id, 0],
    ]);
  });

  it('a reload keeps the choice and its kept labels (the page stores them with the rows); a reload while the catalog is asked asks it again', async () => {
    const h = await choosing({ item: earbuds });
    h.actor.send({ type: 'scan.code', code: '1Z001', at: 5 });
    const stored = JSON.parse(JSON.stringify(persistedOf(h.snap().context))) as Scan2Input;
    expect(stored).toMatchObject({ choice: { code: film.upc }, held: [{ code: '1Z001', at: 5 }], vetting: null });
    const reloaded = harness(stored);
    expect(scanner(reloaded)).toBe('choosing');
    reloaded.scan('1');
    expect(reloaded.rows()).toMatchObject([{ trackingId: '1Z001', itemId: film.id, scannedAt: 5 }]);
    // Reloaded while the catalog was asked: asked again, the held scans still wait.
    const asking = harness();
    asking.scan(film.upc);
    asking.actor.send({ type: 'scan.code', code: '1Z009', at: 7 });
    const mid = JSON.parse(JSON.stringify(persistedOf(asking.snap().context))) as Scan2Input;
    const back = harness(mid);
    expect(scanner(back)).toBe('vetting');
    expect(back.finds.map((f) => f.upc)).toEqual([film.upc]);
    await back.catalogAnswers([film]);
    expect(back.rows()).toMatchObject([{ trackingId: '1Z009', itemId: film.id, scannedAt: 7 }]);
    // Nothing waited: the page opens ready, as before.
    expect(scanner(harness({ item: earbuds }))).toBe('ready');
  });

  it('on the screen: a product picked by its place, the choice cancelled, or a product picked in the search', async () => {
    let h = await choosing();
    h.actor.send({ type: 'choice.pick', index: 2 });
    expect(scanner(h)).toBe('choosing');
    h.actor.send({ type: 'choice.pick', index: 1 });
    expect(h.snap().context.item).toEqual(privacy);
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    expect(notice(h)?.kind).toBe('chosen');
    h = await choosing();
    h.feedback.mockClear();
    h.actor.send({ type: 'choice.cancel' });
    // The tap is its own answer: no sound (none was kept).
    expect(h.feedback).not.toHaveBeenCalled();
    expect(scanner(h)).toBe('ready');
    expect(notice(h)).toEqual({ kind: 'command', message: '已取消选择商品' });
    h = await choosing();
    h.scan('1Z001');
    h.select(null);
    expect(scanner(h)).toBe('choosing');
    expect(h.snap().context.held).toHaveLength(1);
    h.select(charger);
    expect(scanner(h)).toBe('ready');
    expect(h.snap().context).toMatchObject({ item: charger, choice: null, held: [] });
    expect(h.rows()).toMatchObject([{ trackingId: '1Z001', itemId: charger.id }]);
    h = await choosing();
    h.scan('1Z001');
    h.actor.send({ type: 'choice.pick', index: 0 });
    expect(h.rows()).toMatchObject([{ trackingId: '1Z001', itemId: film.id }]);
    h = await choosing();
    h.select(charger);
    expect(h.snap().context).toMatchObject({ item: charger, notice: null, choice: null });
  });

  it('labels scanned before the catalog answered wait, are kept once the choice is open, and go in under the product chosen', async () => {
    const h = harness({ item: earbuds });
    h.scan(film.upc);
    h.actor.send({ type: 'scan.code', code: '1Z001', at: 21 });
    h.actor.send({ type: 'scan.code', code: '1Z002', at: 22 });
    await h.catalogAnswers([film, privacy]);
    expect(h.rows()).toEqual([]);
    expect(notice(h)).toEqual({ kind: 'kept', code: '1Z002', message: '请先选择商品：按数字键 1–2 后回车，或扫描「取消」（已暂存 2 个快递单号）' });
    expect(h.snap().context.held).toEqual([
      { code: '1Z001', at: 21 },
      { code: '1Z002', at: 22 },
    ]);
    h.scan('1');
    expect(h.rows().map((r) => [r.trackingId, r.itemId, r.scannedAt])).toEqual([
      ['1Z001', film.id, 21],
      ['1Z002', film.id, 22],
    ]);
  });

  it('picking a place outside the list, and the choice events without a choice, change nothing', () => {
    const h = harness({ item: earbuds });
    h.actor.send({ type: 'choice.pick', index: 0 });
    h.actor.send({ type: 'choice.cancel' });
    expect(h.snap().context).toMatchObject({ item: earbuds, notice: null });
  });
});

describe('scan2 machine: the command barcodes', () => {
  const notice = (h: ReturnType<typeof harness>) => h.snap().context.notice;

  it('提交 submits every pending row, oldest first; with none pending it says so with the duplicate sound', async () => {
    const h = harness({
      item: earbuds,
      rows: [aRow({ key: 1, trackingId: 'A', status: 2 }), aRow({ key: 2, trackingId: 'B' }), aRow({ key: 3, trackingId: 'C' })],
    });
    h.scan('ph-cmd-submit');
    expect(h.rows().map((r) => r.status)).toEqual([2, 1, 1]);
    expect(notice(h)).toEqual({ kind: 'command', message: '已提交 2 条待提交记录' });
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    expect(h.last('lookup').input).toEqual({ trackingId: 'B' });
    h.scan('PH-CMD-SUBMIT');
    expect(notice(h)).toEqual({ kind: 'command', message: '没有待提交的记录' });
    expect(h.feedback).toHaveBeenLastCalledWith('duplicate');
    expect(h.rows()).toHaveLength(3);
  });

  it('下一个包裹 submits what waits and asks for the next parcel', () => {
    const h = harness({ item: earbuds });
    h.scan('1Z001');
    h.scan('PH-CMD-NEXT');
    expect(h.row().status).toBe(1);
    expect(notice(h)).toEqual({ kind: 'command', message: '已提交 1 条待提交记录，请扫描下一个包裹的快递单号' });
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    h.scan('PH-CMD-NEXT');
    expect(notice(h)).toEqual({ kind: 'command', message: '请扫描下一个包裹的快递单号' });
    expect(h.rows()).toHaveLength(1);
  });

  it('取消 deletes the last scan (the newest pending row), one per scan; a row already queued is never taken back', () => {
    const h = harness({
      item: earbuds,
      rows: [aRow({ key: 1, trackingId: 'A' }), aRow({ key: 2, trackingId: 'B' }), aRow({ key: 3, trackingId: 'Q', status: 1 })],
    });
    h.scan('PH-CMD-CANCEL');
    expect(h.rows().map((r) => r.status)).toEqual([0, 9, 1]);
    expect(notice(h)).toEqual({ kind: 'command', message: '已撤销扫描：B 已删除' });
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    h.scan('PH-CMD-CANCEL');
    expect(h.rows().map((r) => r.status)).toEqual([9, 9, 1]);
    h.scan('PH-CMD-CANCEL');
    expect(h.rows().map((r) => r.status)).toEqual([9, 9, 1]);
    expect(notice(h)).toEqual({ kind: 'command', message: '没有可撤销的扫描：已提交的记录不能撤销' });
    expect(h.feedback).toHaveBeenLastCalledWith('duplicate');
    // The deleted label may be scanned again.
    h.scan('B');
    expect(h.rows().at(-1)).toMatchObject({ trackingId: 'B', status: 0 });
  });

  it('a command works before a product is chosen, and is never a row', () => {
    const h = harness();
    for (const code of ['PH-CMD-SUBMIT', 'PH-CMD-NEXT', 'PH-CMD-CANCEL']) h.scan(code);
    expect(h.rows()).toEqual([]);
    expect(notice(h)).toEqual({ kind: 'command', message: '没有可撤销的扫描：已提交的记录不能撤销' });
    expect(h.feedback.mock.calls).toEqual([['duplicate'], ['accepted'], ['duplicate']]);
  });
});
