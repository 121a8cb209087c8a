// The lifecycle store (decision 167): the one way a stored row of any entity with a lifecycle
// (task, payment application, withdrawal line, board, scan record, purchased record) changes
// status. Each entity is declared once (its table, its machine asked through `decide`, its audit and
// live shapes, where the events its machine emits go: src/server/entities/*.ts); every change goes
// lock -> decide -> write -> audit -> announce -> follow here. The machine refuses before anything
// is written (A00001 with its own message), so the caller's transaction changes every row or none;
// a row that is not there, or for a member not theirs, is A00004 as if it did not exist (DECISIONS
// "Roles").
//
// Follow-on changes are the machine's: a transition that `emit`s an event (payment.machine's
// `task.pay` on paid) has it delivered by the entity's `follow` to the rows it concerns, which
// change through this store in turn. Locks follow the GLOBAL LOCK ORDER of money code
// (money/payment-transitions.ts): an entity whose follow-ons lock rows that come earlier in that
// order takes them first, in `lockFirst`.
//
// Matching writes thousands of rows set-based (db/matching-store.ts): it asks the same declarations
// through `planEvent` and writes the rows, audits and live hints it returns in its own statements.
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Decision } from '../../../machines/stored-state.ts';
import { writeAudit, type AuditEntry } from '../audit.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { Tx } from '../db/client.ts';
import { badRequest, notFound } from '../errors.ts';
import { publishLive, type LiveChange } from '../live/publish.ts';

/** A stored row with a lifecycle: its id and its status, a state of its machine. */
export interface LifecycleRow<S extends string = string> {
  id: number;
  status: S;
}

/** A row before and after one change. */
export interface Moved<Row> {
  before: Row;
  after: Row;
}

/** An event a machine emitted, and the rows whose transitions emitted it. */
export type Follow<Row> = (tx: Tx, actor: SessionUser | null, moved: Moved<Row>[], event: { type: string }) => Promise<void>;

/** The audit columns of a row other than those the store fills (entity, id, action, actor, before, after). */
export type AuditFields = Omit<AuditEntry, 'entity' | 'entityId' | 'action' | 'opUid' | 'before' | 'after'>;

export interface Entity<Row extends LifecycleRow<S>, S extends string, E extends { type: string }> {
  /** Its name in the audit trail (audit_log.entity). */
  name: AuditEntry['entity'];
  table: PgTable;
  id: PgColumn;
  /** Its updated_at column, stamped with every change. */
  updatedAt: PgColumn;
  /** The A00004 message of a row that is not there. */
  notFound: string;
  /** The member a row belongs to: a member (role user) acts on their own rows only. */
  ownerOf?(row: Row): number;
  /**
   * What its machine's guards read beyond the row (counts of other tables: a board's tasks and
   * groups), one per row, read under the rows' locks just before deciding. Without it the row is all.
   */
  contextOf?(tx: Tx, rows: readonly Row[]): Promise<readonly unknown[]>;
  /** Its machine's answer to `event` for the row (the row's status, and the context built from the row, or `contextOf`'s). */
  decide(row: Row, event: E, context?: unknown): Decision<S>;
  /** The audit action of an event; the event type without its prefix ("pay.agree" -> "agree") by default. */
  actionOf?(event: E): string;
  /** Columns an event stamps with the time of the change (e.g. paidAt on pay.paid). */
  stamps?(event: E): readonly string[];
  /** What the audit trail shows of a row besides its id (its member, task label, item, status, ...). */
  describe(row: Row): AuditFields;
  /** What the audit trail keeps of a row as its before and after: the row itself by default (a withdraw line keeps its masked wire form). */
  auditForm?(row: Row): unknown;
  /** Who hears of a changed row (live updates). */
  live(row: Row): LiveChange[];
  /** Locks taken before the rows themselves, for the rows `ids` and `event` (the lock order); skipped when locking without an event. */
  lockFirst?(tx: Tx, ids: number[], event: E): Promise<void>;
  /** Where the events its machine emits go, by emitted event type. An emitted type with no entry is a bug. */
  follow?: Record<string, Follow<Row>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the store is generic over every entity
export type AnyEntity = Entity<any, any, any>;
type RowOf<X> = X extends Entity<infer R, infer _S, infer _E> ? R : never;
type EventOf<X> = X extends Entity<infer _R, infer _S, infer E> ? E : never;
type StatusOf<X> = X extends Entity<infer _R, infer S, infer _E> ? S : never;

/** Column changes written together with a status change: the same for every row, or from the locked row. */
export type SetOf<Row> = Partial<Omit<Row, 'id' | 'status'>> | ((row: Row) => Partial<Omit<Row, 'id' | 'status'>>);

export interface ApplyOptions<Row> {
  set?: SetOf<Row>;
  /** The audit action; entity.actionOf(event) by default. */
  action?: string;
  /** What a change's audit entry says beyond the entity's `describe` (what a publication mailed, a record's task); its fields win. */
  audit?: (moved: Moved<Row>) => Partial<AuditEntry>;
  now?: Date;
}

const sortedIds = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
export const anyId = (column: PgColumn, ids: number[]): SQL => sql`${column} = any(${sql.param(ids)}::int[])`;
const defaultAction = (event: { type: string }) => event.type.replace(/^[^.]*\./, '');

/**
 * Locks the rows `ids` of `entity` (FOR UPDATE, in id order, after the entity's lockFirst), and
 * answers them in id order. A missing id, or for a member another member's row, throws A00004.
 */
export async function lockRows<X extends AnyEntity>(tx: Tx, entity: X, actor: SessionUser | null, ids: number[], event?: EventOf<X>): Promise<RowOf<X>[]> {
  const list = sortedIds(ids);
  if (!list.length) return [];
  if (entity.lockFirst && event) await entity.lockFirst(tx, list, event);
  const rows = (await tx.select().from(entity.table).where(anyId(entity.id, list)).orderBy(asc(entity.id)).for('update')) as RowOf<X>[];
  if (rows.length !== list.length) throw notFound(entity.notFound);
  if (actor?.roleType === 'user' && entity.ownerOf && rows.some((r) => entity.ownerOf!(r) !== actor.id)) throw notFound(entity.notFound);
  return rows;
}

export interface Planned<Row, S extends string> {
  row: Row;
  next: S;
  emits: readonly { type: string }[];
}

/**
 * The machine's answer for every row, all or nothing: the first refusal throws A00001 with its
 * message. Pure: an entity with `contextOf` is given its contexts (one per row).
 */
export function planEvent<X extends AnyEntity>(
  entity: X,
  rows: readonly RowOf<X>[],
  event: EventOf<X>,
  contexts?: readonly unknown[],
): Planned<RowOf<X>, StatusOf<X>>[] {
  return rows.map((row, i) => {
    const d = entity.decide(row, event, contexts?.[i]);
    if (!d.ok) throw badRequest(d.msg);
    return { row, next: d.next as StatusOf<X>, emits: d.emits ?? [] };
  });
}

/** The audit entry of one change of a row of `entity`. */
export function auditOf<X extends AnyEntity>(
  entity: X,
  actor: Pick<SessionUser, 'id'> | null,
  action: string,
  before: RowOf<X> | null,
  after: RowOf<X>,
): AuditEntry {
  const form = (row: RowOf<X>) => (entity.auditForm ? entity.auditForm(row) : row);
  return {
    ...entity.describe(after),
    entity: entity.name,
    entityId: after.id,
    action,
    opUid: actor?.id ?? null,
    before: before && form(before),
    after: form(after),
  };
}

/**
 * Applies `event` to the rows `ids` of `entity`: locks them, asks the machine for each, writes
 * (status, the `set` columns, the event's stamps, updated_at), audits, announces, and delivers what
 * the machine emitted. Returns the rows after, in id order.
 */
export async function transition<X extends AnyEntity>(
  tx: Tx,
  entity: X,
  actor: SessionUser | null,
  ids: number[],
  event: EventOf<X>,
  opts: ApplyOptions<RowOf<X>> = {},
): Promise<RowOf<X>[]> {
  const rows = await lockRows(tx, entity, actor, ids, event);
  return applyToLocked(tx, entity, actor, rows, event, opts);
}

/**
 * `transition` for rows the caller has locked already (FOR UPDATE, with whatever the entity's
 * lockFirst takes before them): a caller that read the rows to decide what to do with them.
 */
export async function applyToLocked<X extends AnyEntity>(
  tx: Tx,
  entity: X,
  actor: SessionUser | null,
  rows: readonly RowOf<X>[],
  event: EventOf<X>,
  opts: ApplyOptions<RowOf<X>> = {},
): Promise<RowOf<X>[]> {
  if (!rows.length) return [];
  const planned = planEvent(entity, rows, event, await entity.contextOf?.(tx, rows));
  const now = opts.now ?? new Date();
  const stamped = Object.fromEntries((entity.stamps?.(event) ?? []).map((column) => [column, now]));
  const moved: Moved<RowOf<X>>[] = [];
  for (const { row, next } of planned) {
    const extra = typeof opts.set === 'function' ? opts.set(row) : opts.set;
    const [after] = (await tx
      .update(entity.table)
      .set({ ...extra, ...stamped, status: next, updatedAt: now } as never)
      .where(eq(entity.id, row.id))
      .returning()) as RowOf<X>[];
    if (!after) throw notFound(entity.notFound);
    moved.push({ before: row, after });
  }
  const action = opts.action ?? entity.actionOf?.(event) ?? defaultAction(event);
  await writeAudit(
    tx,
    moved.map((m) => ({ ...auditOf(entity, actor, action, m.before, m.after), ...opts.audit?.(m) })),
  );
  await publishLive(
    tx,
    moved.flatMap((m) => entity.live(m.after)),
  );
  await deliver(tx, entity, actor, planned, moved);
  return moved.map((m) => m.after);
}

/** Delivers each emitted event once, with the rows that emitted it, in the order first emitted. */
async function deliver<X extends AnyEntity>(tx: Tx, entity: X, actor: SessionUser | null, planned: Planned<RowOf<X>, StatusOf<X>>[], moved: Moved<RowOf<X>>[]) {
  const byType = new Map<string, { event: { type: string }; moved: Moved<RowOf<X>>[] }>();
  planned.forEach((p, i) => {
    for (const e of p.emits) {
      const key = JSON.stringify(e);
      const group = byType.get(key) ?? { event: e, moved: [] };
      group.moved.push(moved[i]!);
      byType.set(key, group);
    }
  });
  for (const { event, moved: from } of byType.values()) {
    const follow = entity.follow?.[event.type];
    if (!follow) throw new Error(`${entity.name}: nothing follows the emitted event ${event.type}`);
    await follow(tx, actor, from, event);
  }
}
