// The money tables: payment applications, bank cards, withdraw orders, their lines and the
// applications they pay (DECISIONS "Money"; docs/decisions/050-money-bigint-cents.md). Money is
// integer cents everywhere. Each table's doc says what it keeps and which rule its constraints
// enforce ("a task is applied for once", "each card once", "an application is in at most one live
// withdraw").
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgEnum, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { cents } from './cents';
import { NEW_PAYMENT_STATUS, PAYMENT_STATUSES } from '../../../../machines/payment.machine';
import { NEW_WITHDRAW_STATUS, WITHDRAW_STATUSES } from '../../../../machines/withdraw.machine';
import { users } from './accounts';
import { tasks } from './tasks';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const paymentApplyStatus = pgEnum('payment_apply_status', PAYMENT_STATUSES);

/**
 * A payment application is the user's claim for a task's income = buyIn x productCount + bonus -
 * punish, frozen at apply time together with the task's identity and amounts (copies, so the apply
 * list and withdraw sums never depend on later task edits); taskId is UNIQUE because a task can be
 * applied for once. It moves applied -> agreed -> withdrawing -> paid -> collected, and a cancelled
 * withdraw returns it to agreed, so the balance is simply the income of the user's agreed
 * applications.
 */
export const paymentApplies = pgTable(
  'payment_applies',
  {
    id: serial('id').primaryKey(),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id),
    mainId: integer('main_id').notNull(),
    subId: integer('sub_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    itemName: text('item_name').notNull(),
    /** All amounts in cents. */
    price: cents('price'),
    buyIn: cents('buy_in').notNull(),
    /** Units paid for (the task's productCount at apply time). */
    count: integer('count').notNull(),
    bonus: cents('bonus').notNull().default(0),
    punish: cents('punish').notNull().default(0),
    income: cents('income').notNull(),
    note: text('note').notNull().default(''),
    status: paymentApplyStatus('status').notNull().default(NEW_PAYMENT_STATUS),
    /** The bonus the member asked for when applying, in cents (the contract's existBonus); `bonus` is the agreed one. */
    askedBonus: cents('asked_bonus').notNull().default(0),
    agreedAt: ts('agreed_at'),
    paidAt: ts('paid_at'),
    collectedAt: ts('collected_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    uniqueIndex('payment_applies_task_uq').on(t.taskId),
    index('payment_applies_user_created_idx').on(t.userId, t.createdAt),
    index('payment_applies_status_created_idx').on(t.status, t.createdAt),
    index('payment_applies_user_status_idx').on(t.userId, t.status),
    check('payment_applies_amounts_nonneg', sql`${t.price} >= 0 AND ${t.buyIn} >= 0 AND ${t.count} >= 0 AND ${t.bonus} >= 0 AND ${t.punish} >= 0`),
  ],
);

/** Known payment types (SPEC §5); the column is free text because new values may be typed. */
export const KNOWN_PAYMENT_TYPES = ['Billpay', 'Check', 'Wire', 'ACH', 'Paypal', 'Zelle'] as const;

/**
 * Card number, holder name and routing number are stored only as AES-256-GCM ciphertext (key from
 * APP_SECRET) plus their last four characters for the masked display, so listing cards never needs
 * the key. Cards are unbound by setting deletedAt, never deleted, because withdraw lines keep
 * referring to them.
 */
export const bankCards = pgTable(
  'bank_cards',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    paymentType: text('payment_type').notNull(),
    accountNameEncrypt: text('account_name_encrypt').notNull(),
    accountNameLast4: text('account_name_last4').notNull(),
    /** Account / card number, or the account information of Paypal and Zelle. */
    cardNoEncrypt: text('card_no_encrypt'),
    cardNoLast4: text('card_no_last4'),
    routingNumberEncrypt: text('routing_number_encrypt'),
    routingNumberLast4: text('routing_number_last4'),
    /** Bank name. */
    bankInfo: text('bank_info').notNull().default(''),
    cardType: text('card_type').notNull().default(''),
    address: text('address').notNull().default(''),
    /** Set when the user unbinds the card. */
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    index('bank_cards_user_live_idx')
      .on(t.userId, t.createdAt)
      .where(sql`deleted_at IS NULL`),
  ],
);

/**
 * A withdraw is an order (orderId, the string users see) with one line per card
 * (withdraw_requests) and the applications it pays (withdraw_order_applies).
 */
export const withdrawOrders = pgTable(
  'withdraw_orders',
  {
    id: serial('id').primaryKey(),
    /** A UNIQUE constraint, not only an index: lines and links reference it by this string. */
    orderId: text('order_id').notNull().unique('withdraw_orders_order_id_uq'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('withdraw_orders_user_created_idx').on(t.userId, t.createdAt)],
);

export const withdrawStatus = pgEnum('withdraw_status', WITHDRAW_STATUSES);

/**
 * One line of a withdraw order: the amount paid to one card.
 *
 * Unique (order_id, card_id) enforces "each card once". Each line snapshots the card's type,
 * encrypted fields and address so a later change of card does not rewrite a paid line's history.
 */
export const withdrawRequests = pgTable(
  'withdraw_requests',
  {
    id: serial('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => withdrawOrders.orderId),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    cardId: integer('card_id')
      .notNull()
      .references(() => bankCards.id),
    /** Snapshots of the card when the line was made or its card changed. */
    paymentType: text('payment_type').notNull(),
    accountNameEncrypt: text('account_name_encrypt').notNull(),
    accountNameLast4: text('account_name_last4').notNull(),
    cardNoEncrypt: text('card_no_encrypt'),
    cardNoLast4: text('card_no_last4'),
    address: text('address').notNull().default(''),
    /** Cents. */
    withdrawAmount: cents('withdraw_amount').notNull(),
    userNote: text('user_note').notNull().default(''),
    status: withdrawStatus('status').notNull().default(NEW_WITHDRAW_STATUS),
    /** True while the user may still request cancel, i.e. the admin has not started paying. */
    cancelFlag: boolean('cancel_flag').notNull().default(true),
    /** Account note. */
    adminNote: text('admin_note').notNull().default(''),
    /** Date note. */
    adminNote2: text('admin_note2').notNull().default(''),
    paidAt: ts('paid_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    uniqueIndex('withdraw_requests_order_card_uq').on(t.orderId, t.cardId),
    index('withdraw_requests_user_created_idx').on(t.userId, t.createdAt),
    index('withdraw_requests_status_created_idx').on(t.status, t.createdAt),
    index('withdraw_requests_card_status_idx').on(t.cardId, t.status),
    check('withdraw_requests_amount_positive', sql`${t.withdrawAmount} > 0`),
  ],
);

/**
 * The applications a withdraw order pays. live = false once the order is cancelled.
 *
 * "An application is in at most one live withdraw" is enforced by the database, not only by the
 * status column: each link carries `live`, set false when its order is cancelled, and a unique index
 * on payment_apply_id WHERE live makes a second concurrent request for the same application fail
 * instead of paying it twice, while cancelled links stay as history.
 */
export const withdrawOrderApplies = pgTable(
  'withdraw_order_applies',
  {
    orderId: text('order_id')
      .notNull()
      .references(() => withdrawOrders.orderId),
    paymentApplyId: integer('payment_apply_id')
      .notNull()
      .references(() => paymentApplies.id),
    live: boolean('live').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'withdraw_order_applies_pk', columns: [t.orderId, t.paymentApplyId] }),
    uniqueIndex('withdraw_order_applies_live_uq')
      .on(t.paymentApplyId)
      .where(sql`live`),
  ],
);
