// The task record dialog's calls (SPEC §2 "records", §3 Purchased record, §4 "A task-record row with
// status match cannot be deleted or edited", §5 task record dialog, §7 "POST /api/purchased/...").
// Every rule lives in src/server/tasks/purchased-service.ts (shared with the Excel upload): these
// handlers only turn its results into the wire's answers. A refusal is A00001 with the dialog's
// words, another member's task or record A00004 as if it did not exist (DECISIONS "Roles").
// Decision: recording a tracking id the task already has is refused here (A00001 '该快递单号已记录')
// so the dialog shows why nothing was added; the upload reports the same case as a skipped row, the
// bulk paste as a refused line (decision 105).
import type { components } from '../../api/schema';
import { isAdminSide } from '../boards/visibility.ts';
import { taskOwnerOf } from '../boards/task-queries.ts';
import { UNSEEN_PURCHASED_STATUS } from '../../../machines/task.machine.ts';
import { nearArrivals } from '../matching/near-misses.ts';
import { NEAR_MIN_LENGTH } from '../../../machines/tracking-id.ts';
import type { Tx } from '../db/client.ts';
import { badRequest, Code, notFound } from '../errors.ts';
import { TASK_NOT_FOUND } from '../tasks/apply-event.ts';
import {
  listPurchasedRecords,
  purchasedMessages,
  purchasedRecordById,
  removePurchasedRecord,
  savePurchasedLines,
  savePurchasedRecord,
  type PurchasedResult,
  type PurchasedRow,
} from '../tasks/purchased-service.ts';
import { claimUnknownParcel, listParcelClaims, undoParcelClaim, claimMessages } from '../tasks/parcel-claims.ts';
import { memberUnknownParcels } from '../receiving/unknown-parcels.ts';
import { me, ok, type Handlers } from './types.ts';

export function purchasedOut(r: PurchasedRow, nearArrival?: string): components['schemas']['PurchasedItem'] {
  return {
    id: r.id,
    taskId: r.taskId,
    trackingId: r.trackingId,
    ...(r.typedTrackingId && r.typedTrackingId !== r.trackingId ? { typedTrackingId: r.typedTrackingId } : {}),
    productCount: r.productCount,
    status: r.status,
    msg: r.msg,
    ...(nearArrival ? { nearArrival } : {}),
    createdAt: r.createdAt.getTime(),
    updatedAt: r.updatedAt.getTime(),
    ...(r.claimedAt ? { claimedAt: r.claimedAt.getTime() } : {}),
  };
}

/**
 * A task's records as answered: a record none of whose parcel has been seen carries the id of an
 * arrived parcel nobody recorded whose id is near its own (decision 098: the member sees it in full
 * and corrects a typo in one step). One statement, only when such a record is on the list.
 */
async function recordsOut(tx: Tx, taskId: number) {
  const rows = await listPurchasedRecords(tx, taskId);
  const unseen = rows.filter((r) => r.status === UNSEEN_PURCHASED_STATUS && r.trackingId.length >= NEAR_MIN_LENGTH);
  const near = unseen.length
    ? await nearArrivals(
        tx,
        unseen.map((r) => r.trackingId),
      )
    : new Map<string, string>();
  return rows.map((r) => purchasedOut(r, r.status === UNSEEN_PURCHASED_STATUS ? near.get(r.trackingId) : undefined));
}

/** Throws the wire error of a refused change. */
function raise(r: PurchasedResult): never {
  throw r.code === Code.notFound ? notFound(r.msg) : badRequest(r.msg);
}

/** The task's records after a change; `skipIsRefusal`: a skipped insert is the dialog's error. */
async function answer(tx: Tx, taskId: number, r: PurchasedResult, skipIsRefusal = false) {
  if (r.opStatus === 'error' || (skipIsRefusal && r.opStatus === 'skip')) raise(r);
  const purchasedItems = await recordsOut(tx, taskId);
  return ok({ status: 'succ' as const, msg: r.msg, purchasedItems }, r.msg);
}

export const purchasedHandlers: Handlers = {
  async createPurchasedItem(req, ctx) {
    const user = me(req);
    const b = req.body;
    return ctx.db.transaction(async (tx) => {
      const r = await savePurchasedRecord(
        tx,
        user,
        { taskId: req.params.taskId, trackingId: b.trackingId ?? '', productCount: b.productCount as number },
        'insert',
      );
      return answer(tx, req.params.taskId, r, true);
    });
  },

  /**
   * The paste box (decision 105): many `tracking [quantity]` lines recorded at once, all or
   * nothing. A fault of the whole call is an error code (another member's task A00004; a task whose
   * records may not change, an empty paste or too many lines A00001); otherwise A00000 with status
   * succ (every line recorded, then matched) or failed (nothing changed), and every line's verdict.
   */
  async createPurchasedItemsBulk(req, ctx) {
    const user = me(req);
    const taskId = req.params.taskId;
    return ctx.db.transaction(async (tx) => {
      const outcome = await savePurchasedLines(tx, user, taskId, req.body.text ?? '');
      if ('error' in outcome) raise(outcome.error);
      const purchasedItems = await recordsOut(tx, taskId);
      return ok({ status: outcome.saved ? ('succ' as const) : ('failed' as const), msg: outcome.msg, rows: outcome.rows, purchasedItems }, outcome.msg);
    });
  },

  async updatePurchasedItem(req, ctx) {
    const user = me(req);
    const b = req.body;
    return ctx.db.transaction(async (tx) => {
      const rec = await purchasedRecordById(tx, b.id);
      if (!rec) throw notFound(purchasedMessages.notFound);
      const r = await savePurchasedRecord(
        tx,
        user,
        { id: b.id, taskId: rec.taskId, trackingId: b.trackingId ?? '', productCount: b.productCount as number },
        'update',
      );
      return answer(tx, rec.taskId, r);
    });
  },

  async removePurchasedItem(req, ctx) {
    const user = me(req);
    return ctx.db.transaction(async (tx) => {
      const r = await removePurchasedRecord(tx, user, req.body.id);
      if (r.opStatus === 'error') raise(r);
      return answer(tx, r.record!.taskId, r);
    });
  },

  /** A member reads only their own task's records (another's: A00004); the admin side any. */
  async listTaskPurchasedItems(req, ctx) {
    const user = me(req);
    const task = await taskOwnerOf(ctx.db, req.params.id);
    if (!task || (!isAdminSide(user) && task.userId !== user.id)) throw notFound(TASK_NOT_FOUND);
    return ok({ purchasedItems: await recordsOut(ctx.db, req.params.id) });
  },

  /** Unknown parcels, masked, with the caller's tasks that could claim each (decision 169). */
  async listUnknownParcels(req, ctx) {
    const user = me(req);
    return ok(await ctx.db.transaction((tx) => memberUnknownParcels(tx, user.id, req.query)));
  },

  /** A claim is a record made on an unknown parcel: answered as the record dialog's create is. */
  async claimUnknownParcel(req, ctx) {
    const user = me(req);
    return ctx.db.transaction(async (tx) => answer(tx, req.body.taskId, await claimUnknownParcel(tx, user, req.body)));
  },

  async listParcelClaims(req, ctx) {
    return ok(await listParcelClaims(ctx.db, req.query));
  },

  async undoParcelClaim(req, ctx) {
    const user = me(req);
    return ok(await ctx.db.transaction((tx) => undoParcelClaim(tx, user, req.body.id)), claimMessages.undone);
  },
};
