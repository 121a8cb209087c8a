// A scan record (a scan_trackings row: a parcel's units of one product) as the lifecycle store knows
// it (entities/store.ts): machines/scan-record.machine.ts decides (decideScanRecord, remembered).
// Its audit entries (entity 'tracking') are matching's too (matching/plan.ts scanAudit is this
// entity's auditOf). It announces nothing itself: matching announces the rows it judges from its
// audits (live/publish.ts matchingChanges), and a parcel that follows its task (record.apply,
// record.pay) is heard of through that task.
import { decideScanRecord, type ScanRecordEvent, type ScanStatus } from '../../../machines/scan-record.machine.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import type { Entity } from './store.ts';

export type ScanRecordRow = typeof scanTrackings.$inferSelect;
export const SCAN_RECORD_NOT_FOUND = '记录不存在';

export const scanRecordEntity: Entity<ScanRecordRow, ScanStatus, ScanRecordEvent> = {
  name: 'tracking',
  table: scanTrackings,
  id: scanTrackings.id,
  updatedAt: scanTrackings.updatedAt,
  notFound: SCAN_RECORD_NOT_FOUND,
  decide: (row, event) => decideScanRecord(row.status, event),
  // A parcel paid with its task is audited as the payment event that paid it (pay.paid -> 'paid',
  // pay.confirm -> 'confirm'); every other event by its own name (record.apply -> 'apply').
  actionOf: (event) => (event.type === 'record.pay' && event.cause ? event.cause : event.type).replace(/^[^.]*\./, ''),
  describe: (row) => ({
    userId: row.userId,
    mainId: row.mainId,
    subId: row.subId,
    taskId: row.taskId,
    upc: row.upc,
    count: row.count,
    itemName: row.itemName,
    status: row.status,
    trackingId: row.trackingId,
  }),
  live: () => [],
};
