// The pages of the two audit screens (SPEC §2 /admin/task-audit "user log" and /admin/tracking-audit "admin log";
// §4 "the admin audit filter offers open, closed, locked, processing, finished, deleted, unmatch";
// DECISIONS "Receiving and matching": every scan, match, upload and task change writes who, when,
// what, before and after). Both read the append-only audit_log (src/server/audit.ts), newest first.
//
// Decision: a purchased-record entry (entity 'purchased') is listed in both logs - it is a member's
// act on a task (user log) about a tracking id (admin log). Its status column holds the task's
// status, so the user log's status filter (task statuses) applies to it; the record's own status is
// in before/after.
import { aliasedTable, and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { dayRange } from './dates.ts';
import { containsText } from './db/contains.ts';
import type { components, operations } from '../api/schema';
import { users } from './db/schema/accounts.ts';
import { auditItemNames, auditLog } from './db/schema/audit.ts';
import { rowsOf, type Db, type Tx } from './db/client.ts';
import { fromCents } from './money/cents.ts';
import { boundedCount, countBoundOf, countUpTo, pageOf, totalPagesOf } from './paging.ts';
import { TASK_STATUSES } from '../../machines/task.machine.ts';
import { canonicalTrackingId } from '../../machines/tracking-id.ts';

type AuditEntry = components['schemas']['AuditEntry'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type Entity = 'task' | 'purchased' | 'tracking';

/** Stored amounts in cents: shown on the wire as decimal amounts, like every other response. */
const MONEY_FIELDS = new Set(['price', 'buyIn', 'bonus', 'punish', 'averageCost', 'amount', 'income']);

/**
 * before / after as the screens read them: the stored snapshot is a whole database row (amounts in
 * cents, times as ISO text); the wire carries amounts as decimals and times as epoch milliseconds,
 * the same units as the rest of the API, so the diff reads like the task page. Other values and
 * non-object snapshots pass through unchanged.
 */
export function wireSnapshot(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || Array.isArray(v)) return JSON.stringify(v);
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    if (MONEY_FIELDS.has(k) && typeof value === 'number') out[k] = fromCents(value);
    else if (k.endsWith('At') && typeof value === 'string' && !Number.isNaN(Date.parse(value))) out[k] = Date.parse(value);
    else out[k] = value;
  }
  return JSON.stringify(out);
}

/** Names read for a contains filter: more than this many, and the text is common enough to walk the list. */
const NAMES_READ = 5_000;
/** At most this many names are each read in order on their own and merged; more are one filter. */
const NAMES_MERGED = 64;
/** A transaction's plans that read an index in its order rather than collect and sort its matches. */
const IN_INDEX_ORDER = sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`;

/**
 * How an entity's entries with an item name containing the text are read (decision 183): the names
 * are found in audit_item_names (a table of the products' names, with its trigram index), then
 * - none: the entity has no such entry and is not read;
 * - up to NAMES_MERGED: each name's first entries are read in order on (entity, item_name,
 *   created_at, id) and merged, the same cost at a million entries as at ten thousand;
 * - up to NAMES_READ: `item_name = any(names)`, and the planner walks the list or reads the names';
 * - more: the text is in most names, so in most entries: the list's index is walked, filtering.
 */
type NameFilter = { merged: string[] } | { where: SQL } | undefined;
const isMerged = (f: NameFilter): f is { merged: string[] } => f !== undefined && 'merged' in f;

async function nameFilters(db: Db, entities: Entity[], text: string | undefined): Promise<Map<Entity, NameFilter>> {
  const byEntity = new Map<Entity, NameFilter>(entities.map((e) => [e, undefined]));
  if (!text) return byEntity;
  const rows = await db
    .select({ entity: auditItemNames.entity, itemName: auditItemNames.itemName })
    .from(auditItemNames)
    .where(and(inArray(auditItemNames.entity, entities), containsText(auditItemNames.itemName, text)))
    .limit(NAMES_READ + 1);
  if (rows.length > NAMES_READ) return new Map(entities.map((e) => [e, { where: containsText(auditLog.itemName, text) }]));
  for (const e of entities) {
    const names = rows.filter((r) => r.entity === e).map((r) => r.itemName);
    byEntity.set(e, names.length <= NAMES_MERGED ? { merged: names } : { where: sql`${auditLog.itemName} = any(${sql.param(names)}::text[])` });
  }
  return byEntity;
}

type Paging = ReturnType<typeof pageOf>;

/** The logs' order: by time, the id breaking ties. */
const listOrder = (p: Paging) => (p.isDesc ? [desc(auditLog.createdAt), desc(auditLog.id)] : [asc(auditLog.createdAt), asc(auditLog.id)]);

/**
 * One entity's part of a page: its first offset + size entries in the list's order (`first`), and
 * its count up to `bound`. With up to NAMES_MERGED names, each name's entries are read in order on
 * (entity, item_name, created_at, id) through a lateral join of the names, and merged.
 */
function entityRead(db: Tx, entity: Entity, byName: NameFilter, given: SQL[], p: Paging, bound: number) {
  const dir = p.isDesc ? sql`desc` : sql`asc`;
  const order = listOrder(p);
  const limit = p.offset + p.size;
  const names = isMerged(byName) ? sql`unnest(${sql.param(byName.merged)}::text[]) n(name)` : null;
  const named = isMerged(byName) ? eq(auditLog.itemName, sql`n.name`) : byName?.where;
  const where = and(eq(auditLog.entity, entity), named, ...given);
  const first = sql`select ${auditLog.id} as id, ${auditLog.createdAt} as created_at from ${auditLog} where ${where}
    order by ${auditLog.createdAt} ${dir}, ${auditLog.id} ${dir} limit ${limit}`;
  if (!names) return { first: sql`(${first})`, count: () => countUpTo(db, auditLog, where, order, bound) };
  return {
    first: sql`(select f.id, f.created_at from ${names} cross join lateral (${first}) f order by f.created_at ${dir}, f.id ${dir} limit ${limit})`,
    count: async () => {
      const [row] = await rowsOf<{ n: number }>(
        db.execute(sql`select count(*)::int as n from (select 1 from ${names}
          cross join lateral (select 1 from ${auditLog} where ${where} limit ${bound + 1}) e limit ${bound + 1}) c`),
      );
      return boundedCount(Number(row?.n ?? 0), bound);
    },
  };
}

/** An entry as the logs answer it: the operator's name beside the id, before / after in wire units. */
const entryOf = (a: typeof auditLog.$inferSelect, opName: string | null): AuditEntry => ({
  id: a.id,
  entity: a.entity as Entity,
  action: a.action,
  mainId: a.mainId,
  subId: a.subId,
  opUid: a.opUid,
  ...(opName !== null ? { opName } : {}),
  userId: a.userId,
  upc: a.upc,
  count: a.count,
  itemName: a.itemName,
  status: a.status as AuditEntry['status'],
  trackingId: a.trackingId,
  taskId: a.taskId,
  before: wireSnapshot(a.before),
  after: wireSnapshot(a.after),
  createdAt: a.createdAt.getTime(),
});

/**
 * One page of a log, newest first, and its total counted up to a bound (paging.ts countUpTo): the
 * same cost at a million entries as at ten thousand. A log shows two entities; an index range on
 * (entity, created_at, id) is in order for one entity only, so each entity's first offset + size
 * entries are read in order on its own and the page is cut from their merge (an `entity in (...)`
 * filter sorted every matching entry of the table instead). The count is each entity's, bounded.
 * A filter is read the same way on its own index (entity, value, created_at, id: schema/audit.ts,
 * decision 166), so a rare value costs no more than a common one; the item name (contains) through
 * its names (nameFilters, decision 183). Two filters at once still walk one filter's index, filtering.
 */
async function pageAudits(db: Db, entities: Entity[], filters: (SQL | undefined)[], q: { page?: number; size?: number; isDesc?: boolean }, itemName?: string) {
  const p = pageOf(q);
  const given = filters.filter((f): f is SQL => f !== undefined);
  const byName = await nameFilters(db, entities, itemName);
  // An entity none of whose names contains the text has no entry to read.
  const read = entities.filter((e) => {
    const f = byName.get(e);
    return !(isMerged(f) && f.merged.length === 0);
  });
  if (read.length === 0) return { content: [], totalPages: 0, totalElements: 0 };
  const bound = countBoundOf(p);
  /** The page's rows and each entity's count: at once on the pool, one after another in a transaction (one connection). */
  const pageAndCounts = async (q: Tx, atOnce: boolean) => {
    const reads = read.map((entity) => entityRead(q, entity, byName.get(entity), given, p, bound));
    const dir = p.isDesc ? sql`desc` : sql`asc`;
    const firsts = sql.join(
      reads.map((r) => r.first),
      sql` union all `,
    );
    const pageIds = sql`select id from (${firsts}) firsts order by created_at ${dir}, id ${dir} limit ${p.size} offset ${p.offset}`;
    const page = () =>
      q
        .select({ a: auditLog, opName: users.nickName })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.opUid))
        .where(sql`${auditLog.id} in (${pageIds})`)
        .orderBy(...listOrder(p));
    if (atOnce) return Promise.all([page(), Promise.all(reads.map((r) => r.count()))]);
    const rows = await page();
    const counts = [];
    for (const r of reads) counts.push(await r.count());
    return [rows, counts] as const;
  };
  // Names read one at a time: each in its index's order, whatever the planner estimates for a name
  // it cannot see (a name of the join), which it read whole and sorted when it guessed it rare.
  const [rows, counts] = read.some((e) => isMerged(byName.get(e)))
    ? await db.transaction(async (tx) => (await tx.execute(IN_INDEX_ORDER), pageAndCounts(tx, false)))
    : await pageAndCounts(db, true);
  const all = counts.reduce((n, c) => n + c.counted, 0);
  const counted = Math.min(all, bound);
  const totalCapped = all > bound || counts.some((c) => c.totalCapped);
  const content = rows.map(({ a, opName }) => entryOf(a, opName));
  return { content, totalPages: totalPagesOf(counted, p.size), totalElements: counted, ...(totalCapped ? { totalCapped } : {}) };
}

/** A page of the user log (/admin/task-audit): task and purchased-record entries. */
export function listTaskAudits(db: Db, q: Query<'listTaskAudits'>) {
  return pageAudits(
    db,
    ['task', 'purchased'],
    [
      q.mainId !== undefined ? eq(auditLog.mainId, q.mainId) : undefined,
      q.taskId !== undefined ? eq(auditLog.taskId, q.taskId) : undefined,
      q.userId !== undefined ? eq(auditLog.userId, q.userId) : undefined,
      q.status !== undefined ? eq(auditLog.status, q.status) : undefined,
    ],
    q,
    q.itemName?.trim() || undefined,
  );
}

/** A page of the admin log (/admin/tracking-audit): scan-record and purchased-record entries. */
export function listTrackingAudits(db: Db, q: Query<'listTrackingAudits'>) {
  return pageAudits(
    db,
    // A purchased entry's status is its task's: a scan status no task has (match, payed...) finds
    // none of them, so that entity is not read at all (two statements fewer).
    q.status !== undefined && !(TASK_STATUSES as readonly string[]).includes(q.status) ? ['tracking'] : ['tracking', 'purchased'],
    [
      // Entries are written with the canonical key; older ones hold the id as it was written.
      q.trackingId?.trim() ? inArray(auditLog.trackingId, [...new Set([canonicalTrackingId(q.trackingId), q.trackingId.trim()])]) : undefined,
      q.upc?.trim() ? eq(auditLog.upc, q.upc.trim()) : undefined,
      q.opUid !== undefined ? eq(auditLog.opUid, q.opUid) : undefined,
      q.status !== undefined ? eq(auditLog.status, q.status) : undefined,
    ],
    q,
  );
}

// ---------------------------------------------------------------------------------------------
// Payout details read (decision 168; decision 052 writes them): reveals and payment-file lines.

type PayoutAuditEntry = components['schemas']['PayoutAuditEntry'];
type PayoutAction = PayoutAuditEntry['action'];
const PAYOUT_ACTIONS: readonly PayoutAction[] = ['reveal', 'paymentExport'];
const member = aliasedTable(users, 'member');

/** A field of the line as the entry kept it (its wire form, masked: withdraw-shapes.ts lineOut). */
const lineField = (after: unknown, key: string): unknown => (after && typeof after === 'object' ? (after as Record<string, unknown>)[key] : undefined);
const textOf = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/**
 * A page of the payout log (/admin/tracking-audit?log=payout): the withdraw entries whose action is
 * a read of payout details, newest first, filtered by action, admin, member and days. Each filter
 * has its index (entity, value, created_at, id) or walks the entity's in order; the withdraw
 * entity's entries are a few per line, so the action is filtered on the way.
 */
export async function listPayoutAudits(db: Db, q: Query<'listPayoutAudits'>) {
  const p = pageOf(q);
  const { from, to } = dayRange(q);
  const where = and(
    eq(auditLog.entity, 'withdraw'),
    inArray(auditLog.action, q.action ? [q.action] : [...PAYOUT_ACTIONS]),
    q.opUid !== undefined ? eq(auditLog.opUid, q.opUid) : undefined,
    q.userId !== undefined ? eq(auditLog.userId, q.userId) : undefined,
    from ? gte(auditLog.createdAt, from) : undefined,
    to ? lt(auditLog.createdAt, to) : undefined,
  );
  const order = listOrder(p);
  const [rows, count] = await Promise.all([
    db
      .select({ a: auditLog, opName: users.nickName, userName: member.nickName })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.opUid))
      .leftJoin(member, eq(member.id, auditLog.userId))
      .where(where)
      .orderBy(...order)
      .limit(p.size)
      .offset(p.offset),
    countUpTo(db, auditLog, where, order, countBoundOf(p)),
  ]);
  const content: PayoutAuditEntry[] = rows.map(({ a, opName, userName }) => ({
    id: a.id,
    action: a.action as PayoutAction,
    opUid: a.opUid,
    ...(opName !== null ? { opName } : {}),
    userId: a.userId,
    ...(userName !== null ? { userName } : {}),
    lineId: a.entityId,
    orderId: textOf(lineField(a.after, 'orderId')),
    paymentType: textOf(lineField(a.after, 'paymentType')),
    accountName: textOf(lineField(a.after, 'accountName')),
    cardNo: textOf(lineField(a.after, 'cardNo')),
    withdrawAmount: Number(lineField(a.after, 'withdrawAmount') ?? 0),
    createdAt: a.createdAt.getTime(),
  }));
  return {
    content,
    totalPages: totalPagesOf(count.counted, p.size),
    totalElements: count.counted,
    ...(count.totalCapped ? { totalCapped: true } : {}),
  };
}
