// Excel exports and the label PDF are plain links, so the token travels in the URL path, where it
// ends up in browser history and proxy logs. It is therefore never the session token: it is a
// short-lived random token scoped to one file (kind + resourceId + params) and one user, and only its
// SHA-256 hash is stored (same rule as sessions in accounts.ts), so a leaked database cannot be
// replayed as download links. A token belongs to the session that asked for it and is deleted with
// it (logout, password reset: ON DELETE CASCADE; a role change deletes the user's tokens). Tokens
// are not single use (a browser may retry a download), except the payment file's; they expire, and
// the expires_at index lets a sweeper delete old ones (docs/decisions/067-download-tokens-die-with-their-session.md).
import { customType, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sessions, users } from './accounts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const downloadTokens = pgTable(
  'download_tokens',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The session that asked for the token: the token dies with it. */
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** Which file: e.g. pdf.labels, excel.withdraw, excel.userTask, excel.tracking, excel.board, excel.taskAmount. */
    kind: text('kind').notNull(),
    /** The one resource the file is about (e.g. the task id of a label PDF), when there is one. */
    resourceId: integer('resource_id'),
    /** The export's filters (e.g. userIds, date range, timezone), fixed when the token is issued. */
    params: jsonb('params').notNull().default({}),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('download_tokens_hash_uq').on(t.tokenHash),
    index('download_tokens_expires_idx').on(t.expiresAt),
    index('download_tokens_session_idx').on(t.sessionId),
  ],
);

/** bytea as a Buffer (node-postgres and PGlite both answer bytea as bytes). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The fine rows a large upload's answer leaves out, kept for paging (files/upload-results.ts,
 * decision 172): in the database, so any server process (and the upload worker, which has its own
 * connections) keeps and pages them alike. `rows` is their JSON lines gzipped, `ends` the lines' end
 * offsets (uint32 each); kept for an hour, deleted by the next upload after that (created_at index).
 */
export const uploadResults = pgTable(
  'upload_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rowCount: integer('row_count').notNull(),
    rows: bytea('rows').notNull(),
    ends: bytea('ends').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('upload_results_created_idx').on(t.createdAt)],
);
