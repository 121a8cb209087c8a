// Accounts, sessions, one-time tokens (invitation / password reset), the site notice and the mail
// outbox. Secrets are never stored in the clear: passwords as scrypt hashes, session and one-time
// tokens as SHA-256 hashes of random 256-bit values (DECISIONS "Accounts and sessions").
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgEnum, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const roleType = pgEnum('role_type', ['admin', 'lowerAdmin', 'user']);

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased; the login name. */
    mailAddr: text('mail_addr').notNull(),
    nickName: text('nick_name').notNull(),
    phoneNo: text('phone_no').notNull().default(''),
    qq: text('qq').notNull().default(''),
    roleType: roleType('role_type').notNull().default('user'),
    passwordHash: text('password_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_mail_addr_uq').on(t.mailAddr), index('users_created_at_idx').on(t.createdAt)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    keep: boolean('keep').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const oneTimeTokenKind = pgEnum('one_time_token_kind', ['register', 'change']);

/** kind 'register' is an invitation (7 days), 'change' a password reset (1 hour); single use. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: serial('id').primaryKey(),
    kind: oneTimeTokenKind('kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    mailAddr: text('mail_addr').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('one_time_tokens_hash_uq').on(t.tokenHash), index('one_time_tokens_mail_idx').on(t.mailAddr, t.kind)],
);

/** The one site-wide notice (row id 1). */
export const notices = pgTable('notices', {
  id: integer('id').primaryKey(),
  content: text('content').notNull().default(''),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const mailTransport = pgEnum('mail_transport', ['primary', 'backup']);
export const outboxStatus = pgEnum('outbox_status', ['pending', 'sent', 'failed']);

/**
 * Persistent mail outbox: rows are written in the same transaction as the change that causes them
 * and sent after the request returns by the outbox worker, with retries and backoff.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    transport: mailTransport('transport').notNull().default('primary'),
    toAddr: text('to_addr').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: outboxStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    /**
     * The outbox worker sending the row now (its instance id, held as a session advisory lock while
     * it lives), or null. A claim whose worker's lock is gone (it crashed) is taken back at once.
     */
    claimedBy: integer('claimed_by'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('outbox_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);

/**
 * The attempts the rate limits of the account calls count (auth/rate-limit.ts): one row per attempt,
 * named by its limit and key, kept for the limit's window, shared by every server process.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    key: text('key').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('rate_limit_hits_key_idx').on(t.name, t.key, t.at)],
);
