// A fake of the HTTP boundary for the catalog screens: an in-memory list of items behind the
// contract's calls (listItemsPage, searchItems, getItem, saveItem), answering in its envelope.
// The real handlers are tested in tests/server; here only the pages are under test.
import type { components } from '../../../src/api/schema';
import { json, ok, type Handler } from '../app-harness';

type Item = components['schemas']['Item'];
type ItemSaveRequest = components['schemas']['ItemSaveRequest'];

export interface FakeCatalog {
  items: Item[];
  saved: ItemSaveRequest[];
  handlers: Record<string, Handler>;
}

export function item(id: number, fields: Partial<Item> = {}): Item {
  return {
    id,
    itemName: `商品${id}`,
    upc: `0000000000${String(id).padStart(2, '0')}`,
    url: `https://shop.example.com/p/${id}`,
    status: 'open',
    productId: `P-${id}`,
    price: null,
    createdAt: Date.UTC(2024, 0, 1) + id * 60_000,
    ...fields,
  };
}

const MAX_ID = 300;

export function fakeCatalogApi(items: Item[] = []): FakeCatalog {
  const fake: FakeCatalog = { items, saved: [], handlers: {} };
  const matches = (it: Item, q: string) =>
    [it.itemName, it.upc, it.productId].some((field) => field.toLowerCase().includes(q.toLowerCase()));

  fake.handlers = {
    'GET /api/item/page': (request) => {
      const q = new URL(request.url).searchParams;
      const page = Number(q.get('page') ?? 0);
      const size = Number(q.get('size') ?? 10);
      const desc = q.get('isDesc') !== 'false';
      const keyword = q.get('productIdLike') ?? '';
      const status = q.get('status');
      const found = fake.items
        .filter((it) => (!keyword || matches(it, keyword)) && (!status || it.status === status))
        .sort((a, b) => (desc ? b.createdAt - a.createdAt : a.createdAt - b.createdAt));
      return ok({
        content: found.slice(page * size, page * size + size),
        totalPages: Math.ceil(found.length / size),
        totalElements: found.length,
      });
    },
    'POST /api/item/info': async (request) => {
      const body = (await request.json()) as ItemSaveRequest;
      fake.saved.push(body);
      const fields = {
        itemName: body.itemName,
        upc: body.upc ?? '',
        url: body.url ?? '',
        status: body.status,
        productId: body.productId,
        price: body.price ?? null,
      };
      if (body.id === undefined) {
        const created = { ...item(Math.max(0, ...fake.items.map((it) => it.id)) + 1), ...fields };
        fake.items.push(created);
        return ok(created);
      }
      const existing = fake.items.find((it) => it.id === body.id);
      if (!existing) return json({ code: 'A00004', msg: '商品不存在' }, 404);
      Object.assign(existing, fields);
      return ok(existing);
    },
  };
  // Path-parameter calls, registered per id (the harness matches exact paths).
  for (let id = 1; id <= MAX_ID; id += 1) {
    fake.handlers[`GET /api/item/info/${id}`] = () => {
      const found = fake.items.find((it) => it.id === id);
      return found ? ok(found) : json({ code: 'A00004', msg: '商品不存在' }, 404);
    };
  }
  return fake;
}

/** searchItems for a picker test: `GET /api/item/info/like/{q}` for the given queries. */
export function searchHandlers(fake: FakeCatalog, queries: readonly string[]): Record<string, Handler> {
  const handlers: Record<string, Handler> = {};
  for (const q of queries) {
    handlers[`GET /api/item/info/like/${encodeURIComponent(q)}`] = () =>
      ok(fake.items.filter((it) => [it.itemName, it.upc, it.productId].some((f) => f.toLowerCase().includes(q.toLowerCase()))));
  }
  return handlers;
}
