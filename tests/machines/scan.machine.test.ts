// /admin/scan's rules (machines/scan.machine.ts): one tracking id, many products.
import { mayEdit } from '../../machines/scan-record.machine';
import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { createTestModel, getShortestPaths } from 'xstate/graph';
import {
  autoPick,
  isSaving,
  SCAN_COMMANDS,
  scanCommandOf,
  scanMachine,
  scanMessages,
  submitProblem,
  upcVerdict,
  type CreateInput,
  type LookupOutput,
  type ModifyInput,
  type ScanItem,
  type ScanRecord,
  type ScanRow,
} from '../../machines/scan.machine';

const earbuds: ScanItem = { id: 5, itemName: '蓝牙耳机', upc: '111' };
const earbudsPro: ScanItem = { id: 7, itemName: '蓝牙耳机 Pro', upc: '111' };

const record = (over: Partial<ScanRecord> = {}): ScanRecord => ({
  id: 40,
  trackingId: '1Z001',
  upc: '999',
  count: 1,
  itemId: 9,
  itemName: '旧商品',
  status: 'scan',
  matchedUser: null,
  ...over,
});

const aRow = (over: Partial<ScanRow> = {}): ScanRow => ({ key: 1, upc: '111', count: 1, itemId: 5, itemName: '蓝牙耳机', candidates: [earbuds], ...over });

interface Pending<I, O> {
  input: I;
  resolve: (o: O) => void;
  reject: (e: unknown) => void;
}

function harness() {
  const lookups: Pending<{ trackingId: string }, LookupOutput>[] = [];
  const finds: Pending<{ upc: string }, ScanItem[]>[] = [];
  const creates: Pending<CreateInput, ScanRecord[]>[] = [];
  const modifies: Pending<ModifyInput, ScanRecord>[] = [];
  const feedback = vi.fn();
  const pending =
    <I, O>(list: Pending<I, O>[]) =>
    ({ input }: { input: I }) =>
      new Promise<O>((resolve, reject) => list.push({ input, resolve, reject }));
  const logic = scanMachine.provide({
    actors: {
      lookupTracking: fromPromise(pending(lookups)),
      findItems: fromPromise(pending(finds)),
      createScans: fromPromise(pending(creates)),
      modifyRecord: fromPromise(pending(modifies)),
    },
    actions: { feedback: (_, params) => void feedback(params.kind) },
  });
  const actor = createActor(logic);
  actor.start();
  const snap = () => actor.getSnapshot();
  const settle = async (done: () => void) => {
    done();
    await waitFor(actor, () => true);
    for (let i = 0; i < 4; i++) await Promise.resolve();
  };
  const lastOf = <T>(list: T[], what: string) => {
    const call = list.at(-1);
    if (!call) throw new Error(`no ${what} call`);
    return call;
  };
  return {
    actor,
    snap,
    feedback,
    lookups,
    finds,
    creates,
    modifies,
    ctx: () => snap().context,
    scan: (code: string) => actor.send({ type: 'scan.code', code }),
    lookupAnswers: (out: LookupOutput = { isExist: false, scanTrackingList: [] }) => settle(() => lastOf(lookups, 'lookup').resolve(out)),
    lookupFails: (message = '网络错误') => settle(() => lastOf(lookups, 'lookup').reject(new Error(message))),
    findAnswers: (items: ScanItem[]) => settle(() => lastOf(finds, 'find').resolve(items)),
    findFails: (message = '网络错误') => settle(() => lastOf(finds, 'find').reject(new Error(message))),
    createAnswers: (records: ScanRecord[]) => settle(() => lastOf(creates, 'create').resolve(records)),
    createFails: (message: string) => settle(() => lastOf(creates, 'create').reject(new Error(message))),
    modifyAnswers: (r: ScanRecord) => settle(() => lastOf(modifies, 'modify').resolve(r)),
    modifyFails: (message: string) => settle(() => lastOf(modifies, 'modify').reject(new Error(message))),
  };
}

/** A harness with tracking 1Z001 loaded (one existing record of upc 999). */
async function loaded(records: ScanRecord[] = [record()]) {
  const h = harness();
  h.scan('1Z001');
  await h.lookupAnswers({ isExist: records.length > 0, scanTrackingList: records });
  return h;
}

describe('scan rules as functions', () => {
  it('a upc: recorded for the tracking -> duplicate; among the new rows -> count; else add', () => {
    const ctx = { trackingId: '1Z001', records: [record({ upc: '999' })], rows: [aRow({ key: 3, upc: '111' })] };
    expect(upcVerdict(ctx, '999')).toEqual({ kind: 'duplicate' });
    expect(upcVerdict(ctx, ' 111 ')).toEqual({ kind: 'count', key: 3 });
    expect(upcVerdict(ctx, '222')).toEqual({ kind: 'add' });
    expect(upcVerdict(ctx, '  ')).toEqual({ kind: 'ignored' });
  });

  it('a upc is its product however written (decision 075): the EAN-13 form of a seen UPC-A is a duplicate, of a new row counts it', () => {
    const ctx = { trackingId: '1Z001', records: [record({ upc: '045496883386' })], rows: [aRow({ key: 3, upc: '4901234567894' })] };
    expect(upcVerdict(ctx, '0045496883386')).toEqual({ kind: 'duplicate' });
    expect(upcVerdict(ctx, '04901234567894')).toEqual({ kind: 'count', key: 3 });
    const announced = record({ upc: '45496883386', status: 'init' });
    expect(upcVerdict({ ...ctx, records: [announced] }, '0045496883386')).toEqual({ kind: 'confirm', record: announced });
  });

  it("submit needs rows, a product on each ('请填写所有项目对应的商品') and whole counts", () => {
    expect(submitProblem([])).toBe(scanMessages.noRows);
    expect(submitProblem([aRow(), aRow({ key: 2, itemId: null })])).toBe('请填写所有项目对应的商品');
    expect(submitProblem([aRow({ count: 0 })])).toBe(scanMessages.countInvalid);
    expect(submitProblem([aRow({ count: 1.5 })])).toBe(scanMessages.countInvalid);
    expect(submitProblem([aRow({ count: 3 })])).toBeNull();
  });

  it('only one open product of a upc is chosen without asking', () => {
    expect(autoPick([earbuds])).toEqual(earbuds);
    expect(autoPick([earbuds, earbudsPro])).toBeNull();
    expect(
      autoPick([
        { ...earbuds, status: 'open' },
        { ...earbudsPro, status: 'close' },
      ]),
    ).toMatchObject({ id: 5 });
    expect(autoPick([])).toBeNull();
  });

  it('a record being paid cannot be edited', () => {
    expect(mayEdit({ status: 'wait2pay' })).toBe(false);
    expect(mayEdit({ status: 'payed' })).toBe(false);
    for (const status of ['init', 'scan', 'match', 'unmatch'] as const) expect(mayEdit({ status })).toBe(true);
  });
});

describe('scan machine', () => {
  it('the first scan sets the tracking id, switches to the upc tab and loads its records', async () => {
    const h = harness();
    expect(h.ctx().tab).toBe('tracking');
    h.scan(' 1Z001 ');
    expect(h.snap().value).toBe('loading');
    expect(h.lookups[0]!.input).toEqual({ trackingId: '1Z001' });
    await h.lookupAnswers({ isExist: true, scanTrackingList: [record()] });
    expect(h.ctx()).toMatchObject({ trackingId: '1Z001', tab: 'upc', isExist: true, records: [record()] });
    expect(h.ctx().notice).toEqual({ kind: 'tracking', code: '1Z001', isExist: true });
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
  });

  it('a failed lookup goes back to the tracking tab with the message', async () => {
    const h = harness();
    h.scan('1Z001');
    await h.lookupFails('A00005 未实现');
    expect(h.snap().value).toBe('noTracking');
    expect(h.ctx()).toMatchObject({ trackingId: null, tab: 'tracking', notice: { kind: 'error', message: 'A00005 未实现' } });
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
  });

  it('codes scanned while the tracking id loads are products, taken once it has loaded', async () => {
    const h = harness();
    h.scan('1Z001');
    h.scan('111');
    h.scan('111');
    await h.lookupAnswers();
    expect(h.ctx().rows).toMatchObject([{ upc: '111', count: 2 }]);
  });

  it('later scans add a row (count 1) or raise its count; its products are looked up and one is chosen', async () => {
    const h = await loaded();
    h.scan('111');
    expect(h.ctx().rows).toEqual([{ key: 1, upc: '111', count: 1, itemId: null, itemName: '', candidates: null }]);
    expect(h.finds[0]!.input).toEqual({ upc: '111' });
    h.scan('111');
    expect(h.ctx().rows[0]!.count).toBe(2);
    expect(h.ctx().notice).toEqual({ kind: 'added', code: '111', count: 2 });
    await h.findAnswers([earbuds]);
    expect(h.ctx().rows[0]).toMatchObject({ itemId: 5, itemName: '蓝牙耳机', candidates: [earbuds] });
  });

  it('several products of a upc are offered, none chosen; no product is the unknown-product sound', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds, earbudsPro]);
    expect(h.ctx().rows[0]).toMatchObject({ itemId: null, candidates: [earbuds, earbudsPro] });
    h.scan('222');
    await h.findAnswers([]);
    expect(h.ctx().rows[1]).toMatchObject({ upc: '222', itemId: null, candidates: [] });
    expect(h.ctx().notice).toEqual({ kind: 'unknown', code: '222' });
    expect(h.feedback).toHaveBeenLastCalledWith('unknown');
    h.actor.send({ type: 'row.setItem', key: 2, item: earbudsPro });
    expect(h.ctx().rows[1]).toMatchObject({ itemId: 7, itemName: '蓝牙耳机 Pro' });
  });

  it("a upc the tracking id has already seen is refused with 'upc重复，请编辑已添加的商品'", async () => {
    for (const status of ['scan', 'match', 'unmatch', 'wait2pay', 'payed'] as const) {
      const h = await loaded([record({ upc: '999', status })]);
      h.scan('999');
      expect(h.ctx().rows).toEqual([]);
      expect(h.ctx().notice).toEqual({ kind: 'refused', code: '999', message: 'upc重复，请编辑已添加的商品' });
      expect(h.feedback).toHaveBeenLastCalledWith('duplicate');
    }
  });

  it("a upc the tracking id has only imported (init) is confirmed: a row with the record's product, created with the scanned count", async () => {
    const announced = record({ id: 42, upc: '777', count: 5, itemId: 9, itemName: '旧商品', status: 'init' });
    const h = await loaded([announced]);
    h.scan('777');
    h.scan('777');
    expect(h.ctx().rows).toMatchObject([{ upc: '777', count: 2, itemId: 9, itemName: '旧商品', announced: true }]);
    expect(h.ctx().notice).toEqual({ kind: 'added', code: '777', count: 2, announced: true });
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
    h.actor.send({ type: 'rows.submit' });
    expect(h.creates[0]!.input).toEqual({ trackingId: '1Z001', items: [{ upc: '777', count: 2, itemId: 9 }] });
    await h.createAnswers([{ ...announced, count: 2, status: 'unmatch' }]);
    expect(h.ctx()).toMatchObject({ rows: [], notice: { kind: 'created' } });
  });

  it('+1 / -1 change a row between 1 and 1000000', async () => {
    const h = await loaded();
    h.scan('111');
    h.actor.send({ type: 'row.step', key: 1, by: 1 });
    h.actor.send({ type: 'row.step', key: 1, by: 1 });
    expect(h.ctx().rows[0]!.count).toBe(3);
    for (let i = 0; i < 5; i++) h.actor.send({ type: 'row.step', key: 1, by: -1 });
    expect(h.ctx().rows[0]!.count).toBe(1);
    h.actor.send({ type: 'row.setCount', key: 1, count: 1_000_000 });
    h.actor.send({ type: 'row.step', key: 1, by: 1 });
    expect(h.ctx().rows[0]!.count).toBe(1_000_000);
  });

  it('after a create the tab is tracking again: the next scan is the next parcel, not a product', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    await h.createAnswers([record(), record({ id: 41, upc: '111', itemId: 5 })]);
    expect(h.ctx().tab).toBe('tracking');
    h.scan('1Z002');
    expect(h.snap().value).toBe('loading');
    expect(h.ctx()).toMatchObject({ trackingId: '1Z002', rows: [] });
  });

  it('a product scanned while the create was under way keeps the parcel on the upc tab', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    h.scan('333');
    await h.createAnswers([record({ id: 41, upc: '111', itemId: 5 })]);
    expect(h.ctx()).toMatchObject({ tab: 'upc', rows: [{ upc: '333' }] });
  });
});

describe('command barcodes', () => {
  it('are known by their code (any case, trimmed) and are never a tracking id or a upc', async () => {
    expect(scanCommandOf(` ${SCAN_COMMANDS.submit.toLowerCase()} `)).toBe('submit');
    expect(scanCommandOf(SCAN_COMMANDS.nextParcel)).toBe('nextParcel');
    expect(scanCommandOf(SCAN_COMMANDS.cancel)).toBe('cancel');
    expect(scanCommandOf('1Z001')).toBeNull();
    const h = harness();
    for (const code of Object.values(SCAN_COMMANDS)) h.scan(code);
    expect(h.snap().value).toBe('noTracking');
    expect(h.lookups).toHaveLength(0);
    expect(h.ctx().notice).toEqual({ kind: 'error', message: scanMessages.noRows });
    const p = await loaded([]);
    p.scan(SCAN_COMMANDS.submit);
    expect(p.ctx().rows).toEqual([]);
    expect(p.finds).toHaveLength(0);
  });

  it('提交 submits the rows, as the button does', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.scan(SCAN_COMMANDS.submit);
    expect(h.creates[0]!.input).toEqual({ trackingId: '1Z001', items: [{ upc: '111', count: 1, itemId: 5 }] });
  });

  it('提交 scanned while a product is still being looked up waits for it, then submits', async () => {
    const h = await loaded();
    h.scan('111');
    h.scan(SCAN_COMMANDS.submit);
    expect(h.creates).toHaveLength(0);
    expect(h.ctx().notice).toEqual({ kind: 'added', code: '111', count: 1 });
    await h.findAnswers([earbuds]);
    expect(h.creates[0]!.input).toEqual({ trackingId: '1Z001', items: [{ upc: '111', count: 1, itemId: 5 }] });
  });

  it('下一个包裹 starts over, unless rows wait to be saved', async () => {
    const h = await loaded();
    h.scan('111');
    h.scan(SCAN_COMMANDS.nextParcel);
    expect(h.ctx()).toMatchObject({ trackingId: '1Z001', notice: { kind: 'error', message: scanMessages.unsavedRows } });
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
    h.actor.send({ type: 'row.remove', key: 1 });
    h.scan(SCAN_COMMANDS.nextParcel);
    expect(h.snap().value).toBe('noTracking');
    expect(h.ctx()).toMatchObject({ trackingId: null, tab: 'tracking', records: [] });
  });

  it('取消 takes back the last scan, one unit at a time, then the parcel itself', async () => {
    const h = await loaded();
    h.scan('111');
    h.scan('222');
    h.scan('111');
    h.scan(SCAN_COMMANDS.cancel);
    expect(h.ctx().rows).toMatchObject([
      { upc: '111', count: 1 },
      { upc: '222', count: 1 },
    ]);
    expect(h.ctx().notice).toEqual({ kind: 'undone', code: '111', count: 1 });
    h.scan(SCAN_COMMANDS.cancel);
    expect(h.ctx().rows).toMatchObject([{ upc: '111', count: 1 }]);
    h.scan(SCAN_COMMANDS.cancel);
    expect(h.ctx().rows).toEqual([]);
    expect(h.ctx().trackingId).toBe('1Z001');
    h.scan(SCAN_COMMANDS.cancel);
    expect(h.snap().value).toBe('noTracking');
    expect(h.ctx()).toMatchObject({ trackingId: null, notice: { kind: 'parcelCancelled', code: '1Z001' } });
  });

  it('取消 does not take back rows being saved', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    h.scan(SCAN_COMMANDS.cancel);
    expect(h.ctx().rows).toMatchObject([{ upc: '111', count: 1 }]);
    expect(h.ctx().trackingId).toBe('1Z001');
  });

  it("submit refuses a row without a product ('请填写所有项目对应的商品') without calling the server", async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([]);
    h.actor.send({ type: 'rows.submit' });
    expect(h.creates).toHaveLength(0);
    expect(h.ctx().notice).toEqual({ kind: 'error', message: '请填写所有项目对应的商品' });
    expect(h.feedback).toHaveBeenLastCalledWith('failed');
  });

  it('submit creates the rows; the answer replaces the records and the rows are cleared', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'row.setCount', key: 1, count: 3 });
    h.actor.send({ type: 'rows.submit' });
    expect(isSaving(h.snap())).toBe(true);
    expect(h.creates[0]!.input).toEqual({ trackingId: '1Z001', items: [{ upc: '111', count: 3, itemId: 5 }] });
    // A scan while the call is under way is kept.
    h.scan('333');
    const saved = [record(), record({ id: 41, upc: '111', count: 3, itemId: 5, status: 'match' })];
    await h.createAnswers(saved);
    expect(h.ctx().records).toEqual(saved);
    expect(h.ctx().rows.map((r) => r.upc)).toEqual(['333']);
    expect(h.ctx().notice).toEqual({ kind: 'created' });
    expect(h.feedback).toHaveBeenCalledWith('matched');
  });

  it('a parcel with a record matching nobody sounds apart from a matched one and names the parcel or the product, and why', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    await h.createAnswers([record(), record({ id: 41, upc: '111', itemId: 5, status: 'unmatch', unmatchReason: 'notRecorded' })]);
    // No member recorded the parcel: the parcel is named; a reason about a product names the product.
    expect(h.ctx().notice).toEqual({ kind: 'created', unmatched: { code: '1Z001', reason: 'notRecorded' } });
    expect(h.feedback).toHaveBeenLastCalledWith('unmatched');
    // With the records near it (可能是…), which the banner names too.
    const near = { trackingId: '1Z0011', taskId: 7, taskDisplayId: '12-1', nickName: '小陈', itemName: '耳机' };
    h.actor.send({ type: 'tab.select', tab: 'upc' });
    h.scan('333');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    await h.createAnswers([record({ id: 44, upc: '333', itemId: 5, status: 'unmatch', unmatchReason: 'notRecorded', nearMisses: [near] })]);
    expect(h.ctx().notice).toEqual({ kind: 'created', unmatched: { code: '1Z001', reason: 'notRecorded', near: [near] } });
    // One record matched and one not: the parcel still needs the clerk's eye (more of the same parcel).
    h.actor.send({ type: 'tab.select', tab: 'upc' });
    h.scan('222');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    await h.createAnswers([record({ status: 'match' }), record({ id: 42, upc: '222', status: 'unmatch' })]);
    expect(h.ctx().notice).toEqual({ kind: 'created', unmatched: { code: '222', reason: null } });
    h.actor.send({ type: 'tab.select', tab: 'upc' });
    h.scan('444');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    await h.createAnswers([record({ id: 43, upc: '444', status: 'unmatch', unmatchReason: 'moreThanRecorded' })]);
    expect(h.ctx().notice).toEqual({ kind: 'created', unmatched: { code: '444', reason: 'moreThanRecorded' } });
    expect(h.feedback).toHaveBeenLastCalledWith('unmatched');
    // Nothing judged yet (a scan row): the plain beep.
    h.actor.send({ type: 'tab.select', tab: 'upc' });
    h.scan('333');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    await h.createAnswers([record()]);
    expect(h.feedback).toHaveBeenLastCalledWith('accepted');
  });

  it("a refused create keeps the rows and shows the server's words", async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    await h.createFails('upc重复，请编辑已添加的商品');
    expect(h.ctx().rows).toHaveLength(1);
    expect(h.ctx().notice).toEqual({ kind: 'error', message: 'upc重复，请编辑已添加的商品' });
  });

  it('an existing record is edited through modify, unless it is being paid', async () => {
    const h = await loaded([record(), record({ id: 41, upc: '888', status: 'payed' })]);
    h.actor.send({ type: 'record.modify', id: 41, changes: { count: 2 } });
    expect(h.modifies).toHaveLength(0);
    expect(h.ctx().notice).toEqual({ kind: 'error', message: scanMessages.notEditable });
    h.actor.send({ type: 'record.modify', id: 40, changes: { count: 0 } });
    expect(h.modifies).toHaveLength(0);
    h.actor.send({ type: 'record.modify', id: 40, changes: { count: 2, itemId: 5 } });
    expect(h.modifies[0]!.input).toEqual({ id: 40, changes: { count: 2, itemId: 5 } });
    await h.modifyAnswers(record({ count: 2, itemId: 5, itemName: '蓝牙耳机' }));
    expect(h.ctx().records[0]).toMatchObject({ id: 40, count: 2, itemName: '蓝牙耳机' });
  });

  it('a scan on the tracking tab starts the next parcel, unless new rows wait to be saved', async () => {
    const h = await loaded();
    h.scan('111');
    h.actor.send({ type: 'tab.select', tab: 'tracking' });
    h.scan('1Z002');
    expect(h.ctx().trackingId).toBe('1Z001');
    expect(h.ctx().notice).toEqual({ kind: 'refused', code: '1Z002', message: scanMessages.unsavedRows });
    h.actor.send({ type: 'tracking.reset' });
    expect(h.ctx().trackingId).toBe('1Z001');
    h.actor.send({ type: 'row.remove', key: 1 });
    h.scan('1Z002');
    expect(h.snap().value).toBe('loading');
    expect(h.ctx()).toMatchObject({ trackingId: '1Z002', tab: 'upc', rows: [], records: [] });
  });
});

// ------------------------------------------------------------------ model-based

const scanSpec = createMachine({
  id: 'scanSpec',
  initial: 'noTracking',
  states: {
    noTracking: { on: { 'scan.tracking': 'loading' } },
    loading: { on: { 'lookup.ok': 'empty', 'lookup.fails': 'noTracking' } },
    empty: {
      on: {
        'scan.upc': 'rowNoItem',
        'scan.recorded': 'empty',
        'scan.announced': 'announcedRow',
        submit: 'empty',
        'cmd.submit': 'empty',
        'cmd.cancel': 'noTracking',
        'cmd.next': 'noTracking',
        'tab.tracking': 'trackingTab',
      },
    },
    announcedRow: { on: { 'cmd.cancel': 'empty', 'cmd.submit': 'submittingAnnounced' } },
    submittingAnnounced: { on: { 'create.ok': 'saved' } },
    trackingTab: { on: { 'scan.tracking': 'loading' } },
    rowNoItem: { on: { 'find.one': 'rowReady', 'find.none': 'unknown' } },
    unknown: { on: { submit: 'unknown', 'pick.item': 'rowReady', remove: 'empty' } },
    rowReady: {
      on: {
        'scan.upc': 'rowReady',
        submit: 'submitting',
        'cmd.submit': 'submitting',
        'cmd.next': 'rowReadyRefusedNext',
        'cmd.cancel': 'empty',
        'tab.tracking': 'rowReadyOnTrackingTab',
      },
    },
    rowReadyRefusedNext: {},
    rowReadyOnTrackingTab: { on: { 'scan.tracking': 'refusedNextParcel' } },
    refusedNextParcel: {},
    submitting: { on: { 'create.ok': 'saved', 'create.fails': 'rowReadyWithError' } },
    rowReadyWithError: { on: { submit: 'submitting' } },
    saved: { on: { 'scan.tracking': 'loading' } },
  },
});

const serializeState = (s: { value: unknown }) => JSON.stringify(s.value);
/** The tracking id's imported (init) record in the model's world. */
const announced = record({ id: 42, upc: '777', count: 5, itemId: 9, itemName: '旧商品', status: 'init' });

describe('scan machine: model', () => {
  it('the real machine reaches noTracking, loading and the parcel states', () => {
    const paths = getShortestPaths(scanMachine, {
      events: [
        { type: 'scan.code', code: '1Z001' },
        { type: 'xstate.done.actor.0.scan.loading', output: { isExist: false, scanTrackingList: [] } },
        { type: 'xstate.error.actor.0.scan.loading', error: new Error('x') },
      ] as never,
      serializeState,
    });
    const reached = new Set(paths.map((p) => serializeState(p.state)));
    expect(reached).toContain('"noTracking"');
    expect(reached).toContain('"loading"');
  });

  const model = createTestModel(scanSpec, { serializeState });
  const paths = model.getShortestPaths();

  it('the replayed paths visit every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((step) => serializeState(step.state))));
    expect(reached.size).toBe(Object.keys(scanSpec.root.states).length);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const h = harness();
      await path.test({
        events: {
          'scan.tracking': () => void h.scan(h.ctx().trackingId === null ? '1Z001' : '1Z002'),
          'lookup.ok': () => h.lookupAnswers({ isExist: true, scanTrackingList: [record({ upc: '999' }), announced] }),
          'lookup.fails': () => h.lookupFails('失败'),
          'scan.upc': () => void h.scan('111'),
          'scan.recorded': () => void h.scan('999'),
          'scan.announced': () => void h.scan('777'),
          'cmd.submit': () => void h.scan(SCAN_COMMANDS.submit),
          'cmd.next': () => void h.scan(SCAN_COMMANDS.nextParcel),
          'cmd.cancel': () => void h.scan(SCAN_COMMANDS.cancel),
          'tab.tracking': () => void h.actor.send({ type: 'tab.select', tab: 'tracking' }),
          'find.one': () => h.findAnswers([earbuds]),
          'find.none': () => h.findAnswers([]),
          'pick.item': () => void h.actor.send({ type: 'row.setItem', key: 1, item: earbuds }),
          remove: () => void h.actor.send({ type: 'row.remove', key: 1 }),
          submit: () => void h.actor.send({ type: 'rows.submit' }),
          'create.ok': () => h.createAnswers([record({ upc: '999' }), record({ id: 41, upc: '111', itemId: 5 }), { ...announced, status: 'scan' }]),
          'create.fails': () => h.createFails('A00001 商品不存在'),
        },
        states: {
          noTracking: () => {
            expect(h.snap().value).toBe('noTracking');
            expect(h.ctx().tab).toBe('tracking');
          },
          loading: () => expect(h.snap().value).toBe('loading'),
          empty: () => {
            expect(h.ctx()).toMatchObject({ tab: 'upc', trackingId: '1Z001', rows: [] });
            expect(h.creates).toHaveLength(0);
          },
          trackingTab: () => expect(h.ctx()).toMatchObject({ tab: 'tracking', trackingId: '1Z001' }),
          rowReadyOnTrackingTab: () => expect(h.ctx()).toMatchObject({ tab: 'tracking', rows: [{ upc: '111', itemId: 5 }] }),
          rowNoItem: () => expect(h.ctx().rows).toMatchObject([{ upc: '111', itemId: null, candidates: null }]),
          unknown: () => {
            expect(h.ctx().rows).toMatchObject([{ upc: '111', itemId: null, candidates: [] }]);
            expect(h.creates).toHaveLength(0);
          },
          rowReady: () => expect(h.ctx().rows).toMatchObject([{ upc: '111', itemId: 5 }]),
          rowReadyRefusedNext: () =>
            expect(h.ctx()).toMatchObject({ trackingId: '1Z001', rows: [{ upc: '111' }], notice: { kind: 'error', message: scanMessages.unsavedRows } }),
          announcedRow: () => expect(h.ctx().rows).toMatchObject([{ upc: '777', count: 1, itemId: 9, announced: true }]),
          submittingAnnounced: () => expect(h.creates.at(-1)!.input).toEqual({ trackingId: '1Z001', items: [{ upc: '777', count: 1, itemId: 9 }] }),
          refusedNextParcel: () => expect(h.ctx()).toMatchObject({ trackingId: '1Z001', notice: { message: scanMessages.unsavedRows } }),
          submitting: () => {
            expect(isSaving(h.snap())).toBe(true);
            expect(h.creates.at(-1)!.input.trackingId).toBe('1Z001');
          },
          rowReadyWithError: () => expect(h.ctx()).toMatchObject({ rows: [{ upc: '111' }], notice: { kind: 'error', message: 'A00001 商品不存在' } }),
          saved: () => expect(h.ctx()).toMatchObject({ rows: [], tab: 'tracking', notice: { kind: 'created' } }),
        },
      });
    });
  }
});

// ------------------------------------------------------------------ a product code is not a tracking id (decision 074)

describe('a product code scanned where the tracking id is expected', () => {
  const nintendo: ScanItem = { id: 11, itemName: 'Nintendo Switch', upc: '045496883386' };

  it('asks the catalog first, and refuses a catalog item’s code with its own sound, waiting for the label', async () => {
    const h = harness();
    h.scan('045496883386');
    expect(h.snap().value).toBe('vetting');
    expect(h.finds.at(-1)!.input).toEqual({ upc: '045496883386' });
    expect(h.lookups).toHaveLength(0);
    await h.findAnswers([nintendo]);
    expect(h.snap().value).toBe('noTracking');
    expect(h.ctx()).toMatchObject({ trackingId: null, notice: { kind: 'refused', code: '045496883386', message: scanMessages.productCode } });
    expect(h.feedback).toHaveBeenLastCalledWith('productCode');
    // The label, scanned next, is the tracking id.
    h.scan('1Z999AA10123456784');
    await h.lookupAnswers();
    expect(h.ctx()).toMatchObject({ trackingId: '1Z999AA10123456784', tab: 'upc' });
  });

  it('takes a valid GTIN no catalog item has (or a catalog that does not answer) as the tracking id, with what was scanned meanwhile', async () => {
    const h = harness();
    h.scan('4901234567894');
    h.scan('111');
    await h.findAnswers([]);
    expect(h.snap().value).toBe('loading');
    expect(h.lookups.at(-1)!.input).toEqual({ trackingId: '4901234567894' });
    await h.lookupAnswers();
    expect(h.ctx()).toMatchObject({ trackingId: '4901234567894', rows: [{ upc: '111' }] });

    const down = harness();
    down.scan('045496883386');
    await settleFind(down, () => down.finds.at(-1)!.reject(new Error('网络错误')));
    expect(down.lookups.at(-1)!.input).toEqual({ trackingId: '045496883386' });
  });

  it('does not ask the catalog for codes that are no valid GTIN', () => {
    for (const code of ['1Z001', '045496883387', '45496883387']) {
      const h = harness();
      h.scan(code);
      expect(h.snap().value).toBe('loading');
      expect(h.finds).toHaveLength(0);
    }
  });

  it('on the tracking tab of a parcel: the product code is refused and the parcel stays', async () => {
    const h = await loaded();
    h.actor.send({ type: 'tab.select', tab: 'tracking' });
    h.scan('0045496883386');
    await h.findAnswers([nintendo]);
    expect(h.ctx()).toMatchObject({ trackingId: '1Z001', records: [record()], notice: { kind: 'refused', message: scanMessages.productCode } });
    expect(h.snap().matches('parcel')).toBe(true);
    // On the upc tab the same code is a product of the parcel.
    h.actor.send({ type: 'tab.select', tab: 'upc' });
    h.scan('045496883386');
    expect(h.ctx().rows).toMatchObject([{ upc: '045496883386' }]);
  });
});

async function settleFind(h: ReturnType<typeof harness>, done: () => void) {
  done();
  await waitFor(h.actor, () => true);
  for (let i = 0; i < 4; i++) await Promise.resolve();
}

// ------------------------------------------------------------------ what the clerk hears, reads and saves (decision 042)

/** The sounds played since the last call (then forgotten). */
const soundsOf = (h: ReturnType<typeof harness>) => {
  const kinds = h.feedback.mock.calls.map((call) => call[0] as string);
  h.feedback.mockClear();
  return kinds;
};

describe('scan machine: what the clerk hears and reads', () => {
  it('a blank scan (the scanner sends only Enter) starts no parcel and adds no row, on either tab', async () => {
    const h = harness();
    h.scan('   ');
    expect(h.snap().value).toBe('noTracking');
    expect(h.lookups).toHaveLength(0);
    const p = await loaded();
    soundsOf(p);
    p.scan('  ');
    expect(p.ctx().rows).toEqual([]);
    p.actor.send({ type: 'tab.select', tab: 'tracking' });
    p.scan('');
    expect(p.lookups).toHaveLength(1);
    expect(p.ctx()).toMatchObject({ trackingId: '1Z001', rows: [] });
    expect(soundsOf(p)).toEqual([]);
    // Without a tracking id no scan is a product.
    expect(upcVerdict({ trackingId: null, records: [], rows: [] }, '222')).toEqual({ kind: 'ignored' });
  });

  it('every sound: a row added, a scan or the parcel taken back, a refusal, a submit with no rows', async () => {
    const h = harness();
    h.scan(SCAN_COMMANDS.submit);
    expect(soundsOf(h)).toEqual(['failed']);
    h.scan('1Z001');
    await h.lookupAnswers();
    soundsOf(h);
    h.scan('111');
    expect(soundsOf(h)).toEqual(['accepted']);
    h.scan(SCAN_COMMANDS.cancel);
    expect(soundsOf(h)).toEqual(['accepted']);
    h.scan(SCAN_COMMANDS.cancel);
    expect(soundsOf(h)).toEqual(['accepted']);
    expect(h.ctx().notice).toEqual({ kind: 'parcelCancelled', code: '1Z001' });
    const p = await loaded();
    p.scan('111');
    p.actor.send({ type: 'tab.select', tab: 'tracking' });
    soundsOf(p);
    p.scan('1Z002');
    expect(soundsOf(p)).toEqual(['failed']);
  });

  it('取消 takes one unit off the row the last scan counted, and no other row', async () => {
    const h = await loaded();
    for (const code of ['111', '111', '111', '222', '222']) h.scan(code);
    expect(h.ctx().notice).toEqual({ kind: 'added', code: '222', count: 2 });
    h.scan(SCAN_COMMANDS.cancel);
    expect(h.ctx().rows).toMatchObject([
      { upc: '111', count: 3 },
      { upc: '222', count: 1 },
    ]);
    expect(h.ctx().notice).toEqual({ kind: 'undone', code: '222', count: 1 });
  });

  it('the first scan of an announced product already says it is the announced one', async () => {
    const h = await loaded([record({ id: 42, upc: '777', itemId: 9, status: 'init' })]);
    h.scan('777');
    expect(h.ctx().notice).toEqual({ kind: 'added', code: '777', count: 1, announced: true });
    h.scan('111');
    expect(h.ctx().notice).toEqual({ kind: 'added', code: '111', count: 1 });
  });

  it('submit refuses a count out of range on any row, even when another row is right', () => {
    expect(submitProblem([aRow(), aRow({ key: 2, count: 0 })])).toBe(scanMessages.countInvalid);
  });

  it('isSaving is true while a create or a modify is under way, and only then', async () => {
    const h = await loaded();
    expect(isSaving(h.snap())).toBe(false);
    h.actor.send({ type: 'record.modify', id: 40, changes: { count: 2 } });
    expect(isSaving(h.snap())).toBe(true);
    await h.modifyAnswers(record({ count: 2 }));
    expect(isSaving(h.snap())).toBe(false);
  });
});

describe('scan machine: each row is changed on its own', () => {
  /** Rows 111 (key 1, count 1) and 222 (key 2, count 2), both with a product. */
  async function twoRows() {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.scan('222');
    h.scan('222');
    await h.findAnswers([{ id: 8, itemName: '充电器', upc: '222' }]);
    return h;
  }

  it('a count typed, +1 and -1 change only their row; -1 stops at 1 by the row’s own count', async () => {
    const h = await twoRows();
    h.actor.send({ type: 'row.step', key: 2, by: -1 });
    expect(h.ctx().rows.map((r) => r.count)).toEqual([1, 1]);
    h.actor.send({ type: 'row.step', key: 2, by: 1 });
    h.actor.send({ type: 'row.setCount', key: 2, count: 9 });
    expect(h.ctx().rows.map((r) => r.count)).toEqual([1, 9]);
  });

  it('+1 on a row no longer there or being saved changes nothing', async () => {
    const h = await twoRows();
    h.actor.send({ type: 'row.step', key: 99, by: 1 });
    expect(h.snap().status).toBe('active');
    h.actor.send({ type: 'rows.submit' });
    h.actor.send({ type: 'row.step', key: 1, by: 1 });
    expect(h.ctx().rows.map((r) => r.count)).toEqual([1, 2]);
    expect(h.creates[0]!.input.items.map((i) => i.count)).toEqual([1, 2]);
  });

  it('a product picked or cleared, and a row deleted, change only their row', async () => {
    const h = await twoRows();
    h.actor.send({ type: 'row.setItem', key: 2, item: null });
    expect(h.snap().status).toBe('active');
    expect(h.ctx().rows).toMatchObject([
      { upc: '111', itemId: 5, itemName: '蓝牙耳机' },
      { upc: '222', itemId: null, itemName: '' },
    ]);
    h.actor.send({ type: 'row.remove', key: 1 });
    expect(h.ctx().rows).toMatchObject([{ upc: '222' }]);
  });

  it('a product looked up answers for its own row: an unknown one or several leave the others as they were', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds, earbudsPro]);
    h.scan('222');
    await h.findAnswers([]);
    h.scan('333');
    await h.findAnswers([{ id: 12, itemName: '数据线', upc: '333' }]);
    expect(h.ctx().rows).toMatchObject([
      { upc: '111', itemId: null, candidates: [earbuds, earbudsPro] },
      { upc: '222', itemId: null, candidates: [] },
      { upc: '333', itemId: 12 },
    ]);
  });

  it('an announced row keeps its record’s product, even when the catalog offers one other', async () => {
    const h = await loaded([record({ id: 42, upc: '777', itemId: 9, itemName: '旧商品', status: 'init' })]);
    h.scan('777');
    await h.findAnswers([{ id: 12, itemName: '新商品', upc: '777' }]);
    expect(h.ctx().rows).toMatchObject([{ upc: '777', itemId: 9, itemName: '旧商品' }]);
  });

  it('a catalog that does not answer leaves the row to be picked by hand, and the next product is looked up', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.scan('222');
    await h.findFails();
    expect(h.snap().status).toBe('active');
    expect(h.ctx().rows).toMatchObject([
      { upc: '111', itemId: 5, candidates: [earbuds] },
      { upc: '222', itemId: null, candidates: [] },
    ]);
    h.scan('333');
    expect(h.finds.at(-1)!.input).toEqual({ upc: '333' });
    await h.findAnswers([]);
    h.scan('444');
    expect(h.finds.at(-1)!.input).toEqual({ upc: '444' });
  });
});

describe('scan machine: saving, again and again', () => {
  it('after a create the parcel exists, and rows added later are created by the next submit', async () => {
    const h = await loaded([]);
    expect(h.ctx().isExist).toBe(false);
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    await h.createAnswers([record({ id: 41, upc: '111', itemId: 5 })]);
    expect(h.ctx().isExist).toBe(true);
    expect(isSaving(h.snap())).toBe(false);
    h.actor.send({ type: 'tab.select', tab: 'upc' });
    h.scan('222');
    await h.findAnswers([{ id: 8, itemName: '充电器', upc: '222' }]);
    h.actor.send({ type: 'rows.submit' });
    expect(h.creates).toHaveLength(2);
    expect(h.creates[1]!.input.items).toEqual([{ upc: '222', count: 1, itemId: 8 }]);
  });

  it('a refused create sounds the failure and may be submitted again', async () => {
    const h = await loaded();
    h.scan('111');
    await h.findAnswers([earbuds]);
    h.actor.send({ type: 'rows.submit' });
    soundsOf(h);
    await h.createFails('A00001 商品不存在');
    expect(soundsOf(h)).toEqual(['failed']);
    h.actor.send({ type: 'rows.submit' });
    expect(h.creates).toHaveLength(2);
  });

  it('取消 after a create takes back what was scanned while it was under way', async () => {
    const one = await loaded();
    one.scan('111');
    await one.findAnswers([earbuds]);
    one.actor.send({ type: 'rows.submit' });
    one.scan('333');
    await one.createAnswers([record({ id: 41, upc: '111', itemId: 5 })]);
    one.scan(SCAN_COMMANDS.cancel);
    expect(one.ctx().rows).toEqual([]);

    const two = await loaded();
    two.scan('111');
    await two.findAnswers([earbuds]);
    two.actor.send({ type: 'rows.submit' });
    two.scan('333');
    two.scan('444');
    await two.createAnswers([record({ id: 41, upc: '111', itemId: 5 })]);
    two.scan(SCAN_COMMANDS.cancel);
    expect(two.ctx().rows).toMatchObject([{ upc: '333' }]);
  });

  it('an edit replaces only its record, says saved with a sound, and the next edit goes too', async () => {
    const h = await loaded([record(), record({ id: 41, upc: '888' })]);
    soundsOf(h);
    h.actor.send({ type: 'record.modify', id: 40, changes: { count: 2 } });
    await h.modifyAnswers(record({ count: 2 }));
    expect(h.ctx().records).toMatchObject([
      { id: 40, count: 2 },
      { id: 41, upc: '888', count: 1 },
    ]);
    expect(h.ctx().notice).toEqual({ kind: 'saved' });
    expect(soundsOf(h)).toEqual(['accepted']);
    h.actor.send({ type: 'record.modify', id: 41, changes: { count: 3 } });
    expect(h.modifies).toHaveLength(2);
  });

  it("a refused edit shows the server's words with the failure sound, and the record may be edited again", async () => {
    const h = await loaded();
    h.actor.send({ type: 'record.modify', id: 40, changes: { count: 2 } });
    soundsOf(h);
    await h.modifyFails('该记录已进入付款流程，不能修改');
    expect(h.snap().status).toBe('active');
    expect(h.ctx().notice).toEqual({ kind: 'error', message: '该记录已进入付款流程，不能修改' });
    expect(soundsOf(h)).toEqual(['failed']);
    h.actor.send({ type: 'record.modify', id: 40, changes: { count: 3 } });
    expect(h.modifies).toHaveLength(2);
  });

  it('an edit of the product alone goes (the page sends only what changed); an edit of a record no longer listed calls nothing', async () => {
    const h = await loaded();
    h.actor.send({ type: 'record.modify', id: 99, changes: { count: 2 } });
    expect(h.snap().status).toBe('active');
    expect(h.modifies).toHaveLength(0);
    h.actor.send({ type: 'record.modify', id: 40, changes: { itemId: 5 } });
    expect(h.modifies[0]!.input).toEqual({ id: 40, changes: { itemId: 5 } });
  });

  it('an edit with a count out of range says so, with the failure sound, and calls nothing', async () => {
    const h = await loaded();
    soundsOf(h);
    h.actor.send({ type: 'record.modify', id: 40, changes: { count: 0 } });
    expect(h.modifies).toHaveLength(0);
    expect(h.ctx().notice).toEqual({ kind: 'error', message: scanMessages.countInvalid });
    expect(soundsOf(h)).toEqual(['failed']);
  });
});

describe('scan machine: codes scanned while a code is looked up', () => {
  const nintendo: ScanItem = { id: 11, itemName: 'Nintendo Switch', upc: '045496883386' };

  it('the label scanned right after a refused product code is the tracking id', async () => {
    const h = harness();
    h.scan('045496883386');
    h.scan('1Z999AA10123456784');
    await h.findAnswers([nintendo]);
    expect(h.lookups.at(-1)!.input).toEqual({ trackingId: '1Z999AA10123456784' });
  });

  it('on a parcel’s tracking tab, the next label scanned right after a refused product code starts the next parcel', async () => {
    const h = await loaded();
    h.actor.send({ type: 'tab.select', tab: 'tracking' });
    h.scan('045496883386');
    h.scan('1Z002');
    await h.findAnswers([nintendo]);
    expect(h.lookups.at(-1)!.input).toEqual({ trackingId: '1Z002' });
  });

  it('a product code scanned twice is refused twice, and the screen then waits for the label', async () => {
    const h = harness();
    h.scan('045496883386');
    h.scan('045496883386');
    await h.findAnswers([nintendo]);
    await h.findAnswers([nintendo]);
    expect(h.snap().value).toBe('noTracking');
    expect(h.finds).toHaveLength(2);
    expect(h.lookups).toHaveLength(0);
    expect(h.ctx().notice).toMatchObject({ kind: 'refused', message: scanMessages.productCode });
  });

  it('codes held during a load are taken once: a product code refused later brings none of them back', async () => {
    const h = harness();
    h.scan('1Z001');
    h.scan('111');
    await h.lookupAnswers();
    h.actor.send({ type: 'row.remove', key: 1 });
    h.actor.send({ type: 'tab.select', tab: 'tracking' });
    h.scan('045496883386');
    await h.findAnswers([nintendo]);
    expect(h.ctx()).toMatchObject({ trackingId: '1Z001', rows: [] });
    expect(h.lookups).toHaveLength(1);

    const failed = harness();
    failed.scan('1Z001');
    failed.scan('111');
    await failed.lookupFails();
    failed.scan('045496883386');
    await failed.findAnswers([nintendo]);
    expect(failed.snap().value).toBe('noTracking');
    expect(failed.lookups).toHaveLength(1);
  });
});

describe('scan machine without the page’s calls', () => {
  const answers = {
    lookupTracking: fromPromise<LookupOutput, { trackingId: string }>(async () => ({ isExist: true, scanTrackingList: [record()] })),
    findItems: fromPromise<ScanItem[], { upc: string }>(async () => [earbuds]),
  };
  /** Lets the calls answer (each a settled promise). */
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('a call the page did not provide fails with its name, never as an empty answer', async () => {
    const bare = createActor(scanMachine).start();
    bare.send({ type: 'scan.code', code: '045496883386' });
    await settled();
    expect(bare.getSnapshot().status).toBe('active');
    expect(bare.getSnapshot().context).toMatchObject({ trackingId: null, notice: { kind: 'error', message: 'lookupTracking not provided' } });

    const noSave = createActor(scanMachine.provide({ actors: answers })).start();
    noSave.send({ type: 'scan.code', code: '1Z001' });
    await settled();
    noSave.send({ type: 'scan.code', code: '111' });
    await settled();
    noSave.send({ type: 'rows.submit' });
    await settled();
    expect(noSave.getSnapshot().context.notice).toEqual({ kind: 'error', message: 'createScans not provided' });
    noSave.send({ type: 'record.modify', id: 40, changes: { count: 2 } });
    await settled();
    expect(noSave.getSnapshot().status).toBe('active');
    expect(noSave.getSnapshot().context.notice).toEqual({ kind: 'error', message: 'modifyRecord not provided' });
  });
});
