// The product catalogue's queries and writes (SPEC §2 /admin/item-list, /admin/item/{id}; §5 Item
// form; §7 Items). Items are closed, never deleted (tasks and scans keep pointing at them). Prices
// are integer cents in the database and decimals on the wire (money/cents.ts); toItem is the
// contract's Item.
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import type { SessionUser } from '../auth/session-user.ts';
import { writeAudit } from '../audit.ts';
import type { Db, Tx } from '../db/client.ts';
import { containsPattern } from '../db/contains.ts';
import { items } from '../db/schema/catalog.ts';
import { notFound } from '../errors.ts';
import { isDbId } from '../ids.ts';
import { fromCents } from '../money/cents.ts';
import { totalPagesOf } from '../paging.ts';
import { gtinForms } from '../../../machines/product-code.ts';

/** The product pickers show at most this many matches. */
export const SEARCH_LIMIT = 20;

type ItemRow = typeof items.$inferSelect;
type ItemStatus = ItemRow['status'];

/** The contract's Item: upc '' when unknown, price null when none, createdAt in epoch ms. */
const toItem = (r: ItemRow): components['schemas']['Item'] => ({
  id: r.id,
  itemName: r.itemName,
  upc: r.upc ?? '',
  url: r.url,
  status: r.status,
  productId: r.productId,
  price: r.price === null ? null : fromCents(r.price),
  createdAt: r.createdAt.getTime(),
});

/** Keyword match on name, upc and productId, case-insensitive. */
const keywordMatch = (q: string) => {
  const p = containsPattern(q);
  return or(ilike(items.itemName, p), ilike(items.upc, p), ilike(items.productId, p));
};

// item_status is a PostgreSQL enum declared (open, close), and enums sort in declaration order:
// ascending status puts open items first.
const openFirst = asc(items.status);

async function findItem(tx: Tx, id: number, lock = false) {
  if (!isDbId(id)) return undefined;
  const q = tx.select().from(items).where(eq(items.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** One item, or undefined. */
export async function itemById(tx: Tx, id: number) {
  const row = await findItem(tx, id);
  return row && toItem(row);
}

/** Every item, open ones first, then newest first (the pickers). */
export async function listItems(tx: Tx) {
  const rows = await tx.select().from(items).orderBy(openFirst, desc(items.createdAt), desc(items.id));
  return rows.map(toItem);
}

/** /admin/item-list: a page of items matching the keyword (name, upc or productId) and status, by createdAt. */
export async function pageItems(tx: Tx, f: { keyword?: string; status?: ItemStatus }, p: { size: number; offset: number; isDesc: boolean }) {
  const where = and(f.keyword ? keywordMatch(f.keyword) : undefined, f.status ? eq(items.status, f.status) : undefined);
  const order = p.isDesc ? [desc(items.createdAt), desc(items.id)] : [asc(items.createdAt), asc(items.id)];
  const [totals] = await tx.select({ n: count() }).from(items).where(where);
  const rows = await tx
    .select()
    .from(items)
    .where(where)
    .orderBy(...order)
    .limit(p.size)
    .offset(p.offset);
  const total = totals?.n ?? 0;
  return { content: rows.map(toItem), totalPages: totalPagesOf(total, p.size), totalElements: total };
}

/**
 * At most SEARCH_LIMIT items whose name, upc or productId contains q (trimmed, not empty). Open
 * items first; then an exact upc or productId match (what a scanner types) before partial ones;
 * then newest. A valid GTIN also finds the items whose upc is the same product code written with
 * more or fewer leading zeros (a scanner sends UPC-A 045496883386 as EAN-13 0045496883386; decision 074).
 */
export async function searchItems(tx: Tx, q: string) {
  const lower = q.toLowerCase();
  const forms = gtinForms(q);
  const sameCode = forms.length ? inArray(items.upc, forms) : undefined;
  const exactFirst: SQL = sql`case when lower(${items.upc}) = ${lower} or lower(${items.productId}) = ${lower}${sameCode ? sql` or ${sameCode}` : sql``} then 0 else 1 end`;
  const rows = await tx
    .select()
    .from(items)
    .where(sameCode ? or(keywordMatch(q), sameCode) : keywordMatch(q))
    .orderBy(openFirst, exactFirst, desc(items.createdAt), desc(items.id))
    .limit(SEARCH_LIMIT);
  return rows.map(toItem);
}

/** The stored columns of the item form, already checked and normalized by the caller. */
export interface ItemValues {
  itemName: string;
  productId: string;
  upc: string | null;
  url: string;
  status: ItemStatus;
  price: number | null;
}

/** Creates (no id) or updates an item (A00004 for an unknown id), with its audit entry. */
export async function saveItem(db: Db, actor: SessionUser, id: number | undefined, values: ItemValues) {
  return db.transaction(async (tx) => {
    const before = id === undefined ? undefined : await findItem(tx, id, true);
    if (id !== undefined && !before) throw notFound('商品不存在');
    const [row] = before ? await tx.update(items).set(values).where(eq(items.id, before.id)).returning() : await tx.insert(items).values(values).returning();
    if (!row) throw notFound('商品不存在');
    await writeAudit(tx, {
      entity: 'item',
      entityId: row.id,
      action: before ? 'edit' : 'create',
      opUid: actor.id,
      upc: row.upc,
      itemName: row.itemName,
      status: row.status,
      before: before ? toItem(before) : null,
      after: toItem(row),
    });
    return toItem(row);
  });
}
