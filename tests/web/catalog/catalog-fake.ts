// A fake of the HTTP boundary for the catalog screens: an in-memory list of items behind the
// contract's calls (listItemsPage, searchItems, getItem, saveItem), answering in its envelope
// (support/fake-api.ts). The real handlers are tested in tests/server; here only the pages are under test.
import type { components } from '../../../src/api/schema';
import { createFakeServer, notFound, ok, pageOf, type Call, type Routes } from '../support/fake-api';

type Item = components['schemas']['Item'];
type ItemSaveRequest = components['schemas']['ItemSaveRequest'];

export interface CatalogFake {
  items: Item[];
  saved: ItemSaveRequest[];
  handlers: Routes;
  calls: Call[];
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

/** searchItems' and the list's keyword: the name, UPC or productId contains it. */
const matches = (it: Item, q: string) => [it.itemName, it.upc, it.productId].some((field) => field.toLowerCase().includes(q.toLowerCase()));

export function createCatalogFake(items: Item[] = []): CatalogFake {
  const server = createFakeServer();
  const fake: CatalogFake = { items, saved: [], handlers: server.handlers, calls: server.calls };

  server.on('GET', '/api/item/page', ({ query }) => {
    const desc = query.isDesc !== 'false';
    const keyword = query.productIdLike ?? '';
    const found = fake.items
      .filter((it) => (!keyword || matches(it, keyword)) && (!query.status || it.status === query.status))
      .sort((a, b) => (desc ? b.createdAt - a.createdAt : a.createdAt - b.createdAt));
    return ok(pageOf(found, query, 10));
  });

  server.on('POST', '/api/item/info', ({ body }) => {
    const request = body as ItemSaveRequest;
    fake.saved.push(request);
    const fields = {
      itemName: request.itemName,
      upc: request.upc ?? '',
      url: request.url ?? '',
      status: request.status,
      productId: request.productId,
      price: request.price ?? null,
    };
    if (request.id === undefined) {
      const created = { ...item(Math.max(0, ...fake.items.map((it) => it.id)) + 1), ...fields };
      fake.items.push(created);
      return ok(created);
    }
    const existing = fake.items.find((it) => it.id === request.id);
    if (!existing) return notFound('商品不存在');
    Object.assign(existing, fields);
    return ok(existing);
  });

  server.on('GET', '/api/item/info/{id}', ({ params }) => {
    const found = fake.items.find((it) => it.id === Number(params.id));
    return found ? ok(found) : notFound('商品不存在');
  });

  server.on('GET', '/api/item/info/like/{q}', ({ params }) => ok(fake.items.filter((it) => matches(it, params.q!))));

  return fake;
}
