// The division of one parcel's units among its records (src/server/matching/allocate.ts), asked
// directly, in the orders a caller may pass them: who is credited with which units decides who is
// paid. The planner's tests (plan.unit.test.ts) and the random worlds (properties.unit.test.ts) see
// it through the store, which always passes records in id order; these do not rely on that.
import { describe, expect, it } from 'vitest';
import { allocate, contestedUpcs, pieceStatus, problemMessage, recordCaps, type RecordIn, type ScanIn } from '../../../src/server/matching/allocate.ts';

const scan = (id: number, upc: string, count: number, fields: Partial<ScanIn> = {}): ScanIn => ({ id, upc, count, status: 'scan', taskId: null, ...fields });
const rec = (id: number, taskId: number, productCount: number, fields: Partial<RecordIn> = {}): RecordIn => ({
  id,
  taskId,
  upc: 'X',
  productCount,
  cap: productCount,
  settled: false,
  memberId: 1,
  assigned: null,
  ...fields,
});
const arrived = (a: ReturnType<typeof allocate>) => Object.fromEntries([...a.records].map(([id, r]) => [id, r.arrived]));

describe('who is served first from a short parcel', () => {
  it('the earliest record of a member, whatever order the records come in', () => {
    const rows = [scan(1, 'X', 2)];
    for (const records of [
      [rec(10, 1, 2), rec(11, 2, 2)],
      [rec(11, 2, 2), rec(10, 1, 2)],
    ]) {
      const a = allocate(rows, records);
      expect(arrived(a)).toEqual({ 10: 2, 11: 0 });
      expect(a.pieces.get(1)).toEqual([{ count: 2, recordId: 10, taskId: 1 }]);
      expect(a.records.get(11)).toEqual({ arrived: 0, status: 'unmatch', problem: { kind: 'shortShared', scanned: 2 } });
    }
  });

  it('a settled task (locked or paid) before any open one, even a record made earlier: its units are never taken away', () => {
    const a = allocate([scan(1, 'X', 2)], [rec(10, 1, 2), rec(11, 2, 2, { settled: true })]);
    expect(arrived(a)).toEqual({ 10: 0, 11: 2 });
    expect(a.records.get(11)!.status).toBe('match');
  });

  it('among settled tasks too, the earliest record is served first whatever order the records come in', () => {
    const a = allocate([scan(1, 'X', 2)], [rec(11, 2, 2, { settled: true }), rec(10, 1, 2, { settled: true })]);
    expect(arrived(a)).toEqual({ 10: 2, 11: 0 });
    expect(a.records.get(11)!.problem).toEqual({ kind: 'shortShared', scanned: 2 });
  });

  it('a row stays with the task it was tied to when it still fits, so matching again does not reshuffle ties', () => {
    const a = allocate([scan(1, 'X', 1, { status: 'match', taskId: 2 }), scan(2, 'X', 1)], [rec(10, 1, 1), rec(11, 2, 1)]);
    expect(a.pieces.get(1)).toEqual([{ count: 1, recordId: 11, taskId: 2 }]);
    expect(a.pieces.get(2)).toEqual([{ count: 1, recordId: 10, taskId: 1 }]);
  });

  it('frozen units (a task being paid) stay their task’s and are never divided again', () => {
    const a = allocate([scan(1, 'X', 2, { status: 'wait2pay', taskId: 2 })], [rec(10, 1, 2), rec(11, 2, 2)]);
    expect(arrived(a)).toEqual({ 10: 0, 11: 2 });
    expect(a.pieces.has(1)).toBe(false);
  });

  it('announced (init) rows count for nothing until seen', () => {
    const a = allocate([scan(1, 'X', 2, { status: 'init' })], [rec(10, 1, 2)]);
    expect(a.seen).toBe(false);
    expect(a.records.get(10)).toEqual({ arrived: 0, status: 'init', problem: null });
  });
});

describe('what a row holds and whose it stays', () => {
  it('a row divided between two tasks keeps the share of the task it was tied to; the other share becomes a new row', () => {
    const a = allocate([scan(1, 'X', 3, { status: 'match', taskId: 2 })], [rec(10, 1, 2, { settled: true }), rec(11, 2, 1)]);
    expect(a.pieces.get(1)).toEqual([
      { count: 1, recordId: 11, taskId: 2 },
      { count: 2, recordId: 10, taskId: 1 },
    ]);
  });

  it('a row whose task takes none of it stays the earliest record’s; what nobody took is split off to the queue', () => {
    // Tied to task 3, which no longer records this parcel: the row is not left as the admin's leftovers.
    const surplus = allocate([scan(1, 'X', 3, { status: 'match', taskId: 3 })], [rec(10, 1, 1)]);
    expect(surplus.pieces.get(1)).toEqual([
      { count: 1, recordId: 10, taskId: 1 },
      { count: 2, recordId: null, taskId: null },
    ]);
    const two = allocate([scan(1, 'X', 3, { status: 'match', taskId: 3 })], [rec(10, 1, 1), rec(11, 2, 2)]);
    expect(two.pieces.get(1)).toEqual([
      { count: 1, recordId: 10, taskId: 1 },
      { count: 2, recordId: 11, taskId: 2 },
    ]);
  });

  it('frozen units go to their own task’s record of the same product, at most what it records', () => {
    const a = allocate([scan(1, 'X', 3, { status: 'payed', taskId: 1 }), scan(2, 'Y', 1, { status: 'payed', taskId: 2 })], [rec(10, 1, 2), rec(11, 2, 1)]);
    expect(arrived(a)).toEqual({ 10: 2, 11: 0 });
  });

  it('a row of no units is no sighting: its records still wait', () => {
    const a = allocate([scan(1, 'X', 0)], [rec(10, 1, 1)]);
    expect(a.seen).toBe(false);
    expect(a.records.get(10)).toEqual({ arrived: 0, status: 'init', problem: null });
  });

  it('judges each record by its own units: all arrived, fewer, another product, none of an item without a UPC', () => {
    const rows = [scan(1, 'X', 3), scan(2, 'Z', 1)];
    const a = allocate(rows, [rec(10, 1, 2), rec(11, 2, 2, { upc: 'Y' }), rec(12, 3, 1, { upc: null })]);
    expect(a.records.get(10)).toEqual({ arrived: 2, status: 'unmatch', problem: { kind: 'surplus', upc: 'X', scanned: 3, recorded: 2 } });
    expect(a.records.get(11)).toEqual({ arrived: 0, status: 'unmatch', problem: { kind: 'partial', arrived: 0, recorded: 2 } });
    expect(a.records.get(12)).toEqual({ arrived: 0, status: 'unmatch', problem: { kind: 'noUpc' } });
    expect(a.surplus).toEqual(
      new Map([
        ['X', 1],
        ['Z', 1],
      ]),
    );
    const exact = allocate([scan(1, 'X', 2)], [rec(10, 1, 2), rec(12, 3, 1, { upc: null })]);
    expect(exact.records.get(10)).toEqual({ arrived: 2, status: 'match', problem: null });
    // Nothing of the parcel seen: an item without a UPC waits like the others.
    expect(allocate([], [rec(12, 3, 1, { upc: null })]).records.get(12)).toEqual({ arrived: 0, status: 'init', problem: null });
  });

  it('more units than the records of several members hold: each record is told so without numbers', () => {
    const a = allocate([scan(1, 'X', 5)], [rec(10, 1, 2, { memberId: 1 }), rec(11, 2, 2, { memberId: 2 })]);
    expect(arrived(a)).toEqual({ 10: 2, 11: 2 });
    expect([a.records.get(10)!.problem, a.records.get(11)!.problem]).toEqual([{ kind: 'sharedSurplus' }, { kind: 'sharedSurplus' }]);
  });
});

describe('more of the same rules, asked where a mutation test found them unasked', () => {
  it('serves the oldest row first whatever order the rows come in', () => {
    const a = allocate([scan(2, 'X', 1), scan(1, 'X', 1)], [rec(10, 1, 1)]);
    expect(a.pieces.get(1)).toEqual([{ count: 1, recordId: 10, taskId: 1 }]);
    expect(a.pieces.get(2)).toEqual([{ count: 1, recordId: null, taskId: null }]);
  });

  it('a settled task takes its units even from a row tied to an open task', () => {
    const a = allocate([scan(1, 'X', 2, { status: 'match', taskId: 1 })], [rec(10, 1, 2), rec(11, 2, 2, { settled: true })]);
    expect(arrived(a)).toEqual({ 10: 0, 11: 2 });
  });

  it('a row tied to a task but of another product is not that task’s', () => {
    const a = allocate([scan(1, 'Y', 1, { status: 'match', taskId: 1 })], [rec(10, 1, 1)]);
    expect(arrived(a)).toEqual({ 10: 0 });
    expect(a.pieces.get(1)).toEqual([{ count: 1, recordId: null, taskId: null }]);
  });

  it('a settled record of a contested parcel keeps its units and its plain verdict; the open one waits', () => {
    const a = allocate([scan(1, 'X', 2)], [rec(10, 1, 2, { memberId: 1 }), rec(11, 2, 2, { memberId: 2, settled: true })]);
    expect(a.contested).toEqual(new Set(['X']));
    expect(arrived(a)).toEqual({ 10: 0, 11: 2 });
    expect(a.records.get(11)).toEqual({ arrived: 2, status: 'match', problem: null });
    expect(a.records.get(10)!.problem).toEqual({ kind: 'contested' });
  });

  it('a settled record short of units says how many arrived, not that an admin assigned them', () => {
    const a = allocate([scan(1, 'X', 1)], [rec(10, 1, 2, { memberId: 1, settled: true }), rec(11, 2, 2, { memberId: 2, assigned: 1 })]);
    expect(a.records.get(10)).toEqual({ arrived: 1, status: 'unmatch', problem: { kind: 'partial', arrived: 1, recorded: 2 } });
  });

  it('records of two members on one parcel but of different products share nothing: each surplus is said with its numbers', () => {
    const a = allocate([scan(1, 'X', 2), scan(2, 'Y', 1)], [rec(10, 1, 1, { memberId: 1 }), rec(11, 2, 1, { memberId: 2, upc: 'Y' })]);
    expect(a.records.get(10)!.problem).toEqual({ kind: 'surplus', upc: 'X', scanned: 2, recorded: 1 });
    expect(a.records.get(11)).toEqual({ arrived: 1, status: 'match', problem: null });
  });

  it('the surplus message counts what the records may take (their caps), not what they record', () => {
    const a = allocate([scan(1, 'X', 3)], [rec(10, 1, 3, { cap: 1 })]);
    expect(a.records.get(10)!.problem).toEqual({ kind: 'surplus', upc: 'X', scanned: 3, recorded: 1 });
  });
});

describe('each record’s cap (recordCaps): never more units on a task than its count', () => {
  it('gives the task’s records their units in record order while its count lasts', () => {
    const records = [
      { id: 10, taskId: 1, productCount: 2 },
      { id: 11, taskId: 1, productCount: 2 },
      { id: 12, taskId: 2, productCount: 3 },
    ];
    expect(Object.fromEntries(recordCaps(records, () => 5))).toEqual({ 10: 2, 11: 2, 12: 3 });
  });

  it('shrinks the latest records’ caps after the count is lowered, whatever order the records come in', () => {
    const lowered = (count: number, records: { id: number; taskId: number; productCount: number }[]) => Object.fromEntries(recordCaps(records, () => count));
    const records = [
      { id: 11, taskId: 1, productCount: 2 },
      { id: 10, taskId: 1, productCount: 2 },
      { id: 12, taskId: 1, productCount: 2 },
    ];
    expect(lowered(3, records)).toEqual({ 10: 2, 11: 1, 12: 0 });
    expect(lowered(1, records)).toEqual({ 10: 1, 11: 0, 12: 0 });
    expect(lowered(0, records)).toEqual({ 10: 0, 11: 0, 12: 0 });
  });

  it('a record capped below its units takes only the cap; the rest of the parcel is nobody’s', () => {
    const a = allocate([scan(1, 'X', 3)], [rec(10, 1, 3, { cap: 1 })]);
    expect(arrived(a)).toEqual({ 10: 1 });
    expect(a.surplus.get('X')).toBe(2);
    expect(a.pieces.get(1)).toEqual([
      { count: 1, recordId: 10, taskId: 1 },
      { count: 2, recordId: null, taskId: null },
    ]);
  });
});

describe('a parcel several members record (decision 096)', () => {
  const scanned = (n: number) => new Map([['X', n]]);
  it('is contested when fewer units arrived than they record and an open record has no assignment', () => {
    const two = [rec(10, 1, 2, { memberId: 1 }), rec(11, 2, 2, { memberId: 2 })];
    expect(contestedUpcs(scanned(3), two)).toEqual(new Set(['X']));
    expect(contestedUpcs(scanned(4), two)).toEqual(new Set());
    expect(contestedUpcs(scanned(0), two)).toEqual(new Set());
    // One member's two records are never contested: the earliest is served.
    expect(contestedUpcs(scanned(1), [rec(10, 1, 2), rec(11, 2, 2)])).toEqual(new Set());
    // Every record settled or assigned: the admin has decided.
    expect(contestedUpcs(scanned(3), [rec(10, 1, 2, { memberId: 1, settled: true }), rec(11, 2, 2, { memberId: 2, assigned: 1 })])).toEqual(new Set());
    // What they record counts within each cap.
    expect(contestedUpcs(scanned(3), [rec(10, 1, 2, { memberId: 1, cap: 1 }), rec(11, 2, 2, { memberId: 2 })])).toEqual(new Set());
  });

  it('credits none of the open records until an admin assigns the units, and each then gets at most its assignment', () => {
    const rows = [scan(1, 'X', 3)];
    const contested = allocate(rows, [rec(10, 1, 2, { memberId: 1 }), rec(11, 2, 2, { memberId: 2 })]);
    expect(arrived(contested)).toEqual({ 10: 0, 11: 0 });
    expect(contested.records.get(10)!.problem).toEqual({ kind: 'contested' });
    const assigned = allocate(rows, [rec(10, 1, 2, { memberId: 1, assigned: 2 }), rec(11, 2, 2, { memberId: 2, assigned: 1 })]);
    expect(arrived(assigned)).toEqual({ 10: 2, 11: 1 });
    expect(assigned.records.get(10)).toEqual({ arrived: 2, status: 'match', problem: null });
    expect(assigned.records.get(11)).toEqual({ arrived: 1, status: 'unmatch', problem: { kind: 'assigned', arrived: 1 } });
  });
});

describe('the words a record says and the rows’ statuses', () => {
  it('says each problem in the record dialog’s words', () => {
    expect(problemMessage(null)).toBe('');
    expect(problemMessage({ kind: 'surplus', upc: 'X', scanned: 3, recorded: 1 })).toBe('扫描到3件，多于记录的1件');
    expect(problemMessage({ kind: 'shortShared', scanned: 2 })).toBe('包裹中该商品只到货2件，已分配给更早的记录');
    expect(problemMessage({ kind: 'partial', arrived: 1, recorded: 2 })).toBe('已到货1件，记录2件');
    expect(problemMessage({ kind: 'noUpc' })).toBe('商品没有UPC，无法匹配');
    expect(problemMessage({ kind: 'assigned', arrived: 1 })).toBe('管理员核对后为此记录分配了1件');
    expect(problemMessage({ kind: 'sharedSurplus' })).toBe('包裹到货与记录不一致，请核对您记录的数目');
  });

  it('a piece a record took is match; units nobody took are unmatch', () => {
    expect(pieceStatus({ count: 1, recordId: 10, taskId: 1 })).toBe('match');
    expect(pieceStatus({ count: 1, recordId: null, taskId: null })).toBe('unmatch');
  });
});
