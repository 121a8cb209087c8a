// The one place a task changes status: the stored row is locked, the task machine decides (the
// same `decide` the UI's buttons come from), the change and its audit entry are written in the
// caller's transaction. A refusal is A00001 with the machine's message; another member's task is
// A00004 as if it did not exist (DECISIONS "Roles").
import { eq } from 'drizzle-orm';
import { decide, type Decision } from '../../../machines/stored-state.ts';
import { explainTaskRefusal, taskMachine, type TaskEvent, type TaskStatus } from '../../../machines/task.machine.ts';
import type { Tx } from '../db/client.ts';
import { tasks } from '../db/schema/tasks.ts';
import { writeAudit, type AuditEntry } from '../audit.ts';
import { badRequest, notFound } from '../errors.ts';
import { publishLive, taskChanged } from '../live/publish.ts';
import type { SessionUser } from '../auth/session-user.ts';

export type TaskRow = typeof tasks.$inferSelect;
export const TASK_NOT_FOUND = '任务不存在';

/** Loads and locks a task the user may act on: their own, or any for the admin side. */
export async function lockTask(tx: Tx, user: SessionUser, taskId: number): Promise<TaskRow> {
  const [row] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).for('update');
  if (!row || (user.roleType === 'user' && row.userId !== user.id)) throw notFound(TASK_NOT_FOUND);
  return row;
}

/** The machine's context of a stored task. */
export const taskContext = (row: Pick<TaskRow, 'productCount' | 'canSplit'>) => ({ productCount: row.productCount, canSplit: row.canSplit });

/**
 * The task machine's decision on `event` for the task in `row` (stored-state decide). Remembered by
 * status, context and event, which are all its guards read: matching asks the same few questions
 * for every task it judges (a scan batch, a 50,000-row confirm), and resolving a snapshot and
 * taking a transition in XState cost more than the rest of judging a task.
 */
export function decideTask(row: Pick<TaskRow, 'status' | 'productCount' | 'canSplit'>, event: TaskEvent): Decision<TaskStatus> {
  const key = `${row.status}|${row.productCount}|${row.canSplit}|${JSON.stringify(event)}`;
  let d = decisions.get(key);
  if (!d) {
    d = decide(taskMachine, row.status, taskContext(row), event, explainTaskRefusal);
    if (decisions.size < 10_000) decisions.set(key, d);
  }
  return d;
}
const decisions = new Map<string, Decision<TaskStatus>>();

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
 * Applies `event` to the locked task `row` (from lockTask) and writes the audit entry; returns
 * the updated row.
 */
export async function applyTaskEvent(tx: Tx, actor: SessionUser | null, row: TaskRow, event: TaskEvent, opts: ApplyOptions = {}): Promise<TaskRow> {
  const status = requireTransition(row, event);
  const [after] = await tx
    .update(tasks)
    .set({ ...opts.set, status, updatedAt: new Date() })
    .where(eq(tasks.id, row.id))
    .returning();
  if (!after) throw notFound(TASK_NOT_FOUND);
  await writeAudit(tx, taskAudit(actor, opts.action ?? event.type.replace(/^task\./, ''), row, after));
  await publishLive(tx, taskChanged(after)); // live: the member's task, the board's claims
  return after;
}

function taskAudit(actor: SessionUser | null, action: string, before: TaskRow, after: TaskRow): AuditEntry {
  return {
    entity: 'task',
    entityId: after.id,
    action,
    opUid: actor?.id ?? null,
    userId: after.userId,
    mainId: after.mainId,
    subId: after.subId,
    taskId: after.id,
    upc: after.upc,
    count: after.count,
    itemName: after.itemName,
    status: after.status,
    before,
    after,
  };
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
    audits.push(taskAudit(c.actor, 'match', c.row, after));
  }
  return { afters, audits };
}
