// Payment applications (SPEC §2 /user/my-task, /user/apply-list, /admin/apply-list; §4 "Payment
// application status"; §5 "Payment apply bonus"; §7 "Payments"; DECISIONS "Money", "Roles"). Every
// status change goes through the lifecycle store with the payment entity (entities/payment.ts: the
// payment machine decides, its follow-ons are what it emits; the lock order is listed at
// payment-transitions.ts); applying creates the row, so it follows the same order by hand.
// Amounts are cents: income = buyIn x count + bonus - punish, never below 0 (incomeCents,
// payment.machine.ts), bounded by money/cents.ts MAX_TOTAL_CENTS (boundedIncome, checkAgreedTotal), on the
// wire in yuan with two places (fromCents). The task's own bonus column (set by an admin's task edit)
// is not part of the income: the application's bonus is what the member asked for and the admin
// agreed to. Paying for what arrived (applyForArrived) is the split and the apply in one transaction.
import { inMoneyTransaction, moveOrder, storedOrderId } from './withdraw-service.ts';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { incomeCents, NEW_PAYMENT_STATUS, paymentMessages, WITHDRAWABLE_PAYMENT_STATUSES } from '../../../machines/payment.machine.ts';
import { decideApplyForArrived } from '../../../machines/task.machine.ts';
import { writeAudit } from '../audit.ts';
import { isAdminSide } from '../boards/visibility.ts';
import { badRequest } from '../errors.ts';
import type { Db, Tx } from '../db/client.ts';
import { users } from '../db/schema/accounts.ts';
import { paymentApplies, withdrawOrderApplies, withdrawRequests } from '../db/schema/money.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { exactIncome, fromCents, MAX_TOTAL_CENTS, moneyLimitMessages, sumCents, toCents } from './cents.ts';
import { pageOf, totalPagesOf } from '../paging.ts';
import { applyTaskEvent, requireTransition, type TaskRow } from '../tasks/apply-event.ts';
import { lockTaskForChange, splitTask } from '../tasks/task-changes.ts';
import { findTask } from '../boards/task-queries.ts';
import { tasks } from '../db/schema/tasks.ts';
import type { PaymentRow } from './payment-transitions.ts';
import { paymentEntity } from '../entities/payment.ts';
import { auditOf, transition } from '../entities/store.ts';
import { COUNTED_STATUSES } from './statistics.ts';
import { publishLive } from '../live/publish.ts';

type PaymentApply = components['schemas']['PaymentApply'];
type PaymentApplyResult = components['schemas']['PaymentApplyResult'];
type PaymentApplyStatus = components['schemas']['PaymentApplyStatus'];
type Task = components['schemas']['Task'];

export const paymentServiceMessages = {
  done: '操作成功',
} as const;

/**
 * An application on the wire.
 *
 * existBonus is the contract's "bonus the member asked for" (askedBonus), unchanged when an admin
 * agrees with another bonus.
 */
export function paymentApplyOut(row: PaymentRow, nickName?: string): PaymentApply {
  return {
    id: row.id,
    taskId: row.taskId,
    mainId: row.mainId,
    subId: row.subId,
    userId: row.userId,
    ...(nickName === undefined ? {} : { nickName }),
    itemName: row.itemName,
    price: fromCents(row.price ?? 0),
    buyIn: fromCents(row.buyIn),
    count: row.count,
    bonus: fromCents(row.bonus),
    punish: fromCents(row.punish),
    income: fromCents(row.income),
    note: row.note,
    status: row.status,
    existBonus: fromCents(row.askedBonus),
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

const succ = (row: PaymentRow, msg: string): PaymentApplyResult => ({ status: 'succ', msg, paymentApply: paymentApplyOut(row) });

/**
 * An application's income in cents, refused (A00001) past MAX_TOTAL_CENTS (money.ts).
 *
 * Checked at apply and at agree (MAX_TOTAL_CENTS, 90,000,000,000,000.00).
 */
function boundedIncome(a: { buyIn: number; count: number; bonus: number; punish: number }): number {
  if (exactIncome(a) > BigInt(MAX_TOTAL_CENTS)) throw badRequest(moneyLimitMessages.income);
  return incomeCents(a);
}

/**
 * Refuses (A00001, the caller's transaction rolls back) when the incomes agreed to member `userId`,
 * this transaction's agreement included, pass MAX_TOTAL_CENTS: a member's balance, a withdraw's
 * selection and the statistics amounts are all parts of that total, so none of them can pass it.
 * Agreements of one member take turns on a transaction lock, so two at once cannot both pass on
 * totals that each saw without the other.
 *
 * The agreed incomes are those agreed or later; the answer is A00001 with the limit named. Every
 * balance, withdraw and statistics sum is part of one member's agreed total, so each stays an exact
 * JavaScript number.
 */
async function checkAgreedTotal(tx: Tx, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`agreed-income:${userId}`}, 0))`);
  // Compared in the database: a total past the limit may be past 2^53 too, so it is never read.
  const [row] = await tx
    .select({ over: sql<boolean>`coalesce(sum(${paymentApplies.income}), 0) > ${MAX_TOTAL_CENTS}` })
    .from(paymentApplies)
    .where(and(eq(paymentApplies.userId, userId), inArray(paymentApplies.status, [...COUNTED_STATUSES])));
  if (row?.over) throw badRequest(moneyLimitMessages.total);
}

/**
 * A member applies for payment of an own locked task.
 *
 * A member's own task only (another's answers A00004 '任务不存在', as if it did not exist), and only
 * when the task machine accepts task.apply (locked; its message otherwise). One application per task:
 * a second apply answers opStatus failed '该任务已申请付款' and changes nothing (checked before the task
 * machine, so a member who applied twice is told why). bonus: a number >= 0 with at most two places,
 * 0 when absent (SPEC §5); the bonus asked for is kept apart (askedBonus, the contract's existBonus)
 * from the one agreed (bonus). The task's identity and amounts are copied (mainId, subId, itemName,
 * price, buyIn, count = productCount, punish), and the income computed from them. In the same
 * transaction the task moves locked -> processing (task.apply) and its parcels (scan rows tied to it
 * in status match) -> wait2pay, every change audited.
 */
export async function applyForPayment(db: Db, user: SessionUser, body: ApplyBody): Promise<PaymentApplyResult> {
  return inMoneyTransaction(db, async (tx) => {
    // Tracking ids, then the task (lock order steps 2-3); A00004 for another member's task.
    const { task } = await lockTaskForChange(tx, user, body.taskId);
    if (await hasApplication(tx, task.id)) return { status: 'failed', msg: paymentMessages.alreadyApplied };
    return applyForTask(tx, user, task, body);
  });
}

export interface ApplyBody {
  taskId: number;
  bonus?: number;
  note?: string;
}

const hasApplication = async (tx: Tx, taskId: number) =>
  (await tx.select({ id: paymentApplies.id }).from(paymentApplies).where(eq(paymentApplies.taskId, taskId))).length > 0;

/** The application of locked task `task` (held by the caller's locks), as applyForPayment describes it. */
async function applyForTask(tx: Tx, user: SessionUser, task: TaskRow, body: ApplyBody): Promise<PaymentApplyResult> {
  const bonus = toCents(body.bonus ?? 0);
  const note = (body.note ?? '').trim();
  requireTransition(task, { type: 'task.apply' });
  const [row] = await tx
    .insert(paymentApplies)
    .values({
      taskId: task.id,
      mainId: task.mainId,
      subId: task.subId,
      userId: task.userId,
      itemName: task.itemName,
      price: task.price,
      buyIn: task.buyIn,
      count: task.productCount,
      bonus,
      punish: task.punish,
      income: boundedIncome({ buyIn: task.buyIn, count: task.productCount, bonus, punish: task.punish }),
      note,
      status: NEW_PAYMENT_STATUS,
      askedBonus: bonus,
    })
    .returning();
  // The task machine's task.apply sends its parcels record.apply (entities/task.ts follows it).
  await applyTaskEvent(tx, user, task, { type: 'task.apply' });
  await writeAudit(tx, auditOf(paymentEntity, user, 'apply', null, row!));
  await publishLive(tx, paymentEntity.live(row!)); // live: the member's new application
  return succ(row!, paymentMessages.applied);
}

/**
 * A member asks to be paid for the units of an own task that arrived, in one step (decision 053):
 * the arrived units are split off into a locked sub-task and that sub-task is applied for, in one
 * transaction, through the same code as the separate 拆分 (splitTask) and 申请付款 (applyForTask).
 *
 * - Another member's task answers A00004 as if it did not exist (lockTaskForChange).
 * - A task that already has an application answers status failed '该任务已申请付款', as the plain apply.
 * - The task machine decides (decideApplyForArrived): the task must accept task.split (open or
 *   unmatch with some but not all units arrived) and the split-off sub-task task.apply; a locked task
 *   is told to apply as it is, a task with nothing arrived that only partly arrived tasks qualify
 *   (A00001 with the machine's words, nothing changed).
 * - The sub-task's application is the plain one's (bonus asked for, note; income = buyIn x arrived
 *   + bonus; the claim's discount stays with the original, as the split leaves it). Should matching
 *   after the split leave the sub-task other than locked, the apply refuses and nothing is changed.
 * The answer is the application and both tasks: the original (keeping the units still expected) and
 * the sub-task (processing).
 */
export async function applyForArrived(db: Db, user: SessionUser, body: ApplyBody): Promise<PaymentApplyResult & { tasks?: Task[] }> {
  return inMoneyTransaction(db, async (tx) => {
    const { task } = await lockTaskForChange(tx, user, body.taskId);
    if (await hasApplication(tx, task.id)) return { status: 'failed', msg: paymentMessages.alreadyApplied };
    const allowed = decideApplyForArrived(task);
    if (!allowed.ok) throw badRequest(allowed.msg);
    const { original, sibling } = await splitTask(tx, user, task);
    const applied = await applyForTask(tx, user, sibling, body);
    const tasksAfter = await Promise.all([original.id, sibling.id].map(async (id) => (await findTask(tx, eq(tasks.id, id)))!));
    return { ...applied, tasks: tasksAfter };
  });
}

/**
 * The admin side agrees to an applied application, keeping or replacing its bonus.
 *
 * Applied only (the machine's message); bonus a number, or absent to keep the bonus asked for; the
 * income is computed again from the copied amounts; agreedAt is stamped.
 */
export async function agreeToPayment(db: Db, actor: SessionUser, body: { paymentApplyId: number; bonus?: number }): Promise<PaymentApplyResult> {
  return inMoneyTransaction(db, async (tx) => {
    const [row] = await transition(
      tx,
      paymentEntity,
      actor,
      [body.paymentApplyId],
      { type: 'pay.agree' },
      {
        set: (r) => {
          const bonus = body.bonus === undefined ? r.bonus : toCents(body.bonus);
          return { bonus, income: boundedIncome({ buyIn: r.buyIn, count: r.count, bonus, punish: r.punish }) };
        },
      },
    );
    await checkAgreedTotal(tx, row!.userId);
    return succ(row!, paymentServiceMessages.done);
  });
}

/** The lines of the live withdraw order holding application `id`, locked (lock order step 1). */
async function lockLiveOrderLines(tx: Tx, id: number) {
  const liveOrder = async () =>
    (
      await tx
        .select({ orderId: withdrawOrderApplies.orderId })
        .from(withdrawOrderApplies)
        .where(and(eq(withdrawOrderApplies.paymentApplyId, id), eq(withdrawOrderApplies.live, true)))
    )[0]?.orderId;
  // Read unlocked to know which order to lock, then read again under the lock: the order may have
  // been cancelled (and the application taken into a new order) in between.
  for (;;) {
    const orderId = await liveOrder();
    if (!orderId) return [];
    const lines = await tx.select().from(withdrawRequests).where(eq(withdrawRequests.orderId, orderId)).orderBy(asc(withdrawRequests.id)).for('update');
    if ((await liveOrder()) === orderId) return lines;
  }
}

/**
 * The admin side confirms a withdrawing application paid.
 *
 * The machine allows it for withdrawing applications only (payment.machine.ts says why); -> paid,
 * the task -> finished, its parcels -> payed. Payment of the withdraw order has then started, so
 * every line of the application's live withdraw order loses its cancelFlag (the member can no longer
 * ask to cancel it); those lines are locked first (the lock order), and each line whose flag changes
 * is audited (entity 'withdraw', action 'confirm').
 */
export async function confirmPaid(db: Db, actor: SessionUser, id: number): Promise<PaymentApplyResult> {
  return inMoneyTransaction(db, async (tx) => {
    const lines = await lockLiveOrderLines(tx, id);
    const [row] = await transition(tx, paymentEntity, actor, [id], { type: 'pay.confirm' });
    // Payment of the order has started: the order machine clears every line's cancelFlag.
    if (lines.length) await moveOrder(tx, actor, lines, { type: 'order.confirmApplication' }, { action: 'confirm' });
    return succ(row!, paymentServiceMessages.done);
  });
}

/**
 * A member confirms receipt of an own paid application.
 *
 * Own only, else A00004 '付款申请不存在': paid -> collected.
 */
export async function collectPayment(db: Db, user: SessionUser, id: number): Promise<PaymentApplyResult> {
  return inMoneyTransaction(db, async (tx) => {
    const [row] = await transition(tx, paymentEntity, user, [id], { type: 'pay.collect' });
    return succ(row!, paymentServiceMessages.done);
  });
}

export interface PaymentListQuery {
  page?: number;
  size?: number;
  isDesc?: boolean;
  status?: PaymentApplyStatus;
  userId?: number;
  mainId?: number;
  /** The applications withdraw order `orderId` pays (its live links). */
  orderId?: number;
}

/**
 * /api/apply/list/page: a member's own applications, or all of them for the admin side.
 *
 * A member sees only their own applications (the userId filter is ignored for a member); the admin
 * side sees all, with the applicant's nickName. Newest first by createdAt unless isDesc=false (ties
 * by id). orderId: those a withdraw order pays (a cancelled order's links are not live: none), so a
 * member confirms receipt of a paid line's applications from the withdraw page.
 */
export async function listApplications(db: Db, user: SessionUser, q: PaymentListQuery) {
  const { size, offset, isDesc } = pageOf(q);
  const admin = isAdminSide(user);
  const conditions: (SQL | undefined)[] = [
    admin ? (q.userId === undefined ? undefined : eq(paymentApplies.userId, q.userId)) : eq(paymentApplies.userId, user.id),
    q.status === undefined ? undefined : eq(paymentApplies.status, q.status),
    q.mainId === undefined ? undefined : eq(paymentApplies.mainId, q.mainId),
    q.orderId === undefined
      ? undefined
      : sql`exists (select 1 from ${withdrawOrderApplies} woa where woa.payment_apply_id = ${paymentApplies.id} and woa.order_id = ${storedOrderId(q.orderId)} and woa.live)`,
  ];
  const where = and(...conditions);
  const order = isDesc ? [desc(paymentApplies.createdAt), desc(paymentApplies.id)] : [asc(paymentApplies.createdAt), asc(paymentApplies.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select({ apply: paymentApplies, nickName: users.nickName })
      .from(paymentApplies)
      .innerJoin(users, eq(users.id, paymentApplies.userId))
      .where(where)
      .orderBy(...order)
      .limit(size)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(paymentApplies)
      .where(where),
  ]);
  return {
    content: rows.map((r) => paymentApplyOut(r.apply, admin ? r.nickName : undefined)),
    totalPages: totalPagesOf(total?.n ?? 0, size),
  };
}

/** Agreed applications of a member that no live withdraw holds: what a withdraw request may take (also the member home's totals). */
export const withdrawable = (userId: number) =>
  and(
    eq(paymentApplies.userId, userId),
    inArray(paymentApplies.status, [...WITHDRAWABLE_PAYMENT_STATUSES]),
    sql`not exists (select 1 from ${withdrawOrderApplies} where ${withdrawOrderApplies.paymentApplyId} = ${paymentApplies.id} and ${withdrawOrderApplies.live})`,
  );

/** The member's withdrawable applications, newest first. */
export async function withdrawableApplications(db: Tx, userId: number): Promise<PaymentApply[]> {
  const rows = await db.select().from(paymentApplies).where(withdrawable(userId)).orderBy(desc(paymentApplies.createdAt), desc(paymentApplies.id));
  return rows.map((r) => paymentApplyOut(r));
}

/** The member's balance in cents: the income of their withdrawable applications. */
export async function balanceCents(db: Tx, userId: number): Promise<number> {
  const [row] = await db
    .select({ sum: sumCents(paymentApplies.income) })
    .from(paymentApplies)
    .where(withdrawable(userId));
  return row?.sum ?? 0;
}
