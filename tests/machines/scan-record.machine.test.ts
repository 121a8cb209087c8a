// The scan record's rules (machines/scan-record.machine.ts; docs/decisions/070-scan-record-rules.md),
// model-based: every shortest path of the machine, and every simple path to payment, is replayed on
// a plain stored row the way the server changes one (the scan service and the tracking upload find
// the announced row and confirm it; matching and payment move its status through decideScanRecord;
// an edit asks the same). At every state the questions every caller asks are checked against the
// table DECISIONS "Receiving and matching" gives, written out here independently of the machine,
// and every event the state refuses is refused with the words the screens and the server show.
import { describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import {
  announcedRowOf,
  confirmScan,
  decideScanRecord,
  hasControlChars,
  isDuplicateOfSeen,
  isFrozen,
  isMatched,
  isSeen,
  isValidScanCount,
  MAX_SCAN_COUNT,
  mayEdit,
  SCAN_STATUSES,
  scanRecordMachine,
  scanRecordMessages,
  unmatchReasonMessages,
  unmatchReasonOf,
  type ScanRecordEvent,
  type ScanStatus,
} from '../../machines/scan-record.machine';

interface Row {
  id: number;
  trackingId: string;
  upc: string;
  count: number;
  itemId: number | null;
  itemName: string;
  status: ScanStatus;
}

/** What each status means to the callers (DECISIONS "Receiving and matching"; SPEC §4). */
const EXPECTED: Record<ScanStatus, { seen: boolean; frozen: boolean; editable: boolean }> = {
  init: { seen: false, frozen: false, editable: true },
  scan: { seen: true, frozen: false, editable: true },
  match: { seen: true, frozen: false, editable: true },
  unmatch: { seen: true, frozen: false, editable: true },
  wait2pay: { seen: true, frozen: true, editable: false },
  payed: { seen: true, frozen: true, editable: false },
};

/** The events each status takes, and where they lead. */
const TAKES: Record<ScanStatus, Partial<Record<string, ScanStatus>>> = {
  init: { 'record.confirm': 'scan', 'record.edit': 'init' },
  scan: { 'record.match:match': 'match', 'record.match:unmatch': 'unmatch', 'record.edit': 'scan' },
  match: { 'record.match:match': 'match', 'record.match:unmatch': 'unmatch', 'record.apply': 'wait2pay', 'record.edit': 'match' },
  unmatch: { 'record.match:match': 'match', 'record.match:unmatch': 'unmatch', 'record.edit': 'unmatch' },
  wait2pay: { 'record.pay': 'payed' },
  payed: {},
};

const EVENTS: ScanRecordEvent[] = [
  { type: 'record.confirm' },
  { type: 'record.match', outcome: 'match' },
  { type: 'record.match', outcome: 'unmatch' },
  { type: 'record.apply' },
  { type: 'record.pay' },
  { type: 'record.edit' },
];
const keyOf = (e: ScanRecordEvent) => (e.type === 'record.match' ? `${e.type}:${e.outcome}` : e.type);

/** The words a refusal carries: an edit of a paid row is frozen, a confirm of a seen row a duplicate. */
const refusalOf = (status: ScanStatus, e: ScanRecordEvent) =>
  e.type === 'record.edit' && EXPECTED[status].frozen
    ? scanRecordMessages.frozen
    : e.type === 'record.confirm' && EXPECTED[status].seen
      ? scanRecordMessages.upcDuplicate
      : scanRecordMessages.notAllowed;

const TEE = { id: 7, itemName: 'T恤' };

/** One stored row and the other rows of its tracking id, changed as the server changes them. */
function world() {
  let row: Row = { id: 1, trackingId: '1Z001', upc: '111', count: 5, itemId: null, itemName: '导入的商品', status: 'init' };
  const other: Row = { id: 2, trackingId: '1Z001', upc: '222', count: 1, itemId: 3, itemName: '别的商品', status: 'match' };
  const rows = () => [row, other];
  const apply = (e: ScanRecordEvent) => {
    const d = decideScanRecord(row.status, e);
    expect(d).toMatchObject({ ok: true });
    if (d.ok) row = { ...row, status: d.next };
  };
  return {
    row: () => row,
    rows,
    /** A clerk scans 2 T恤 of upc 111 on 1Z001: the announced row is confirmed (scan-service runScanJobs). */
    scanIt: () => {
      const scan = { trackingId: '1Z001', upc: '111' };
      expect(isDuplicateOfSeen(rows(), scan)).toBe(false);
      const announced = announcedRowOf(rows(), scan);
      expect(announced?.id).toBe(1);
      row = confirmScan(announced!, { count: 2, item: TEE });
    },
    apply,
  };
}

const model = createTestModel(scanRecordMachine, { events: EVENTS });

describe('scan record machine, model-based', () => {
  const shortest = model.getShortestPaths();
  const simple = model.getSimplePaths({ toState: (s) => s.value === 'payed' });

  it('the shortest paths visit every status, and there are simple paths to payment through unmatch', () => {
    expect(new Set(shortest.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)]))).toEqual(new Set(SCAN_STATUSES));
    expect(simple.some((p) => p.steps.some((s) => s.state.value === 'unmatch'))).toBe(true);
  });

  for (const path of [...shortest, ...simple]) {
    it(path.description, async () => {
      const w = world();
      const check = (status: ScanStatus) => () => {
        const row = w.row();
        expect(row.status).toBe(status);
        expect({ seen: isSeen(row), frozen: isFrozen(row), editable: mayEdit(row) }).toEqual(EXPECTED[status]);
        // A scan of its upc on its tracking id repeats a seen unit, but confirms an announced one.
        expect(isDuplicateOfSeen(w.rows(), { trackingId: row.trackingId, upc: row.upc })).toBe(EXPECTED[status].seen);
        expect(announcedRowOf(w.rows(), { trackingId: row.trackingId, upc: row.upc })?.id).toBe(EXPECTED[status].seen ? undefined : row.id);
        // The same upc on another parcel is never a duplicate of it.
        expect(isDuplicateOfSeen(w.rows(), { trackingId: '1Z999', upc: row.upc })).toBe(false);
        for (const e of EVENTS) {
          const to = TAKES[status][keyOf(e)];
          expect(decideScanRecord(status, e)).toEqual(to ? { ok: true, next: to } : { ok: false, msg: refusalOf(status, e) });
        }
      };
      await path.test({
        events: {
          'record.confirm': () => w.scanIt(),
          'record.match': (step) => w.apply(step.event as ScanRecordEvent),
          'record.apply': () => w.apply({ type: 'record.apply' }),
          'record.pay': () => w.apply({ type: 'record.pay' }),
          'record.edit': () => w.apply({ type: 'record.edit' }),
        },
        states: Object.fromEntries(SCAN_STATUSES.map((s) => [s, check(s)])),
      });
    });
  }
});

describe('what a confirm does', () => {
  const announced: Row = { id: 1, trackingId: '1Z001', upc: '111', count: 5, itemId: null, itemName: '导入的商品', status: 'init' };

  it('a scan: the row is seen with the scanned count and product, replacing the announced ones', () => {
    expect(confirmScan(announced, { count: 2, item: TEE })).toEqual({ ...announced, status: 'scan', count: 2, itemId: 7, itemName: 'T恤' });
  });

  it('a confirm upload row without a count keeps the announced count and the imported item', () => {
    expect(confirmScan(announced, { count: null })).toEqual({ ...announced, status: 'scan' });
  });

  it('refuses a row that is not announced: a second scan of a seen row is a duplicate, never a confirm', () => {
    for (const status of SCAN_STATUSES.filter((s) => s !== 'init')) {
      expect(() => confirmScan({ ...announced, status }, { count: 1 })).toThrow();
    }
  });
});

// Decision 075: the questions compare the product, however its upc is written.
describe('a upc is its product however written', () => {
  const row = (upc: string, status: ScanStatus): Row => ({ id: 1, trackingId: '1Z001', upc, count: 1, itemId: null, itemName: '', status });

  it('a scan of the EAN-13 form repeats the seen UPC-A row, and confirms one an old import stored without its zero', () => {
    const scan = { trackingId: '1Z001', upc: '0045496883386' };
    expect(isDuplicateOfSeen([row('045496883386', 'match')], scan)).toBe(true);
    expect(announcedRowOf([row('45496883386', 'init')], scan)?.id).toBe(1);
    // A code whose check digit fails is only itself.
    expect(isDuplicateOfSeen([row('045496883387', 'scan')], { trackingId: '1Z001', upc: '0045496883387' })).toBe(false);
  });

  it('a scan confirms only an announced row of its own parcel, never the same product announced on another', () => {
    const other = { ...row('045496883386', 'init'), trackingId: '1Z002' };
    expect(announcedRowOf([other], { trackingId: '1Z001', upc: '045496883386' })).toBeUndefined();
  });

  it('a row is matched only when matching tied it to a member; a code with a control character is refused', () => {
    expect(SCAN_STATUSES.filter((status) => isMatched({ status }))).toEqual(['match']);
    expect(hasControlChars('1Z999\u0000')).toBe(true);
    expect(hasControlChars('\u007f1Z999')).toBe(true);
    expect(hasControlChars('1Z 999-AA')).toBe(false);
  });

  it('an unmatch row of a product members recorded in another form is more than they recorded, not another product', () => {
    expect(unmatchReasonOf(row('0045496883386', 'unmatch'), { recorded: new Set(['045496883386']), contested: new Set<string>() })).toBe('moreThanRecorded');
    expect(unmatchReasonOf(row('4901234567894', 'unmatch'), { recorded: new Set(['045496883386']), contested: new Set<string>() })).toBe('otherProduct');
  });
});

describe('why an unmatch row matched nobody (decisions 091, 096)', () => {
  const row = (upc: string, status: ScanStatus = 'unmatch') => ({ upc, status });
  const upcs = (recorded: string[], contested: string[] = []) => ({ recorded: new Set(recorded), contested: new Set(contested) });

  it('nobody recorded the tracking id; members recorded other products; more arrived than recorded', () => {
    expect(unmatchReasonOf(row('111'), upcs([]))).toBe('notRecorded');
    expect(unmatchReasonOf(row('111'), upcs(['222']))).toBe('otherProduct');
    expect(unmatchReasonOf(row('111'), upcs(['111', '222']))).toBe('moreThanRecorded');
  });

  it('a upc several members contest: its units wait for the admin, which the clerk is told instead of "more than recorded"', () => {
    expect(unmatchReasonOf(row('111'), upcs(['111', '222'], ['111']))).toBe('contested');
    expect(unmatchReasonMessages).toEqual({
      notRecorded: '没有会员记录此快递单号',
      otherProduct: '会员为此快递单号记录的是其他商品',
      contested: '多位会员记录了此商品，到货不足，等待管理员在首页分配',
      moreThanRecorded: '到货数量多于会员记录，多出的件数未匹配',
    });
    // Another upc of the same parcel keeps its own reason.
    expect(unmatchReasonOf(row('222'), upcs(['111', '222'], ['111']))).toBe('moreThanRecorded');
    expect(unmatchReasonOf(row('333'), upcs(['111'], ['111']))).toBe('otherProduct');
  });

  it('only an unmatch row has a reason', () => {
    for (const status of SCAN_STATUSES.filter((s) => s !== 'unmatch')) expect(unmatchReasonOf(row('111', status), upcs(['111'], ['111']))).toBeNull();
  });
});

describe('how many units one scan may say', () => {
  it('from 1 to MAX_SCAN_COUNT whole units, both bounds included', () => {
    expect([1, MAX_SCAN_COUNT].map(isValidScanCount)).toEqual([true, true]);
    expect([0, -1, 1.5, MAX_SCAN_COUNT + 1, Number.NaN].map(isValidScanCount)).toEqual([false, false, false, false, false]);
  });
});
