// The audit trail (DECISIONS "Receiving and matching": every scan, match, upload and task change
// writes who, when, what, before and after). Written inside the caller's transaction, so an audit
// row exists exactly when the change it records does.
import type { Tx } from './db/client.ts';
import { auditLog } from './db/schema/audit.ts';

export type AuditEntry = typeof auditLog.$inferInsert;

export async function writeAudit(tx: Tx, entries: AuditEntry | AuditEntry[]) {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length) await tx.insert(auditLog).values(list);
}
