// The product catalogue (SPEC §2 /admin/item-list, /admin/item/{id}; §5 Item form; §7 Items).
// The handlers check and normalize the request and answer; the queries and writes are
// catalog/items.ts (decision 164). Prices are decimals on the wire, integer cents stored.
import { itemById, listItems, pageItems, saveItem, searchItems } from '../catalog/items.ts';
import { badRequest, notFound } from '../errors.ts';
import { toCents } from '../money/cents.ts';
import { pageOf } from '../paging.ts';
import { me, ok, type Handlers } from './types.ts';
import { failsCheckDigit, productCodeMessages } from '../../../machines/product-code.ts';

/**
 * The item form's url: trimmed; decision: like the board-task form (SPEC §5) 'http://' is prefixed
 * when it starts with neither http:// nor https://, so a stored link is always a web link (never
 * e.g. javascript:) wherever it is rendered.
 */
const normalizeUrl = (url: string) => {
  const u = url.trim();
  return !u || /^https?:\/\//i.test(u) ? u : `http://${u}`;
};

export const itemsHandlers: Handlers = {
  // Pickers: every item, open ones first, then newest first.
  async listItems(_req, ctx) {
    return ok(await listItems(ctx.db));
  },

  // /admin/item-list: productIdLike is the keyword box (name, upc or productId); the sort switch is
  // isDesc on createdAt.
  async listItemsPage(req, ctx) {
    const page = pageOf(req.query, 10);
    return ok(await pageItems(ctx.db, { keyword: req.query.productIdLike?.trim(), status: req.query.status }, page));
  },

  /** Product pickers everywhere (scan, boards, filters): see searchItems. Only spaces: nothing matches. */
  async searchItems(req, ctx) {
    const q = req.params.q.trim();
    if (!q) return ok([]);
    return ok(await searchItems(ctx.db, q));
  },

  async getItem(req, ctx) {
    const item = await itemById(ctx.db, req.params.id);
    if (!item) throw notFound('商品不存在');
    return ok(item);
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
    const body = req.body;
    const itemName = body.itemName.trim();
    const productId = body.productId.trim();
    if (!itemName) throw badRequest('商品名称必填');
    if (!productId) throw badRequest('商品ID必填');
    const saved = await saveItem(ctx.db, me(req), body.id, {
      itemName,
      productId,
      upc: body.upc?.trim() || null,
      url: normalizeUrl(body.url ?? ''),
      status: body.status,
      price: body.price === undefined || body.price === null ? null : toCents(body.price),
    });
    // A upc whose check digit fails is saved (catalogs hold such codes) and flagged (decision 074).
    return ok(saved, saved.upc && failsCheckDigit(saved.upc) ? `保存成功；${productCodeMessages.checkDigit}` : '保存成功');
  },
};
