// The admin home's counts (getAdminHome; decision 052): what waits for the admin side, each count
// the status its machine names (claims pending, scans unmatched today, parcels not arrived: the
// records /admin/missing-parcels lists and their distinct tracking ids, decision 077; parcels
// contested, decision 096; applications to agree; for who may open the withdraw list, lines to pay
// and cancels asked). Each count is one aggregate over an index (not-arrived: a partial one,
// tasks/not-arrived.ts), and all of them travel as ONE statement, so the page costs one round trip
// and its numbers one snapshot.
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { AWAITING_AGREE_PAYMENT_STATUS } from '../../../machines/payment.machine.ts';
import { isUnmatched, RECENT_CLAIM_DAYS, SCAN_STATUSES } from '../../../machines/scan-record.machine.ts';
import { CLAIM_PENDING_STATUS } from '../../../machines/task.machine.ts';
import { AWAITING_PAY_WITHDRAW_STATUS, CANCEL_REQUESTED_WITHDRAW_STATUS } from '../../../machines/withdraw.machine.ts';
import type { components } from '../../api/schema';
import { todayRange } from '../dates.ts';
import { rowsOf, type Tx } from '../db/client.ts';
import { paymentApplies, withdrawRequests } from '../db/schema/money.ts';
import { scanTrackings } from '../db/schema/receiving.ts';
import { tasks } from '../db/schema/tasks.ts';
import { centsOf, fromCents } from '../money/cents.ts';
import { contestedTrackingCount } from '../matching/contested.ts';
import { notArrivedCounts } from '../tasks/not-arrived.ts';
import { recentClaimCount } from '../tasks/parcel-claims.ts';
import { unknownParcelCount } from '../receiving/unknown-parcels.ts';

type AdminHome = components['schemas']['AdminHome'];

/** The scan statuses the machine calls unmatched (isUnmatched), for the database. */
const UNMATCHED_SCAN_STATUSES = SCAN_STATUSES.filter((status) => isUnmatched({ status }));
const anyUnmatched = sql`${scanTrackings.status} = any(${sql.param([...UNMATCHED_SCAN_STATUSES])}::text[]::scan_status[])`;

/** One aggregate row, named: `select ... from (query) alias`, cross-joined with the others. */
const part = (alias: string, query: SQL) => sql`(${query}) ${sql.identifier(alias)}`;

/**
 * The counts; `withWithdrawals` adds the withdraw lines waiting to be paid (count and total) and
 * the cancels asked, which only who may open the withdraw list is answered.
 */
export async function adminHome(tx: Tx, v: { timezone: number; withWithdrawals: boolean; missingDays: number; now?: number }): Promise<AdminHome> {
  const today = todayRange(v.timezone, v.now);
  const parts = [
    part('claims', sql`select count(*)::int as pending_claims from ${tasks} where ${eq(tasks.status, CLAIM_PENDING_STATUS)}`),
    part(
      'scans',
      sql`select count(*)::int as scanned_today_unmatched from ${scanTrackings} where ${and(
        anyUnmatched,
        gte(scanTrackings.createdAt, today.from),
        lt(scanTrackings.createdAt, today.to),
      )}`,
    ),
    part('parcels', notArrivedCounts(v.missingDays)),
    part('contests', sql`select ${contestedTrackingCount} as contested_parcels`),
    part('unknown', sql`select ${unknownParcelCount} as unknown_parcels, ${recentClaimCount} as recent_claims`),
    part('applies', sql`select count(*)::int as applies_to_agree from ${paymentApplies} where ${eq(paymentApplies.status, AWAITING_AGREE_PAYMENT_STATUS)}`),
  ];
  if (v.withWithdrawals) {
    parts.push(
      part(
        'waiting',
        sql`select count(*)::int as withdrawals_waiting, coalesce(sum(${withdrawRequests.withdrawAmount}), 0) as withdrawals_total
          from ${withdrawRequests} where ${eq(withdrawRequests.status, AWAITING_PAY_WITHDRAW_STATUS)}`,
      ),
      part(
        'cancels',
        sql`select count(*)::int as requested_cancels from ${withdrawRequests} where ${eq(withdrawRequests.status, CANCEL_REQUESTED_WITHDRAW_STATUS)}`,
      ),
    );
  }
  const [row] = await rowsOf<Record<string, unknown>>(tx.execute(sql`select * from ${sql.join(parts, sql`, `)}`));
  const n = (k: string) => Number(row?.[k] ?? 0);
  const home: AdminHome = {
    pendingClaims: n('pending_claims'),
    scannedTodayUnmatched: n('scanned_today_unmatched'),
    notArrived: n('not_arrived'),
    notArrivedRecords: n('not_arrived_records'),
    notArrivedDays: v.missingDays,
    appliesToAgree: n('applies_to_agree'),
    contestedParcels: n('contested_parcels'),
    parcelClaims: { unknown: n('unknown_parcels'), claimed: n('recent_claims'), days: RECENT_CLAIM_DAYS },
  };
  if (v.withWithdrawals) {
    home.withdrawalsWaiting = { count: n('withdrawals_waiting'), total: fromCents(centsOf(row?.withdrawals_total ?? 0)) };
    home.requestedCancels = n('requested_cancels');
  }
  return home;
}
