// Every scan, match, upload and task change writes one audit entry (who, when, what, before and
// after; DECISIONS "Receiving and matching"), and both audit screens (task-audit, tracking-audit) read
// the same append-only table filtered by entity. The columns the screens show (mainId, subId, upc,
// count, itemName, status, trackingId, taskId) are copied into the row at write time, and before /
// after hold the full changed row, so an entry stays readable after the thing it describes changes.
// For the same reason the table has no foreign keys: an audit row must never block, or be removed
// by, a change to what it records, and inserting it must stay cheap inside every write transaction.
// status is text because it holds the status of whichever entity the row is about. The indexes
// serve the two screens' newest-first lists, unfiltered or narrowed by one filter, in list order;
// the item name's contains filter finds the names first (audit_item_names, decision 183).
import { bigserial, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const auditEntity = pgEnum('audit_entity', [
  'task',
  'tracking',
  'purchased',
  'board',
  'boardTask',
  'item',
  'group',
  'user',
  'payment',
  'withdraw',
  'card',
]);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entity: auditEntity('entity').notNull(),
    entityId: integer('entity_id'),
    /** e.g. scan, modify, add, upload.import, match, split, claim, accept, reject, delete, edit. */
    action: text('action').notNull(),
    /** Who did it (null for the system, e.g. automatic matching after an upload by nobody). */
    opUid: integer('op_uid'),
    /** The user the entity belongs to. */
    userId: integer('user_id'),
    mainId: integer('main_id'),
    subId: integer('sub_id'),
    upc: text('upc'),
    count: integer('count'),
    itemName: text('item_name'),
    status: text('status'),
    trackingId: text('tracking_id'),
    taskId: integer('task_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  // Each index is paid for by every entry written (a matched scan writes three): only those the
  // audit lists use (audit-pages.ts). (entity, entity_id) was dropped in 0003: no call reads by it.
  // A list filter whose value can match many entries (status, upc, operator, owner) has an index
  // (entity, value, created_at, id): a page and its bounded count read its entries in the list's
  // order and stop, where walking the entity's index and filtering read every entry of a rare
  // value's entity (decision 166). A tracking id, task or claim has few entries: its own key suffices.
  (t) => [
    index('audit_log_entity_created_idx').on(t.entity, t.createdAt, t.id),
    index('audit_log_entity_user_created_idx').on(t.entity, t.userId, t.createdAt, t.id),
    index('audit_log_entity_status_created_idx').on(t.entity, t.status, t.createdAt, t.id),
    index('audit_log_entity_upc_created_idx').on(t.entity, t.upc, t.createdAt, t.id),
    index('audit_log_entity_op_created_idx').on(t.entity, t.opUid, t.createdAt, t.id),
    index('audit_log_tracking_idx').on(t.trackingId),
    index('audit_log_task_idx').on(t.taskId),
    index('audit_log_main_idx').on(t.mainId),
    // The user log's item name is a contains filter: the names containing the text are found in
    // audit_item_names, and each name's entries here in the list's order (decision 183).
    index('audit_log_entity_item_name_created_idx').on(t.entity, t.itemName, t.createdAt, t.id),
  ],
);

/**
 * Each item name an entity's entries have, once: the user log's contains filter (ILIKE '%text%',
 * db/contains.ts) is answered here, a table of products' names, and not by a trigram index of every
 * entry, whose common trigrams ("ite", "tem") list the whole log (decision 183). Filled by a trigger
 * on audit_log (migration 0021), so every writer of the log, the app's or a bulk SQL insert, adds
 * its names; a name is never removed (the log is append-only).
 */
export const auditItemNames = pgTable(
  'audit_item_names',
  {
    entity: auditEntity('entity').notNull(),
    itemName: text('item_name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entity, t.itemName] }), index('audit_item_names_trgm_idx').using('gin', t.itemName.op('gin_trgm_ops'))],
);
