// A withdraw line (withdraw_requests: one card's part of a withdraw order) as the lifecycle store
// knows it (entities/store.ts; decision 054). Its own events (wd.changeCard) are the line machine's
// (machines/withdraw.machine.ts); the order events (order.pay, order.requestCancel, order.agreeCancel,
// order.rejectCancel, order.confirmApplication) are the order machine's
// (machines/withdraw-order.machine.ts), asked once per order with every line of it, which the event
// carries (`lines`: the locked lines of the orders concerned): a line's next status is the order's
// answer for it. What the order machine emits reaches the order's live applications here (follow):
// pay.paid when its last live line is paid (applications an admin already confirmed paid are simply
// paid), pay.release when it is cancelled. The audit keeps a line's wire form (masked card fields,
// never cipher text); a member hears of their lines.
import { paymentAccepts, type PaymentEvent, type PaymentStatus } from '../../../machines/payment.machine.ts';
import type { Decision } from '../../../machines/stored-state.ts';
import { decideWithdrawLine, withdrawMessages, type WithdrawEvent, type WithdrawStatus } from '../../../machines/withdraw.machine.ts';
import { decideWithdrawOrder, type OrderAnswer, type WithdrawOrderEvent } from '../../../machines/withdraw-order.machine.ts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { paymentApplies, withdrawOrderApplies, withdrawRequests } from '../db/schema/money.ts';
import { withdrawLineChanged } from '../live/publish.ts';
import { lineOut, type LineRow } from '../money/withdraw-shapes.ts';
import { paymentEntity } from './payment.ts';

export type { LineRow } from '../money/withdraw-shapes.ts';
import { transition, type Entity, type Follow } from './store.ts';

/** An order event with every line of the orders it concerns (order.pay's lineIds may name lines of several). */
export type OrderLinesEvent = WithdrawOrderEvent & { lines: readonly LineRow[] };
export type WithdrawLineEvent = { type: 'wd.changeCard' } | OrderLinesEvent;

type OrderDecision = OrderAnswer | { ok: false; msg: string };
const answersOf = new WeakMap<OrderLinesEvent, Map<string, OrderDecision>>();

/** The order machine's answer for each order of `event.lines` (remembered for the event: every line of an order asks the same). */
export function decideOrders(event: OrderLinesEvent): Map<string, OrderDecision> {
  let answers = answersOf.get(event);
  if (answers) return answers;
  answers = new Map();
  for (const orderId of new Set(event.lines.map((l) => l.orderId))) {
    const lines = event.lines.filter((l) => l.orderId === orderId);
    const ofOrder: WithdrawOrderEvent =
      event.type === 'order.pay'
        ? { type: event.type, by: event.by, lineIds: event.lineIds.filter((id) => lines.some((l) => l.id === id)) }
        : { type: event.type };
    answers.set(orderId, decideWithdrawOrder(lines, ofOrder));
  }
  answersOf.set(event, answers);
  return answers;
}

function decideLine(row: LineRow, event: WithdrawLineEvent): Decision<WithdrawStatus> {
  if (!('lines' in event)) return decideWithdrawLine(row, event as WithdrawEvent);
  const answer = decideOrders(event).get(row.orderId);
  if (!answer) return { ok: false, msg: withdrawMessages.notFound };
  if (!answer.ok) return answer;
  const line = answer.lines.find((l) => l.id === row.id);
  if (!line) return { ok: false, msg: withdrawMessages.notFound };
  return answer.applicationEvent ? { ok: true, next: line.status, emits: [answer.applicationEvent] } : { ok: true, next: line.status };
}

/** Ids of the applications these orders' live links pay, with their status. */
async function liveApplications(tx: Tx, orderIds: string[]): Promise<{ id: number; status: PaymentStatus }[]> {
  if (!orderIds.length) return [];
  return tx
    .select({ id: paymentApplies.id, status: paymentApplies.status })
    .from(withdrawOrderApplies)
    .innerJoin(paymentApplies, eq(paymentApplies.id, withdrawOrderApplies.paymentApplyId))
    .where(and(sql`${withdrawOrderApplies.orderId} = any(${sql.param(orderIds)}::text[])`, eq(withdrawOrderApplies.live, true)))
    .orderBy(asc(paymentApplies.id));
}

/**
 * The orders' live applications get the event the order machine emitted (read under the orders'
 * line locks, which every change of a live order's applications holds). pay.paid skips applications
 * an admin already confirmed paid one by one (payment-service.ts pay.confirm): they are simply paid.
 */
const toApplications: Follow<LineRow> = async (tx, actor, moved, event) => {
  const payment = event as PaymentEvent;
  const orderIds = [...new Set(moved.map((m) => m.after.orderId))];
  const apps = (await liveApplications(tx, orderIds)).filter((a) => payment.type !== 'pay.paid' || paymentAccepts(a.status, payment));
  await transition(
    tx,
    paymentEntity,
    actor,
    apps.map((a) => a.id),
    payment,
  );
};

export const withdrawLineEntity: Entity<LineRow, WithdrawStatus, WithdrawLineEvent> = {
  name: 'withdraw',
  table: withdrawRequests,
  id: withdrawRequests.id,
  updatedAt: withdrawRequests.updatedAt,
  notFound: withdrawMessages.notFound,
  ownerOf: (row) => row.userId,
  decide: decideLine,
  stamps: (event) => (event.type === 'order.pay' ? ['paidAt'] : []),
  describe: (row) => ({ userId: row.userId, status: row.status }),
  auditForm: (row) => lineOut(row),
  live: (row) => [withdrawLineChanged(row)], // the member's lines
  follow: { 'pay.paid': toApplications, 'pay.release': toApplications },
};
