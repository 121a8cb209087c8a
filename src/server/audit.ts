// The audit trail (DECISIONS "Receiving and matching": every scan, match, upload and task change
// writes who, when, what, before and after). Written inside the caller's transaction, so an audit
// row exists exactly when the change it records does.
import type { Tx } from './db/client.ts';
import { auditLog } from './db/schema/audit.ts';

export type AuditEntry = typeof auditLog.$inferInsert;

export async function writeAudit(tx: Tx, entries: AuditEntry | AuditEntry[]) {
  const list = Array.isArray(entries) ? entries : [entries];
  // In chunks: one INSERT carries at most 65,535 parameters (about 4,000 entries).
  for (let i = 0; i < list.length; i += 1000) await tx.insert(auditLog).values(list.slice(i, i + 1000));
}
