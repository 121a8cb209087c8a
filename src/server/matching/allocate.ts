// The arithmetic of matching for ONE tracking id (DECISIONS "Receiving and matching"), kept pure so
// it can be read, reasoned about and tested without a database; match.ts loads the rows, calls this
// and writes the result.
//
// Input: the scan rows of the tracking id (the warehouse's side: upc + count) and the purchased
// records entered for it (the members' side: which task, how many units; the task gives the upc).
// Output: how many units of each record arrived, how every scan row's units are divided between
// records (a row feeding two tasks is split into one row per task), which units nobody recorded,
// and for each record whether it agrees.
//
// Decisions:
// - The pool is every row seen at the warehouse: status scan, match, unmatch, and the rows already
//   paid for (wait2pay, payed). init rows (imported, not yet seen) are not part of it.
// - wait2pay / payed rows are frozen: their units belong to the task they are tied to and they are
//   never re-divided (their task is being paid).
// - Records are served in priority order: records of settled tasks (those whose state matching may
//   no longer change: locked, processing, finished, closed) first, so a later record can never take
//   units away from a task that is already locked or paid; then by record id (first recorded, first
//   served). Records of deleted tasks are not passed in: their units are nobody's.
// - Rows stay with the task they were tied to when they still fit (within each priority group, a
//   first pass serves each record from the rows already tied to its task), so re-running matching
//   does not reshuffle ties; the rest is handed out in row id order. Settled records are served
//   completely before any other record, even from rows tied to another task (after a split, the
//   rows of the arrived units move to the locked sibling this way).
// - A record gets at most the units it records (capped per record). Units left over are surplus:
//   of a UPC some record on this tracking id expects -> "more units than recorded"; of a UPC no
//   record expects -> a foreign item in the parcel.
// - Who disagrees: surplus of an expected UPC makes the (unsettled) records of that UPC disagree;
//   a foreign UPC makes every unsettled record of the tracking id disagree, since the parcel cannot
//   be told apart. Settled records keep their result.

import { isFrozen, isSeen, SEEN_SCAN_STATUSES, type ScanStatus } from '../../../machines/scan-record.machine.ts';

export type { ScanStatus };

/** The pool: the seen rows (machines/scan-record.machine.ts isSeen). */
export const POOL_STATUSES: readonly ScanStatus[] = SEEN_SCAN_STATUSES;

export interface ScanIn {
  id: number;
  upc: string;
  count: number;
  status: ScanStatus;
  /** The task the row is tied to, if any. */
  taskId: number | null;
}

export interface RecordIn {
  id: number;
  taskId: number;
  /** The task's UPC (null: the item has none, so nothing can arrive for it). */
  upc: string | null;
  productCount: number;
  /** The task's state no longer accepts matching (locked, processing, finished, closed). */
  settled: boolean;
}

/** A share of a scan row's units: for one record (and its task), or nobody's (surplus). */
export interface Piece {
  count: number;
  recordId: number | null;
  taskId: number | null;
}

export type Problem =
  /** More units of the record's UPC arrived than all records of the tracking id hold. */
  | { kind: 'surplus'; upc: string; scanned: number; recorded: number }
  /** An item no record of the tracking id expects is in the parcel. */
  | { kind: 'foreign'; upc: string }
  /** Fewer units than recorded arrived (not a disagreement of the task, but of the record). */
  | { kind: 'partial'; arrived: number; recorded: number }
  /** The task's item has no UPC: nothing can be matched to it. */
  | { kind: 'noUpc' };

export interface RecordResult {
  arrived: number;
  /** The record's result: init (nothing seen for this tracking id), match, or unmatch with why. */
  status: 'init' | 'match' | 'unmatch';
  problem: Problem | null;
  /** The parcel disagrees with this record's task (surplus or foreign item): the task is unmatch. */
  disagrees: boolean;
}

export interface Allocation {
  /** Any unit of this tracking id was seen. */
  seen: boolean;
  records: Map<number, RecordResult>;
  /** How each non-frozen pool row's units are divided (in the order the row should keep them). */
  pieces: Map<number, Piece[]>;
  /** Units no record took, per UPC. */
  surplus: Map<string, number>;
}

const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);

export function allocate(scans: ScanIn[], records: RecordIn[]): Allocation {
  const pool = scans.filter((s) => isSeen(s) && s.count > 0);
  const frozen = pool.filter(isFrozen);
  const live = pool.filter((s) => !isFrozen(s)).sort((a, b) => a.id - b.id);
  const ordered = [...records].sort((a, b) => Number(b.settled) - Number(a.settled) || a.id - b.id);

  const need = new Map(ordered.map((r) => [r.id, r.upc === null ? 0 : r.productCount]));
  const arrived = new Map(ordered.map((r) => [r.id, 0]));
  const take = (r: RecordIn, n: number) => {
    need.set(r.id, need.get(r.id)! - n);
    arrived.set(r.id, arrived.get(r.id)! + n);
  };

  // Frozen rows serve the record of the task they are tied to (their units are that task's even
  // beyond what it records).
  for (const row of frozen) {
    const r = ordered.find((x) => x.taskId === row.taskId && x.upc === row.upc);
    if (r) take(r, Math.min(need.get(r.id)!, row.count));
  }

  const avail = new Map(live.map((s) => [s.id, s.count]));
  const shares = new Map<number, Map<number, number>>(live.map((s) => [s.id, new Map()]));
  const serve = (r: RecordIn, rows: ScanIn[]) => {
    for (const row of rows) {
      const want = need.get(r.id)!;
      if (want === 0) return;
      const n = Math.min(want, avail.get(row.id)!);
      if (n === 0) continue;
      avail.set(row.id, avail.get(row.id)! - n);
      const s = shares.get(row.id)!;
      s.set(r.id, (s.get(r.id) ?? 0) + n);
      take(r, n);
    }
  };
  // Settled records are served completely before the others; within each group, first from rows
  // already tied to the record's task, then from whatever is left, oldest row first.
  for (const group of [ordered.filter((r) => r.settled), ordered.filter((r) => !r.settled)]) {
    for (const r of group) if (r.upc !== null) serve(r, live.filter((s) => s.taskId === r.taskId && s.upc === r.upc));
    for (const r of group) if (r.upc !== null) serve(r, live.filter((s) => s.upc === r.upc));
  }

  const scanned = new Map<string, number>();
  for (const s of pool) add(scanned, s.upc, s.count);
  const recorded = new Map<string, number>();
  for (const r of ordered) if (r.upc !== null) add(recorded, r.upc, r.productCount);

  const surplus = new Map<string, number>();
  const pieces = new Map<number, Piece[]>();
  const taskOfRecord = new Map(ordered.map((r) => [r.id, r.taskId]));
  for (const row of live) {
    const list: Piece[] = [...shares.get(row.id)!].map(([recordId, count]) => ({ count, recordId, taskId: taskOfRecord.get(recordId)! }));
    const left = avail.get(row.id)!;
    if (left > 0) {
      list.push({ count: left, recordId: null, taskId: null });
      add(surplus, row.upc, left);
    }
    // The row itself keeps the share of the task it was tied to (fewer changes, stable ids).
    list.sort((a, b) => Number(b.taskId === row.taskId && row.taskId !== null) - Number(a.taskId === row.taskId && row.taskId !== null));
    pieces.set(row.id, list);
  }

  const foreign = [...surplus.keys()].find((upc) => !recorded.has(upc));
  const seen = pool.length > 0;
  const results = new Map<number, RecordResult>();
  for (const r of ordered) {
    const got = arrived.get(r.id)!;
    let problem: Problem | null = null;
    let disagrees = false;
    if (!r.settled && r.upc !== null && surplus.has(r.upc) && recorded.has(r.upc)) {
      problem = { kind: 'surplus', upc: r.upc, scanned: scanned.get(r.upc)!, recorded: recorded.get(r.upc)! };
      disagrees = true;
    } else if (!r.settled && foreign !== undefined) {
      problem = { kind: 'foreign', upc: foreign };
      disagrees = true;
    } else if (r.upc === null) {
      problem = seen ? { kind: 'noUpc' } : null;
    } else if (got < r.productCount && seen) {
      problem = { kind: 'partial', arrived: got, recorded: r.productCount };
    }
    const status: RecordResult['status'] = !seen ? 'init' : problem ? 'unmatch' : 'match';
    results.set(r.id, { arrived: got, status, problem, disagrees });
  }
  return { seen, records: results, pieces, surplus };
}

/** The record's msg for the task record dialog (SPEC §3 purchased record msg). */
export function problemMessage(p: Problem | null): string {
  if (!p) return '';
  switch (p.kind) {
    case 'surplus':
      return `扫描到${p.scanned}件，多于记录的${p.recorded}件`;
    case 'foreign':
      return `包裹中有未记录的商品（UPC ${p.upc}）`;
    case 'partial':
      return `已到货${p.arrived}件，记录${p.recorded}件`;
    case 'noUpc':
      return '商品没有UPC，无法匹配';
  }
}
