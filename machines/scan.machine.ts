/**
 * /admin/scan: one tracking id, many products (SPEC §2 /admin/scan, §5 Scan, §7 Scan calls, §9 default
 * scan count 1; DECISIONS "Receiving and matching"). Every rule of the screen lives here (listed at
 * scanMachine): a tracking tab and a upc tab, new rows saved with create, existing records edited with
 * modify, and command barcodes so a clerk can work with the scanner alone (docs/decisions/081).
 *
 * Side effects are named: the actors lookupTracking, findItems, createScans and modifyRecord, and
 * the action `feedback` (the page's sound), all provided by the page.
 */
import { and, assertEvent, assign, enqueueActions, fromPromise, not, raise, setup, type SnapshotFrom } from 'xstate';
import { SCAN_COMMANDS, scanCommandOf, type FeedbackKind, type ScanCommand, type ScanItem } from './scan-station';
import { canonicalTrackingId, type NearMissRef } from './tracking-id';
import {
  announcedRowOf,
  DEFAULT_SCAN_COUNT,
  isDuplicateOfSeen,
  isValidScanCount,
  MAX_SCAN_COUNT,
  isMatched,
  isUnmatched,
  mayEdit,
  scanRecordMessages,
  type ScanStatus,
  type UnmatchReason,
} from './scan-record.machine';
import { gtinForms, isCatalogProductCode, productCodeMessages, sameProductCode } from './product-code';

export { SCAN_COMMANDS, scanCommandOf };
export type { FeedbackKind, ScanCommand, ScanItem };

export const scanMessages = {
  duplicateUpc: scanRecordMessages.upcDuplicate, // SPEC §5
  itemsRequired: scanRecordMessages.itemsRequired, // SPEC §5
  noRows: '请先扫描商品',
  unsavedRows: '请先提交或删除未保存的商品',
  countInvalid: scanRecordMessages.countInvalid,
  /** A catalog item's product code scanned as the tracking id (decision 074). */
  productCode: productCodeMessages.notTrackingId,
  notEditable: scanRecordMessages.frozen,
  failed: '操作失败',
} as const;

export { DEFAULT_SCAN_COUNT, MAX_SCAN_COUNT };

export type ScanTab = 'tracking' | 'upc';

/** The fields of a scan record (ScanTracking) the screen reads. */
export interface ScanRecord {
  id: number;
  trackingId: string;
  upc: string;
  count: number;
  itemId: number | null;
  itemName: string;
  status: ScanStatus;
  matchedUser: string | null;
  /** Why an unmatch row matched nobody (the server says, for the calls of one tracking id). */
  unmatchReason?: UnmatchReason | null;
  /** Records whose tracking id is near this one, on a row no member recorded (decision 098). */
  nearMisses?: readonly NearMissRef[];
}

/** A new product of the parcel, not yet saved. */
export interface ScanRow {
  key: number;
  upc: string;
  count: number;
  itemId: number | null;
  itemName: string;
  /** Products whose upc is this row's; null until looked up. */
  candidates: ScanItem[] | null;
  /** The row confirms a record the tracking id has only imported (init): create makes it seen. */
  announced?: boolean;
}

export type ScanNotice =
  | { kind: 'tracking'; code: string; isExist: boolean }
  | { kind: 'added'; code: string; count: number; announced?: boolean }
  /** A command barcode was taken back: the last scan (code, the row's count now) or the parcel. */
  | { kind: 'undone'; code: string; count: number }
  | { kind: 'parcelCancelled'; code: string }
  | { kind: 'unknown'; code: string }
  | { kind: 'refused'; code: string; message: string }
  /**
   * created: the new rows were created (create), with the first record of the parcel that matched
   * nobody and why, when there is one (the clerk sets the parcel aside); saved: a record was edited.
   */
  | { kind: 'created'; unmatched?: { code: string; reason: UnmatchReason | null; near?: readonly NearMissRef[] } }
  | { kind: 'saved' }
  | { kind: 'error'; message: string };

/** The rows a create is sending. */
const sentRows = (context: ScanContext) => context.rows.filter((r) => context.submittingKeys.includes(r.key));

/** The records a create answered for the rows it sent (the answer lists the whole parcel). */
const createdOf = (records: readonly ScanRecord[], rows: readonly ScanRow[]) => records.filter((r) => rows.some((row) => sameProductCode(row.upc, r.upc)));

/**
 * The notice of a create: the first record it made that matched nobody is named, with its reason,
 * by what the reason is about: the parcel's tracking id when no member recorded it (the banner reads
 * 没有会员记录此快递单号（<tracking id>）), else the product's code.
 */
function createdNotice(created: readonly ScanRecord[]): ScanNotice {
  const unmatched = created.find(isUnmatched);
  if (!unmatched) return { kind: 'created' };
  const reason = unmatched.unmatchReason ?? null;
  if (reason !== 'notRecorded') return { kind: 'created', unmatched: { code: unmatched.upc, reason } };
  // A parcel nobody recorded: named, with the records near it (可能是…, decision 098), which the
  // table shows off-screen on a phone.
  const near = unmatched.nearMisses?.length ? { near: unmatched.nearMisses } : {};
  return { kind: 'created', unmatched: { code: unmatched.trackingId, reason, ...near } };
}

/** The sound of a create: a record matching nobody sounds apart from a matched one, so the clerk sets the parcel aside without reading. */
function createdFeedback(created: readonly ScanRecord[]): FeedbackKind {
  if (created.some(isUnmatched)) return 'unmatched';
  return created.some(isMatched) ? 'matched' : 'accepted';
}

// trackingId, vettingCode and lookingUpc are null only outside the states that read them: each way
// into loading or parcel sets the tracking id, into vetting the code, into looking the upc (hence
// the `!` where they are read, no fallback that would never be taken).
export interface ScanContext {
  tab: ScanTab;
  trackingId: string | null;
  /** Records already on the server for the tracking id. */
  records: ScanRecord[];
  isExist: boolean;
  rows: ScanRow[];
  nextKey: number;
  notice: ScanNotice | null;
  /** Rows the create call under way carries. */
  submittingKeys: number[];
  /** The upc being looked up. */
  lookingUpc: string | null;
  /** Codes scanned while the tracking id was being looked up: products, taken once it is loaded. */
  heldCodes: string[];
  /** The rows counted by each product scan of this parcel, in order: what 取消 takes back (a key whose row was saved is skipped). */
  scanLog: number[];
  /** A submit waits for the products of new rows to be looked up. */
  submitQueued: boolean;
  /** A code that may be a product code, being looked up in the catalog before it becomes the tracking id. */
  vettingCode: string | null;
}

export type ScanEvent =
  | { type: 'scan.code'; code: string }
  | { type: 'tab.select'; tab: ScanTab }
  | { type: 'tracking.reset' }
  | { type: 'row.setCount'; key: number; count: number }
  /** +1 / -1 on a row's count. */
  | { type: 'row.step'; key: number; by: 1 | -1 }
  | { type: 'row.setItem'; key: number; item: ScanItem | null }
  | { type: 'row.remove'; key: number }
  | { type: 'rows.submit' }
  | { type: 'record.modify'; id: number; changes: ScanModifyChanges };

export interface ScanModifyChanges {
  count?: number;
  itemId?: number;
  upc?: string;
}

export interface ScanLine {
  upc: string;
  count: number;
  itemId: number;
}
export interface CreateInput {
  trackingId: string;
  items: ScanLine[];
}
export interface ModifyInput {
  id: number;
  changes: ScanModifyChanges;
}
export interface LookupOutput {
  isExist: boolean;
  scanTrackingList: ScanRecord[];
}

// ---------------------------------------------------------------- the rules, as plain functions

const normalize = (code: string) => code.trim();

export const isValidCount = isValidScanCount;

export type UpcVerdict =
  | { kind: 'ignored' }
  | { kind: 'duplicate' }
  | { kind: 'count'; key: number }
  /** An imported (init) record of the upc: a row with its product confirms it. */
  | { kind: 'confirm'; record: ScanRecord }
  | { kind: 'add' };

/** What a scan on the upc tab does. */
export function upcVerdict(context: Pick<ScanContext, 'trackingId' | 'records' | 'rows'>, raw: string): UpcVerdict {
  const code = normalize(raw);
  if (code === '' || context.trackingId === null) return { kind: 'ignored' };
  const scan = { trackingId: context.trackingId, upc: code };
  if (isDuplicateOfSeen(context.records, scan)) return { kind: 'duplicate' };
  // A new row of the same product (its upc however written, decision 075) counts one more unit.
  const row = context.rows.find((r) => sameProductCode(r.upc, code));
  if (row) return { kind: 'count', key: row.key };
  const announced = announcedRowOf(context.records, scan);
  return announced ? { kind: 'confirm', record: announced } : { kind: 'add' };
}

/** The row the last product scan counted that may still be taken back (not being saved), or null. */
export function lastUndoable(context: Pick<ScanContext, 'scanLog' | 'rows' | 'submittingKeys'>): ScanRow | null {
  for (let i = context.scanLog.length - 1; i >= 0; i--) {
    const row = context.rows.find((r) => r.key === context.scanLog[i]);
    if (row && !context.submittingKeys.includes(row.key)) return row;
  }
  return null;
}

/** The rows after taking back the last scan: one unit fewer on its row, the row gone at 0. Asked only when there is one (hasUndoableScan). */
function undoLastScan(context: ScanContext) {
  const row = lastUndoable(context)!;
  const count = row.count - 1;
  const index = context.scanLog.lastIndexOf(row.key);
  const scanLog = count >= 1 ? context.scanLog.filter((_, i) => i !== index) : context.scanLog.filter((key) => key !== row.key);
  const rows = count >= 1 ? context.rows.map((r) => (r.key === row.key ? { ...r, count } : r)) : context.rows.filter((r) => r.key !== row.key);
  return { rows, scanLog, notice: { kind: 'undone' as const, code: row.upc, count } };
}

/** The submit's refusal, or null when the rows may be sent. */
export function submitProblem(rows: readonly ScanRow[]): string | null {
  if (rows.length === 0) return scanMessages.noRows;
  if (rows.some((r) => r.itemId === null)) return scanMessages.itemsRequired;
  if (rows.some((r) => !isValidCount(r.count))) return scanMessages.countInvalid;
  return null;
}

/** The one product chosen for a upc without asking: the only open one of its candidates. */
export function autoPick(candidates: readonly (ScanItem & { status?: string })[]): ScanItem | null {
  const open = candidates.filter((c) => c.status === undefined || c.status === 'open');
  return open.length === 1 ? open[0]! : null;
}

const hasUnsavedRows = (context: Pick<ScanContext, 'rows'>) => context.rows.length > 0;

const errorMessage = (error: unknown) => (error instanceof Error && error.message) || scanMessages.failed;

const freshParcel = (code: string | null) => ({
  trackingId: code,
  tab: 'upc' as const,
  records: [],
  isExist: false,
  rows: [],
  submittingKeys: [],
  heldCodes: [],
  scanLog: [],
  submitQueued: false,
  notice: null,
});

// The scan guards are asked on scan.code only: assertEvent narrows the event (a wrong one throws).
const isCommand =
  (command: ScanCommand) =>
  ({ event }: { event: ScanEvent }) => {
    assertEvent(event, 'scan.code');
    return scanCommandOf(event.code) === command;
  };

// ---------------------------------------------------------------- the machine

/**
 * The rules of the screen:
 * - Two tabs, tracking and upc. Without a tracking id every scan is the tracking id: it is set, the
 *   tab switches to upc and the tracking's records are looked up (GET .../{id}/list -> isExist,
 *   scanTrackingList); they are listed as the already-added products, each edited with modify.
 * - On the upc tab a scan is a product code: a upc the tracking id already has SEEN (a record in any
 *   status but init) is refused with 'upc重复，请编辑已添加的商品'; a upc already among the new rows
 *   raises its count by 1; a upc the tracking id has only imported (an init record: an announced
 *   parcel) adds a row with the record's product, which create turns into the seen record with the
 *   scanned count, as the server does (receiving/scan-service.ts); any other adds a row with count 1
 *   (SPEC §9). Each new upc's products are looked up (the page's `findItems`, items whose upc is the
 *   code): exactly one open product is chosen for the row; none is an unknown product (a sound, and
 *   the clerk picks one or adds it on /admin/item-list). Each row's count is also raised or lowered
 *   by one (+1 / -1), between 1 and 1000000.
 * - A product code is not a tracking id (decision 074): a valid GTIN scanned where the tracking id
 *   is expected is first looked up in the catalog (findItems); a catalog item's code is refused
 *   ('这是商品条码（UPC），不是快递单号…', the productCode sound) and the screen stays where it was;
 *   any other code, or a catalog that does not answer, is the tracking id.
 * - A scan on the tracking tab starts the next parcel, but only when no new row is waiting to be
 *   saved (they would be lost): '请先提交或删除未保存的商品'.
 * - Submit needs at least one row and a product on every row ('请填写所有项目对应的商品'); a submit
 *   while a new row's products are still being looked up waits for the lookup, then goes. It
 *   creates the rows (POST .../{id}/create) and, on success, the answer's records replace the list
 *   and the tab goes back to tracking: the next scan is the next parcel's tracking id (unless rows
 *   scanned while the call was under way wait to be saved: they stay, on the upc tab).
 * - Command barcodes (SCAN_COMMANDS, shown on the page and printable; docs/decisions/081) let a
 *   clerk work with the scanner alone: 提交 submits; 下一个包裹 starts over with a new tracking id
 *   (refused while rows wait to be saved); 取消 takes back the last scan (one unit of the row it
 *   counted; with no unsaved scan left, the parcel itself: back to the tracking tab). A command is
 *   never a tracking id or a upc.
 * - An existing record is edited (count, product) through modify, unless its task is being paid
 *   (wait2pay, payed), which the server refuses too.
 */
export const scanMachine = setup({
  types: {
    context: {} as ScanContext,
    events: {} as ScanEvent,
  },
  actors: {
    /** GET /api/scan/admin/tracking/{id}/list. */
    lookupTracking: fromPromise<LookupOutput, { trackingId: string }>(async () => {
      throw new Error('lookupTracking not provided');
    }),
    /** The products whose upc is the code (GET /api/item/info/like/{q}, exact upc). */
    findItems: fromPromise<(ScanItem & { status?: string })[], { upc: string }>(async () => {
      throw new Error('findItems not provided');
    }),
    /** POST /api/scan/admin/tracking/{id}/create: every record of the tracking after it; rejects with the server's words. */
    createScans: fromPromise<ScanRecord[], CreateInput>(async () => {
      throw new Error('createScans not provided');
    }),
    /** POST /api/scan/admin/tracking/{id}/modify: the changed record; rejects with the server's words. */
    modifyRecord: fromPromise<ScanRecord, ModifyInput>(async () => {
      throw new Error('modifyRecord not provided');
    }),
  },
  actions: {
    feedback: (_, _params: { kind: FeedbackKind }) => {},
    /** Codes scanned while a code was vetted are taken as if scanned now. */
    replayHeldCodes: enqueueActions(({ context, enqueue }) => {
      for (const code of context.heldCodes) enqueue.raise({ type: 'scan.code', code });
      enqueue.assign({ heldCodes: [] });
    }),
  },
  guards: {
    isTrackingTab: ({ context }) => context.tab === 'tracking',
    isBlank: ({ event }) => {
      assertEvent(event, 'scan.code');
      return normalize(event.code) === '';
    },
    hasUnsavedRows: ({ context }) => hasUnsavedRows(context),
    isDuplicateUpc: ({ context, event }) => {
      assertEvent(event, 'scan.code');
      return upcVerdict(context, event.code).kind === 'duplicate';
    },
    canSubmit: ({ context }) => submitProblem(context.rows) === null,
    isModifiable: ({ context, event }) => {
      assertEvent(event, 'record.modify');
      const record = context.records.find((r) => r.id === event.id);
      return record !== undefined && mayEdit(record) && (event.changes.count === undefined || isValidCount(event.changes.count));
    },
    needsLookup: ({ context }) => context.rows.some((r) => r.candidates === null),
    isSubmitCommand: isCommand('submit'),
    isNextParcelCommand: isCommand('nextParcel'),
    isCancelCommand: isCommand('cancel'),
    isAnyCommand: ({ event }) => {
      assertEvent(event, 'scan.code');
      return scanCommandOf(event.code) !== null;
    },
    hasUndoableScan: ({ context }) => lastUndoable(context) !== null,
    /** A valid GTIN where a tracking id is expected: the catalog is asked whether it is a product's. */
    mayBeProductCode: ({ event }) => {
      assertEvent(event, 'scan.code');
      return gtinForms(normalize(event.code)).length > 0;
    },
  },
}).createMachine({
  id: 'scan',
  // No parcel yet: an empty one without an id (noTracking's entry sets the tab).
  context: { ...freshParcel(null), nextKey: 1, lookingUpc: null, vettingCode: null },
  initial: 'noTracking',
  states: {
    /** Waiting for the first scan: the tracking id. */
    noTracking: {
      entry: assign({ tab: 'tracking' }),
      on: {
        'scan.code': [
          {
            guard: 'isSubmitCommand',
            actions: [assign({ notice: { kind: 'error', message: scanMessages.noRows } }), { type: 'feedback', params: { kind: 'failed' } }],
          },
          // 下一个包裹 and 取消: already waiting for a parcel.
          { guard: 'isAnyCommand' },
          { guard: 'mayBeProductCode', target: 'vetting', actions: assign({ vettingCode: ({ event }) => normalize(event.code) }) },
          {
            // A parcel's code is its tracking id's canonical key (decision 097), as the server stores it.
            guard: ({ event }) => canonicalTrackingId(event.code) !== '',
            target: 'loading',
            actions: assign(({ event }) => freshParcel(canonicalTrackingId(event.code))),
          },
        ],
      },
    },
    /**
     * A valid GTIN read where the tracking id is expected: the catalog is asked first. A catalog
     * item's product code is refused (a scanner that missed the courier label); any other code, or a
     * catalog that does not answer, is the tracking id (the server refuses a product code too).
     */
    vetting: {
      on: {
        'scan.code': { actions: assign({ heldCodes: ({ context, event }) => [...context.heldCodes, event.code] }) },
      },
      invoke: {
        src: 'findItems',
        input: ({ context }) => ({ upc: context.vettingCode! }),
        onDone: [
          {
            guard: ({ context, event }) =>
              isCatalogProductCode(
                context.vettingCode!,
                event.output.map((item) => item.upc),
              ),
            target: 'refusedProductCode',
          },
          {
            target: 'loading',
            actions: assign(({ context }) => ({
              ...freshParcel(canonicalTrackingId(context.vettingCode!)),
              heldCodes: context.heldCodes,
              vettingCode: null,
            })),
          },
        ],
        onError: {
          target: 'loading',
          actions: assign(({ context }) => ({
            ...freshParcel(canonicalTrackingId(context.vettingCode!)),
            heldCodes: context.heldCodes,
            vettingCode: null,
          })),
        },
      },
    },
    /** Back to where the product code was scanned: no parcel yet, or the parcel on its tracking tab. */
    refusedProductCode: {
      entry: [
        assign(({ context }) => ({
          notice: { kind: 'refused' as const, code: context.vettingCode!, message: scanMessages.productCode },
          vettingCode: null,
        })),
        { type: 'feedback', params: { kind: 'productCode' } },
      ],
      always: [
        { guard: ({ context }) => context.trackingId !== null, target: 'parcel', actions: 'replayHeldCodes' },
        { target: 'noTracking', actions: 'replayHeldCodes' },
      ],
    },
    loading: {
      on: {
        'scan.code': { actions: assign({ heldCodes: ({ context, event }) => [...context.heldCodes, event.code] }) },
      },
      invoke: {
        src: 'lookupTracking',
        input: ({ context }) => ({ trackingId: context.trackingId! }),
        onDone: {
          target: 'parcel',
          actions: [
            assign(({ context, event }) => ({
              records: event.output.scanTrackingList,
              isExist: event.output.isExist,
              notice: { kind: 'tracking' as const, code: context.trackingId!, isExist: event.output.isExist },
            })),
            { type: 'feedback', params: { kind: 'accepted' } },
            enqueueActions(({ context, enqueue }) => {
              for (const code of context.heldCodes) enqueue.raise({ type: 'scan.code', code });
              enqueue.assign({ heldCodes: [] });
            }),
          ],
        },
        onError: {
          target: 'noTracking',
          actions: [
            assign(({ event }) => ({ trackingId: null, heldCodes: [], notice: { kind: 'error' as const, message: errorMessage(event.error) } })),
            { type: 'feedback', params: { kind: 'failed' } },
          ],
        },
      },
    },
    /** A parcel's tracking id is known: products are scanned, saved and edited. */
    parcel: {
      type: 'parallel',
      on: {
        'tab.select': { actions: assign({ tab: ({ event }) => event.tab }) },
        'tracking.reset': [
          {
            guard: not('hasUnsavedRows'),
            target: 'noTracking',
            actions: assign({ trackingId: null, records: [], isExist: false, notice: null, scanLog: [] }),
          },
          {
            actions: [assign({ notice: { kind: 'error', message: scanMessages.unsavedRows } }), { type: 'feedback', params: { kind: 'failed' } }],
          },
        ],
        'scan.code': [
          { guard: 'isBlank' },
          { guard: 'isSubmitCommand', actions: raise({ type: 'rows.submit' }) },
          {
            guard: 'isNextParcelCommand',
            actions: raise({ type: 'tracking.reset' }),
          },
          {
            guard: and(['isCancelCommand', 'hasUndoableScan']),
            actions: [assign(({ context }) => undoLastScan(context)), { type: 'feedback', params: { kind: 'accepted' } }],
          },
          {
            // Nothing of this parcel left to take back: the parcel itself, unless rows are being saved.
            guard: and(['isCancelCommand', not('hasUnsavedRows')]),
            target: 'noTracking',
            actions: [
              assign(({ context }) => ({
                notice: { kind: 'parcelCancelled' as const, code: context.trackingId! },
                trackingId: null,
                records: [],
                isExist: false,
                scanLog: [],
              })),
              { type: 'feedback', params: { kind: 'accepted' } },
            ],
          },
          { guard: 'isAnyCommand' },
          {
            guard: and(['isTrackingTab', 'hasUnsavedRows']),
            actions: [
              assign(({ event }) => ({ notice: { kind: 'refused' as const, code: normalize(event.code), message: scanMessages.unsavedRows } })),
              { type: 'feedback', params: { kind: 'failed' } },
            ],
          },
          {
            guard: ({ context, event }) => context.tab === 'tracking' && gtinForms(normalize(event.code)).length > 0,
            target: 'vetting',
            actions: assign({ vettingCode: ({ event }) => normalize(event.code) }),
          },
          { guard: 'isTrackingTab', target: 'loading', actions: assign(({ event }) => freshParcel(canonicalTrackingId(event.code))) },
          {
            guard: 'isDuplicateUpc',
            actions: [
              assign(({ event }) => ({ notice: { kind: 'refused' as const, code: normalize(event.code), message: scanMessages.duplicateUpc } })),
              { type: 'feedback', params: { kind: 'duplicate' } },
            ],
          },
          {
            actions: [
              assign(({ context, event }) => {
                const code = normalize(event.code);
                const verdict = upcVerdict(context, code);
                if (verdict.kind === 'count') {
                  const rows = context.rows.map((r) => (r.key === verdict.key ? { ...r, count: r.count + 1 } : r));
                  const row = rows.find((r) => r.key === verdict.key)!;
                  return {
                    rows,
                    scanLog: [...context.scanLog, verdict.key],
                    notice: { kind: 'added' as const, code, count: row.count, ...(row.announced && { announced: true }) },
                  };
                }
                const announced = verdict.kind === 'confirm' ? verdict.record : null;
                const row: ScanRow = {
                  key: context.nextKey,
                  upc: code,
                  count: DEFAULT_SCAN_COUNT,
                  itemId: announced?.itemId ?? null,
                  itemName: announced?.itemId != null ? announced.itemName : '',
                  candidates: null,
                  ...(announced && { announced: true }),
                };
                return {
                  rows: [...context.rows, row],
                  nextKey: context.nextKey + 1,
                  scanLog: [...context.scanLog, row.key],
                  notice: { kind: 'added' as const, code, count: DEFAULT_SCAN_COUNT, ...(announced && { announced: true }) },
                };
              }),
              { type: 'feedback', params: { kind: 'accepted' } },
            ],
          },
        ],
        'row.setCount': {
          actions: assign({ rows: ({ context, event }) => context.rows.map((r) => (r.key === event.key ? { ...r, count: event.count } : r)) }),
        },
        'row.step': {
          guard: ({ context, event }) => {
            const row = context.rows.find((r) => r.key === event.key);
            return row !== undefined && !context.submittingKeys.includes(row.key) && isValidCount(row.count + event.by);
          },
          actions: assign({ rows: ({ context, event }) => context.rows.map((r) => (r.key === event.key ? { ...r, count: r.count + event.by } : r)) }),
        },
        'row.setItem': {
          actions: assign({
            rows: ({ context, event }) =>
              context.rows.map((r) => (r.key === event.key ? { ...r, itemId: event.item?.id ?? null, itemName: event.item?.itemName ?? '' } : r)),
          }),
        },
        'row.remove': {
          actions: assign({
            rows: ({ context, event }) => (context.submittingKeys.includes(event.key) ? context.rows : context.rows.filter((r) => r.key !== event.key)),
          }),
        },
      },
      states: {
        /** Saving: new rows (create) and edits of existing records (modify), one call at a time. */
        save: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'rows.submit': [
                  {
                    // 提交 scanned right after a product: its product is still being looked up.
                    guard: ({ context }) => context.rows.some((r) => r.itemId === null && r.candidates === null),
                    actions: assign({ submitQueued: true }),
                  },
                  {
                    guard: 'canSubmit',
                    target: 'submitting',
                    actions: assign({ submittingKeys: ({ context }) => context.rows.map((r) => r.key), notice: null }),
                  },
                  {
                    actions: [
                      assign({ notice: ({ context }) => ({ kind: 'error' as const, message: submitProblem(context.rows)! }) }),
                      { type: 'feedback', params: { kind: 'failed' } },
                    ],
                  },
                ],
                'record.modify': [
                  { guard: 'isModifiable', target: 'modifying' },
                  {
                    actions: [
                      assign(({ context, event }) => {
                        const record = context.records.find((r) => r.id === event.id);
                        const message = record && !mayEdit(record) ? scanMessages.notEditable : scanMessages.countInvalid;
                        return { notice: { kind: 'error' as const, message } };
                      }),
                      { type: 'feedback', params: { kind: 'failed' } },
                    ],
                  },
                ],
              },
            },
            submitting: {
              invoke: {
                src: 'createScans',
                input: ({ context }) => ({
                  trackingId: context.trackingId!,
                  // Entered with submittingKeys = every row's key: the call carries every row.
                  items: context.rows.map((r) => ({ upc: r.upc, count: r.count, itemId: r.itemId ?? 0 })),
                }),
                onDone: {
                  target: 'editing',
                  actions: [
                    // Before the assign, while the rows sent are still the context's.
                    { type: 'feedback', params: ({ context, event }) => ({ kind: createdFeedback(createdOf(event.output, sentRows(context))) }) },
                    assign(({ context, event }) => {
                      const rows = context.rows.filter((r) => !context.submittingKeys.includes(r.key));
                      const created = createdOf(event.output, sentRows(context));
                      return {
                        records: event.output,
                        // The answer lists the records just created: the tracking id exists now.
                        isExist: true,
                        rows,
                        submittingKeys: [],
                        // The parcel is done: the next scan is the next parcel's tracking id.
                        tab: rows.length === 0 ? ('tracking' as const) : context.tab,
                        notice: createdNotice(created),
                      };
                    }),
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: [
                    assign(({ event }) => ({ submittingKeys: [], notice: { kind: 'error' as const, message: errorMessage(event.error) } })),
                    { type: 'feedback', params: { kind: 'failed' } },
                  ],
                },
              },
            },
            modifying: {
              invoke: {
                src: 'modifyRecord',
                input: ({ event }) => {
                  const e = event as Extract<ScanEvent, { type: 'record.modify' }>;
                  return { id: e.id, changes: e.changes };
                },
                onDone: {
                  target: 'editing',
                  actions: [
                    assign(({ context, event }) => ({
                      records: context.records.map((r) => (r.id === event.output.id ? event.output : r)),
                      notice: { kind: 'saved' as const },
                    })),
                    { type: 'feedback', params: { kind: 'accepted' } },
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: [
                    assign(({ event }) => ({ notice: { kind: 'error' as const, message: errorMessage(event.error) } })),
                    { type: 'feedback', params: { kind: 'failed' } },
                  ],
                },
              },
            },
          },
        },
        /** Looks up the products of each new upc, one at a time. */
        catalog: {
          initial: 'idle',
          states: {
            idle: {
              always: [
                { guard: 'needsLookup', target: 'looking' },
                // A submit that waited for the products to be looked up goes now.
                { guard: ({ context }) => context.submitQueued, actions: [assign({ submitQueued: false }), raise({ type: 'rows.submit' })] },
              ],
            },
            looking: {
              entry: assign({ lookingUpc: ({ context }) => context.rows.find((r) => r.candidates === null)!.upc }),
              invoke: {
                src: 'findItems',
                input: ({ context }) => ({ upc: context.lookingUpc! }),
                onDone: [
                  {
                    guard: ({ event }) => event.output.length === 0,
                    target: 'idle',
                    actions: [
                      assign(({ context }) => ({
                        rows: context.rows.map((r) => (r.upc === context.lookingUpc ? { ...r, candidates: [] } : r)),
                        notice: { kind: 'unknown' as const, code: context.lookingUpc! },
                      })),
                      { type: 'feedback', params: { kind: 'unknown' } },
                    ],
                  },
                  {
                    target: 'idle',
                    actions: assign({
                      rows: ({ context, event }) => {
                        const pick = autoPick(event.output);
                        return context.rows.map((r) =>
                          r.upc !== context.lookingUpc
                            ? r
                            : { ...r, candidates: event.output, ...(r.itemId === null && pick ? { itemId: pick.id, itemName: pick.itemName } : {}) },
                        );
                      },
                    }),
                  },
                ],
                // Not found out: the clerk picks the product by hand.
                onError: {
                  target: 'idle',
                  actions: assign({ rows: ({ context }) => context.rows.map((r) => (r.upc === context.lookingUpc ? { ...r, candidates: [] } : r)) }),
                },
              },
            },
          },
        },
      },
    },
  },
});

export type ScanMachine = typeof scanMachine;
export type ScanSnapshot = SnapshotFrom<typeof scanMachine>;

/** True while a create or modify call is under way. */
export const isSaving = (snapshot: ScanSnapshot) => snapshot.matches({ parcel: { save: 'submitting' } }) || snapshot.matches({ parcel: { save: 'modifying' } });
