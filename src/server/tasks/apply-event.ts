// A task's status changes through the lifecycle store (entities/store.ts, the task declared in
// entities/task.ts): the stored row is locked, the task machine decides (the same `decide` the UI's
// buttons come from), the change and its audit entry are written in the caller's transaction. A
// refusal is A00001 with the machine's message; another member's task is A00004 as if it did not
// exist (DECISIONS "Roles").
import { eq } from 'drizzle-orm';
import type { TaskEvent, TaskStatus } from '../../../machines/task.machine.ts';
import type { Tx } from '../db/client.ts';
import { tasks } from '../db/schema/tasks.ts';
import type { AuditEntry } from '../audit.ts';
import { badRequest, notFound } from '../errors.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { applyToLocked, auditOf, type ApplyOptions as StoreOptions } from '../entities/store.ts';
import { decideTask, TASK_NOT_FOUND, taskEntity, type TaskRow } from '../entities/task.ts';

export { decideTask, TASK_NOT_FOUND, taskContext, type TaskRow } from '../entities/task.ts';

/** Loads and locks a task the user may act on: their own, or any for the admin side. */
export async function lockTask(tx: Tx, user: SessionUser, taskId: number): Promise<TaskRow> {
  const [row] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).for('update');
  if (!row || (user.roleType === 'user' && row.userId !== user.id)) throw notFound(TASK_NOT_FOUND);
  return row;
}

/** Throws A00001 with the machine's message unless the task in `row` accepts `event`; returns the next status. */
export function requireTransition(row: TaskRow, event: TaskEvent): TaskStatus {
  const d = decideTask(row, event);
  if (!d.ok) throw badRequest(d.msg);
  return d.next;
}

export interface ApplyOptions {
  /** Other column changes made together with the event (count, labelCount, productCount, ...). */
  set?: Partial<Omit<typeof tasks.$inferInsert, 'id' | 'status'>>;
  /** Audit action name; defaults to the event type without its 'task.' prefix. */
  action?: string;
}

/**
 * Applies `event` to the locked task `row` (from lockTask) through the lifecycle store (decide,
 * write, audit, announce); returns the updated row.
 */
export async function applyTaskEvent(tx: Tx, actor: SessionUser | null, row: TaskRow, event: TaskEvent, opts: ApplyOptions = {}): Promise<TaskRow> {
  const [after] = await applyToLocked(tx, taskEntity, actor, [row], event, opts as StoreOptions<TaskRow>);
  return after!;
}

/**
 * applyTaskEvent of task.match for many locked tasks at once (matching a whole upload, a batch of
 * scans): the machine decides each one exactly as applyTaskEvent does (a refusal throws before
 * anything is written). Pure: answers the rows after (in the order given) and their audit entries,
 * each as its `actor`'s (who caused it); matching's store writes them with its other writes
 * (db/matching-store.ts writePlan).
 */
export function planMatchEvents(
  changes: {
    row: TaskRow;
    outcome: Extract<TaskEvent, { type: 'task.match' }>['outcome'];
    productCount: number;
    canSplit: boolean;
    actor: SessionUser | null;
  }[],
  now = new Date(),
): { afters: TaskRow[]; audits: AuditEntry[] } {
  const afters: TaskRow[] = [];
  const audits: AuditEntry[] = [];
  for (const c of changes) {
    const status = requireTransition(c.row, { type: 'task.match', outcome: c.outcome });
    const after = { ...c.row, status, productCount: c.productCount, canSplit: c.canSplit, updatedAt: now };
    afters.push(after);
    audits.push(auditOf(taskEntity, c.actor, 'match', c.row, after));
  }
  return { afters, audits };
}
