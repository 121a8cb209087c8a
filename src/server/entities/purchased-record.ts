// The purchased record as the lifecycle store knows it (entities/store.ts): its status is matching's
// verdict and machines/purchased-record.machine.ts says how it moves (record.change, record.split,
// record.verdict; the database default is its first state). The audit trail lists a record with
// its TASK's columns (the task audit lists both, and its status column and filter are task
// statuses; the record's own status is in before/after): purchasedAuditEntry is the one shape, for
// the store's changes (through `taskAudit`), inserts, removals and a contested parcel's assignment.
// A changed record is news to its task's member.
import { decidePurchasedRecord, type PurchasedRecordEvent } from '../../../machines/purchased-record.machine.ts';
import type { PurchasedStatus } from '../../../machines/task.machine.ts';
import type { AuditEntry } from '../audit.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { purchasedRecords } from '../db/schema/tasks.ts';
import { memberTaskChanged } from '../live/publish.ts';
import type { AuditFields, Entity } from './store.ts';
import type { TaskRow } from './task.ts';

export type PurchasedRow = typeof purchasedRecords.$inferSelect;
export const PURCHASED_NOT_FOUND = '记录不存在';

export const purchasedEntity: Entity<PurchasedRow, PurchasedStatus, PurchasedRecordEvent> = {
  name: 'purchased',
  table: purchasedRecords,
  id: purchasedRecords.id,
  updatedAt: purchasedRecords.updatedAt,
  notFound: PURCHASED_NOT_FOUND,
  ownerOf: (row) => row.userId,
  decide: (row, event) => decidePurchasedRecord(row.status, event),
  describe: (row) => ({ userId: row.userId, taskId: row.taskId, count: row.productCount, trackingId: row.trackingId }),
  live: (row) => [memberTaskChanged({ id: row.taskId, userId: row.userId })],
};

/** The task's columns of a record's audit entry (the task the record belongs to after the change). */
export const taskAudit = (task: TaskRow): AuditFields => ({
  userId: task.userId,
  mainId: task.mainId,
  subId: task.subId,
  taskId: task.id,
  upc: task.upc,
  itemName: task.itemName,
  status: task.status,
});

/**
 * The audit entry of a change of a purchased record of `task`: the record's description with its
 * task's columns; `count` the units the entry names (the record's own by default); `before` null for
 * a record created, or where it came from (a split's { splitFrom }); `after` null for one removed.
 */
export function purchasedAuditEntry(
  actor: SessionUser | null,
  action: string,
  task: TaskRow,
  before: PurchasedRow | { splitFrom: number } | null,
  after: PurchasedRow | null,
  count?: number,
): AuditEntry {
  const row = (after ?? before) as PurchasedRow;
  return {
    ...purchasedEntity.describe(row),
    ...taskAudit(task),
    ...(count === undefined ? {} : { count }),
    entity: purchasedEntity.name,
    entityId: row.id,
    action,
    opUid: actor?.id ?? null,
    before,
    after,
  };
}
