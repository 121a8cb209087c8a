// The arithmetic of matching for ONE tracking id (DECISIONS "Receiving and matching"; decision 090),
// kept pure so it can be read, reasoned about and tested without a database; plan.ts calls it for
// each tracking id of a run and turns the result into writes.
// Input: the scan rows of the tracking id (the warehouse's side: upc + count) and the purchased
// records entered for it (the members' side: which task, how many units, at most how many the
// task's count leaves it; the task gives the upc). Output: how many units of each record arrived,
// how every scan row's units are divided between records (a row feeding two tasks is split into one
// row per task), which units nobody took, and for each record whether it agrees. The rules of the
// division are allocate's; a task is judged by the units tied to it only
// (docs/decisions/090-matching-judges-a-task-by-its-own-units.md). UPCs are compared by their
// productCodeKey (decision 075): a scan of `0045496883386` is the task's `045496883386`.

import { productCodeKey } from '../../../machines/product-code.ts';
import { CONTESTED_MESSAGE, type PurchasedStatus } from '../../../machines/task.machine.ts';
import { recordVerdict } from '../../../machines/purchased-record.machine.ts';
import { isFrozen, isSeen, matchedScanStatus, type ScanStatus } from '../../../machines/scan-record.machine.ts';

export type { ScanStatus };

export interface ScanIn {
  id: number;
  /** As scanned or imported; compared by productCodeKey. */
  upc: string;
  count: number;
  status: ScanStatus;
  /** The task the row is tied to, if any. */
  taskId: number | null;
}

export interface RecordIn {
  id: number;
  taskId: number;
  /** The task's UPC (null: the item has none, so nothing can arrive for it); compared by productCodeKey. */
  upc: string | null;
  productCount: number;
  /** At most this many units may be tied to the record: its productCount, within what its task's count leaves it (recordCaps). */
  cap: number;
  /** The task's state no longer accepts matching (locked, processing, finished, closed). */
  settled: boolean;
  /** The member whose task it is: records of two members on one parcel may contest it (decision 096). */
  memberId: number;
  /** Units an admin assigned to the record on a contested parcel, or null (decision 096). */
  assigned: number | null;
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
  /** Fewer units than recorded arrived (not a disagreement of the task, but of the record). */
  | { kind: 'partial'; arrived: number; recorded: number }
  /** Fewer units than recorded arrived, because the parcel's `scanned` units of the UPC went to records served before. */
  | { kind: 'shortShared'; scanned: number }
  /** The task's item has no UPC: nothing can be matched to it. */
  | { kind: 'noUpc' }
  /** Records of several members want more of the UPC than arrived: an admin decides (decision 096). */
  | { kind: 'contested' }
  /** An admin assigned the record fewer units than it records (decision 096). */
  | { kind: 'assigned'; arrived: number }
  /** More units arrived than the records of several members hold: said without numbers (decision 096). */
  | { kind: 'sharedSurplus' };

export interface RecordResult {
  arrived: number;
  /** The record's result: init (nothing seen for this tracking id), match, or unmatch with why. */
  status: PurchasedStatus;
  problem: Problem | null;
}

export interface Allocation {
  /** Any unit of this tracking id was seen. */
  seen: boolean;
  records: Map<number, RecordResult>;
  /** How each non-frozen pool row's units are divided (in the order the row should keep them). */
  pieces: Map<number, Piece[]>;
  /** Units no record took, per UPC (its productCodeKey). */
  surplus: Map<string, number>;
  /** The UPCs (their productCodeKeys) this tracking id's records contest (contestedUpcs), waiting for an admin. */
  contested: Set<string>;
}

/**
 * The UPCs of a parcel its records contest (decision 096): records of two or more members want the
 * UPC, some of it arrived, fewer units than they all record (each within its cap), and a record
 * whose task may still match has no admin's assignment. `scanned`: the parcel's seen units per UPC;
 * UPCs are keys (productCodeKey), as allocate passes them.
 */
export function contestedUpcs(scanned: ReadonlyMap<string, number>, records: readonly RecordIn[]): Set<string> {
  const out = new Set<string>();
  for (const [upc, units] of scanned) {
    const recs = records.filter((r) => r.upc === upc);
    if (units === 0 || new Set(recs.map((r) => r.memberId)).size < 2) continue;
    const wanted = recs.reduce((n, r) => n + Math.max(0, Math.min(r.cap, r.productCount)), 0);
    if (units < wanted && recs.some((r) => !r.settled && r.assigned === null)) out.add(upc);
  }
  return out;
}

const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);

/** A record of a task whose item has a UPC (its productCodeKey): only those take units. */
type KeyedRecord = RecordIn & { upc: string };
const hasUpc = (r: RecordIn): r is KeyedRecord => r.upc !== null;

/**
 * Divides the units of one tracking id's scan rows among its records. The rules:
 * - The pool is every row seen at the warehouse: status scan, match, unmatch, and the rows already
 *   paid for (wait2pay, payed). init rows (imported, not yet seen) are not part of it.
 * - wait2pay / payed rows are frozen: their units belong to the task they are tied to and they are
 *   never re-divided (their task is being paid).
 * - Records are served in priority order: records of settled tasks (those whose state matching may
 *   no longer change: locked, processing, finished, closed) first, so a later record can never take
 *   units away from a task that is already locked or paid; then by record id (first recorded, first
 *   served: a short shared parcel goes to the earliest record). Records of deleted tasks are not
 *   passed in: their units are nobody's.
 * - Between members the earliest record does not win (decision 096): a UPC records of several
 *   members want more of than arrived is contested (contestedUpcs): its unsettled records get
 *   nothing until an admin assigns the units (`assigned`), and say nothing of the others.
 * - Rows stay with the task they were tied to when they still fit (within each priority group, a
 *   first pass serves each record from the rows already tied to its task), so re-running matching
 *   does not reshuffle ties; the rest is handed out in row id order.
 * - A record gets at most its `cap` (its units, within what its task's count leaves it), so the units
 *   tied to a task never exceed its count. Units left over are nobody's.
 * - A task is judged by the units tied to it only (decision 090). Units no record took - of a UPC
 *   nobody recorded on this tracking id, or more of a recorded UPC than its records hold (surplus) -
 *   are unmatch rows tied to no task (the admin's queue, pieceStatus) and fail nobody: a task locked
 *   before the extra unit was scanned and one scanned after end the same. The records of a
 *   UPC with surplus say so (status unmatch, '扫描到N件，多于记录的M件'), so the member may correct them.
 */
export function allocate(scansIn: ScanIn[], recordsIn: RecordIn[]): Allocation {
  // One key per product however its code is written (decision 075); every map below is keyed by it.
  const scans = scansIn.map((s) => ({ ...s, upc: productCodeKey(s.upc) }));
  // A record whose task's item has no UPC takes nothing; once anything is seen it says so (noUpc).
  const records = recordsIn.filter(hasUpc).map((r) => ({ ...r, upc: productCodeKey(r.upc) }));
  const pool = scans.filter((s) => isSeen(s) && s.count > 0);
  const frozen = pool.filter(isFrozen);
  const live = pool.filter((s) => !isFrozen(s)).sort((a, b) => a.id - b.id);
  const ordered = [...records].sort((a, b) => Number(b.settled) - Number(a.settled) || a.id - b.id);

  const scanned = new Map<string, number>();
  for (const s of pool) add(scanned, s.upc, s.count);
  // A contested UPC (decision 096): settled records keep what they hold, the others get nothing until
  // an admin assigns the units; once assigned, a record gets at most its assignment (none: 0).
  const contested = contestedUpcs(scanned, records);
  // Records of a UPC several members recorded: told nothing of the others' records or of what the
  // parcel holds; an admin's assignments hold only while the UPC is still shared.
  const membersOf = (upc: string) => new Set(records.filter((r) => r.upc === upc).map((r) => r.memberId)).size;
  const shared = new Set(records.filter((r) => membersOf(r.upc) > 1).map((r) => r.upc));
  const assignedUpcs = new Set(records.filter((r) => r.assigned !== null && shared.has(r.upc)).map((r) => r.upc));
  const wants = (r: KeyedRecord) => {
    const own = Math.max(0, Math.min(r.cap, r.productCount));
    if (r.settled) return own;
    if (contested.has(r.upc)) return 0;
    return assignedUpcs.has(r.upc) ? Math.min(own, r.assigned ?? 0) : own;
  };
  const need = new Map(ordered.map((r) => [r.id, wants(r)]));
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
    // A record whose need is met takes 0 of each row left, as a row with nothing left gives 0.
    for (const row of rows) {
      const n = Math.min(need.get(r.id)!, avail.get(row.id)!);
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
    for (const r of group)
      serve(
        r,
        live.filter((s) => s.taskId === r.taskId && s.upc === r.upc),
      );
    for (const r of group)
      serve(
        r,
        live.filter((s) => s.upc === r.upc),
      );
  }

  // What the records may take of each UPC (their caps): the surplus message compares the scan with it.
  const recorded = new Map<string, number>();
  for (const r of ordered) add(recorded, r.upc, Math.max(0, Math.min(r.cap, r.productCount)));

  const { pieces, surplus } = piecesOfRows(live, shares, avail, new Map(ordered.map((r) => [r.id, r.taskId])));

  const seen = pool.length > 0;
  const results = new Map<number, RecordResult>();
  for (const r of ordered) {
    const got = arrived.get(r.id)!;
    const problem = recordProblem(r, got, { seen, contested, assignedUpcs, shared, surplus, scanned, recorded });
    const status = recordVerdict(seen, problem !== null);
    results.set(r.id, { arrived: got, status, problem });
  }
  for (const r of recordsIn.filter((x) => !hasUpc(x)))
    results.set(r.id, { arrived: 0, status: recordVerdict(seen, seen), problem: seen ? { kind: 'noUpc' } : null });
  return { seen, records: results, pieces, surplus, contested };
}

/** What the UPCs of one tracking id came to, as recordProblem reads them. */
interface UpcTally {
  seen: boolean;
  contested: ReadonlySet<string>;
  assignedUpcs: ReadonlySet<string>;
  shared: ReadonlySet<string>;
  surplus: ReadonlyMap<string, number>;
  scanned: ReadonlyMap<string, number>;
  recorded: ReadonlyMap<string, number>;
}

/** Why a record that got `got` units is not matched (null: it is, or nothing was seen yet), first reason first. */
function recordProblem(r: KeyedRecord, got: number, { seen, contested, assignedUpcs, shared, surplus, scanned, recorded }: UpcTally): Problem | null {
  if (!r.settled && contested.has(r.upc)) {
    return { kind: 'contested' };
  } else if (!r.settled && assignedUpcs.has(r.upc)) {
    // The admin decided the parcel: units left over are the admin's, not the record's concern.
    return got < r.productCount ? { kind: 'assigned', arrived: got } : null;
  } else if (surplus.has(r.upc) && shared.has(r.upc)) {
    return { kind: 'sharedSurplus' };
  } else if (surplus.has(r.upc)) {
    return { kind: 'surplus', upc: r.upc, scanned: scanned.get(r.upc)!, recorded: recorded.get(r.upc)! };
  } else if (got < r.productCount && seen) {
    const inParcel = scanned.get(r.upc) ?? 0;
    return inParcel > got ? { kind: 'shortShared', scanned: inParcel } : { kind: 'partial', arrived: got, recorded: r.productCount };
  }
  return null;
}

/**
 * Each live row's pieces: a share per record it serves and what nobody took (tied to no task, counted
 * as its UPC's surplus); the share of the task the row was tied to comes first.
 */
function piecesOfRows(
  live: readonly ScanIn[],
  shares: ReadonlyMap<number, ReadonlyMap<number, number>>,
  avail: ReadonlyMap<number, number>,
  taskOfRecord: ReadonlyMap<number, number>,
) {
  const surplus = new Map<string, number>();
  const pieces = new Map<number, Piece[]>();
  for (const row of live) {
    const list: Piece[] = [...shares.get(row.id)!].map(([recordId, count]) => ({ count, recordId, taskId: taskOfRecord.get(recordId)! }));
    const left = avail.get(row.id)!;
    if (left > 0) {
      list.push({ count: left, recordId: null, taskId: null });
      add(surplus, row.upc, left);
    }
    // The row itself keeps the share of the task it was tied to (fewer changes, stable ids).
    const kept = (p: Piece) => row.taskId !== null && p.taskId === row.taskId;
    list.sort((a, b) => Number(kept(b)) - Number(kept(a)));
    pieces.set(row.id, list);
  }
  return { pieces, surplus };
}

/** The record's msg for the task record dialog (SPEC §3 purchased record msg). */
export function problemMessage(p: Problem | null): string {
  if (!p) return '';
  switch (p.kind) {
    case 'surplus':
      return `扫描到${p.scanned}件，多于记录的${p.recorded}件`;
    case 'shortShared':
      return `包裹中该商品只到货${p.scanned}件，已分配给更早的记录`;
    case 'partial':
      return `已到货${p.arrived}件，记录${p.recorded}件`;
    case 'noUpc':
      return '商品没有UPC，无法匹配';
    case 'contested':
      return CONTESTED_MESSAGE;
    case 'assigned':
      return `管理员核对后为此记录分配了${p.arrived}件`;
    case 'sharedSurplus':
      return '包裹到货与记录不一致，请核对您记录的数目';
  }
}

/** The status of the units of a piece (decision 090): match when tied to a record, unmatch (tied to no task) when nobody took them. */
export function pieceStatus(piece: Piece): ScanStatus {
  return matchedScanStatus(piece.recordId !== null);
}

/**
 * Each record's cap: how many units may be tied to it, its productCount within what its task's
 * count leaves after the task's earlier records (record id order). The records of a task never
 * total more than its count when they are written (purchased-service.ts); a count lowered
 * afterwards leaves the latest records without room, so matching still never ties more units to
 * a task than its count.
 */
export function recordCaps(records: Iterable<{ id: number; taskId: number; productCount: number }>, countOf: (taskId: number) => number): Map<number, number> {
  const byTask = new Map<number, { id: number; productCount: number }[]>();
  for (const r of records) {
    const list = byTask.get(r.taskId);
    if (list) list.push(r);
    else byTask.set(r.taskId, [r]);
  }
  const caps = new Map<number, number>();
  for (const [taskId, list] of byTask) {
    let left = countOf(taskId);
    for (const r of list.sort((a, b) => a.id - b.id)) {
      const cap = Math.max(0, Math.min(r.productCount, left));
      caps.set(r.id, cap);
      left -= cap;
    }
  }
  return caps;
}
