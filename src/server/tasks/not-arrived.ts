// "Not arrived" (decision 052; a missing parcel, decision 077): a tracking id a member recorded more
// than `days` days ago (the MISSING_PARCEL_DAYS setting, config.ts; default NOT_ARRIVED_AFTER_DAYS),
// on a task not deleted, of which no scan row is seen (SEEN_SCAN_STATUSES). The admin home counts such
// records (and their tracking ids), /admin/tasks?notArrived lists their tasks, the missing-parcel lists
// (tasks/missing-parcels.ts) list the records and the member's task list flags them: all read the
// one predicate below, so each count and the list it links to agree.
// Records matching has seen nothing of (UNSEEN_PURCHASED_STATUS) are the candidates, read through
// their partial index; the scan rows are still asked, so the rule is the scans', not the mark's.
import { sql, type SQL } from 'drizzle-orm';
import { SEEN_SCAN_STATUSES } from '../../../machines/scan-record.machine.ts';
import { DELETED_TASK_STATUS, UNSEEN_PURCHASED_STATUS } from '../../../machines/task.machine.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';

/** A whole number of days, written into the statement (a setting, never a caller's input). */
const daysOf = (days: number) => {
  if (!Number.isInteger(days) || days < 0) throw new Error(`not arrived: days must be a whole number, got ${days}`);
  return sql.raw(String(days));
};

/**
 * The condition on a purchased record aliased `alias` (default `nar`): its tracking id is not
 * arrived after `days` days. The status is written as a literal so the planner can use the partial
 * index even with a generic plan.
 */
export function notArrivedRecord(days: number, alias = 'nar'): SQL {
  const r = sql.raw(alias);
  return sql`${r}.status = ${sql.raw(`'${UNSEEN_PURCHASED_STATUS}'`)}
  and ${r}.created_at < now() - make_interval(days => ${daysOf(days)})
  and exists (select 1 from ${tasks} nat where nat.id = ${r}.task_id and nat.status <> ${DELETED_TASK_STATUS})
  and not exists (select 1 from ${scanTrackings} nas where nas.tracking_id = ${r}.tracking_id
    and nas.status = any(${sql.param([...SEEN_SCAN_STATUSES])}::text[]::scan_status[]))`;
}

/**
 * The admin home's counts, one row: `not_arrived_records`, the records not arrived (the rows of
 * /admin/missing-parcels, one per member who recorded a parcel), and `not_arrived`, their distinct
 * tracking ids (a parcel several members recorded once).
 */
export const notArrivedCounts = (days: number): SQL =>
  sql`select count(*)::int as not_arrived_records, count(distinct nar.tracking_id)::int as not_arrived
    from ${purchasedRecords} nar where ${notArrivedRecord(days)}`;

/** The task (the list's `tasks` row) has a tracking id that is not arrived (/admin/tasks?notArrived=true). */
export const hasNotArrivedRecord = (days: number): SQL =>
  sql`exists (select 1 from ${purchasedRecords} nar where nar.task_id = ${tasks.id} and ${notArrivedRecord(days)})`;
