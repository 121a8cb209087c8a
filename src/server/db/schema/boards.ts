// A board is a published list of purchase demands (board tasks). It moves unpublish -> open (publish)
// -> close, and a user sees it only while it is open AND published to them: through a group bound in
// board_groups, or by user id in board_users (written by publish-to-users). Both audiences are join
// tables rather than a materialised user list so that a later change of group membership is seen
// at once. "Expired" is not stored: it is expireAt < now, so it can never disagree with the clock.
// A board task copies the item's name, url and price at creation (the admin may edit them per board)
// and is never physically deleted: its status goes to deleted because claims keep pointing at it.
// Over-claiming is prevented by the claim transaction locking its board_tasks row (SELECT ... FOR
// UPDATE) before summing the counts of the task's non-deleted claims (index tasks_board_task_idx),
// so no counter column can drift from the claims it summarises.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { cents } from './cents';
import { BOARD_STATUSES, NEW_BOARD_STATUS } from '../../../../machines/board.machine';
import { BOARD_TASK_STATUSES, NORMAL_BOARD_TASK_STATUS } from '../../../../machines/claim.machine';
import { users } from './accounts';
import { items } from './catalog';
import { userGroups } from './groups';
import { DEFAULT_BOARD_TASK_ADDRESS } from '../../../api/constants';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

// SPEC §9 "The default board task address is a fixed code": one value for the server and the web
// form, in src/api/constants.ts.
export { DEFAULT_BOARD_TASK_ADDRESS };

export const boardStatus = pgEnum('board_status', BOARD_STATUSES);
export const boardTaskStatus = pgEnum('board_task_status', BOARD_TASK_STATUSES);

export const boards = pgTable(
  'boards',
  {
    id: serial('id').primaryKey(),
    /** Public string id used in user-side URLs (/user/board/{uuid}). */
    uuid: text('uuid')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    boardName: text('board_name').notNull(),
    remark: text('remark').notNull().default(''),
    publishAt: ts('publish_at').notNull(),
    expireAt: ts('expire_at').notNull(),
    status: boardStatus('status').notNull().default(NEW_BOARD_STATUS),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    uniqueIndex('boards_uuid_uq').on(t.uuid),
    index('boards_status_created_idx').on(t.status, t.createdAt),
    index('boards_created_at_idx').on(t.createdAt),
  ],
);

/** Groups a board is bound to (the admin's group-binding transfer). */
export const boardGroups = pgTable(
  'board_groups',
  {
    boardId: integer('board_id')
      .notNull()
      .references(() => boards.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => userGroups.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'board_groups_pk', columns: [t.boardId, t.groupId] }), index('board_groups_group_idx').on(t.groupId)],
);

/** Users a board was published to by id (POST /api/boardtask/publish/{id}/users). */
export const boardUsers = pgTable(
  'board_users',
  {
    boardId: integer('board_id')
      .notNull()
      .references(() => boards.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'board_users_pk', columns: [t.boardId, t.userId] }), index('board_users_user_idx').on(t.userId)],
);

export const boardTasks = pgTable(
  'board_tasks',
  {
    id: serial('id').primaryKey(),
    boardId: integer('board_id')
      .notNull()
      .references(() => boards.id),
    /** The admin who created it. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id),
    itemName: text('item_name').notNull(),
    url: text('url').notNull().default(''),
    /** Cents; what the buyer pays the retailer, for reference. Optional on the form. */
    price: cents('price'),
    /** Cents per unit paid to the user. */
    buyIn: cents('buy_in').notNull(),
    /** Displayed demand: the claim limit. */
    show: integer('show').notNull(),
    /** Actual demand. */
    need: integer('need').notNull(),
    /** Cents. */
    averageCost: cents('average_cost'),
    /** Units arrived. */
    allCount: integer('all_count').notNull().default(0),
    address: text('address').notNull().default(DEFAULT_BOARD_TASK_ADDRESS),
    status: boardTaskStatus('status').notNull().default(NORMAL_BOARD_TASK_STATUS),
    note: text('note').notNull().default(''),
    itemSource: text('item_source').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    index('board_tasks_board_created_idx').on(t.boardId, t.createdAt),
    index('board_tasks_item_idx').on(t.itemId),
    check('board_tasks_amounts_nonneg', sql`${t.price} >= 0 AND ${t.buyIn} >= 0 AND ${t.averageCost} >= 0`),
    check('board_tasks_counts_nonneg', sql`${t.show} >= 0 AND ${t.need} >= 0 AND ${t.allCount} >= 0`),
  ],
);
