// Withdrawals (SPEC §2 /user/withdraw-request, /user/withdraw-orders, /admin/withdraw-list; §3
// "Withdraw request"; §4 "Withdraw status"; §5 "Withdraw request"; §7 "Withdraw"; DECISIONS
// "Money"). The rules are machines/withdraw.machine.ts (a line's own change: change card),
// machines/withdraw-order.machine.ts (cancel, agree, reject and pay of an order, its cancelFlag, and
// "all lines paid -> the applications pay.paid", "cancelled -> pay.release", which it emits;
// decision 054) and machines/payment.machine.ts. Every line and application status change goes
// through the lifecycle store (entities/store.ts) with entities/withdraw-line.ts (whose follow sends
// what the order machine emits to the order's applications) and entities/payment.ts; this module
// loads and locks (every line change is audited, entity 'withdraw', masked card fields only). Every
// function takes the lines of the orders it touches first, then cards, then the applications'
// transitions: the money lock order of payment-transitions.ts (lockOrderLines). The links
// (withdraw_order_applies) of an order are written only by a holder of its lines' locks.
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import {
  amountToCents,
  decideWithdrawLine,
  withdrawMessages,
  withdrawRequestError,
  type WithdrawEvent,
  type WithdrawStatus,
} from '../../../machines/withdraw.machine.ts';
import type { WithdrawOrderEvent } from '../../../machines/withdraw-order.machine.ts';
import { WITHDRAWABLE_PAYMENT_STATUSES } from '../../../machines/payment.machine.ts';
import { writeAudit, type AuditEntry } from '../audit.ts';
import { postgresError, rowsOf, type Db, type Tx } from '../db/client.ts';
import { isLockConflict, uploadRowMessages } from '../files/upload-rows.ts';
import { users } from '../db/schema/accounts.ts';
import { paymentApplies, withdrawOrderApplies, withdrawOrders, withdrawRequests } from '../db/schema/money.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { pageOf, totalPagesOf } from '../paging.ts';
import { lockOwnCards, type BankCardRow } from './cards.ts';
import { anyInt, lockPayments } from './payment-transitions.ts';
import { publishLive } from '../live/publish.ts';
import { paymentEntity } from '../entities/payment.ts';
import { applyToLocked, auditOf, transition } from '../entities/store.ts';
import { decideOrders, withdrawLineEntity } from '../entities/withdraw-line.ts';
import type { LineRow } from './withdraw-shapes.ts';

type WithdrawSubmitRequest = components['schemas']['WithdrawSubmitRequest'];

export const withdrawServiceMessages = {
  ...withdrawMessages,
  /** A concurrent request took an application first and the unique live-link index refused this one. */
  raced: '所选任务已在其他提现中，请刷新后重试',
  canceledOk: '已申请取消',
  agreedOk: '已同意取消',
  rejectedOk: '已拒绝取消',
  paidOk: '已标记为已付款',
  /** A line of a refused batch that could have been paid: nothing was. */
  batchNotApplied: '未处理：其他提现记录不能付款',
  batchPaid: (n: number) => `已将${n}条提现标记为已付款`,
  batchRefused: (n: number) => `${n}条提现不能付款，未做任何修改`,
  changedOk: '更换成功',
  savedOk: '保存成功',
} as const;
const M = withdrawServiceMessages;

export const storedOrderId = (orderId: number): string => String(orderId);

/** A PostgreSQL unique violation (of `constraint`, if given), possibly wrapped by the driver or Drizzle. */
function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const x = postgresError(err);
  if (x?.code !== '23505') return false;
  if (!constraint) return true;
  const name = x.constraint ?? x.constraint_name;
  return name === constraint || (typeof x.message === 'string' && x.message.includes(constraint));
}

/** An audit entry of a line: the withdraw-line entity's, which keeps the wire form (masked), never cipher text. */
export const lineAudit = (actor: Pick<SessionUser, 'id'> | null, action: string, before: LineRow | null, after: LineRow): AuditEntry =>
  auditOf(withdrawLineEntity, actor, action, before, after);

/** The card fields a line copies (its snapshot). */
const snapshotOf = (card: BankCardRow) => ({
  cardId: card.id,
  paymentType: card.paymentType,
  accountNameEncrypt: card.accountNameEncrypt,
  accountNameLast4: card.accountNameLast4,
  cardNoEncrypt: card.cardNoEncrypt,
  cardNoLast4: card.cardNoLast4,
  address: card.address,
});

// ---------------------------------------------------------------------------------------------
// Locks

/**
 * Locks every line of these orders (step 1 of the lock order) and returns them in that order.
 *
 * Lines are locked FOR UPDATE, by order id then line id, all lines of each order (order-level rules
 * read them all); cards come next (bank_cards, FOR SHARE / FOR UPDATE in cards.ts), then tracking
 * ids, tasks and payment applications (payment-transitions.ts).
 */
export async function lockOrderLines(tx: Tx, orderIds: string[]): Promise<LineRow[]> {
  const ids = [...new Set(orderIds)].sort();
  if (!ids.length) return [];
  return tx
    .select()
    .from(withdrawRequests)
    .where(sql`${withdrawRequests.orderId} = any(${sql.param(ids)}::text[])`)
    .orderBy(asc(withdrawRequests.orderId), asc(withdrawRequests.id))
    .for('update');
}

/** The lines of one order, locked; A00004 when it does not exist or (for a member) is not theirs. */
async function lockOrder(tx: Tx, actor: SessionUser, orderId: number): Promise<LineRow[]> {
  const lines = await lockOrderLines(tx, [storedOrderId(orderId)]);
  if (!lines.length || (actor.roleType === 'user' && lines.some((l) => l.userId !== actor.id))) throw notFound(M.notFound);
  return lines;
}

/** One line and every line of its order, locked; A00004 when it does not exist or (for a member) is not theirs. */
async function lockLine(tx: Tx, actor: SessionUser, lineId: number): Promise<{ line: LineRow; lines: LineRow[] }> {
  // A line's order never changes, so it may be read before the lock.
  const [found] = await tx
    .select({ orderId: withdrawRequests.orderId, userId: withdrawRequests.userId })
    .from(withdrawRequests)
    .where(eq(withdrawRequests.id, lineId));
  if (!found || (actor.roleType === 'user' && found.userId !== actor.id)) throw notFound(M.notFound);
  const lines = await lockOrderLines(tx, [found.orderId]);
  const line = lines.find((l) => l.id === lineId);
  if (!line) throw notFound(M.notFound);
  return { line, lines };
}

/** The machine's verdict for a line: its next status, or its message. */
export const lineDecision = (line: LineRow, event: WithdrawEvent) => decideWithdrawLine(line, event);

/** The machine's verdict for a line, or A00001 with its message. */
function requireLine(line: LineRow, event: WithdrawEvent): WithdrawStatus {
  const d = lineDecision(line, event);
  if (!d.ok) throw badRequest(d.msg);
  return d.next;
}

/** Who pays: the member or the admin side. */
const payer = (actor: SessionUser) => (actor.roleType === 'user' ? 'user' : 'admin');
/** Pay, by the member or by the admin side. */
const payEvent = (actor: SessionUser): WithdrawEvent => ({ type: 'wd.pay', by: payer(actor) });

/**
 * Applies the order event `event` to locked lines through the lifecycle store (withdraw-line
 * entity): `lines` are every line of the orders it concerns. The order machine decides each order
 * (a refusal throws A00001 with its message before anything is written); the lines it changes are
 * written with their new status and cancelFlag, audited with `action` and announced, and what it
 * emits (pay.paid, pay.release) reaches the orders' live applications. `only`: the lines to write
 * through the store, in that order (the lines paid); the others whose cancelFlag the answer clears
 * are written without an audit entry (payment has started; payLines). Returns the written lines after.
 */
export async function moveOrder(
  tx: Tx,
  actor: SessionUser,
  lines: LineRow[],
  event: WithdrawOrderEvent,
  opts: { action?: string; only?: LineRow[] } = {},
): Promise<LineRow[]> {
  const withLines = { ...event, lines };
  const after = new Map<number, { status: WithdrawStatus; cancelFlag: boolean }>();
  for (const answer of decideOrders(withLines).values()) {
    if (!answer.ok) throw badRequest(answer.msg);
    for (const l of answer.lines) after.set(l.id, l);
  }
  const changed = lines.filter((l) => after.get(l.id)!.status !== l.status || after.get(l.id)!.cancelFlag !== l.cancelFlag);
  const written = opts.only ?? changed;
  const out = await applyToLocked(tx, withdrawLineEntity, actor, written, withLines, {
    action: opts.action,
    set: (row) => ({ cancelFlag: after.get(row.id)!.cancelFlag }),
  });
  const rest = changed.filter((l) => !written.some((w) => w.id === l.id));
  if (rest.length) {
    // Payment has started: nobody may cancel these orders any more.
    const others = await tx
      .update(withdrawRequests)
      .set({ cancelFlag: false, updatedAt: new Date() })
      .where(
        inArray(
          withdrawRequests.id,
          rest.map((l) => l.id),
        ),
      )
      .returning();
    await publishLive(tx, others.flatMap(withdrawLineEntity.live)); // live: the member's lines, no longer cancellable
  }
  return out;
}

/** A line's columns other than its status (the admin notes), audited with `action` and announced. */
async function editLine(tx: Tx, actor: SessionUser, line: LineRow, set: Partial<typeof withdrawRequests.$inferInsert>, action: string): Promise<LineRow> {
  const [after] = await tx
    .update(withdrawRequests)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(withdrawRequests.id, line.id))
    .returning();
  await writeAudit(tx, lineAudit(actor, action, line, after!));
  await publishLive(tx, withdrawLineEntity.live(after!));
  return after!;
}

// ---------------------------------------------------------------------------------------------
// Request

/**
 * Makes one order with one line per card for the given tasks' agreed applications; returns its public orderId.
 *
 * A request names the tasks whose agreed applications it withdraws; each task must have an
 * application of the member in status agreed, else the whole request is refused with
 * taskNotWithdrawable (another member's task reads the same, revealing nothing). The dialog's checks
 * (withdrawRequestError, shared with the web) run on the amounts in cents. Cards must be the member's
 * own live cards (A00004 otherwise). Order, lines (with snapshots of the card's type, encrypted holder
 * name and number and address), links and the applications' pay.withdraw are written in ONE
 * transaction. Two concurrent requests over the same application: the second waits for the first's
 * application lock and then finds it withdrawing (taskNotWithdrawable); the unique index of live
 * links backs this up (a violation answers 409 '...请刷新后重试', never 500).
 */
export async function requestWithdraw(tx: Tx, actor: SessionUser, body: WithdrawSubmitRequest): Promise<number> {
  const taskIds = [...new Set(body.taskIds)];
  if (!taskIds.length) throw badRequest(M.taskRequired);
  const lines = body.requests.map((r) => ({ cardId: r.cardId, amount: r.withdrawAmount, userNote: (r.userNote ?? '').trim() }));
  // The dialog's checks of the lines alone first (card chosen, amount a number, each card once),
  // before any card or task is read: with a placeholder task sum only the sum check can differ.
  const shapeError = withdrawRequestError([0], lines);
  if (shapeError && shapeError !== M.sumMismatch) throw badRequest(shapeError);

  const cards = await lockOwnCards(
    tx,
    actor.id,
    lines.map((l) => l.cardId),
  );
  const found = await tx
    .select({ id: paymentApplies.id })
    .from(paymentApplies)
    .where(and(anyInt(paymentApplies.taskId, taskIds), eq(paymentApplies.userId, actor.id)));
  const applications = await lockPayments(
    tx,
    found.map((f) => f.id),
  );
  const byTask = new Map([...applications.values()].map((a) => [a.taskId, a]));
  const chosen = taskIds.map((t) => byTask.get(t));
  if (chosen.some((a) => !a || a.userId !== actor.id || !WITHDRAWABLE_PAYMENT_STATUSES.includes(a.status))) throw badRequest(M.taskNotWithdrawable);
  const picked = chosen as NonNullable<(typeof chosen)[number]>[];
  const error = withdrawRequestError(
    picked.map((a) => a.income),
    lines,
  );
  if (error) throw badRequest(error);

  const [seq] = await rowsOf<{ id: number }>(tx.execute(sql`select nextval(pg_get_serial_sequence('withdraw_orders', 'id'))::int as id`));
  const id = Number(seq!.id);
  const orderId = storedOrderId(id);
  await tx.insert(withdrawOrders).values({ id, orderId, userId: actor.id });
  const inserted = await tx
    .insert(withdrawRequests)
    .values(
      lines.map((l) => ({
        ...snapshotOf(cards.get(l.cardId)!),
        orderId,
        userId: actor.id,
        withdrawAmount: amountToCents(l.amount)!,
        userNote: l.userNote,
      })),
    )
    .returning();
  try {
    await tx.insert(withdrawOrderApplies).values(picked.map((a) => ({ orderId, paymentApplyId: a.id })));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(M.raced);
    throw err;
  }
  await transition(
    tx,
    paymentEntity,
    actor,
    picked.map((a) => a.id),
    { type: 'pay.withdraw' },
  );
  await writeAudit(
    tx,
    inserted.map((l) => lineAudit(actor, 'request', null, l)),
  );
  await publishLive(tx, inserted.flatMap(withdrawLineEntity.live)); // live: the member's new lines
  return id;
}

/**
 * Runs one money call in its own transaction. A deadlock or serialization failure (none is
 * expected with the lock order, but PostgreSQL may still pick a victim) answers 409 "try again",
 * and a unique violation of the live-link index (a race the locks did not serialise) answers 409
 * M.raced: nothing changed in either case, never a 500.
 */
export async function inMoneyTransaction<T>(db: Db, run: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(run);
  } catch (err) {
    if (isLockConflict(err)) throw conflict(uploadRowMessages.busy);
    if (isUniqueViolation(err, 'withdraw_order_applies_live_uq')) throw conflict(M.raced);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Cancel

/**
 * Member: every line of an own order waited -> requestedCancel (all lines must accept it).
 *
 * Cancel is per order (withdraw.machine.ts): cancel/order (member) moves every line of the order
 * waited -> requestedCancel only if every line accepts wd.requestCancel; agree/cancel (admin) moves
 * them to canceled, sets the order's links live = false and releases its applications (pay.release
 * -> agreed, the balance); reject/cancel moves them back to waited.
 */
export async function requestCancel(tx: Tx, actor: SessionUser, orderId: number): Promise<void> {
  const lines = await lockOrder(tx, actor, orderId);
  await moveOrder(tx, actor, lines, { type: 'order.requestCancel' });
}

/** Admin: requestedCancel -> canceled for the whole order, links dropped, applications back to agreed (the order machine's pay.release). */
export async function agreeCancel(tx: Tx, actor: SessionUser, orderId: number): Promise<void> {
  const lines = await lockOrder(tx, actor, orderId);
  // The order machine emits pay.release: its live applications go back to agreed (the follow reads
  // the live links, so they are dropped after).
  await moveOrder(tx, actor, lines, { type: 'order.agreeCancel' });
  await tx
    .update(withdrawOrderApplies)
    .set({ live: false })
    .where(and(eq(withdrawOrderApplies.orderId, storedOrderId(orderId)), eq(withdrawOrderApplies.live, true)));
}

/** Admin: requestedCancel -> waited for the whole order. */
export async function rejectCancel(tx: Tx, actor: SessionUser, orderId: number): Promise<void> {
  const lines = await lockOrder(tx, actor, orderId);
  await moveOrder(tx, actor, lines, { type: 'order.rejectCancel' });
}

// ---------------------------------------------------------------------------------------------
// Paid

/**
 * Marks locked waited lines paid (the caller holds every line of their orders, `orderLines`), clears
 * cancelFlag on every line of those orders and pays the applications of the orders now wholly paid.
 * The order machine decides each order first (order.pay: each line's wd.pay); a refusal throws
 * before anything is written.
 *
 * Paid (member's own line, or an admin's, or the admin's Excel confirm): waited -> paid (wd.pay),
 * then cancelFlag = false on every line of that order (payment has started), and when the order
 * is now paid (every live line paid) the order machine emits pay.paid, which the withdraw-line
 * entity's follow sends to its live applications still withdrawing (tasks finished, parcels payed).
 * Applications the admin already confirmed paid one by one (payment-service.ts pay.confirm) are
 * simply already paid. One moveOrder for every order, so the applications move in one transition.
 */
export async function payLines(tx: Tx, actor: SessionUser, toPay: LineRow[], orderLines: LineRow[], action: string): Promise<LineRow[]> {
  // In the order asked for: each line paid is written and audited in that order.
  return moveOrder(tx, actor, orderLines, { type: 'order.pay', lineIds: toPay.map((l) => l.id), by: payer(actor) }, { action, only: toPay });
}

/** A member's own line, or any line for the admin: waited -> paid. */
export async function markPaid(tx: Tx, actor: SessionUser, lineId: number): Promise<LineRow> {
  const { line, lines } = await lockLine(tx, actor, lineId);
  const [after] = await payLines(tx, actor, [line], lines, 'pay');
  return after!;
}

export interface BatchPayRow {
  id: number;
  ok: boolean;
  msg: string;
}

/**
 * Admin: several lines waited -> paid together, all or nothing (payWithdrawRequests).
 *
 * The lines of every order named are locked first (lock order step 1), then the machine judges each
 * line's wd.pay. One refusal (a line not waited, or not found) and nothing is written: `paid` false,
 * a row per id, each with the machine's message or, for a line it would pay, M.batchNotApplied.
 * Otherwise payLines pays them all (cancelFlag cleared, wholly paid orders' applications pay.paid),
 * as the single pay and the confirm upload do. An id given twice is one line.
 */
export async function payBatch(tx: Tx, actor: SessionUser, lineIds: number[]): Promise<{ paid: boolean; rows: BatchPayRow[] }> {
  const ids = [...new Set(lineIds)];
  // A line's order never changes, so it may be read before the lock.
  const found = await tx.select({ orderId: withdrawRequests.orderId }).from(withdrawRequests).where(anyInt(withdrawRequests.id, ids));
  const orderLines = await lockOrderLines(
    tx,
    found.map((f) => f.orderId),
  );
  const byId = new Map(orderLines.map((l) => [l.id, l]));
  const event = payEvent(actor);
  const judged = ids.map((id) => {
    const line = byId.get(id);
    if (!line) return { id, line, refusal: M.notFound };
    const d = lineDecision(line, event);
    return { id, line, refusal: d.ok ? null : d.msg };
  });
  if (judged.some((j) => j.refusal !== null)) {
    return { paid: false, rows: judged.map((j) => ({ id: j.id, ok: j.refusal === null, msg: j.refusal ?? M.batchNotApplied })) };
  }
  await payLines(
    tx,
    actor,
    judged.map((j) => j.line!),
    orderLines,
    'payBatch',
  );
  return { paid: true, rows: ids.map((id) => ({ id, ok: true, msg: M.paidOk })) };
}

// ---------------------------------------------------------------------------------------------
// Change card, admin notes

/**
 * Only a waited line (wd.changeCard); the new card must be an own live card not already used by
 * another line of the order (withdrawMessages.cardOnce); the line's card snapshot is replaced.
 */
export async function changeCard(tx: Tx, actor: SessionUser, lineId: number, cardId: number | undefined): Promise<LineRow> {
  if (!cardId) throw badRequest(M.changeCardRequired);
  const { line, lines } = await lockLine(tx, actor, lineId);
  requireLine(line, { type: 'wd.changeCard' });
  const cards = await lockOwnCards(tx, line.userId, [cardId]);
  if (lines.some((l) => l.id !== line.id && l.cardId === cardId)) throw badRequest(M.cardOnce);
  const [after] = await applyToLocked(tx, withdrawLineEntity, actor, [line], { type: 'wd.changeCard' }, { set: snapshotOf(cards.get(cardId)!) });
  return after!;
}

/**
 * adminNote (account note) and adminNote2 (date note) of one line, any status; a field left out of
 * the request keeps its value.
 */
export async function saveAdminNote(tx: Tx, actor: SessionUser, lineId: number, notes: { adminNote?: string; adminNote2?: string }): Promise<LineRow> {
  const { line } = await lockLine(tx, actor, lineId);
  const set: Partial<typeof withdrawRequests.$inferInsert> = {};
  if (notes.adminNote !== undefined) set.adminNote = notes.adminNote.trim();
  if (notes.adminNote2 !== undefined) set.adminNote2 = notes.adminNote2.trim();
  return editLine(tx, actor, line, set, 'adminNote');
}

// ---------------------------------------------------------------------------------------------
// Lists

export interface WithdrawFilters {
  orderId?: number;
  status?: WithdrawStatus;
  cardId?: number;
  /** Admin lists and the export only. */
  userId?: number;
  isDesc: boolean;
}

export function withdrawWhere(f: WithdrawFilters): SQL | undefined {
  const conds: SQL[] = [];
  if (f.orderId !== undefined) conds.push(eq(withdrawRequests.orderId, storedOrderId(f.orderId)));
  if (f.status !== undefined) conds.push(eq(withdrawRequests.status, f.status));
  if (f.cardId !== undefined) conds.push(eq(withdrawRequests.cardId, f.cardId));
  if (f.userId !== undefined) conds.push(eq(withdrawRequests.userId, f.userId));
  return conds.length ? and(...conds) : undefined;
}

export interface LineWithUser {
  line: LineRow;
  nickName: string;
  mailAddr: string;
}

/**
 * One page of lines. `byOrder`: the orders list's order (orders newest first by default, the lines
 * of an order in their own order); otherwise by creation time, newest first by default.
 */
export async function listLines(
  tx: Tx,
  f: WithdrawFilters,
  paging: { page?: number; size?: number },
  opts: { byOrder?: boolean } = {},
): Promise<{ rows: LineWithUser[]; totalPages: number; total: number }> {
  const p = pageOf({ ...paging, isDesc: f.isDesc });
  const where = withdrawWhere(f);
  const dir = p.isDesc ? desc : asc;
  const order = opts.byOrder ? [dir(withdrawOrders.id), asc(withdrawRequests.id)] : [dir(withdrawRequests.createdAt), dir(withdrawRequests.id)];
  const rows = await tx
    .select({ line: withdrawRequests, nickName: users.nickName, mailAddr: users.mailAddr })
    .from(withdrawRequests)
    .innerJoin(users, eq(users.id, withdrawRequests.userId))
    .innerJoin(withdrawOrders, eq(withdrawOrders.orderId, withdrawRequests.orderId))
    .where(where)
    .orderBy(...order)
    .limit(p.size)
    .offset(p.offset);
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(withdrawRequests)
    .where(where);
  const total = Number(count?.n ?? 0);
  return { rows, total, totalPages: totalPagesOf(total, p.size) };
}

/** Lines for the export, in the admin list's order, at most `max` (+1 to tell "too many"). */
export async function linesForExport(tx: Tx, f: WithdrawFilters, max: number): Promise<LineWithUser[]> {
  const dir = f.isDesc ? desc : asc;
  return tx
    .select({ line: withdrawRequests, nickName: users.nickName, mailAddr: users.mailAddr })
    .from(withdrawRequests)
    .innerJoin(users, eq(users.id, withdrawRequests.userId))
    .where(withdrawWhere(f))
    .orderBy(dir(withdrawRequests.createdAt), dir(withdrawRequests.id))
    .limit(max + 1);
}
