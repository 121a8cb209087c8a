// The member home's money at a glance (decision 111): claimed / bought (recorded) / arrived / paid /
// withdrawable, each in units and yuan. Which statuses count is the machines' answer
// (CLAIMED_TASK_STATUSES through isClaimed, which the claimed tile's list filters by too;
// PAID_PAYMENT_STATUSES, the balance's withdrawable predicate), never a literal. One SQL per group,
// over the member's own rows only: the task group reads tasks through tasks_user_created_idx
// (user_id first) and their records through purchased_records_user_created_idx; the payment group
// reads payment_applies through payment_applies_user_status_idx. So the cost follows the member's
// own task count, not the table's (1M tasks of others are never read).
import { and, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PAID_PAYMENT_STATUSES } from '../../../machines/payment.machine.ts';
import type { components } from '../../api/schema';
import { isClaimed } from '../boards/task-queries.ts';
import type { Tx } from '../db/client.ts';
import { paymentApplies } from '../db/schema/money.ts';
import { purchasedRecords, tasks } from '../db/schema/tasks.ts';
import { centsOf, fromCents } from '../money/cents.ts';
import { withdrawable } from '../money/payment-service.ts';

export type MemberTotals = components['schemas']['MemberTotals'];

/** sum(expr), only over the rows `where` holds for when given; 0 for none. */
const summed = (expr: SQLWrapper, where?: SQL) => (where ? sql`coalesce(sum(${expr}) filter (where ${where}), 0)` : sql`coalesce(sum(${expr}), 0)`);
const units = (expr: SQLWrapper, where?: SQL) => summed(expr, where).mapWith(Number);
const cents = (expr: SQLWrapper, where?: SQL) => summed(expr, where).mapWith(centsOf);
const figure = (u: number, c: number) => ({ units: u, amount: fromCents(c) });

/**
 * Claimed: units claimed on live tasks and what they would earn (buyIn x count). Recorded: units of
 * their purchase records (buyIn x units), so of the tasks /user/my-task?recorded=true lists
 * (boards/task-queries.ts hasPurchasedRecord: live tasks with a record). Arrived: units arrived and matched (buyIn x productCount).
 * Bonus and discount are left out here: they are known only once the admin side agrees (paid and
 * withdrawable carry the applications' income, which includes them).
 */
async function taskTotals(tx: Tx, userId: number) {
  const recorded = tx
    .select({ taskId: purchasedRecords.taskId, n: sql<number>`sum(${purchasedRecords.productCount})`.as('n') })
    .from(purchasedRecords)
    .where(eq(purchasedRecords.userId, userId))
    .groupBy(purchasedRecords.taskId)
    .as('r');
  const recordedUnits = sql`coalesce(${recorded.n}, 0)`;
  const [row] = await tx
    .select({
      claimed: units(tasks.count),
      claimedCents: cents(sql`${tasks.buyIn}::numeric * ${tasks.count}`),
      recorded: units(recordedUnits),
      recordedCents: cents(sql`${tasks.buyIn}::numeric * ${recordedUnits}`),
      arrived: units(tasks.productCount),
      arrivedCents: cents(sql`${tasks.buyIn}::numeric * ${tasks.productCount}`),
    })
    .from(tasks)
    .leftJoin(recorded, eq(recorded.taskId, tasks.id))
    .where(and(eq(tasks.userId, userId), isClaimed()));
  return row!;
}

/** Paid: applications paid out (income, units paid for). Withdrawable: the balance's applications. */
async function paymentTotals(tx: Tx, userId: number) {
  const paid = inArray(paymentApplies.status, [...PAID_PAYMENT_STATUSES]);
  const free = withdrawable(userId)!;
  const [row] = await tx
    .select({
      paid: units(paymentApplies.count, paid),
      paidCents: cents(paymentApplies.income, paid),
      withdrawable: units(paymentApplies.count, free),
      withdrawableCents: cents(paymentApplies.income, free),
    })
    .from(paymentApplies)
    .where(and(eq(paymentApplies.userId, userId), or(paid, free)));
  return row!;
}

/** The five figures of member `userId`, read in the caller's transaction (one snapshot with the rest of the home). */
export async function memberTotals(tx: Tx, userId: number): Promise<MemberTotals> {
  const t = await taskTotals(tx, userId);
  const p = await paymentTotals(tx, userId);
  return {
    claimed: figure(t.claimed, t.claimedCents),
    recorded: figure(t.recorded, t.recordedCents),
    arrived: figure(t.arrived, t.arrivedCents),
    paid: figure(p.paid, p.paidCents),
    withdrawable: figure(p.withdrawable, p.withdrawableCents),
  };
}
