// "Not arrived" (machines/scan-record.machine.ts NOT_ARRIVED_AFTER_DAYS; decision 052): a tracking id a
// member recorded more than that many days ago, on a task not deleted, of which no scan row is seen
// (SEEN_SCAN_STATUSES). The admin home counts such tracking ids and /admin/tasks?notArrived lists
// their tasks: both read the one predicate below, so the count and the list it links to agree.
// Records matching has seen nothing of (UNSEEN_PURCHASED_STATUS) are the candidates, read through
// their partial index; the scan rows are still asked, so the rule is the scans', not the mark's.
import { sql, type SQL } from 'drizzle-orm';
import { NOT_ARRIVED_AFTER_DAYS, SEEN_SCAN_STATUSES } from '../../../machines/scan-record.machine.ts';
import { DELETED_TASK_STATUS, UNSEEN_PURCHASED_STATUS } from '../../../machines/task.machine.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';

/**
 * The condition on a purchased record aliased `nar`: its tracking id is not arrived. The status is
 * written as a literal so the planner can use the partial index even with a generic plan.
 */
const notArrivedRecord = sql`nar.status = ${sql.raw(`'${UNSEEN_PURCHASED_STATUS}'`)}
  and nar.created_at < now() - make_interval(days => ${sql.raw(String(NOT_ARRIVED_AFTER_DAYS))})
  and exists (select 1 from ${tasks} nat where nat.id = nar.task_id and nat.status <> ${DELETED_TASK_STATUS})
  and not exists (select 1 from ${scanTrackings} nas where nas.tracking_id = nar.tracking_id
    and nas.status = any(${sql.param([...SEEN_SCAN_STATUSES])}::text[]::scan_status[]))`;

/** How many distinct tracking ids are not arrived (the admin home's count), as a scalar subquery. */
export const notArrivedTrackingCount: SQL<number> = sql<number>`(select count(distinct nar.tracking_id)::int from ${purchasedRecords} nar where ${notArrivedRecord})`;

/** The task (the list's `tasks` row) has a tracking id that is not arrived (/admin/tasks?notArrived=true). */
export const hasNotArrivedRecord: SQL = sql`exists (select 1 from ${purchasedRecords} nar where nar.task_id = ${tasks.id} and ${notArrivedRecord})`;
