// The audit trail (DECISIONS "Receiving and matching": every scan, match, upload and task change
// writes who, when, what, before and after). Written inside the caller's transaction, so an audit
// row exists exactly when the change it records does.
//
// Written set-based: one INSERT ... SELECT FROM jsonb_to_recordset($1) per AUDIT_CHUNK entries, the
// entries travelling as one JSON document. An upload of 50,000 rows writes 50,000 entries or more; a
// multi-row VALUES insert of that many (17 parameters a row, ~4,000 rows a statement at most) spends
// seconds in building the statement alone, and text arrays of JSON spend them in escaping.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './db/client.ts';
import { executeTogether } from './db/together.ts';
import type { auditLog } from './db/schema/audit.ts';

export type AuditEntry = typeof auditLog.$inferInsert;

/**
 * Entries per statement: 500 (~0.5-1 MB of JSON). Each statement's JSON is built, encoded and sent
 * in one piece of the server's thread: at 2,000 entries such a piece took 50-200 ms, which every
 * other request waited for during an upload. A pipelined upload holds two statements at once (db/together.ts).
 */
const AUDIT_CHUNK = 500;

/**
 * The INSERT statements of these entries (one per AUDIT_CHUNK), for a caller that writes them with
 * its other statements (db/together.ts). Built one at a time as they are taken, so a caller that
 * runs them in turn holds one chunk's JSON document at a time (a 50,000-row upload's trail is
 * ~35 MB of JSON). The entries are serialized as they are, their keys named in the recordset (a key
 * left out is null, Dates become ISO text): a renamed copy of each entry was an object of 15
 * properties a row, 5% of an upload worker's time and more in its garbage collection.
 */
export function* auditInserts(entries: AuditEntry[]): Generator<SQL> {
  for (let i = 0; i < entries.length; i += AUDIT_CHUNK) {
    const doc = JSON.stringify(entries.slice(i, i + AUDIT_CHUNK));
    yield sql`
      insert into audit_log (entity, entity_id, action, op_uid, user_id, main_id, sub_id, upc, count, item_name, status, tracking_id, task_id, before, after)
      select entity, "entityId", action, "opUid", "userId", "mainId", "subId", upc, count, "itemName", status, "trackingId", "taskId", before, after
      from jsonb_to_recordset(${doc}::jsonb) as x(entity audit_entity, "entityId" int, action text, "opUid" int, "userId" int, "mainId" int, "subId" int,
        upc text, count int, "itemName" text, status text, "trackingId" text, "taskId" int, before jsonb, after jsonb)`;
  }
}

export async function writeAudit(tx: Tx, entries: AuditEntry | AuditEntry[]) {
  const list = Array.isArray(entries) ? entries : [entries];
  await executeTogether(tx, auditInserts(list), list.length);
}
