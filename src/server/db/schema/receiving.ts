// Scan records are the warehouse's side of matching: one row per (tracking id, UPC) seen or imported,
// moving init -> scan -> match | unmatch -> wait2pay -> payed (machines/scan-record.machine.ts, whose
// list the enum is: tests/contract/status-lists.test.ts holds them equal). The table is planned for
// ~1M rows; scanTrackings says which columns are copies and why its indexes are what they are.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { ANNOUNCED_SCAN_STATUS, SCAN_STATUSES } from '../../../../machines/scan-record.machine';
import { users } from './accounts';
import { items } from './catalog';
import { tasks } from './tasks';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const scanStatus = pgEnum('scan_status', SCAN_STATUSES);

/**
 * (trackingId, upc) is deliberately NOT unique: "upc already recorded" is a scan-screen check, and
 * one parcel may carry the same UPC for several users' tasks, which matching records as separate
 * rows each tied to one task. The user, task and mainId/subId columns are filled by matching and are
 * copies for the list and exports (matchedUser is the matched user's display name, kept so a 1M-row
 * list needs no join). The admin list filters by trackingId (equality), status, a createdAt range
 * and itemId and pages newest first, so every list index ends in (created_at, id) to allow keyset
 * paging and index-ordered "page of 20" reads; exact totals over big filters are expensive and are
 * capped (receiving/scan-queries.ts). item_id is nullable because an imported row may name a
 * product the catalogue does not have yet; it shows the file's item name until an admin assigns
 * the item (matching compares UPCs, so the row matches all the same once seen). `upc` is what was
 * scanned or imported; matching and the duplicate checks compare its productCodeKey (decision 075),
 * computed where compared: no statement looks a row up by upc, so no column or index holds the key.
 */
export const scanTrackings = pgTable(
  'scan_trackings',
  {
    id: serial('id').primaryKey(),
    trackingId: text('tracking_id').notNull(),
    upc: text('upc').notNull(),
    count: integer('count').notNull().default(1),
    itemId: integer('item_id').references(() => items.id),
    itemName: text('item_name').notNull().default(''),
    status: scanStatus('status').notNull().default(ANNOUNCED_SCAN_STATUS),
    matchedUser: text('matched_user'),
    userId: integer('user_id').references(() => users.id),
    mainId: integer('main_id'),
    subId: integer('sub_id'),
    taskId: integer('task_id').references(() => tasks.id),
    /** The admin who last scanned, imported or edited the row. */
    opUid: integer('op_uid').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    index('scan_trackings_tracking_idx').on(t.trackingId),
    // Near misses (decision 098): a key one edit or a shared last 10 away keeps its last six characters
    // (tail) or all but them (head, of its own or one character shorter or longer).
    index('scan_trackings_tracking_tail_idx').on(sql`right(${t.trackingId}, 6)`),
    index('scan_trackings_tracking_head_idx').on(sql`left(${t.trackingId}, -6)`),
    index('scan_trackings_created_idx').on(t.createdAt, t.id),
    index('scan_trackings_status_created_idx').on(t.status, t.createdAt, t.id),
    index('scan_trackings_item_created_idx').on(t.itemId, t.createdAt, t.id),
    index('scan_trackings_task_idx').on(t.taskId),
    check('scan_trackings_count_nonneg', sql`${t.count} >= 0`),
  ],
);

/**
 * Rows the canonical tracking id's migration re-keyed (decision 097), each with a note when its key
 * collides with another stored id's or its task already had a record of that key; and scan rows whose
 * UPC migration 0013 gave its leading zero back (decision 075, table_name 'scan_trackings.upc', note
 * 'same product' when the tracking id has another row of the product): read at start
 * (receiving/tracking-rekeys.ts) so an admin hears of them; nothing writes to it afterwards.
 */
export const trackingIdRekeys = pgTable('tracking_id_rekeys', {
  id: serial('id').primaryKey(),
  tableName: text('table_name').notNull(),
  rowId: integer('row_id').notNull(),
  before: text('before').notNull(),
  after: text('after').notNull(),
  note: text('note').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
