// The member home (getMemberHome; decision 107): what needs the member, in one call. Each part is one
// query over an index of the member's own rows (boards: the visibility rule; tasks: tasks_user_created_idx;
// parcels: purchased_records_user_created_idx then scan_trackings_tracking_idx), capped at HOME_LIST_LIMIT
// items with its total from the same query (count(*) over ()), and every status it reads is the one
// its machine names: recordable and payable are what the task machine allows, never a literal.
import { and, asc, desc, eq, gt, gte, ne, sql, type SQLWrapper } from 'drizzle-orm';
import { SEEN_SCAN_STATUSES, FROZEN_SCAN_STATUSES } from '../../../machines/scan-record.machine.ts';
import { statesAllowing } from '../../../machines/stored-state.ts';
import {
  DELETED_TASK_STATUS,
  DISAGREED_PURCHASED_STATUS,
  MATCH_OUTCOME_STATUS,
  MEMBER_RECORDABLE_STATUSES,
  taskMachine,
  TASK_STATUSES,
  type TaskEvent,
  type TaskStatus,
} from '../../../machines/task.machine.ts';
import type { components } from '../../api/schema';
import { visibleToMember } from '../boards/visibility.ts';
import type { Tx } from '../db/client.ts';
import { boards } from '../db/schema/boards.ts';
import { paymentApplies } from '../db/schema/money.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { centsOf, fromCents } from '../money/cents.ts';
import { missingCounts } from '../tasks/missing-parcels.ts';
import { memberTotals } from './member-totals.ts';

type MemberHome = components['schemas']['MemberHome'];
type HomeTask = components['schemas']['MemberHomeTask'];

/** Items a part shows at most; its total says how many there are. */
export const HOME_LIST_LIMIT = 10;
/** Without a last visit, the parcels of the past days count as new. */
export const ARRIVED_DEFAULT_DAYS = 7;
const DAY = 86_400_000;

/** The task statuses in which `event` is allowed (with `context`): the machine's answer, for the database. */
const statusesAllowing = (event: TaskEvent, context = { productCount: 0, canSplit: false }): TaskStatus[] =>
  statesAllowing(taskMachine, TASK_STATUSES, context, event);

/** Where a member may still record purchases (task.records by the member): open and unmatch. */
const RECORDABLE = MEMBER_RECORDABLE_STATUSES;
/** Where every unit arrived and payment may be asked (task.apply): locked. */
const APPLICABLE = statusesAllowing({ type: 'task.apply' });
/** Where the arrived units of a partly arrived task may be separated and paid (task.split with canSplit). */
const SPLITTABLE = statusesAllowing({ type: 'task.split' }, { productCount: 1, canSplit: true });
/** Where matching leaves a task whose parcels disagree with it (task.match with outcome unmatch). */
const DISAGREED_TASK_STATUS = MATCH_OUTCOME_STATUS.unmatch;
/** Scan rows the warehouse has seen and not yet paid for: an arrival, not a payment. */
const ARRIVED_SCAN_STATUSES = SEEN_SCAN_STATUSES.filter((s) => !FROZEN_SCAN_STATUSES.includes(s));

const anyOf = (column: SQLWrapper, values: readonly string[], type: 'task_status' | 'scan_status') =>
  sql`${column} = any(${sql.param([...values])}::text[]::${sql.raw(type)}[])`;

const total = sql<number>`count(*) over ()`.mapWith(Number);
// The task of the row, always qualified: drizzle writes a column of a select without joins unqualified,
// which inside a subquery would name the subquery's own column.
const theTaskId = sql`${tasks}.${sql.identifier(tasks.id.name)}`;
const recordedUnits = sql<number>`(select coalesce(sum(p.product_count), 0) from ${purchasedRecords} p where p.task_id = ${theTaskId})`.mapWith(Number);
const liveTask = ne(tasks.status, DELETED_TASK_STATUS);

const part = <T>(rows: (T & { total: number })[]) => ({ total: rows[0]?.total ?? 0, items: rows.map(({ total: _t, ...item }) => item as T) });

const taskColumns = {
  id: tasks.id,
  mainId: tasks.mainId,
  subId: tasks.subId,
  itemName: tasks.itemName,
  count: tasks.count,
  productCount: tasks.productCount,
  recorded: recordedUnits,
  status: tasks.status,
};

/** Parcels seen since the last visit on the member's tracking ids: tied to their tasks or to nobody's; latest first. */
function arrivedParcels(tx: Tx, userId: number, since: Date) {
  const ownTrackingIds = sql`(select p.tracking_id from ${purchasedRecords} p join ${tasks} pt on pt.id = p.task_id
    where p.user_id = ${userId} and pt.status <> ${DELETED_TASK_STATUS})`;
  return tx
    .select({
      id: scanTrackings.id,
      trackingId: scanTrackings.trackingId,
      upc: scanTrackings.upc,
      itemName: scanTrackings.itemName,
      count: scanTrackings.count,
      status: scanTrackings.status,
      seenAt: scanTrackings.updatedAt,
      taskId: scanTrackings.taskId,
      mainId: scanTrackings.mainId,
      subId: scanTrackings.subId,
      total,
    })
    .from(scanTrackings)
    .where(
      and(
        sql`${scanTrackings.trackingId} in ${ownTrackingIds}`,
        sql`(${scanTrackings.userId} = ${userId} or ${scanTrackings.taskId} is null)`,
        anyOf(scanTrackings.status, ARRIVED_SCAN_STATUSES, 'scan_status'),
        gt(scanTrackings.updatedAt, since),
      ),
    )
    .orderBy(desc(scanTrackings.updatedAt), desc(scanTrackings.id))
    .limit(HOME_LIST_LIMIT);
}

/**
 * The home of member `userId`. `since`: their last visit (epoch ms), else ARRIVED_DEFAULT_DAYS ago.
 * The parts are read one after another in one read-only transaction, so they are one snapshot.
 */
export async function memberHome(tx: Tx, v: { userId: number; since?: number; now?: number; missingDays: number }): Promise<MemberHome> {
  const now = new Date(v.now ?? Date.now());
  const since = new Date(v.since ?? now.getTime() - ARRIVED_DEFAULT_DAYS * DAY);
  const mine = eq(tasks.userId, v.userId);

  // Open boards: published to the member and not expired (the board machine's isBoardExpired: expireAt < now), soonest to close first.
  const openBoards = await tx
    .select({ id: boards.id, uuid: boards.uuid, boardName: boards.boardName, remark: boards.remark, expireAt: boards.expireAt, total })
    .from(boards)
    .where(and(visibleToMember(v.userId), gte(boards.expireAt, now)))
    .orderBy(asc(boards.expireAt), asc(boards.id))
    .limit(HOME_LIST_LIMIT);

  // Tasks waiting for tracking numbers: recordable, fewer units recorded than claimed; oldest claim first.
  const awaiting = await tx
    .select({ ...taskColumns, total })
    .from(tasks)
    .where(and(mine, anyOf(tasks.status, RECORDABLE, 'task_status'), sql`${recordedUnits} < ${tasks.count}`))
    .orderBy(asc(tasks.createdAt), asc(tasks.id))
    .limit(HOME_LIST_LIMIT);

  const arrived = await arrivedParcels(tx, v.userId, since);

  // Tasks that disagree: a record matching found at odds with its parcel (its msg says how), or the
  // task itself left in the machine's disagreeing state. Latest first.
  const disagreedRecords = sql`from ${purchasedRecords} p where p.task_id = ${theTaskId} and p.status = ${DISAGREED_PURCHASED_STATUS}`;
  const disagreeing = await tx
    .select({
      ...taskColumns,
      trackingIds: sql<string>`coalesce((select string_agg(p.tracking_id, ',' order by p.id) ${disagreedRecords}), '')`,
      reason: sql<string>`coalesce((select p.msg ${disagreedRecords} order by p.id limit 1), '')`,
      total,
    })
    .from(tasks)
    .where(and(mine, liveTask, sql`(${tasks.status} = ${DISAGREED_TASK_STATUS} or exists (select 1 ${disagreedRecords}))`))
    .orderBy(desc(tasks.updatedAt), desc(tasks.id))
    .limit(HOME_LIST_LIMIT);

  // What may be asked for payment now: every unit arrived (task.apply, no application yet), or some
  // (task.split with canSplit: the arrived units). The amount is incomeCents (payment.machine.ts)
  // with no bonus, over all of them: buyIn x productCount - punish, never below 0.
  const earned = sql`greatest(0, ${tasks.buyIn} * ${tasks.productCount} - ${tasks.punish})`;
  const payable = await tx
    .select({
      ...taskColumns,
      partial: sql<boolean>`${anyOf(tasks.status, SPLITTABLE, 'task_status')}`,
      amount: sql<number>`${earned}`.mapWith(centsOf),
      sum: sql<number>`sum(${earned}) over ()`.mapWith(centsOf),
      total,
    })
    .from(tasks)
    .where(
      and(
        mine,
        sql`((${anyOf(tasks.status, APPLICABLE, 'task_status')} and not exists (select 1 from ${paymentApplies} pa where pa.task_id = ${theTaskId}))
          or (${anyOf(tasks.status, SPLITTABLE, 'task_status')} and ${tasks.canSplit} and ${tasks.productCount} > 0))`,
      ),
    )
    .orderBy(asc(tasks.createdAt), asc(tasks.id))
    .limit(HOME_LIST_LIMIT);

  // Missing parcels (decision 077): a count and a link, the list is its own page.
  const missingParcels = await missingCounts(tx, v.userId, v.missingDays);
  // The balance is the totals' withdrawable amount: one query for both (the same applications).
  const totals = await memberTotals(tx, v.userId);

  const payableItems: HomeTask[] = payable.map(({ total: _t, sum: _s, amount, ...task }) => ({ ...task, amount: fromCents(amount) }));
  return {
    now: now.getTime(),
    since: since.getTime(),
    openBoards: part(openBoards.map((b) => ({ ...b, expireAt: b.expireAt.getTime() }))),
    awaitingTracking: part(awaiting),
    arrived: part(arrived.map((p) => ({ ...p, seenAt: p.seenAt.getTime() }))),
    disagreeing: part(disagreeing),
    payable: { total: payable[0]?.total ?? 0, amount: fromCents(payable[0]?.sum ?? 0), items: payableItems },
    balance: totals.withdrawable.amount,
    missingParcels,
    totals,
  };
}
