// A task is one user's claim on a board task, and the unit that is purchased, received, matched and
// paid. Its identity shown to people is mainId-subId: the claim creates subId 0 with mainId equal to
// its own id (the check below makes that the only way to start a claim, so the claim code takes
// nextval(pg_get_serial_sequence('tasks','id')) once and writes it into both), and a split adds
// siblings with the same mainId and subId 1, 2, ... (the self-reference keeps a sibling from pointing
// at a claim that does not exist). Tasks are never physically deleted: deleted is a status, because
// purchased records, scans, audit entries and payment applications keep pointing at them. status has
// no default on purpose: whether a new claim is open or pending (closed board task / expired board)
// is the claim rule's decision, made by the task machine, never by the schema. Item name, url, price
// and buyIn are copied from the board task at claim time so a later board edit does not rewrite
// what a user agreed to. purchased_records are what the user says they bought, per tracking id; one
// row per (task, tracking id) so re-entering or re-uploading a tracking id updates its quantity.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, pgEnum, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { cents } from './cents';
import { TASK_STATUSES } from '../../../../machines/task.statuses';
import { CONTESTED_MESSAGE, PURCHASED_STATUSES, UNSEEN_PURCHASED_STATUS } from '../../../../machines/task.machine';
import { users } from './accounts';
import { boards, boardTasks } from './boards';
import { items } from './catalog';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const taskStatus = pgEnum('task_status', TASK_STATUSES);

export const tasks = pgTable(
  'tasks',
  {
    id: serial('id').primaryKey(),
    mainId: integer('main_id').notNull(),
    subId: integer('sub_id').notNull().default(0),
    boardId: integer('board_id')
      .notNull()
      .references(() => boards.id),
    boardTaskId: integer('board_task_id')
      .notNull()
      .references(() => boardTasks.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id),
    itemName: text('item_name').notNull(),
    url: text('url').notNull().default(''),
    /** Cents, copied from the board task (reference only). */
    price: cents('price'),
    /** Cents per matched unit. */
    buyIn: cents('buy_in').notNull(),
    /** Cents. */
    bonus: cents('bonus').notNull().default(0),
    /** Cents; shown as "discount". */
    punish: cents('punish').notNull().default(0),
    /** Units claimed. */
    count: integer('count').notNull(),
    /** Units arrived and matched. */
    productCount: integer('product_count').notNull().default(0),
    status: taskStatus('status').notNull(),
    isHome: boolean('is_home').notNull().default(false),
    state: text('state'),
    zipCode: text('zip_code'),
    labelCount: integer('label_count'),
    /** Copied from the item at claim time; what matching compares scanned UPCs with. */
    upc: text('upc'),
    /** Set by matching when some but not all units arrived. */
    canSplit: boolean('can_split').notNull().default(false),
    /** Latest tracking id recorded for the task (the full list is in purchased_records). */
    trackingId: text('tracking_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    uniqueIndex('tasks_main_sub_uq').on(t.mainId, t.subId),
    foreignKey({ name: 'tasks_main_id_fk', columns: [t.mainId], foreignColumns: [t.id] }),
    index('tasks_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('tasks_status_created_idx').on(t.status, t.createdAt, t.id),
    index('tasks_created_idx').on(t.createdAt, t.id),
    index('tasks_board_task_idx').on(t.boardTaskId, t.status),
    index('tasks_board_user_idx').on(t.boardId, t.userId),
    index('tasks_item_idx').on(t.itemId),
    // No index on tracking_id (the latest one recorded, shown in lists): the lists find a task by
    // tracking id through its records (boards/task-queries.ts), and every matched scan that moves a
    // task would pay for it. Dropped in 0003.
    check('tasks_claim_is_main', sql`${t.subId} > 0 OR ${t.mainId} = ${t.id}`),
    check('tasks_sub_id_nonneg', sql`${t.subId} >= 0`),
    check('tasks_counts_nonneg', sql`${t.count} >= 0 AND ${t.productCount} >= 0 AND ${t.labelCount} >= 0`),
    check('tasks_amounts_nonneg', sql`${t.price} >= 0 AND ${t.buyIn} >= 0 AND ${t.bonus} >= 0 AND ${t.punish} >= 0`),
  ],
);

export const purchasedStatus = pgEnum('purchased_status', PURCHASED_STATUSES);

export const purchasedRecords = pgTable(
  'purchased_records',
  {
    id: serial('id').primaryKey(),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The canonical key (machines/tracking-id.ts, decision 097): what lookups, duplicates and matching compare. */
    trackingId: text('tracking_id').notNull(),
    /** What the member typed (trimmed), shown beside the key; null for records made before it was kept. */
    typedTrackingId: text('typed_tracking_id'),
    productCount: integer('product_count').notNull(),
    status: purchasedStatus('status').notNull().default(UNSEEN_PURCHASED_STATUS),
    /** Why matching said unmatch (shown in the task record dialog). */
    msg: text('msg').notNull().default(''),
    /** Units an admin assigned to this record on a contested parcel (decision 096); null: none assigned. */
    assignedCount: integer('assigned_count'),
    /** The member's note on a missing parcel (decision 077): what the carrier or the shop said. */
    missingNote: text('missing_note').notNull().default(''),
    /** When the member reported the parcel lost (decision 077); null: not reported. Matching ignores it. */
    lostAt: ts('lost_at'),
    /**
     * When the record claimed an unknown parcel (decision 169): its tracking id had been seen at the
     * warehouse with no live record. Null: recorded before its parcel arrived. The admins' claim list.
     */
    claimedAt: ts('claimed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    uniqueIndex('purchased_records_task_tracking_uq').on(t.taskId, t.trackingId),
    index('purchased_records_tracking_idx').on(t.trackingId),
    // Near misses (decision 098, matching/near-misses.ts): a key one edit or a shared last 10 away
    // keeps its last six characters (tail) or all but them (head, of its own or one character shorter or longer).
    index('purchased_records_tracking_tail_idx').on(sql`right(${t.trackingId}, 6)`),
    index('purchased_records_tracking_head_idx').on(sql`left(${t.trackingId}, -6)`),
    // The records matching says wait for an admin (decision 096): the admin home's contested count and list.
    index('purchased_records_contested_idx')
      .on(t.trackingId)
      .where(sql.raw(`msg = '${CONTESTED_MESSAGE}'`)),
    index('purchased_records_user_created_idx').on(t.userId, t.createdAt),
    // The records not yet seen, oldest first: the admin home's not-arrived count and
    // /admin/tasks?notArrived read these few instead of every record ever made.
    index('purchased_records_unseen_created_idx')
      .on(t.createdAt)
      .where(sql.raw(`status = '${UNSEEN_PURCHASED_STATUS}'`)),
    // The claims, newest first (decision 169): the admins' list and the home's count read these few.
    index('purchased_records_claimed_idx')
      .on(t.claimedAt)
      .where(sql`claimed_at is not null`),
    check('purchased_records_count_nonneg', sql`${t.productCount} >= 0`),
  ],
);
