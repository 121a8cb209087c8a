/**
 * A scan record: one row of a parcel (tracking id, upc, count), from announcement to payment (SPEC
 * §3 scan tracking record, §4 scan record status, §5 scan messages; DECISIONS "Receiving and
 * matching"; docs/decisions/070-scan-record-rules.md). The one place its rules live (the statuses at
 * scanRecordMachine): the database enum, the contract and the screens' badges take its status list;
 * the scan calls, the tracking upload, matching and the scan screens ask its questions, so "seen",
 * "frozen" and "duplicate" mean one thing everywhere.
 */
import { setup } from 'xstate';
import { productCodeKey, sameProductCode } from './product-code';
import { allowedEvents, decide, type Decision } from './stored-state';
import { SCAN_STATUSES, scanStatusLabels, type ScanStatus } from './scan-record.statuses';

export { SCAN_STATUSES, scanStatusLabels, type ScanStatus };

/**
 * A tracking id a member recorded this many days ago that no scan has seen is "not arrived" (a
 * missing parcel, decision 077): the default of the server's MISSING_PARCEL_DAYS setting, which the
 * answers carry (notArrivedDays, days). Seven days: a parcel inside the US arrives within a week;
 * later than that the member should chase the carrier.
 */
export const NOT_ARRIVED_AFTER_DAYS = 7;

/** The admin home counts the claims of unknown parcels made in this many days (decision 169): a week's claims are the shelf to clear. */
export const RECENT_CLAIM_DAYS = 7;

/**
 * Unknown parcels scanned in this many days are listed for members and counted on the admin home
 * (decision 169): a warehouse returns or disposes of an unclaimed parcel within about three months,
 * and the list then costs the unmatch rows of those days, not of every year kept. An older one is
 * still claimed by its full id.
 */
export const UNKNOWN_PARCEL_DAYS = 90;

/**
 * The words of the scan rules, one wording each, shown by the screens and answered by the server
 * (SPEC §5 where it gives them). machines/scan.machine.ts and scan2.machine.ts read these too.
 */
export const scanRecordMessages = {
  /** A upc the tracking id has seen (SPEC §5, /admin/scan). */
  upcDuplicate: 'upc重复，请编辑已添加的商品',
  /** A parcel scanned again with a product it was seen with (SPEC §5, /admin/scan2). */
  trackingSubmitted: 'tracking已提交过',
  /** /admin/scan: every row needs a product (SPEC §5). */
  itemsRequired: '请填写所有项目对应的商品',
  /** /admin/scan2: a product must be chosen (SPEC §5). */
  chooseItem: '请选择商品',
  /** A tracking id or upc: trimmed, 1..64 characters, no control characters. Required: SPEC §5's words (the record dialog's). */
  trackingIdRequired: '请填写trackingId',
  trackingIdTooLong: '快递单号不能超过64个字符',
  trackingIdInvalid: '快递单号包含无效字符',
  upcRequired: '请填写UPC',
  upcTooLong: 'UPC不能超过64个字符',
  upcInvalid: 'UPC包含无效字符',
  /** A count outside 1..MAX_SCAN_COUNT. */
  countInvalid: '数量必须是1到1000000之间的整数',
  /** An edit of a frozen row. */
  frozen: '该记录已进入付款流程，不能修改',
  /** Matching or payment asked of a row in a status that does not take it (a bug of the caller, never a user's doing). */
  notAllowed: '该记录当前不能进行此操作',
} as const;

/** SPEC §9: a scan counts one unit unless the clerk types more. */
export const DEFAULT_SCAN_COUNT = 1;
export const MAX_SCAN_COUNT = 1_000_000;
/** The longest tracking id or upc. */
export const MAX_SCAN_TEXT = 64;
export const isValidScanCount = (count: number) => Number.isInteger(count) && count >= 1 && count <= MAX_SCAN_COUNT;
/** Control characters (a NUL cannot even be stored in a text column): never part of a code a scanner reads. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;
export const hasControlChars = (s: string) => s.search(CONTROL_CHARS) !== -1;

export type ScanRecordEvent =
  /** The announced row was seen: a scan of its upc, or a confirm upload row. */
  | { type: 'record.confirm' }
  /** Matching's verdict on a seen row. */
  | { type: 'record.match'; outcome: 'match' | 'unmatch' }
  /** The row's task applied for payment (only its matched rows move). */
  | { type: 'record.apply' }
  /** The task was paid; cause: the payment event that paid it (the row's audit action). */
  | { type: 'record.pay'; cause?: string }
  /** A change of count, upc, item or tracking id by an admin. */
  | { type: 'record.edit' };

const matchVerdict = {
  'record.match': [{ guard: 'outcomeMatch', target: 'match' }, { target: 'unmatch' }],
} as const;

/**
 * - init: announced by a tracking import, not yet seen at the warehouse. Not stock: matching leaves
 *   it alone. A scan of its upc on its tracking id, or a confirm upload row, CONFIRMS it
 *   (record.confirm -> scan): the scanned count replaces the announced one (an upload row without a
 *   count keeps it) and a scanned product replaces the imported item. Such a scan is not a
 *   duplicate: the announcement was waiting for it.
 * - scan: seen, not yet matched. Matching decides (record.match -> match | unmatch) and decides
 *   again after every scan, upload and record change: match and unmatch move between each other.
 * - wait2pay (record.apply: the matched row's task applied for payment) -> payed (record.pay).
 *   Frozen: the units belong to that task; neither an edit nor matching moves them.
 * - Seen = every status but init. A scan of a upc the tracking id has SEEN is a duplicate (a parcel
 *   is scanned once; a clerk corrects the count with an edit).
 * - record.edit (count, upc, item, tracking id) in every status but the frozen ones. The status
 *   stays: an init row stays init, a seen row is matched again by the caller.
 */
export const scanRecordMachine = setup({
  types: {
    events: {} as ScanRecordEvent,
    tags: {} as 'seen' | 'frozen',
  },
  guards: {
    outcomeMatch: ({ event }) => event.type === 'record.match' && event.outcome === 'match',
  },
}).createMachine({
  id: 'scanRecord',
  initial: 'init',
  states: {
    init: { on: { 'record.confirm': 'scan', 'record.edit': 'init' } },
    scan: { tags: ['seen'], on: { ...matchVerdict, 'record.edit': 'scan' } },
    match: { tags: ['seen'], on: { ...matchVerdict, 'record.apply': 'wait2pay', 'record.edit': 'match' } },
    unmatch: { tags: ['seen'], on: { ...matchVerdict, 'record.edit': 'unmatch' } },
    wait2pay: { tags: ['seen', 'frozen'], on: { 'record.pay': 'payed' } },
    payed: { tags: ['seen', 'frozen'] },
  },
});

/** The message for a refused event (the machine said no). */
export function explainScanRecordRefusal(status: ScanStatus, _context: unknown, event: ScanRecordEvent): string {
  if (event.type === 'record.edit' && isFrozen({ status })) return scanRecordMessages.frozen;
  if (event.type === 'record.confirm' && isSeen({ status })) return scanRecordMessages.upcDuplicate;
  return scanRecordMessages.notAllowed;
}

/** Asks the machine about a row in `status` (see stored-state.ts; a 50,000-row confirm asks the same question of every row, answered once). */
export const decideScanRecord = (status: ScanStatus, event: ScanRecordEvent): Decision<ScanStatus> =>
  decide(scanRecordMachine, status, {}, event, explainScanRecordRefusal);

// ---------------------------------------------------------------- the questions every caller asks
// Read from the machine once, at load: matching asks them of every row of a 50,000-row upload.

const statusesTagged = (tag: 'seen' | 'frozen') => SCAN_STATUSES.filter((status) => scanRecordMachine.resolveState({ value: status, context: {} }).hasTag(tag));

/** The seen statuses: the rows matching divides among tasks (its pool). */
export const SEEN_SCAN_STATUSES: readonly ScanStatus[] = statusesTagged('seen');
/** The statuses of a row whose task is being paid. */
export const FROZEN_SCAN_STATUSES: readonly ScanStatus[] = statusesTagged('frozen');
const EDITABLE: readonly ScanStatus[] = SCAN_STATUSES.filter((status) => allowedEvents(scanRecordMachine, status, {}, [{ type: 'record.edit' }]).length > 0);

/** The status of a row a tracking import announces (the machine's first state). */
export const ANNOUNCED_SCAN_STATUS = scanRecordMachine.config.initial as ScanStatus;

/** The row is an announcement waiting for its parcel (init): a scan of its upc, or a confirm upload row, confirms it. */
export const isAnnounced = (row: { status: ScanStatus }) => row.status === ANNOUNCED_SCAN_STATUS;

/** The parcel's product was physically seen at the warehouse (every status but init). */
export const isSeen = (row: { status: ScanStatus }) => SEEN_SCAN_STATUSES.includes(row.status);

/** The row's task is being paid (wait2pay, payed): no edit, and matching never re-divides its units. */
export const isFrozen = (row: { status: ScanStatus }) => FROZEN_SCAN_STATUSES.includes(row.status);

/** The row is tied to a member's record and agrees with it (the scan screens say 匹配成功). */
export const isMatched = (row: { status: ScanStatus }) => row.status === 'match';

/** Matching tied the row to no task (see unmatchReasonOf). */
export const isUnmatched = (row: { status: ScanStatus }) => row.status === 'unmatch';

/** An admin may edit the row (count, upc, item, tracking id): the screens offer the edit, the server accepts it. */
export const mayEdit = (row: { status: ScanStatus }) => EDITABLE.includes(row.status);

/**
 * A scan of `scan.upc` on `scan.trackingId` repeats a unit already seen: some row of that tracking
 * id and product is seen (upcs compared by productCodeKey, decision 075: `0045496883386` is the row
 * of `045496883386`). An imported (init) row is not: the scan confirms it (confirmScan).
 */
export const isDuplicateOfSeen = (rows: readonly { trackingId: string; upc: string; status: ScanStatus }[], scan: { trackingId: string; upc: string }) =>
  rows.some((r) => r.trackingId === scan.trackingId && isSeen(r) && sameProductCode(r.upc, scan.upc));

/** The announced row a scan of `scan.upc` on `scan.trackingId` confirms (its product, however its upc is written), if any. */
export const announcedRowOf = <R extends { trackingId: string; upc: string; status: ScanStatus }>(
  rows: readonly R[],
  scan: { trackingId: string; upc: string },
) => rows.find((r) => r.trackingId === scan.trackingId && isAnnounced(r) && sameProductCode(r.upc, scan.upc));

/** What a confirm brings: the units seen (null: an upload row without a count keeps the announced count) and the product scanned, if any. */
export interface Confirmation {
  count: number | null;
  item?: { id: number; itemName: string } | null;
}

/**
 * What a confirm does to an announced row: it is seen (status scan; matching then decides), its
 * count becomes the units seen, its item the product scanned. Throws for a row that is not
 * announced: the caller found it with announcedRowOf.
 */
export function confirmScan<R extends { status: ScanStatus; count: number; itemId: number | null; itemName: string }>(row: R, seen: Confirmation): R {
  const d = decideScanRecord(row.status, { type: 'record.confirm' });
  if (!d.ok) throw new Error(`confirmScan: a ${row.status} row is not announced`);
  return { ...row, status: d.next, count: seen.count ?? row.count, ...(seen.item ? { itemId: seen.item.id, itemName: seen.item.itemName } : {}) };
}

/**
 * Why an unmatch row matched nobody's task (decision 090: every unit no record claims is untied):
 * - notRecorded: no member recorded this tracking id;
 * - otherProduct: members recorded it, for other products only;
 * - contested: members (two or more) recorded this product on it and fewer units arrived than they
 *   record: the units wait for the admin's assignment on the home page (decision 096);
 * - moreThanRecorded: members recorded this product on it, and their records took no more units.
 */
export const UNMATCH_REASONS = ['notRecorded', 'otherProduct', 'contested', 'moreThanRecorded'] as const;
export type UnmatchReason = (typeof UNMATCH_REASONS)[number];

/** Each reason in words for the clerk (the scan stations show it beside the row; members never see these). */
export const unmatchReasonMessages: Record<UnmatchReason, string> = {
  notRecorded: '没有会员记录此快递单号',
  otherProduct: '会员为此快递单号记录的是其他商品',
  contested: '多位会员记录了此商品，到货不足，等待管理员在首页分配',
  moreThanRecorded: '到货数量多于会员记录，多出的件数未匹配',
};

/** What the caller knows of a tracking id's live records: the upcs members recorded on it, and those of them contested (decision 096). */
export interface RecordedUpcs {
  recorded: ReadonlySet<string>;
  contested: ReadonlySet<string>;
}

/**
 * The reason of an unmatch row, given what members recorded on its tracking id (null for any other
 * status). A upc is the row's product however written (decision 075).
 */
export function unmatchReasonOf(row: { upc: string; status: ScanStatus }, upcs: RecordedUpcs): UnmatchReason | null {
  if (!isUnmatched(row)) return null;
  if (upcs.recorded.size === 0) return 'notRecorded';
  if (!namesProduct(upcs.recorded, row.upc)) return 'otherProduct';
  return namesProduct(upcs.contested, row.upc) ? 'contested' : 'moreThanRecorded';
}

/** Some upc of `set` is the product `upc` (the same text, or the same productCodeKey). */
function namesProduct(set: ReadonlySet<string>, upc: string): boolean {
  if (set.size === 0) return false;
  if (set.has(upc)) return true;
  const key = productCodeKey(upc);
  for (const u of set) if (productCodeKey(u) === key) return true;
  return false;
}

/** A row seen and not yet judged by matching: what a confirm makes of an announced row, and a new scan row's status. */
export const SCANNED_SCAN_STATUS: ScanStatus = (() => {
  const d = decideScanRecord(ANNOUNCED_SCAN_STATUS, { type: 'record.confirm' });
  if (!d.ok) throw new Error('the scan-record machine has no state for a confirmed row');
  return d.next;
})();

/** Matching's verdict on a seen row's units (record.match): match when they are tied to a member's record, unmatch when nobody took them. */
export function matchedScanStatus(tied: boolean): ScanStatus {
  const d = decideScanRecord(SCANNED_SCAN_STATUS, { type: 'record.match', outcome: tied ? 'match' : 'unmatch' });
  if (!d.ok) throw new Error('the scan-record machine refuses a verdict on a seen row');
  return d.next;
}

/** A seen row matching tied to no task (the admin home's unmatched counts; with no live record on its tracking id, an unknown parcel: decision 169). */
export const UNMATCHED_SCAN_STATUS: ScanStatus = matchedScanStatus(false);
