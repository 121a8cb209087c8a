/**
 * /admin/scan2: one product, many tracking ids (SPEC §2 /admin/scan2, §4 "Scan2 row client status",
 * §5 Scan2, §7 add; DECISIONS "Receiving and matching"). Every rule of the screen lives here (listed
 * at scan2Machine), around two: NO SCAN IS LOST (a failed send is retried, rows not yet settled
 * survive a reload) and NOTHING IS SENT TWICE (every send starts with a check of the server). A clerk
 * works with the scanner alone (decision 085): a product's code chooses it, and the command barcodes
 * of /admin/scan submit and take back.
 *
 * Side effects are named: the actors `lookupTracking`, `addScan` and `findItems`, and the action
 * `feedback` (the page's sound and banner), all provided by the page.
 */
import { and, assign, enqueueActions, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import { isMatched, isSeen, isUnmatched, scanRecordMessages, unmatchReasonMessages, type ScanStatus, type UnmatchReason } from './scan-record.machine';
import { scanCommandOf, type FeedbackKind, type ScanCommand, type ScanItem as Scan2Item } from './scan-station';
import { canonicalTrackingId, nearMissMessages, type NearMissRef } from './tracking-id';
import { taskDisplayId } from './task.machine';
import { gtinForms, isCatalogProductCode, productCodeMessages, sameProductCode } from './product-code';

export type { FeedbackKind, Scan2Item };

/** SPEC §4 "Scan2 row client status". */
export const SCAN2_STATUS = {
  pending: 0,
  submitting: 1,
  submitted: 2,
  failed: 3,
  matchOk: 4,
  matchFailed: 5,
  deleted: 9,
} as const;
export type Scan2Status = (typeof SCAN2_STATUS)[keyof typeof SCAN2_STATUS];

export const scan2Messages = {
  itemRequired: scanRecordMessages.chooseItem, // SPEC §5
  duplicate: scanRecordMessages.trackingSubmitted, // SPEC §5
  /** The tracking id is already a row that has not reached the server yet (pending, being sent, failed). */
  waiting: '该快递单号已在列表中，等待提交',
  /** The chosen product's own code scanned again: no row (decision 074), the product stays chosen. */
  productChosen: (itemName: string) => `${productCodeMessages.notTrackingId}（已选择商品：${itemName}）`,
  /** A product chosen by its code, or from the choice (decision 085). */
  itemChosen: (itemName: string) => `已选择商品：${itemName}，请扫描包裹的快递单号`,
  /** Several products have the scanned code: the clerk types the number of one, then Enter. */
  chooseAmong: (n: number) => `此UPC对应 ${n} 个商品：按数字键 1–${n} 后回车选择，或扫描「取消」`,
  /**
   * While the choice is open: a number not in it (refused), or a parcel's label kept until a product
   * is chosen (decision 085); `kept` says how many labels wait.
   */
  chooseFirst: (n: number, kept = 0) => `请先选择商品：按数字键 1–${n} 后回车，或扫描「取消」${kept > 0 ? `（已暂存 ${kept} 个快递单号）` : ''}`,
  choiceCancelled: '已取消选择商品',
  /** 取消 while labels were kept: they have no product and are dropped; the clerk scans them again. */
  choiceCancelledDropped: (n: number) => `已取消选择商品：${n} 个暂存的快递单号未加入，请选择商品后重新扫描`,
  /** The 提交 command barcode. */
  submitted: (n: number) => `已提交 ${n} 条待提交记录`,
  nothingToSubmit: '没有待提交的记录',
  /** The 下一个包裹 command barcode: each tracking id is a parcel here; what waited is submitted. */
  nextParcel: (n: number) => (n > 0 ? `已提交 ${n} 条待提交记录，请扫描下一个包裹的快递单号` : '请扫描下一个包裹的快递单号'),
  /** The 取消 command barcode: the newest pending row (the last scan) is deleted. */
  undone: (trackingId: string) => `已撤销扫描：${trackingId} 已删除`,
  nothingToUndo: '没有可撤销的扫描：已提交的记录不能撤销',
  /** A matched row: whose task it matched. */
  matchedTo: (member: string, taskId: string) => `已匹配：${member} 的任务 ${taskId}`,
} as const;

/** At most this many products are offered for one code (the digit keys 1-9); more are found with the search. */
export const CHOICES_MAX = 9;

/** The retry backoff: 1 s doubling to at most 60 s. */
export const RETRY_BASE_MS = 1000;
export const RETRY_MAX_MS = 60_000;
export const retryDelayOf = (attempt: number) => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt));

/** Settled rows kept in the list (and in storage) for the clerk to look back at; older ones drop off. */
export const SETTLED_ROWS_KEPT = 300;

/** The fields of a scan record (ScanTracking) the screen reads. */
export interface Scan2Record {
  id: number;
  trackingId: string;
  upc: string;
  count: number;
  itemId: number | null;
  status: ScanStatus;
  /** Whose task a matched row is tied to (ScanTracking's matchedUser, mainId, subId). */
  matchedUser?: string | null;
  mainId?: number | null;
  subId?: number | null;
  /** Why an unmatch row matched nobody (ScanTracking's unmatchReason). */
  unmatchReason?: UnmatchReason | null;
  /** Records whose tracking id is near this one, on a row no member recorded (ScanTracking's nearMisses, decision 098). */
  nearMisses?: readonly NearMissRef[];
}

export interface Scan2Row {
  key: number;
  trackingId: string;
  itemId: number;
  itemName: string;
  upc: string;
  status: Scan2Status;
  /** Why the row failed: the server's words, or '' for a failure without an answer. */
  message: string;
  /** Failed rows that will be tried again automatically (not the server's refusals). */
  retryable: boolean;
  /** Sends tried so far. */
  attempts: number;
  /** An add may have reached the server without its answer reaching us. */
  sent: boolean;
  scannedAt: number;
}

/** What the page shows (and sounds) for the last scan. */
export type Scan2Notice =
  | { kind: 'accepted'; code: string }
  | { kind: 'duplicate'; code: string; message: string }
  | { kind: 'refused'; code: string; message: string }
  /** The chosen product's own code: it stays chosen, no row (a warning). */
  | { kind: 'product'; code: string; message: string }
  /** A product is now the chosen one (by its code or from the choice). */
  | { kind: 'chosen'; message: string }
  /** Several products have the code: the choice is open. */
  | { kind: 'choose'; code: string; message: string }
  /** A parcel's label scanned while the choice is open: kept, to go in under the product chosen. */
  | { kind: 'kept'; code: string; message: string }
  /** What a command barcode did. */
  | { kind: 'command'; message: string };

/** A catalog item the product search found for a code (its status: open items are offered first). */
export type Scan2Candidate = Scan2Item & { status?: string };

/** The products of a scanned code, offered with the digit keys 1-9. */
export interface Scan2Choice {
  code: string;
  items: Scan2Item[];
}

export interface Scan2Context {
  item: Scan2Item | null;
  rows: Scan2Row[];
  nextKey: number;
  notice: Scan2Notice | null;
  /** Automatic retry rounds since the last success (the backoff's exponent). */
  retryRound: number;
  /** The row being checked or sent. */
  currentKey: number | null;
  /**
   * The code the catalog is being asked about (a valid GTIN of no loaded product), with its time;
   * `heldBefore`: how many held scans came before it (asked while a choice was open).
   */
  vetting: Scan2Vetting | null;
  /**
   * Scans waiting their turn, in order: those that came while the catalog was asked, and the labels
   * kept while the choice is open (decision 085). Taken once the catalog answered or a product is chosen.
   */
  held: Scan2Held[];
  /** The open choice between products of one code. */
  choice: Scan2Choice | null;
}

export interface Scan2Vetting {
  code: string;
  at?: number;
  heldBefore?: number;
}

/** A scan that waits; `tracking`: the catalog already said it names no product (it is not asked again). */
export interface Scan2Held {
  code: string;
  at?: number;
  tracking?: true;
}

/**
 * What the page restores from storage: the rows and the product, and the scans that wait with the
 * choice or the catalog's answer they wait for (no scan is lost on a reload, decision 085).
 */
export interface Scan2Input {
  item?: Scan2Item | null;
  rows?: Scan2Row[];
  nextKey?: number;
  choice?: Scan2Choice | null;
  held?: Scan2Held[];
  vetting?: Scan2Vetting | null;
}

export type Scan2Event =
  | { type: 'item.select'; item: Scan2Item | null }
  | { type: 'scan.code'; code: string; at?: number }
  /** A code the catalog said is no product: taken as a tracking id (raised by the machine). */
  | { type: 'scan.tracking'; code: string; at?: number }
  /** One of the open choice's products, by its place (0-based). */
  | { type: 'choice.pick'; index: number }
  | { type: 'choice.cancel' }
  | { type: 'row.submit'; key: number }
  | { type: 'row.delete'; key: number }
  | { type: 'rows.submitPending' }
  | { type: 'rows.clearSettled' }
  | { type: 'retry.now' };

/** A failed check or add, as the page's actors report it. */
export interface Scan2SendError {
  /** False when the server refused the row itself (an error code with its message): no retry. */
  retryable: boolean;
  message: string;
}

export interface LookupInput {
  trackingId: string;
}
export interface AddInput {
  trackingId: string;
  itemId: number;
  upc: string;
  count: number;
}

// ---------------------------------------------------------------- the rules, as plain functions

/** Rows that still count for duplicates: everything but deleted. */
export const isLive = (row: Scan2Row) => row.status !== SCAN2_STATUS.deleted;

export const isSettled = (row: Scan2Row) =>
  row.status === SCAN2_STATUS.submitted ||
  row.status === SCAN2_STATUS.matchOk ||
  row.status === SCAN2_STATUS.matchFailed ||
  row.status === SCAN2_STATUS.deleted ||
  (row.status === SCAN2_STATUS.failed && !row.retryable);

/** The row's add reached the server (its answer was read). */
export const isSubmitted = (row: Scan2Row) =>
  row.status === SCAN2_STATUS.submitted || row.status === SCAN2_STATUS.matchOk || row.status === SCAN2_STATUS.matchFailed;

/** Rows not yet on the server: the ones that must never be lost. */
export const isUnsettled = (row: Scan2Row) => !isSettled(row);

/** SPEC §4: only pending rows may be deleted or submitted by hand. */
export const canDeleteRow = (row: Scan2Row) => row.status === SCAN2_STATUS.pending;
export const canSubmitRow = (row: Scan2Row) => row.status === SCAN2_STATUS.pending;

const normalize = (code: string) => code.trim();

export type ScanVerdict =
  | { ok: true; code: string }
  | { ok: false; kind: 'refused' | 'duplicate' | 'ignored'; message: string }
  /** A command barcode of the stations (SCAN_COMMANDS): never a tracking id. */
  | { ok: false; kind: 'command'; command: ScanCommand }
  /** A loaded product's code: that product is chosen ('product': it already was), no row is made. */
  | { ok: false; kind: 'product' | 'select'; message: string; item: Scan2Item }
  /** A valid GTIN of no loaded product: the catalog is asked whether it is a product's code. */
  | { ok: false; kind: 'catalog' };

/** The products the station has loaded: the chosen one, then those of its rows, newest first. */
export function loadedItems(context: Pick<Scan2Context, 'item' | 'rows'>): Scan2Item[] {
  const out: Scan2Item[] = context.item ? [context.item] : [];
  for (let i = context.rows.length - 1; i >= 0; i--) {
    const row = context.rows[i]!;
    if (!out.some((item) => item.id === row.itemId)) out.push({ id: row.itemId, itemName: row.itemName, upc: row.upc });
  }
  return out;
}

/**
 * What a scanned code is: a command, a product's code, a code to ask the catalog about, or a tracking
 * id that becomes a row (or is refused). `catalogAsked`: the catalog said the code names no product.
 */
export function scanVerdict(context: Pick<Scan2Context, 'item' | 'rows'>, raw: string, catalogAsked = false): ScanVerdict {
  // A command barcode (printed sheets lie beside both stations) is never a tracking id.
  const command = scanCommandOf(raw);
  if (command) return { ok: false, kind: 'command', command };
  // The tracking id's canonical key (decision 097), as the server stores it: a repeat compares keys.
  const code = canonicalTrackingId(raw);
  if (code === '') return { ok: false, kind: 'ignored', message: '' };
  // A product's own code chooses that product (decisions 074, 085).
  const product = loadedItems(context).find((item) => isCatalogProductCode(code, [item.upc]));
  if (product) {
    const again = product.id === context.item?.id;
    const message = again ? scan2Messages.productChosen(product.itemName) : scan2Messages.itemChosen(product.itemName);
    return { ok: false, kind: again ? 'product' : 'select', message, item: product };
  }
  const listed = context.rows.find((row) => isLive(row) && row.trackingId === code);
  // A valid GTIN may be a product of the catalog not loaded yet (a tracking id already listed is not).
  if (!catalogAsked && !listed && gtinForms(code).length > 0) return { ok: false, kind: 'catalog' };
  if (!context.item) return { ok: false, kind: 'refused', message: scan2Messages.itemRequired };
  if (listed) return { ok: false, kind: 'duplicate', message: isSubmitted(listed) ? scan2Messages.duplicate : scan2Messages.waiting };
  return { ok: true, code };
}

/**
 * The products offered for a scanned code: the catalog items whose upc is that code (however written),
 * the open ones when there are any, at most CHOICES_MAX. One is chosen without asking.
 */
export function productChoices(code: string, candidates: readonly Scan2Candidate[]): Scan2Item[] {
  const mine = candidates.filter((item) => isCatalogProductCode(code, [item.upc]));
  const open = mine.filter((item) => item.status === undefined || item.status === 'open');
  return (open.length > 0 ? open : mine).slice(0, CHOICES_MAX).map(({ id, itemName, upc }) => ({ id, itemName, upc }));
}

/** The product a scan picks from the open choice: its number 1-9 typed then Enter, or null. */
export function choiceByDigit(choice: Scan2Choice | null, raw: string): Scan2Item | null {
  const typed = raw.trim();
  if (!choice || !/^[1-9]$/.test(typed)) return null;
  return choice.items[Number(typed) - 1] ?? null;
}

/** The rows with every pending one queued for sending (the next scan, 提交, or the button). */
const submitAllPending = (rows: Scan2Row[]) => rows.map((r) => (r.status === SCAN2_STATUS.pending ? { ...r, status: SCAN2_STATUS.submitting } : r));

const pendingCount = (rows: readonly Scan2Row[]) => rows.filter((r) => r.status === SCAN2_STATUS.pending).length;

/** The newest pending row: the last scan, still to be taken back by 取消. */
export const lastPendingRow = (rows: readonly Scan2Row[]) => rows.findLast((r) => r.status === SCAN2_STATUS.pending) ?? null;

/** A record of the row's product: its upc however written (decision 075), or its item when the row has no upc. */
const sameProduct = (record: Scan2Record, row: Pick<Scan2Row, 'upc' | 'itemId'>) =>
  row.upc !== '' ? sameProductCode(record.upc, row.upc) : record.itemId === row.itemId;

/**
 * What a settled row says beside its status: whose task it matched, or why it did not match (the
 * server's unmatchReason: nobody recorded the tracking id - with 可能是… when records are near it -
 * members recorded other products on it, several members recorded it and the units wait for the
 * admin's assignment, or more units arrived than they recorded).
 */
export function settledMessage(records: readonly Scan2Record[], row: Pick<Scan2Row, 'upc' | 'itemId'>): string {
  const mine = records.filter((r) => sameProduct(r, row));
  const matched = mine.find((r) => isMatched(r) && r.mainId != null);
  if (matched) return scan2Messages.matchedTo(matched.matchedUser ?? '', taskDisplayId({ mainId: matched.mainId!, subId: matched.subId ?? 0 }));
  const unmatched = mine.find(isUnmatched);
  const reason = unmatched?.unmatchReason;
  if (!reason) return '';
  // A parcel nobody recorded: the records near it, if any (可能是…, decision 098).
  return unmatched.nearMisses?.length ? `${unmatchReasonMessages[reason]}；${nearMissMessages.clerk(unmatched.nearMisses)}` : unmatchReasonMessages[reason];
}

/** The status a settled add leaves a row in, from the tracking's records. */
export function settledStatus(records: readonly Scan2Record[], row: Pick<Scan2Row, 'upc' | 'itemId'>): Scan2Status {
  const mine = records.filter((r) => sameProduct(r, row));
  if (mine.some(isMatched)) return SCAN2_STATUS.matchOk;
  if (mine.some(isUnmatched)) return SCAN2_STATUS.matchFailed;
  return SCAN2_STATUS.submitted;
}

export type CheckOutcome =
  /** An earlier add of this row arrived: settle without sending. */
  | { kind: 'arrived'; status: Scan2Status }
  /** The parcel is already scanned with this product: 'tracking已提交过'. */
  | { kind: 'duplicate' }
  | { kind: 'send' };

/**
 * What the check before a send decides: whether the server holds the parcel as seen (scanned, not
 * merely imported) with the row's product. Before the first send that is a repeat scan. After an add
 * that may have arrived it is that add: a row is sent only when its first check found the product
 * unseen, and an add makes it seen. Not by counting units: an add sees an imported row with the
 * scanned count, so an imported parcel's units need not grow (counting them sent such a row again
 * and showed the clerk's own scan as 'tracking已提交过').
 */
export function checkOutcome(row: Scan2Row, records: readonly Scan2Record[]): CheckOutcome {
  if (!records.some((r) => sameProduct(r, row) && isSeen(r))) return { kind: 'send' };
  return row.sent ? { kind: 'arrived', status: settledStatus(records, row) } : { kind: 'duplicate' };
}

const queuedRow = (rows: readonly Scan2Row[]) => rows.find((row) => row.status === SCAN2_STATUS.submitting);

/**
 * The row being checked or sent. It is always there: checking is entered only with a queued row, and
 * a queued row is never deleted, cleared or trimmed (only pending rows are deleted, only settled ones
 * cleared or trimmed).
 */
const currentRow = (context: Scan2Context): Scan2Row => context.rows.find((r) => r.key === context.currentKey)!;

/** Keeps every unsettled row and the newest SETTLED_ROWS_KEPT settled ones. */
function trimSettled(rows: Scan2Row[]): Scan2Row[] {
  const settled = rows.filter(isSettled).length;
  if (settled <= SETTLED_ROWS_KEPT) return rows;
  let drop = settled - SETTLED_ROWS_KEPT;
  return rows.filter((row) => !(isSettled(row) && drop-- > 0));
}

const asSendError = (error: unknown): Scan2SendError => {
  if (typeof error === 'object' && error !== null && 'retryable' in error) {
    const e = error as Partial<Scan2SendError>;
    return { retryable: e.retryable !== false, message: typeof e.message === 'string' ? e.message : '' };
  }
  return { retryable: true, message: '' };
};

function patchRow(rows: Scan2Row[], key: number | null, patch: (row: Scan2Row) => Partial<Scan2Row>): Scan2Row[] {
  return rows.map((row) => (row.key === key ? { ...row, ...patch(row) } : row));
}

/** Restored rows, as stored: a row in 1 is still queued, and its check decides whether to send. */
function restoreRows(rows: readonly Scan2Row[] | undefined): Scan2Row[] {
  return (rows ?? []).map((row) => ({ ...row }));
}

// The guards and notices of the scan events (scan.code, scan.tracking: the transitions that use them
// are on those events alone, so their code is read without asking the event's type again).
type GuardArgs = { context: Scan2Context; event: Scan2Event };
const codeOf = (event: Scan2Event) => (event as { code: string }).code;

/** What a scan event's code is (scan.tracking: the catalog said it names no product). */
const verdictOf = (context: Scan2Context, event: Scan2Event): ScanVerdict => scanVerdict(context, codeOf(event), event.type === 'scan.tracking');

type VerdictKind = Exclude<ScanVerdict, { ok: true }>['kind'] | 'row';
const verdictIs =
  (...kinds: VerdictKind[]) =>
  ({ context, event }: GuardArgs) => {
    const verdict = verdictOf(context, event);
    return kinds.includes(verdict.ok ? 'row' : verdict.kind);
  };
const commandIs =
  (command: ScanCommand) =>
  ({ event }: GuardArgs) =>
    scanCommandOf(codeOf(event)) === command;

/** The notice of a scan that made no row: what it was, the code as scanned (without blanks), the verdict's words. */
const scanNotice =
  (kind: 'product' | 'duplicate' | 'refused') =>
  ({ context, event }: GuardArgs) => ({ kind, code: normalize(codeOf(event)), message: (verdictOf(context, event) as { message: string }).message });

/** A product chosen: by its code, or from the choice. */
const chosen = (item: Scan2Item) => ({ item, notice: { kind: 'chosen' as const, message: scan2Messages.itemChosen(item.itemName) } });

const command = (message: string) => ({ kind: 'command' as const, message });

/** The time a scan event carries (scan.code, scan.tracking). */
const scanAt = (event: Scan2Event) => (event as { at?: number }).at;

/** A label kept while the choice is open, as it will be taken after it. */
const keptScan = (event: Scan2Event): Scan2Held => ({
  code: codeOf(event),
  at: scanAt(event),
  ...(event.type === 'scan.tracking' ? { tracking: true as const } : {}),
});

/** What the open choice asks, with the labels kept. */
const chooseFirstOf = (context: Pick<Scan2Context, 'choice' | 'held'>) => scan2Messages.chooseFirst(context.choice!.items.length, context.held.length);

/** 取消 of the choice: closed; the labels kept have no product and are dropped (held is emptied after the sound). */
const cancelChoice = (context: Scan2Context) => ({
  notice: command(context.held.length > 0 ? scan2Messages.choiceCancelledDropped(context.held.length) : scan2Messages.choiceCancelled),
});

// ---------------------------------------------------------------- the machine

/**
 * The rules of the screen:
 * - A product must be chosen before a scan is taken ('请选择商品'). Each row keeps the product it was
 *   scanned with, so changing the product never changes rows already scanned.
 * - A product's code chooses it (decision 085), with the scanner alone: a valid GTIN that is a loaded
 *   product's code (the chosen one, or one of the rows') is decided at once; any other valid GTIN is
 *   first asked of the catalog (`findItems`; scans meanwhile wait and are taken in order after). One
 *   product (the only open one) is chosen: itemChosen and the accepted sound. Several: the choice
 *   opens (chooseAmong, the `unknown` sound, the sound of a product to be named by the clerk); the
 *   clerk types its number 1-9 and Enter (or picks it on the screen, or in the search); another
 *   product code is taken as such (its choice, or its one product). A parcel's label scanned while
 *   the choice is open is KEPT (chooseFirst with the count kept, the `unknown` sound), in order, and
 *   goes in under the product chosen as if scanned after it: no parcel goes in under a product
 *   nobody chose, and none is lost. 取消 closes the choice and drops the kept labels, saying how many
 *   (they have no product; the clerk scans them again). A number not in the list is refused. No
 *   product, or a catalog that does not answer: the code is a tracking id (the server refuses a
 *   catalog product code on add, decision 074); while a choice is open, it is kept with the others.
 * - The chosen product's own code again makes no row (decision 074: a scanner that missed the
 *   courier label): productChosen and the productCode sound.
 * - Command barcodes (SCAN_COMMANDS, the same as /admin/scan's): 提交 submits every pending row
 *   (nothingToSubmit when none); 下一个包裹 does the same and asks for the next parcel (each tracking
 *   id is a parcel here); 取消 closes an open choice, else deletes the newest pending row (the last
 *   scan: only pending rows may be deleted), else says there is nothing to take back. A command is
 *   never a tracking id.
 * - Each scanned tracking id becomes a row in status 0 (pending). A tracking id already in the list
 *   (in any status but 9 deleted) is refused: 'tracking已提交过' when that row really reached the
 *   server (2, 4, 5), '该Tracking已在列表中，等待提交' while it has not (0, 1, 3): nothing was
 *   submitted twice, the clerk only scanned it again (a camera held on a label does that). A parcel
 *   the server already holds as scanned for the same product is 'tracking已提交过' too (found by the
 *   check before the first send).
 * - The next accepted scan submits every pending row (0 -> 1); the clerk may also submit a pending row
 *   by its button, or all pending rows at once. Only pending rows may be deleted (-> 9) or submitted
 *   by hand.
 * - Rows in 1 are sent one at a time, oldest first: a check (GET .../{id}/list), then the add (POST
 *   .../{id}/add). The add answers with the tracking's records; the row becomes 4 when its record
 *   matched, 5 when it did not match, else 2.
 * - NO SCAN IS LOST: a send that fails becomes 3; unless the server refused the row itself (then it
 *   stays 3 with the server's words), it is queued again automatically after a backoff (1 s, 2 s, 4 s,
 *   ... at most 60 s; reset by any success), at once when another row goes through (the server answers
 *   again) or on `retry.now` (the browser's 'online' event, the retry button). The context is the
 *   page's persisted state: rows not yet settled survive a reload (the page stores the context and
 *   passes it back as input) and a row caught in 1 by the reload is checked and sent again. So do
 *   the scans that wait: the open choice with its kept labels, and a catalog question under way
 *   (asked again), restored by `restoring`.
 * - NOTHING IS SENT TWICE: an add whose answer was lost may have been applied, and sending it again
 *   would count the parcel twice (or, where the server refuses a upc already seen, report our own scan
 *   as 'tracking已提交过'). So a row remembers `sent` (an add may have reached the server without its
 *   answer reaching us). Every send starts with the check: when `sent` and the server now holds the
 *   parcel as seen with the row's product, the earlier add did arrive and the row is settled from the
 *   records without sending again (see checkOutcome).
 */
export const scan2Machine = setup({
  types: {
    context: {} as Scan2Context,
    events: {} as Scan2Event,
    input: {} as Scan2Input,
  },
  actors: {
    /** GET /api/scan/admin/tracking/{id}/list: the tracking's records. Rejects with a Scan2SendError. */
    lookupTracking: fromPromise<Scan2Record[], LookupInput>(async () => {
      throw new Error('lookupTracking not provided');
    }),
    /** POST /api/scan/admin/tracking/{id}/add: the tracking's records after the add. Rejects with a Scan2SendError. */
    addScan: fromPromise<Scan2Record[], AddInput>(async () => {
      throw new Error('addScan not provided');
    }),
    /** The catalog items whose upc is the code (GET /api/item/info/like/{q}, exact upc). */
    findItems: fromPromise<Scan2Candidate[], { upc: string }>(async () => {
      throw new Error('findItems not provided');
    }),
  },
  actions: {
    /** The page's sound (null: none); the banner reads `notice`. */
    feedback: (_, _params: { kind: FeedbackKind | null }) => {},
    requeueFailed: assign({
      rows: ({ context }) => context.rows.map((r) => (r.status === SCAN2_STATUS.failed && r.retryable ? { ...r, status: SCAN2_STATUS.submitting } : r)),
    }),
    /**
     * The held scans, in order; with them, in its place, the asked code itself as a tracking id when
     * the catalog named no product of it (`asTracking`). A held scan the catalog already answered for
     * is a tracking id again (scan.tracking), not asked twice.
     */
    replayHeld: enqueueActions(({ context, enqueue }, params?: { asTracking: true }) => {
      const scans: Scan2Held[] = [...context.held];
      if (params?.asTracking) {
        const { code, at, heldBefore = 0 } = context.vetting!;
        scans.splice(heldBefore, 0, { code, at, tracking: true });
      }
      for (const scan of scans) enqueue.raise({ type: scan.tracking ? 'scan.tracking' : 'scan.code', code: scan.code, at: scan.at });
      enqueue.assign({ held: [], vetting: null });
    }),
  },
  delays: {
    retryDelay: ({ context }) => retryDelayOf(context.retryRound),
  },
  guards: {
    isAccepted: verdictIs('row'),
    isDuplicateScan: verdictIs('duplicate'),
    isProductScan: verdictIs('product'),
    isSelectScan: verdictIs('select'),
    isCatalogScan: verdictIs('catalog'),
    isRefusedScan: verdictIs('refused'),
    /** While the choice is open, a loaded product's code: it is chosen instead. */
    isLoadedProductScan: verdictIs('product', 'select'),
    /** While the choice is open, a code that would be a tracking id. */
    isTrackingLikeScan: verdictIs('row', 'duplicate', 'refused'),
    isSubmitCommand: commandIs('submit'),
    isNextParcelCommand: commandIs('nextParcel'),
    isCancelCommand: commandIs('cancel'),
    isChoiceDigit: ({ context, event }) => choiceByDigit(context.choice, codeOf(event)) !== null,
    /** A number 1-9 that is not in the open choice (checked after isChoiceDigit). */
    isOtherDigit: ({ event }) => /^[1-9]$/.test(codeOf(event).trim()),
    hasChoice: ({ context }) => context.choice !== null,
    /** item.select with a product (not the search cleared). */
    isItemPicked: ({ event }) => (event as { item: Scan2Item | null }).item !== null,
    /** On choice.pick, only while the choice is open. */
    isChoiceIndex: ({ context, event }) => context.choice!.items[(event as { index: number }).index] !== undefined,
    isPendingRow: ({ context, event }) =>
      (event.type === 'row.submit' || event.type === 'row.delete') && context.rows.some((row) => row.key === event.key && canSubmitRow(row)),
    hasPendingRows: ({ context }) => context.rows.some((row) => row.status === SCAN2_STATUS.pending),
    hasQueuedRow: ({ context }) => queuedRow(context.rows) !== undefined,
    hasRetryableRow: ({ context }) => context.rows.some((row) => row.status === SCAN2_STATUS.failed && row.retryable),
  },
}).createMachine({
  id: 'scan2',
  type: 'parallel',
  context: ({ input }) => ({
    item: input.item ?? null,
    rows: restoreRows(input.rows),
    nextKey: Math.max(input.nextKey ?? 1, ...(input.rows ?? []).map((row) => row.key + 1)),
    notice: null,
    retryRound: 0,
    currentKey: null,
    vetting: input.vetting ?? null,
    held: [...(input.held ?? [])],
    choice: input.choice ?? null,
  }),
  on: {
    'item.select': { actions: assign({ item: ({ event }) => event.item, notice: null }) },
    'row.submit': {
      guard: 'isPendingRow',
      actions: assign({ rows: ({ context, event }) => patchRow(context.rows, event.key, () => ({ status: SCAN2_STATUS.submitting })) }),
    },
    'row.delete': {
      guard: 'isPendingRow',
      actions: assign({ rows: ({ context, event }) => patchRow(context.rows, event.key, () => ({ status: SCAN2_STATUS.deleted })) }),
    },
    'rows.submitPending': {
      guard: 'hasPendingRows',
      actions: assign({ rows: ({ context }) => submitAllPending(context.rows) }),
    },
    'rows.clearSettled': { actions: assign({ rows: ({ context }) => context.rows.filter(isUnsettled) }) },
  },
  states: {
    /** What a scan is: a command, a product's code (asked of the catalog, a choice), or a tracking id. */
    scanner: {
      initial: 'restoring',
      on: {
        // The command barcodes, wherever the scanner is (a child state may take them first).
        'scan.code': [
          {
            guard: and(['isSubmitCommand', 'hasPendingRows']),
            actions: [
              assign(({ context }) => ({ rows: submitAllPending(context.rows), notice: command(scan2Messages.submitted(pendingCount(context.rows))) })),
              { type: 'feedback', params: { kind: 'accepted' } },
            ],
          },
          {
            guard: 'isSubmitCommand',
            actions: [assign({ notice: command(scan2Messages.nothingToSubmit) }), { type: 'feedback', params: { kind: 'duplicate' } }],
          },
          {
            guard: 'isNextParcelCommand',
            actions: [
              assign(({ context }) => ({ rows: submitAllPending(context.rows), notice: command(scan2Messages.nextParcel(pendingCount(context.rows))) })),
              { type: 'feedback', params: { kind: 'accepted' } },
            ],
          },
          {
            guard: and(['isCancelCommand', 'hasPendingRows']),
            actions: [
              assign(({ context }) => {
                const row = lastPendingRow(context.rows)!;
                return {
                  rows: patchRow(context.rows, row.key, () => ({ status: SCAN2_STATUS.deleted })),
                  notice: command(scan2Messages.undone(row.trackingId)),
                };
              }),
              { type: 'feedback', params: { kind: 'accepted' } },
            ],
          },
          {
            guard: 'isCancelCommand',
            actions: [assign({ notice: command(scan2Messages.nothingToUndo) }), { type: 'feedback', params: { kind: 'duplicate' } }],
          },
        ],
      },
      states: {
        /** A reload finds the scans where they waited: for the catalog's answer (asked again), or with the choice. */
        restoring: {
          always: [{ guard: ({ context }) => context.vetting !== null, target: 'vetting' }, { guard: 'hasChoice', target: 'choosing' }, { target: 'ready' }],
        },
        ready: {
          // Whatever closed the choice (its exit would clear it before the pick's actions read it).
          entry: assign({ choice: null }),
          on: {
            // A scanned code (scan.code) or one the catalog named no product of (scan.tracking).
            'scan.*': [
              {
                guard: 'isAccepted',
                actions: [
                  assign(({ context, event }) => {
                    const code = canonicalTrackingId(event.code);
                    const item = context.item!;
                    const row: Scan2Row = {
                      key: context.nextKey,
                      trackingId: code,
                      itemId: item.id,
                      itemName: item.itemName,
                      upc: item.upc,
                      status: SCAN2_STATUS.pending,
                      message: '',
                      retryable: true,
                      attempts: 0,
                      sent: false,
                      scannedAt: event.at ?? 0,
                    };
                    // The next scan submits what was pending.
                    return {
                      rows: trimSettled([...submitAllPending(context.rows), row]),
                      nextKey: context.nextKey + 1,
                      notice: { kind: 'accepted' as const, code },
                    };
                  }),
                  { type: 'feedback', params: { kind: 'accepted' } },
                ],
              },
              {
                guard: 'isProductScan',
                actions: [assign({ notice: scanNotice('product') }), { type: 'feedback', params: { kind: 'productCode' } }],
              },
              {
                guard: 'isSelectScan',
                actions: [
                  assign(({ context, event }) => chosen((verdictOf(context, event) as { item: Scan2Item }).item)),
                  { type: 'feedback', params: { kind: 'accepted' } },
                ],
              },
              {
                guard: 'isCatalogScan',
                target: 'vetting',
                actions: assign({ vetting: ({ event }) => ({ code: canonicalTrackingId(event.code), at: event.at }) }),
              },
              {
                guard: 'isDuplicateScan',
                actions: [assign({ notice: scanNotice('duplicate') }), { type: 'feedback', params: { kind: 'duplicate' } }],
              },
              {
                guard: 'isRefusedScan',
                actions: [assign({ notice: scanNotice('refused') }), { type: 'feedback', params: { kind: 'failed' } }],
              },
            ],
          },
        },
        /**
         * The catalog is asked whether a valid GTIN is a product's code; scans meanwhile wait. Asked
         * while a choice was open, the choice stays open unless the code names a product.
         */
        vetting: {
          on: {
            'scan.code': { actions: assign({ held: ({ context, event }) => [...context.held, { code: event.code, at: event.at }] }) },
          },
          invoke: {
            src: 'findItems',
            input: ({ context }) => ({ upc: context.vetting!.code }),
            onDone: [
              {
                guard: ({ context, event }) => productChoices(context.vetting!.code, event.output).length === 1,
                target: 'ready',
                actions: [
                  assign(({ context, event }) => chosen(productChoices(context.vetting!.code, event.output)[0]!)),
                  { type: 'feedback', params: { kind: 'accepted' } },
                  'replayHeld',
                ],
              },
              {
                guard: ({ context, event }) => productChoices(context.vetting!.code, event.output).length > 1,
                target: 'choosing',
                actions: [
                  assign(({ context, event }) => {
                    const code = context.vetting!.code;
                    const items = productChoices(code, event.output);
                    return { choice: { code, items }, notice: { kind: 'choose' as const, code, message: scan2Messages.chooseAmong(items.length) } };
                  }),
                  // The sound of a product the clerk must name (/admin/scan's unknown product).
                  { type: 'feedback', params: { kind: 'unknown' } },
                  // Kept again, in order, for the new choice.
                  'replayHeld',
                ],
              },
              // No product: a tracking id, kept with the others while a choice is open.
              { guard: 'hasChoice', target: 'choosing', actions: { type: 'replayHeld', params: { asTracking: true } } },
              { target: 'ready', actions: { type: 'replayHeld', params: { asTracking: true } } },
            ],
            // Not found out: a tracking id (the server refuses a catalog product code on add).
            onError: [
              { guard: 'hasChoice', target: 'choosing', actions: { type: 'replayHeld', params: { asTracking: true } } },
              { target: 'ready', actions: { type: 'replayHeld', params: { asTracking: true } } },
            ],
          },
        },
        /**
         * Several products have the scanned code: the clerk names one by its number (1-9, Enter).
         * Parcels' labels scanned meanwhile are kept (`held`, in order) and go in under the product
         * chosen, as if scanned after it; 取消 drops them (they have no product).
         */
        choosing: {
          on: {
            // scan.tracking: a GTIN-shaped label the catalog named no product of, asked while the choice was open.
            'scan.*': [
              {
                guard: 'isChoiceDigit',
                target: 'ready',
                actions: [
                  assign(({ context, event }) => chosen(choiceByDigit(context.choice, codeOf(event))!)),
                  { type: 'feedback', params: { kind: 'accepted' } },
                  'replayHeld',
                ],
              },
              {
                guard: 'isCancelCommand',
                target: 'ready',
                actions: [
                  assign(({ context }) => cancelChoice(context)),
                  { type: 'feedback', params: ({ context }) => ({ kind: context.held.length > 0 ? ('failed' as const) : ('accepted' as const) }) },
                  assign({ held: [] }),
                ],
              },
              // A number not in the list is a mistyped choice, not a parcel.
              {
                guard: 'isOtherDigit',
                actions: [
                  assign({ notice: ({ context, event }) => ({ kind: 'refused' as const, code: normalize(codeOf(event)), message: chooseFirstOf(context) }) }),
                  { type: 'feedback', params: { kind: 'failed' } },
                ],
              },
              // A code that may be a product's: the catalog is asked, the choice and the kept labels wait.
              {
                guard: 'isCatalogScan',
                target: 'vetting',
                actions: assign({
                  vetting: ({ context, event }) => ({ code: canonicalTrackingId(codeOf(event)), at: scanAt(event), heldBefore: context.held.length }),
                }),
              },
              // A loaded product's code: that product is chosen, the kept labels go in under it.
              {
                guard: 'isLoadedProductScan',
                target: 'ready',
                actions: [raise(({ event }) => event), 'replayHeld'],
              },
              {
                guard: 'isTrackingLikeScan',
                actions: [
                  assign(({ context, event }) => {
                    const held: Scan2Held[] = [...context.held, keptScan(event)];
                    return { held, notice: { kind: 'kept' as const, code: normalize(codeOf(event)), message: chooseFirstOf({ ...context, held }) } };
                  }),
                  // The sound of the open choice: a product to be named before the labels go in.
                  { type: 'feedback', params: { kind: 'unknown' } },
                ],
              },
            ],
            'choice.pick': {
              guard: 'isChoiceIndex',
              target: 'ready',
              actions: [
                assign(({ context, event }) => chosen(context.choice!.items[event.index]!)),
                { type: 'feedback', params: { kind: 'accepted' } },
                'replayHeld',
              ],
            },
            'choice.cancel': {
              target: 'ready',
              actions: [
                assign(({ context }) => cancelChoice(context)),
                { type: 'feedback', params: ({ context }) => ({ kind: context.held.length > 0 ? ('failed' as const) : null }) },
                assign({ held: [] }),
              ],
            },
            // A product picked in the search (clearing the search leaves the choice open).
            'item.select': {
              guard: 'isItemPicked',
              target: 'ready',
              actions: [assign({ item: ({ event }) => event.item, notice: null }), 'replayHeld'],
            },
          },
        },
      },
    },
    /** Sends the queued rows one at a time: check, then add. */
    sender: {
      initial: 'idle',
      states: {
        idle: {
          always: { guard: 'hasQueuedRow', target: 'checking' },
        },
        checking: {
          entry: assign(({ context }) => {
            const key = queuedRow(context.rows)!.key;
            return { currentKey: key, rows: patchRow(context.rows, key, (row) => ({ attempts: row.attempts + 1 })) };
          }),
          invoke: {
            src: 'lookupTracking',
            input: ({ context }) => ({ trackingId: currentRow(context).trackingId }),
            onDone: [
              {
                guard: ({ context, event }) => checkOutcome(currentRow(context), event.output).kind === 'arrived',
                target: 'idle',
                actions: [
                  assign(({ context, event }) => ({
                    retryRound: 0,
                    rows: patchRow(context.rows, context.currentKey, (row) => ({
                      status: settledStatus(event.output, row),
                      sent: false,
                      message: settledMessage(event.output, row),
                    })),
                  })),
                  { type: 'feedback', params: ({ context }) => ({ kind: settledFeedback(context) }) },
                  raise({ type: 'retry.now' }),
                ],
              },
              {
                guard: ({ context, event }) => checkOutcome(currentRow(context), event.output).kind === 'duplicate',
                target: 'idle',
                actions: [
                  assign({
                    rows: ({ context }) =>
                      patchRow(context.rows, context.currentKey, () => ({ status: SCAN2_STATUS.failed, retryable: false, message: scan2Messages.duplicate })),
                  }),
                  { type: 'feedback', params: { kind: 'duplicate' } },
                ],
              },
              {
                target: 'sending',
                actions: assign({ rows: ({ context }) => patchRow(context.rows, context.currentKey, () => ({ sent: true })) }),
              },
            ],
            onError: {
              target: 'idle',
              actions: [
                { type: 'feedback', params: ({ context }) => ({ kind: firstFailure(context) ? ('failed' as const) : null }) },
                assign({
                  rows: ({ context, event }) => {
                    const error = asSendError(event.error);
                    return patchRow(context.rows, context.currentKey, () => ({
                      status: SCAN2_STATUS.failed,
                      retryable: error.retryable,
                      message: error.message,
                    }));
                  },
                }),
              ],
            },
          },
        },
        sending: {
          invoke: {
            src: 'addScan',
            input: ({ context }) => {
              const row = currentRow(context);
              return { trackingId: row.trackingId, itemId: row.itemId, upc: row.upc, count: 1 };
            },
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context, event }) => ({
                  retryRound: 0,
                  rows: patchRow(context.rows, context.currentKey, (row) => ({
                    status: settledStatus(event.output, row),
                    sent: false,
                    message: settledMessage(event.output, row),
                  })),
                })),
                { type: 'feedback', params: ({ context }) => ({ kind: settledFeedback(context) }) },
                raise({ type: 'retry.now' }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'feedback', params: ({ context }) => ({ kind: firstFailure(context) ? ('failed' as const) : null }) },
                assign({
                  rows: ({ context, event }) => {
                    const error = asSendError(event.error);
                    // A refusal is an answer: the add did not happen. Without one it may have.
                    return patchRow(context.rows, context.currentKey, (row) => ({
                      status: SCAN2_STATUS.failed,
                      retryable: error.retryable,
                      message: error.message,
                      sent: error.retryable ? row.sent : false,
                    }));
                  },
                }),
              ],
            },
          },
        },
      },
    },
    /** Puts retryable failed rows back in the queue: after the backoff, or at once on retry.now. */
    retry: {
      initial: 'idle',
      states: {
        idle: {
          always: { guard: 'hasRetryableRow', target: 'waiting' },
        },
        waiting: {
          after: {
            retryDelay: { target: 'idle', actions: ['requeueFailed', assign({ retryRound: ({ context }) => context.retryRound + 1 })] },
          },
          on: {
            'retry.now': { target: 'idle', actions: 'requeueFailed' },
          },
        },
      },
    },
  },
});

/** The sound of a settled row: matched, not matched, or plainly accepted. */
function settledFeedback(context: Scan2Context): FeedbackKind {
  const { status } = currentRow(context);
  if (status === SCAN2_STATUS.matchOk) return 'matched';
  if (status === SCAN2_STATUS.matchFailed) return 'unmatched';
  return 'accepted';
}

/** Only a row's first failure sounds; the retries of a dropped connection stay quiet. */
function firstFailure(context: Scan2Context): boolean {
  return currentRow(context).attempts <= 1;
}

export type Scan2Machine = typeof scan2Machine;
export type Scan2Snapshot = SnapshotFrom<typeof scan2Machine>;

/** What the page stores: the rows (settled ones too, for the list), the chosen product, and the scans that wait with what they wait for. */
export function persistedOf(context: Scan2Context): Required<Scan2Input> {
  return { item: context.item, rows: context.rows, nextKey: context.nextKey, choice: context.choice, held: context.held, vetting: context.vetting };
}
