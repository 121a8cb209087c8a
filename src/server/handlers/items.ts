// The product catalogue (SPEC §2 /admin/item-list, /admin/item/{id}; §5 Item form; §7 Items).
// Items are closed, never deleted (tasks and scans keep pointing at them). Prices are integer cents
// in the database and decimals on the wire (money/cents.ts).
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { items } from '../db/schema/catalog.ts';
import { badRequest, notFound } from '../errors.ts';
import { fromCents, toCents } from '../money/cents.ts';
import { pageOf, totalPagesOf } from '../paging.ts';
import { writeAudit } from '../audit.ts';
import { isDbId } from './users.ts';
import { containsPattern } from '../db/contains.ts';
import { me, ok, type Handlers } from './types.ts';
import { failsCheckDigit, gtinForms, productCodeMessages } from '../../../machines/product-code.ts';

/** The product pickers show at most this many matches. */
export const SEARCH_LIMIT = 20;

type ItemRow = typeof items.$inferSelect;

/** The contract's Item: upc '' when unknown, price null when none, createdAt in epoch ms. */
const toItem = (r: ItemRow) => ({
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

/**
 * The item form's url: trimmed; decision: like the board-task form (SPEC §5) 'http://' is prefixed
 * when it starts with neither http:// nor https://, so a stored link is always a web link (never
 * e.g. javascript:) wherever it is rendered.
 */
const normalizeUrl = (url: string) => {
  const u = url.trim();
  return !u || /^https?:\/\//i.test(u) ? u : `http://${u}`;
};

async function findItem(tx: Tx, id: number, lock = false) {
  if (!isDbId(id)) return undefined;
  const q = tx.select().from(items).where(eq(items.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export const itemsHandlers: Handlers = {
  // Pickers: every item, open ones first, then newest first.
  async listItems(_req, ctx) {
    const rows = await ctx.db.select().from(items).orderBy(openFirst, desc(items.createdAt), desc(items.id));
    return ok(rows.map(toItem));
  },

  // /admin/item-list: productIdLike is the keyword box (name, upc or productId); the sort switch is
  // isDesc on createdAt.
  async listItemsPage(req, ctx) {
    const { size, offset, isDesc } = pageOf(req.query, 10);
    const keyword = req.query.productIdLike?.trim();
    const where = and(keyword ? keywordMatch(keyword) : undefined, req.query.status ? eq(items.status, req.query.status) : undefined);
    const order = isDesc ? [desc(items.createdAt), desc(items.id)] : [asc(items.createdAt), asc(items.id)];
    const [totals] = await ctx.db.select({ n: count() }).from(items).where(where);
    const rows = await ctx.db
      .select()
      .from(items)
      .where(where)
      .orderBy(...order)
      .limit(size)
      .offset(offset);
    const total = totals?.n ?? 0;
    return ok({ content: rows.map(toItem), totalPages: totalPagesOf(total, size), totalElements: total });
  },

  /**
   * Product pickers everywhere (scan, boards, filters): at most SEARCH_LIMIT items whose name, upc
   * or productId contains q. Open items first; then an exact upc or productId match (what a
   * scanner types) before partial ones; then newest. Only spaces: nothing matches. A valid GTIN
   * also finds the items whose upc is the same product code written with more or fewer leading zeros
   * (a scanner sends UPC-A 045496883386 as EAN-13 0045496883386; decision 074).
   */
  async searchItems(req, ctx) {
    const q = req.params.q.trim();
    if (!q) return ok([]);
    const lower = q.toLowerCase();
    const forms = gtinForms(q);
    const sameCode = forms.length ? inArray(items.upc, forms) : undefined;
    const exactFirst: SQL = sql`case when lower(${items.upc}) = ${lower} or lower(${items.productId}) = ${lower}${sameCode ? sql` or ${sameCode}` : sql``} then 0 else 1 end`;
    const rows = await ctx.db
      .select()
      .from(items)
      .where(sameCode ? or(keywordMatch(q), sameCode) : keywordMatch(q))
      .orderBy(openFirst, exactFirst, desc(items.createdAt), desc(items.id))
      .limit(SEARCH_LIMIT);
    return ok(rows.map(toItem));
  },

  async getItem(req, ctx) {
    const row = await findItem(ctx.db, req.params.id);
    if (!row) throw notFound('商品不存在');
    return ok(toItem(row));
  },

  /**
   * Creates (no id) or updates an item. SPEC §5: all fields required except id, upc and url;
   * itemName and productId must be non-empty after trimming. The request is the whole form: an
   * absent upc, url or price is stored empty (upc null: "not known", never a wildcard for matching;
   * price null: no reference price). Decision: neither upc nor productId is unique (several
   * catalogue entries may share a code, see the items schema). A upc whose check digit fails is saved
   * and the answer's msg says so.
   */
  async saveItem(req, ctx) {
    const actor = me(req);
    const body = req.body;
    const itemName = body.itemName.trim();
    const productId = body.productId.trim();
    if (!itemName) throw badRequest('商品名称必填');
    if (!productId) throw badRequest('商品ID必填');
    const values = {
      itemName,
      productId,
      upc: body.upc?.trim() || null,
      url: normalizeUrl(body.url ?? ''),
      status: body.status,
      price: body.price === undefined || body.price === null ? null : toCents(body.price),
    };
    const saved = await ctx.db.transaction(async (tx) => {
      const before = body.id === undefined ? undefined : await findItem(tx, body.id, true);
      if (body.id !== undefined && !before) throw notFound('商品不存在');
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
      return row;
    });
    // A upc whose check digit fails is saved (catalogs hold such codes) and flagged (decision 074).
    return ok(toItem(saved), saved.upc && failsCheckDigit(saved.upc) ? `保存成功；${productCodeMessages.checkDigit}` : '保存成功');
  },
};
