// Purchased records (SPEC §3 "Purchased record", §4 "A task-record row with status match cannot be
// deleted or edited", §5 task record dialog): what a member says they bought for a task, per
// tracking id. The one place a record is created, changed or removed - the record dialog's calls
// (handlers/purchased.ts) and the Excel upload of purchased records go through here, so both apply
// the same rules with the same words (savePurchasedRecord), inside the caller's transaction. Which
// task's records a member may change is the task machine's task.records (decision 090). Every change
// is audited and followed by matching of its tracking id(s) (matching/match.ts), taking matching's
// locks first so a record change and a scan of the same parcel never deadlock. A record's status
// moves through the lifecycle store (the record declared in entities/purchased-record.ts): the
// record dialog's change through applyToLocked, the upload's set-based writes asking planEvent.
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { writeAudit, type AuditEntry } from '../audit.ts';
import { purchasedAuditEntry, purchasedEntity, taskAudit, type PurchasedRow } from '../entities/purchased-record.ts';
import { applyToLocked, planEvent } from '../entities/store.ts';
import { executePrepared, rowsOf, type Tx } from '../db/client.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { Code } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { lockForMatching } from '../db/matching-store.ts';
import { matchTracking, matchTrackings } from '../matching/match.ts';
import { recordsEvent } from '../../../machines/task.machine.ts';
import { isRecordFrozen } from '../../../machines/purchased-record.machine.ts';
import { canonicalTrackingId } from '../../../machines/tracking-id.ts';
import {
  MAX_PRODUCT_COUNT,
  MAX_TRACKING_ID,
  parsePurchasedLines,
  purchasedInputError,
  purchasedRecordMessages,
  type PastedLine,
} from '../../../machines/purchased-record.ts';
import { decideTask, TASK_NOT_FOUND, type TaskRow } from './apply-event.ts';
import { isAdminSide } from '../boards/visibility.ts';
import { memberTaskChanged, publishLive } from '../live/publish.ts';
import { unknownParcelKeys } from '../receiving/unknown-parcels.ts';

export type { PurchasedRow };

export const purchasedMessages = {
  // The input rules' words are the purchased record's own (machines/purchased-record.ts).
  ...purchasedRecordMessages,
  matchedNoEdit: '已匹配的记录不能修改',
  matchedNoRemove: '已匹配的记录不能删除',
  notFound: '记录不存在',
  noRecordForTracking: '该任务没有此快递单号的记录',
  unchanged: '没有变化',
  created: '创建成功',
  saved: '保存成功',
  removed: '删除成功',
} as const;

export { MAX_PRODUCT_COUNT, MAX_TRACKING_ID, purchasedInputError };

export interface PurchasedInput {
  taskId: number;
  trackingId: string;
  productCount: number;
  /** The record to update (update mode); without it the record is found by (taskId, trackingId). */
  id?: number;
}

export interface PurchasedResult {
  opStatus: 'succ' | 'skip' | 'error';
  msg: string;
  /** The record after the change (after matching), the existing one for a skip; the removed one for remove. */
  record?: PurchasedRow;
  /** The count before the change (update), or the recorded count (insert skip). */
  oldQty?: number;
  /** For 'error': A00004 when the task or record does not exist for the actor, else A00001. */
  code?: typeof Code.badParam | typeof Code.notFound;
}

const isResult = (x: TaskRow | PurchasedResult): x is PurchasedResult => 'opStatus' in x;

const refuse = (msg: string, code: PurchasedResult['code'] = Code.badParam): PurchasedResult => ({ opStatus: 'error', msg, code });

/** Why `actor` may not change the records of `task` (from lockTask's rules and the machine), or null. */
function editRefusal(actor: SessionUser, task: TaskRow | undefined): PurchasedResult | null {
  if (!task || (actor.roleType === 'user' && task.userId !== actor.id)) return refuse(TASK_NOT_FOUND, Code.notFound);
  const d = decideTask(task, recordsEvent(isAdminSide(actor) ? 'admin' : 'user'));
  return d.ok ? null : refuse(d.msg);
}

/** Locks the task for a record change by `actor`, or explains why not (as a result, before any write). */
async function taskForEdit(tx: Tx, actor: SessionUser, taskId: number): Promise<TaskRow | PurchasedResult> {
  const [task] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).for('update');
  return editRefusal(actor, task) ?? task!;
}

/** Keeps tasks.tracking_id ("latest tracking id recorded") in step with the records of the given tasks. */
export async function refreshTaskTrackingIds(tx: Tx, taskIds: number[]) {
  if (!taskIds.length) return;
  const changed = await rowsOf<{ id: number; user_id: number }>(
    executePrepared(
      tx,
      sql`
    update tasks t set tracking_id = (
      select p.tracking_id from purchased_records p where p.task_id = t.id order by p.updated_at desc, p.id desc limit 1)
    where t.id = any(${sql.param(taskIds)}::int[])
    returning t.id, t.user_id`,
    ),
  );
  // live: the member's tasks whose records changed (every record change passes here)
  await publishLive(
    tx,
    changed.map((t) => memberTaskChanged({ id: Number(t.id), userId: Number(t.user_id) })),
  );
}

/** The units the task's records hold, per task, leaving out the records in `except` (being rewritten). */
export async function recordedUnits(tx: Tx, taskIds: number[], except: number[] = []): Promise<Map<number, number>> {
  const out = new Map(taskIds.map((id) => [id, 0]));
  if (!taskIds.length) return out;
  const rows = await tx
    .select({ taskId: purchasedRecords.taskId, n: sql<number>`sum(${purchasedRecords.productCount})::int` })
    .from(purchasedRecords)
    .where(and(inArray(purchasedRecords.taskId, taskIds), notInArray(purchasedRecords.id, except)))
    .groupBy(purchasedRecords.taskId);
  for (const r of rows) out.set(r.taskId, Number(r.n));
  return out;
}

/**
 * The audit action of a record created on an unknown parcel (decision 169): whatever path made it
 * (the claim call, the record dialog, an upload), it claims a parcel the warehouse set aside.
 */
export const CLAIM_ACTION = 'record.claim';

/** When (now) a record written on tracking id `key` claims it, given the unknown parcels' keys; else null. */
const claimedAtOf = (unknown: ReadonlySet<string>, key: string, now: Date) => (unknown.has(key) ? now : null);

/** A record's tracking id or count changed: matching judges it again. */
const recordChange = { type: 'record.change' } as const;

/** Record `id` as stored (unlocked), or undefined. */
export const purchasedRecordById = async (tx: Tx, id: number): Promise<PurchasedRow | undefined> =>
  (await tx.select().from(purchasedRecords).where(eq(purchasedRecords.id, id)))[0];

/**
 * What a record change comes to, decided before anything is written (the rules of savePurchasedRecord):
 * `before` is the record being updated (update mode), `existing` the task's record with the new
 * tracking id, if any.
 */
type Change = { write: false; result: PurchasedResult } | { write: 'insert' } | { write: 'update'; before: PurchasedRow };

function decideChange(
  mode: 'insert' | 'update',
  trackingId: string,
  productCount: number,
  before: PurchasedRow | undefined,
  existing: PurchasedRow | undefined,
): Change {
  if (mode === 'insert') {
    if (existing)
      return { write: false, result: { opStatus: 'skip', msg: purchasedMessages.alreadyRecorded, record: existing, oldQty: existing.productCount } };
    return { write: 'insert' };
  }
  if (!before) return { write: false, result: refuse(purchasedMessages.noRecordForTracking) };
  // Unchanged first, so re-uploading the same file skips its matched rows instead of failing them.
  if (before.trackingId === trackingId && before.productCount === productCount) {
    return { write: false, result: { opStatus: 'skip', msg: purchasedMessages.unchanged, record: before, oldQty: before.productCount } };
  }
  if (isRecordFrozen(before)) return { write: false, result: refuse(purchasedMessages.matchedNoEdit) };
  if (existing && existing.id !== before.id) return { write: false, result: refuse(purchasedMessages.alreadyRecorded) };
  return { write: 'update', before };
}

/**
 * Records (mode 'insert') or changes (mode 'update') a purchase of `input.taskId` for `actor`, in
 * the caller's transaction (the rules below). Returns opStatus succ (changed), skip
 * (insert of a tracking id the task already has; update that changes nothing) or error (refused,
 * nothing written; `code` A00004 for a task/record the actor may not see, else A00001).
 *
 * The rules:
 * - trackingId is trimmed and required ('请填写trackingId'), at most 64 characters; productCount is
 *   a whole number from 1 to 1000000 ('请填写数目').
 * - The task must be the actor's own (a member) or any task (lowerAdmin, admin); another member's
 *   task or record is reported as not existing (code A00004, DECISIONS "Roles").
 * - The task must accept a record change by the actor per the task machine (task.records by user:
 *   open or unmatch tasks, so a member can fix the records of a parcel that disagrees; by admin:
 *   every task that is not pending or deleted; decision 090); a refusal carries the machine's
 *   message. The task's status does not change here, only matching (below) may move it.
 * - The records of a task never total more than its count ('所有记录的数目合计不能超过任务数量N件',
 *   decision 090): a record claiming more units than the task leaves is refused, so matching never
 *   has to choose which of a task's records to believe.
 * - One record per (task, tracking id): inserting the same pair again is 'skip' (already recorded,
 *   oldQty = its count); updating changes the count (oldQty = previous), or the tracking id (when
 *   the task has no record with the new one). An update that changes nothing is 'skip'.
 * - A record in status match cannot be changed ('已匹配的记录不能修改') or removed
 *   ('已匹配的记录不能删除'). A changed record starts again as init and is matched at once.
 * - Every change writes an audit entry (entity 'purchased': taskId, trackingId, count, before and
 *   after, status = the task's status) in the same transaction, then runs matching for the tracking
 *   id(s) concerned (matching/match.ts), which may move the task (task.match via applyTaskEvent).
 * - Refusals are returned as opStatus 'error' (with `code`) BEFORE anything is written, so an upload
 *   can report the row and go on with the next one in the same transaction; unexpected failures
 *   throw. Locks: the tracking id(s) and the tasks matching will touch first (lockForMatching), then
 *   the task row (lockTask, already held), the order matching uses, so a record change and a scan
 *   of the same parcel, or two members sharing parcels, never deadlock.
 */
export async function savePurchasedRecord(tx: Tx, actor: SessionUser, input: PurchasedInput, mode: 'insert' | 'update'): Promise<PurchasedResult> {
  const invalid = purchasedInputError(input);
  if (invalid) return refuse(invalid);
  // The canonical key is what lookups and matching compare; what the member typed is kept to show (decision 097).
  const trackingId = canonicalTrackingId(input.trackingId);
  const typedTrackingId = input.trackingId.trim();
  const productCount = input.productCount;

  // The record being updated, read first (unlocked) only to know which tracking ids to lock.
  let target: PurchasedRow | undefined;
  if (mode === 'update' && input.id !== undefined) {
    target = await purchasedRecordById(tx, input.id);
    if (!target || target.taskId !== input.taskId) return refuse(purchasedMessages.notFound, Code.notFound);
  }
  await lockForMatching(tx, target ? [target.trackingId, trackingId] : [trackingId], [input.taskId]);
  const task = await taskForEdit(tx, actor, input.taskId);
  // Another member's record reads as a missing record, not as a missing task.
  if (isResult(task)) return target && task.code === Code.notFound ? refuse(purchasedMessages.notFound, Code.notFound) : task;

  const [existing] = await tx
    .select()
    .from(purchasedRecords)
    .where(and(eq(purchasedRecords.taskId, task.id), eq(purchasedRecords.trackingId, trackingId)))
    .for('update');
  let before: PurchasedRow | undefined = existing;
  if (target) {
    [before] = await tx.select().from(purchasedRecords).where(eq(purchasedRecords.id, target.id)).for('update');
    // Gone, or changed between the first read and the lock (the lock taken may not be this record's).
    if (!before || before.taskId !== task.id || before.trackingId !== target.trackingId) return refuse(purchasedMessages.notFound, Code.notFound);
  }
  const change = decideChange(mode, trackingId, productCount, before, existing);
  if (!change.write) return change.result;
  const others = (await recordedUnits(tx, [task.id], change.write === 'update' ? [change.before.id] : [])).get(task.id)!;
  if (others + productCount > task.count) return refuse(purchasedMessages.overCount(task.count));

  // A new key on an unknown parcel claims it (decision 169); a count change keeps what the record was.
  const keyChanged = change.write === 'insert' || change.before.trackingId !== trackingId;
  const claimedAt = keyChanged ? claimedAtOf(await unknownParcelKeys(tx, [trackingId]), trackingId, new Date()) : change.before.claimedAt;
  if (change.write === 'insert') {
    const [created] = await tx
      .insert(purchasedRecords)
      .values({ taskId: task.id, userId: task.userId, trackingId, typedTrackingId, productCount, claimedAt })
      .returning();
    await writeAudit(tx, purchasedAuditEntry(actor, claimedAt ? CLAIM_ACTION : 'create', task, null, created!));
    await refreshTaskTrackingIds(tx, [task.id]);
    await matchTracking(tx, trackingId, actor);
    return { opStatus: 'succ', msg: purchasedMessages.created, record: await purchasedRecordById(tx, created!.id) };
  }
  await applyToLocked(tx, purchasedEntity, actor, [change.before], recordChange, {
    action: claimedAt && keyChanged ? CLAIM_ACTION : 'update',
    set: { trackingId, typedTrackingId, productCount, msg: '', claimedAt },
    audit: () => taskAudit(task),
  });
  await refreshTaskTrackingIds(tx, [task.id]);
  await matchTrackings(tx, [change.before.trackingId, trackingId], actor);
  return { opStatus: 'succ', msg: purchasedMessages.saved, record: await purchasedRecordById(tx, change.before.id), oldQty: change.before.productCount };
}

/** Rows per bulk statement of savePurchasedRecords. */
const CHUNK = 1000;

/**
 * savePurchasedRecord for many inputs at once (the Excel upload, the bulk paste): the same rules and
 * results, one result per input in input order, with set-based reads and writes. Inputs are found by
 * (taskId, trackingId) (no `id`) and must not repeat a pair. Every lock first (lockForMatching
 * of all tracking ids and tasks), then the records are written, audited, and matched ONCE for all
 * their tracking ids at the end (matchTrackings) - so a later row sees its task as the earlier rows
 * left it before matching, and the whole file is matched as one change.
 *
 * `allOrNothing` (the bulk paste): every input is decided first, and when any is not 'succ' (an
 * error, or a skip - an insert of a tracking id the task has, which the record dialog refuses)
 * nothing is written; the inputs that would have been written keep opStatus 'succ' with msg ''.
 * `dryRun`: every input is decided, nothing is written.
 */
export async function savePurchasedRecords(
  tx: Tx,
  actor: SessionUser,
  inputs: PurchasedInput[],
  mode: 'insert' | 'update',
  opts: { allOrNothing?: boolean; dryRun?: boolean } = {},
): Promise<PurchasedResult[]> {
  const results: PurchasedResult[] = inputs.map((input) => {
    const invalid = purchasedInputError(input);
    return invalid ? refuse(invalid) : { opStatus: 'succ', msg: '' };
  });
  const valid = inputs.flatMap((input, i): BulkInput[] =>
    results[i]!.opStatus === 'succ'
      ? [
          {
            i,
            taskId: input.taskId,
            trackingId: canonicalTrackingId(input.trackingId),
            typedTrackingId: input.trackingId.trim(),
            productCount: input.productCount,
          },
        ]
      : [],
  );
  if (new Set(valid.map((v) => bulkKey(v.taskId, v.trackingId))).size !== valid.length) throw new Error('savePurchasedRecords: repeated (taskId, trackingId)');
  const taskIds = [...new Set(valid.map((v) => v.taskId))].sort((a, b) => a - b);
  await lockForMatching(
    tx,
    valid.map((v) => v.trackingId),
    taskIds,
  );
  const plan = planBulk(actor, mode, valid, await readBulk(tx, taskIds, valid), results);
  if (opts.dryRun || (opts.allOrNothing && results.some((r) => r.opStatus !== 'succ'))) return results;

  await writeBulk(tx, actor, plan, results);
  const changed = [...plan.inserts, ...plan.updates];
  await refreshTaskTrackingIds(tx, [...new Set(changed.map((c) => c.task.id))]);
  await matchTrackings(
    tx,
    changed.map((c) => canonicalTrackingId(inputs[c.i]!.trackingId)),
    actor,
  );
  return results;
}

/** A valid input of savePurchasedRecords (index `i` in the inputs), its tracking id canonical. */
interface BulkInput {
  i: number;
  taskId: number;
  trackingId: string;
  typedTrackingId: string;
  productCount: number;
}

interface BulkPlan {
  inserts: { i: number; task: TaskRow; values: typeof purchasedRecords.$inferInsert }[];
  updates: { i: number; task: TaskRow; before: PurchasedRow; productCount: number }[];
}

const bulkKey = (taskId: number, trackingId: string) => `${taskId}\u0000${trackingId}`;

/**
 * The tasks `taskIds` by id, the units their records hold, and the records of the inputs' (task,
 * tracking id) pairs, locked, by pair. The tasks' other records are summed, not read or locked: the
 * tasks are locked (lockForMatching), and every change of a record's units or (task, tracking id)
 * runs under its task's lock (decision 185). Reading and locking every record of a task cost a
 * slice of an upload in proportion to what the task held (200 records: 1.5 ms of PGlite's thread a
 * slice, a lock written on each row).
 */
async function readBulk(tx: Tx, taskIds: number[], valid: BulkInput[]) {
  const taskById = new Map<number, TaskRow>();
  const existing = new Map<string, PurchasedRow>();
  for (let i = 0; i < taskIds.length; i += CHUNK) {
    const ids = taskIds.slice(i, i + CHUNK);
    for (const t of await tx.select().from(tasks).where(inArray(tasks.id, ids))) taskById.set(t.id, t);
  }
  for (let i = 0; i < valid.length; i += CHUNK) {
    const pairs = valid.slice(i, i + CHUNK);
    const recs = await tx
      .select()
      .from(purchasedRecords)
      .where(
        sql`(${purchasedRecords.taskId}, ${purchasedRecords.trackingId}) in (select * from unnest(${sql.param(pairs.map((v) => v.taskId))}::int[], ${sql.param(pairs.map((v) => v.trackingId))}::text[]))`,
      )
      .for('update');
    for (const r of recs) existing.set(bulkKey(r.taskId, r.trackingId), r);
  }
  return { taskById, existing, units: await recordedUnits(tx, taskIds) };
}

/**
 * Decides each valid input by savePurchasedRecord's rules, the inputs before it in the file counting
 * towards its task's units; a refusal or skip goes into `results`, the writes into the plan.
 */
function planBulk(
  actor: SessionUser,
  mode: 'insert' | 'update',
  valid: BulkInput[],
  read: Awaited<ReturnType<typeof readBulk>>,
  results: PurchasedResult[],
): BulkPlan {
  const plan: BulkPlan = { inserts: [], updates: [] };
  // The units each task's records hold, as the rows before in the file leave them.
  const units = new Map(read.units);
  for (const v of valid) {
    const task = read.taskById.get(v.taskId);
    const refusal = editRefusal(actor, task);
    if (refusal) {
      results[v.i] = refusal;
      continue;
    }
    const found = read.existing.get(bulkKey(v.taskId, v.trackingId));
    const change = decideChange(mode, v.trackingId, v.productCount, found, found);
    const held = units.get(task!.id)! - (change.write === 'update' ? change.before.productCount : 0);
    if (change.write && held + v.productCount > task!.count) {
      results[v.i] = refuse(purchasedMessages.overCount(task!.count));
      continue;
    }
    if (change.write) units.set(task!.id, held + v.productCount);
    if (!change.write) results[v.i] = change.result;
    else if (change.write === 'insert') {
      const values = { taskId: task!.id, userId: task!.userId, trackingId: v.trackingId, typedTrackingId: v.typedTrackingId, productCount: v.productCount };
      plan.inserts.push({ i: v.i, task: task!, values });
    } else plan.updates.push({ i: v.i, task: task!, before: change.before, productCount: v.productCount });
  }
  return plan;
}

/**
 * Writes the plan set-based (CHUNK rows a statement) with its audit entries, and puts the records
 * written into `results`. An update is the machine's record.change, asked through the store's
 * planEvent and written here in one statement per chunk (the store's applyToLocked writes a row a
 * statement; an upload has tens of thousands).
 */
async function writeBulk(tx: Tx, actor: SessionUser, plan: BulkPlan, results: PurchasedResult[]) {
  const audits: AuditEntry[] = [];
  const now = new Date();
  const unknown = await unknownParcelKeys(
    tx,
    plan.inserts.map((c) => c.values.trackingId),
  );
  for (let i = 0; i < plan.inserts.length; i += CHUNK) {
    const chunk = plan.inserts.slice(i, i + CHUNK);
    // A multi-row INSERT ... RETURNING answers in the order of its VALUES.
    const created = await tx
      .insert(purchasedRecords)
      .values(chunk.map((c) => ({ ...c.values, claimedAt: claimedAtOf(unknown, c.values.trackingId, now) })))
      .returning();
    created.forEach((row, k) => {
      audits.push(purchasedAuditEntry(actor, row.claimedAt ? CLAIM_ACTION : 'create', chunk[k]!.task, null, row));
      results[chunk[k]!.i] = { opStatus: 'succ', msg: purchasedMessages.created, record: row };
    });
  }
  for (let i = 0; i < plan.updates.length; i += CHUNK) {
    const chunk = plan.updates.slice(i, i + CHUNK);
    const statuses = planEvent(
      purchasedEntity,
      chunk.map((u) => u.before),
      recordChange,
    ).map((p) => p.next);
    await tx.execute(sql`
      update purchased_records p set product_count = v.n, status = v.s::purchased_status, msg = '', updated_at = ${now}
      from unnest(${sql.param(chunk.map((u) => u.before.id))}::int[], ${sql.param(chunk.map((u) => u.productCount))}::int[], ${sql.param(statuses)}::text[]) as v(id, n, s)
      where p.id = v.id`);
    chunk.forEach((u, k) => {
      const after: PurchasedRow = { ...u.before, productCount: u.productCount, status: statuses[k]!, msg: '', updatedAt: now };
      audits.push(purchasedAuditEntry(actor, 'update', u.task, u.before, after));
      results[u.i] = { opStatus: 'succ', msg: purchasedMessages.saved, record: after, oldQty: u.before.productCount };
    });
  }
  await writeAudit(tx, audits);
}

/** One line of a bulk paste as answered: the parsed line, whether it may be (or was) recorded, and why not. */
export type BulkLineResult = PastedLine;

export const bulkResultMessages = {
  saved: (n: number) => `已添加${n}条记录`,
  refused: (n: number) => `${n}行有误，未添加任何记录`,
} as const;

export type BulkOutcome = { error: PurchasedResult } | { saved: boolean; msg: string; rows: BulkLineResult[] };

/**
 * Records the purchases pasted for task `taskId` by `actor`, all or nothing (decision 105):
 * - the task must be one whose records the actor may change (as savePurchasedRecord: another
 *   member's task is A00004 as if it did not exist; the task machine's task.records refusal is
 *   A00001 with its message) - a fault of the whole call, answered as `error`;
 * - the text is parsed by the one parser (machines/purchased-record.ts parsePurchasedLines: the
 *   separators, quantity 1 when absent, the dialog's checks per line, a tracking id repeated in the
 *   paste); a paste with no line or too many lines is an `error` (A00001);
 * - the lines it accepts go through savePurchasedRecords in insert mode with allOrNothing, under the
 *   same locks and rules as the dialog (a tracking id the task has is refused, as the dialog refuses
 *   it; the records never total more than the task's count);
 * - when every line is accepted the records are written, audited and matched once, as the upload's
 *   are (`saved`); otherwise nothing is written, and each line says why or that it was fine.
 */
export async function savePurchasedLines(tx: Tx, actor: SessionUser, taskId: number, text: string): Promise<BulkOutcome> {
  const [task] = await tx.select().from(tasks).where(eq(tasks.id, taskId));
  const refusal = editRefusal(actor, task);
  if (refusal) return { error: refusal };
  const parsed = parsePurchasedLines(text);
  if (parsed.error) return { error: refuse(parsed.error) };
  const accepted = parsed.lines.filter((l) => l.ok);
  const results = await savePurchasedRecords(
    tx,
    actor,
    accepted.map((l) => ({ taskId, trackingId: l.tracking, productCount: l.qty! })),
    'insert',
    // A line the parser refused already decides the outcome: the others are only checked.
    { allOrNothing: true, dryRun: accepted.length < parsed.lines.length },
  );
  const byLine = new Map(accepted.map((l, k) => [l.line, results[k]!]));
  const rows = parsed.lines.map((l): BulkLineResult => {
    const r = byLine.get(l.line);
    if (!r) return l;
    return r.opStatus === 'succ' ? { ...l, ok: true, msg: r.msg } : { ...l, ok: false, msg: r.msg };
  });
  const refused = rows.filter((r) => !r.ok).length;
  return refused === 0 ? { saved: true, msg: bulkResultMessages.saved(rows.length), rows } : { saved: false, msg: bulkResultMessages.refused(refused), rows };
}

/**
 * Removes record `id` for `actor` (same rules: own task or admin side, the task accepts an edit,
 * not in status match), audits it and re-matches its tracking id. Errors as for savePurchasedRecord.
 */
export async function removePurchasedRecord(tx: Tx, actor: SessionUser, id: number): Promise<PurchasedResult> {
  const first = await purchasedRecordById(tx, id);
  if (!first) return refuse(purchasedMessages.notFound, Code.notFound);
  await lockForMatching(tx, [first.trackingId], [first.taskId]);
  const task = await taskForEdit(tx, actor, first.taskId);
  if (isResult(task)) return task.code === Code.notFound ? refuse(purchasedMessages.notFound, Code.notFound) : task;
  const [before] = await tx.select().from(purchasedRecords).where(eq(purchasedRecords.id, id)).for('update');
  if (!before || before.trackingId !== first.trackingId || before.taskId !== task.id) return refuse(purchasedMessages.notFound, Code.notFound);
  if (isRecordFrozen(before)) return refuse(purchasedMessages.matchedNoRemove);
  await tx.delete(purchasedRecords).where(eq(purchasedRecords.id, id));
  await writeAudit(tx, purchasedAuditEntry(actor, 'remove', task, before, null));
  await refreshTaskTrackingIds(tx, [task.id]);
  // The task too: without a record on the tracking id it is no longer among those matching judges
  // there, and would keep the units the removed record held (decision 095).
  await matchTracking(tx, before.trackingId, actor, [task.id]);
  return { opStatus: 'succ', msg: purchasedMessages.removed, record: before };
}

/** The records of one task, oldest first (the task record dialog). */
export function listPurchasedRecords(tx: Tx, taskId: number): Promise<PurchasedRow[]> {
  return tx.select().from(purchasedRecords).where(eq(purchasedRecords.taskId, taskId)).orderBy(asc(purchasedRecords.id));
}
