/**
 * /admin/scan2: one product, many tracking ids (SPEC §2 /admin/scan2, §4 "Scan2 row client status",
 * §5 Scan2, §7 add; DECISIONS "Receiving and matching"). Every rule of the screen lives here (listed
 * at scan2Machine), around two: NO SCAN IS LOST (a failed send is retried, rows not yet settled
 * survive a reload) and NOTHING IS SENT TWICE (every send starts with a check of the server).
 *
 * Side effects are named: the actors `lookupTracking` and `addScan`, and the action `feedback` (the
 * page's sound and banner), all provided by the page.
 */
import { assign, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import { isMatched, isSeen, isUnmatched, scanRecordMessages, unmatchReasonMessages, type ScanStatus, type UnmatchReason } from './scan-record.machine';
import { scanCommandOf, type FeedbackKind, type ScanItem as Scan2Item } from './scan-station';
import { canonicalTrackingId, nearMissMessages, type NearMissRef } from './tracking-id';
import { taskDisplayId } from './task.machine';
import { isCatalogProductCode, productCodeMessages, sameProductCode } from './product-code';

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
  /** A command barcode of /admin/scan scanned here. */
  commandElsewhere: '这是扫描入库页面的指令条码，不是快递单号',
  /** A product's code scanned as a tracking id: that product is chosen instead (decision 074). */
  productChosen: (itemName: string) => `${productCodeMessages.notTrackingId}（已选择商品：${itemName}）`,
  /** A matched row: whose task it matched. */
  matchedTo: (member: string, taskId: string) => `已匹配：${member} 的任务 ${taskId}`,
} as const;

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
  /** The code was a loaded product's code: that product is now the chosen one. */
  | { kind: 'product'; code: string; message: string };

export interface Scan2Context {
  item: Scan2Item | null;
  rows: Scan2Row[];
  nextKey: number;
  notice: Scan2Notice | null;
  /** Automatic retry rounds since the last success (the backoff's exponent). */
  retryRound: number;
  /** The row being checked or sent. */
  currentKey: number | null;
}

/** What the page restores from storage. */
export interface Scan2Input {
  item?: Scan2Item | null;
  rows?: Scan2Row[];
  nextKey?: number;
}

export type Scan2Event =
  | { type: 'item.select'; item: Scan2Item | null }
  | { type: 'scan.code'; code: string; at?: number }
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
  /** A loaded product's code: that product is chosen, no row is made. */
  | { ok: false; kind: 'product'; message: string; item: Scan2Item };

/** The products the station has loaded: the chosen one, then those of its rows, newest first. */
export function loadedItems(context: Pick<Scan2Context, 'item' | 'rows'>): Scan2Item[] {
  const out: Scan2Item[] = context.item ? [context.item] : [];
  for (let i = context.rows.length - 1; i >= 0; i--) {
    const row = context.rows[i]!;
    if (!out.some((item) => item.id === row.itemId)) out.push({ id: row.itemId, itemName: row.itemName, upc: row.upc });
  }
  return out;
}

/** Whether a scanned code becomes a row. */
export function scanVerdict(context: Pick<Scan2Context, 'item' | 'rows'>, raw: string): ScanVerdict {
  // The tracking id's canonical key (decision 097), as the server stores it: a repeat compares keys.
  const code = canonicalTrackingId(raw);
  if (code === '') return { ok: false, kind: 'ignored', message: '' };
  // A command barcode of /admin/scan (printed sheets lie beside both stations) is never a tracking id.
  if (scanCommandOf(raw)) return { ok: false, kind: 'refused', message: scan2Messages.commandElsewhere };
  // A product's own code (a camera held on the box, not its label) chooses that product (decision 074).
  const product = loadedItems(context).find((item) => isCatalogProductCode(code, [item.upc]));
  if (product) return { ok: false, kind: 'product', message: scan2Messages.productChosen(product.itemName), item: product };
  if (!context.item) return { ok: false, kind: 'refused', message: scan2Messages.itemRequired };
  const listed = context.rows.find((row) => isLive(row) && row.trackingId === code);
  if (listed) return { ok: false, kind: 'duplicate', message: isSubmitted(listed) ? scan2Messages.duplicate : scan2Messages.waiting };
  return { ok: true, code };
}

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

// ---------------------------------------------------------------- the machine

/**
 * The rules of the screen:
 * - A product must be chosen before a scan is taken ('请选择商品'). Each row keeps the product it was
 *   scanned with, so changing the product never changes rows already scanned.
 * - A product code is not a tracking id (decision 074): a scanned code that is a valid GTIN of a
 *   loaded product (the chosen one, or one of the rows') makes no row: that product is chosen, with
 *   productChosen and the productCode sound. The server refuses a catalog product code on add too.
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
 *   passes it back as input) and a row caught in 1 by the reload is checked and sent again.
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
  },
  actions: {
    /** The page's sound (null: none); the banner reads `notice`. */
    feedback: (_, _params: { kind: FeedbackKind | null }) => {},
    requeueFailed: assign({
      rows: ({ context }) => context.rows.map((r) => (r.status === SCAN2_STATUS.failed && r.retryable ? { ...r, status: SCAN2_STATUS.submitting } : r)),
    }),
  },
  delays: {
    retryDelay: ({ context }) => retryDelayOf(context.retryRound),
  },
  guards: {
    isAccepted: ({ context, event }) => event.type === 'scan.code' && scanVerdict(context, event.code).ok,
    isDuplicateScan: ({ context, event }) => {
      if (event.type !== 'scan.code') return false;
      const verdict = scanVerdict(context, event.code);
      return !verdict.ok && verdict.kind === 'duplicate';
    },
    isProductScan: ({ context, event }) => {
      if (event.type !== 'scan.code') return false;
      const verdict = scanVerdict(context, event.code);
      return !verdict.ok && verdict.kind === 'product';
    },
    isRefusedScan: ({ context, event }) => {
      if (event.type !== 'scan.code') return false;
      const verdict = scanVerdict(context, event.code);
      return !verdict.ok && verdict.kind === 'refused';
    },
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
  }),
  on: {
    'item.select': { actions: assign({ item: ({ event }) => event.item, notice: null }) },
    'scan.code': [
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
            const earlier = context.rows.map((r) => (r.status === SCAN2_STATUS.pending ? { ...r, status: SCAN2_STATUS.submitting } : r));
            return { rows: trimSettled([...earlier, row]), nextKey: context.nextKey + 1, notice: { kind: 'accepted' as const, code } };
          }),
          { type: 'feedback', params: { kind: 'accepted' } },
        ],
      },
      {
        guard: 'isProductScan',
        actions: [
          assign(({ context, event }) => {
            const verdict = scanVerdict(context, event.code);
            if (verdict.ok || verdict.kind !== 'product') return {};
            return { item: verdict.item, notice: { kind: 'product' as const, code: normalize(event.code), message: verdict.message } };
          }),
          { type: 'feedback', params: { kind: 'productCode' } },
        ],
      },
      {
        guard: 'isDuplicateScan',
        actions: [
          assign({
            notice: ({ context, event }) => {
              const verdict = scanVerdict(context, event.code);
              return { kind: 'duplicate' as const, code: normalize(event.code), message: verdict.ok ? '' : verdict.message };
            },
          }),
          { type: 'feedback', params: { kind: 'duplicate' } },
        ],
      },
      {
        guard: 'isRefusedScan',
        actions: [
          assign({
            notice: ({ context, event }) => {
              const verdict = scanVerdict(context, event.code);
              return { kind: 'refused' as const, code: normalize(event.code), message: verdict.ok ? '' : verdict.message };
            },
          }),
          { type: 'feedback', params: { kind: 'failed' } },
        ],
      },
    ],
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
      actions: assign({
        rows: ({ context }) => context.rows.map((r) => (r.status === SCAN2_STATUS.pending ? { ...r, status: SCAN2_STATUS.submitting } : r)),
      }),
    },
    'rows.clearSettled': { actions: assign({ rows: ({ context }) => context.rows.filter(isUnsettled) }) },
  },
  states: {
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

/** What the page stores: the rows (settled ones too, for the list) and the chosen product. */
export function persistedOf(context: Scan2Context): Required<Scan2Input> {
  return { item: context.item, rows: context.rows, nextKey: context.nextKey };
}
