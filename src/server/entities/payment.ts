// A payment application as the lifecycle store knows it (entities/store.ts; DECISIONS "Money"):
// machines/payment.machine.ts decides, and what it emits follows - paid (pay.paid, pay.confirm)
// emits task.pay, delivered here to the applications' tasks (whose machine sends record.pay on to
// their parcels, entities/task.ts). agree stamps agreedAt, paid stamps paidAt, collect collectedAt;
// release (a cancelled withdraw, withdrawing -> agreed) keeps agreedAt (statistics.ts counts
// amounts on that day). A member moves only their own applications (A00004 '付款申请不存在').
//
// Lock order (the GLOBAL LOCK ORDER at money/payment-transitions.ts): an event whose transitions
// emit to tasks takes the tasks' tracking ids and the tasks (steps 2-3, lockForMatching) before the
// applications (step 4), in lockFirst; the tasks' follow-ons then find them held.
import { decide, type Decision } from '../../../machines/stored-state.ts';
import {
  explainPaymentRefusal,
  PAYMENT_STATUSES,
  paymentMachine,
  paymentMessages,
  type PaymentEvent,
  type PaymentStatus,
} from '../../../machines/payment.machine.ts';
import type { TaskEvent } from '../../../machines/task.machine.ts';
import type { Tx } from '../db/client.ts';
import { lockForMatching, trackingIdsOfTasks } from '../db/matching-store.ts';
import { paymentApplies } from '../db/schema/money.ts';
import { applicationChanged } from '../live/publish.ts';
import { anyId, transition, type Entity } from './store.ts';
import { taskEntity } from './task.ts';

export type PaymentRow = typeof paymentApplies.$inferSelect;

/** The time stamp a payment event sets. */
export const STAMP: Partial<Record<PaymentEvent['type'], 'agreedAt' | 'paidAt' | 'collectedAt'>> = {
  'pay.agree': 'agreedAt',
  'pay.paid': 'paidAt',
  'pay.confirm': 'paidAt',
  'pay.collect': 'collectedAt',
};

export const decidePayment = (row: Pick<PaymentRow, 'status'>, event: PaymentEvent): Decision<PaymentStatus> =>
  decide(paymentMachine, row.status, {}, event, explainPaymentRefusal);

/**
 * Does the machine emit anything (to the tasks) on `event` from some state? Then its tasks are
 * locked first. Asked once per event type (events carry nothing else the machine reads).
 */
const emitting = new Map<PaymentEvent['type'], boolean>();
function emitsOnSomeState(event: PaymentEvent): boolean {
  let answer = emitting.get(event.type);
  if (answer === undefined) {
    answer = PAYMENT_STATUSES.some((status) => {
      const d = decidePayment({ status }, event);
      return d.ok && (d.emits?.length ?? 0) > 0;
    });
    emitting.set(event.type, answer);
  }
  return answer;
}

export const paymentEntity: Entity<PaymentRow, PaymentStatus, PaymentEvent> = {
  name: 'payment',
  table: paymentApplies,
  id: paymentApplies.id,
  updatedAt: paymentApplies.updatedAt,
  notFound: paymentMessages.notFound,
  ownerOf: (row) => row.userId,
  decide: decidePayment,
  stamps: (event) => {
    const stamp = STAMP[event.type];
    return stamp ? [stamp] : [];
  },
  describe: (row) => ({
    userId: row.userId,
    mainId: row.mainId,
    subId: row.subId,
    taskId: row.taskId,
    count: row.count,
    itemName: row.itemName,
    status: row.status,
  }),
  live: (row) => [applicationChanged(row)], // the member's applications
  async lockFirst(tx: Tx, ids: number[], event: PaymentEvent) {
    if (!emitsOnSomeState(event)) return;
    // An application's task never changes, so it may be read before the application is locked.
    const rows = await tx.select({ taskId: paymentApplies.taskId }).from(paymentApplies).where(anyId(paymentApplies.id, ids));
    const taskIds = [...new Set(rows.map((r) => r.taskId))].sort((a, b) => a - b);
    await lockForMatching(tx, await trackingIdsOfTasks(tx, taskIds), taskIds);
  },
  follow: {
    /**
     * The applications' tasks are paid (processing -> finished; refused otherwise, and nothing is
     * written). The store reads the tasks FOR UPDATE again: lockFirst took those locks, so this
     * read waits for nothing and is the read the machine needs anyway.
     */
    'task.pay': async (tx, actor, moved, event) => {
      const taskIds = moved.map((m) => m.after.taskId);
      await transition(tx, taskEntity, actor, taskIds, event as TaskEvent);
    },
  },
};
