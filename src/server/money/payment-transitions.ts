// Money's locks. Every status change of a payment application goes through the lifecycle store
// (entities/store.ts `transition`/`applyToLocked` with entities/payment.ts): it locks, lets the
// payment machine decide every row, writes the new statuses with their time stamps, audits,
// announces, and delivers what the machine emits (paid -> task.pay -> the task's parcels
// record.pay), all in the caller's transaction and all or nothing. All money code follows one
// GLOBAL LOCK ORDER (below), so two money calls, or a money call and a scan or a matching, never
// wait on each other in a cycle.
//
// GLOBAL LOCK ORDER of all money code:
//   1. withdraw order lines (withdraw_requests), by order id, then line id; then the member's cards
//      a request or a change of card pays to (bank_cards, FOR SHARE / unbind FOR UPDATE, id order;
//      cards.ts lockOwnCards);
//   2. tracking ids (the matching locks, lockTrackings: advisory, sorted);
//   3. tasks (FOR UPDATE, id order; lockForMatching takes 2 and 3 together);
//   4. payment applications (FOR UPDATE, id order; lockPayments, or the store's lockRows);
//   5. a member's agreed-income lock (advisory; only agree takes it, after its application:
//      payment-service.ts checkAgreedTotal).
// A caller takes what it needs in this order and nothing out of it: e.g. the admin's confirm locks
// the lines of the application's live withdraw order before its transition, whose lockFirst
// (entities/payment.ts) takes 2-3 for the events that pay tasks, then 4.
import { asc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client.ts';
import { paymentApplies } from '../db/schema/money.ts';
import type { PaymentRow } from '../entities/payment.ts';

export type { PaymentRow } from '../entities/payment.ts';

export const anyInt = (column: AnyPgColumn, values: number[]): SQL => sql`${column} = any(${sql.param(values)}::int[])`;

const sortedIds = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** Locks the given applications (FOR UPDATE, id order: step 4 of the lock order). Missing ids are absent from the map. */
export async function lockPayments(tx: Tx, ids: number[]): Promise<Map<number, PaymentRow>> {
  const list = sortedIds(ids);
  if (!list.length) return new Map();
  const rows = await tx.select().from(paymentApplies).where(anyInt(paymentApplies.id, list)).orderBy(asc(paymentApplies.id)).for('update');
  return new Map(rows.map((r) => [r.id, r]));
}
