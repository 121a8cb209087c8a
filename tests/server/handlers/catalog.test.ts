// The product catalogue through the real API on a real database (SPEC §2 /admin/item-list,
// /admin/item/{id}; §5 Item form; §7 Items; §9 page size 10).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { items } from '../../../src/server/db/schema/catalog.ts';
import { auditLog } from '../../../src/server/db/schema/audit.ts';
import { call, createUser, login, useTestApp } from '../support/harness.ts';

const t = useTestApp();

interface Item {
  id: number;
  itemName: string;
  upc: string;
  url: string;
  status: 'open' | 'close';
  productId: string;
  price: number | null;
  createdAt: number;
}
interface Page<T> {
  content: T[];
  totalPages: number;
  totalElements: number;
}

const get = <T>(token: string, url: string) => call<T>(t().app, { method: 'GET', url, headers: { 'x-token': token } });
const save = (token: string, payload: unknown) =>
  call<Item>(t().app, { method: 'POST', url: '/api/item/info', headers: { 'x-token': token }, payload: payload as object });

async function tokens() {
  const { app, database } = t();
  await createUser(database, { mailAddr: 'boss@x.test', roleType: 'admin' });
  await createUser(database, { mailAddr: 'lower@x.test', roleType: 'lowerAdmin' });
  await createUser(database, { mailAddr: 'member@x.test', inGroup: true });
  return { admin: await login(app, 'boss@x.test'), lower: await login(app, 'lower@x.test'), user: await login(app, 'member@x.test') };
}

/** n items created one minute apart (oldest first), named Item 01.. with upc 0000000000NN. */
async function seed(n: number, extra: (i: number) => Partial<typeof items.$inferInsert> = () => ({})) {
  const base = Date.parse('2024-01-01T00:00:00Z');
  const rows = Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    const nn = String(i).padStart(2, '0');
    return { itemName: `Item ${nn}`, upc: `0000000000${nn}`, productId: `P-${nn}`, createdAt: new Date(base + i * 60_000), ...extra(i) };
  });
  return t().database.db.insert(items).values(rows).returning();
}

describe('/admin/item/{id|new}', () => {
  it('creates and edits an item: price in cents in the database, upc and url optional, url made a web link', async () => {
    const tk = await tokens();
    const created = await save(tk.lower, {
      itemName: ' 任天堂 Switch ',
      productId: ' B0TEST ',
      status: 'open',
      upc: ' 045496 ',
      url: 'www.amazon.com/dp/B0TEST',
      price: 19.99,
    });
    expect(created.body).toMatchObject({
      code: 'A00000',
      msg: '保存成功',
      data: { itemName: '任天堂 Switch', productId: 'B0TEST', status: 'open', upc: '045496', url: 'http://www.amazon.com/dp/B0TEST', price: 19.99 },
    });
    const id = created.body.data!.id;
    const [row] = await t().database.db.select().from(items).where(eq(items.id, id));
    expect(row).toMatchObject({ price: 1999, upc: '045496' });

    const fetched = await get<Item>(tk.user, `/api/item/info/${id}`);
    expect(fetched.body.data).toEqual(created.body.data);
    expect(typeof fetched.body.data!.createdAt).toBe('number');

    // The whole form is sent: what is left out is empty afterwards.
    const edited = await save(tk.admin, { id, itemName: 'Switch OLED', productId: 'B0TEST', status: 'close', url: 'https://example.com/x' });
    expect(edited.body.data).toEqual({ ...created.body.data, itemName: 'Switch OLED', status: 'close', upc: '', url: 'https://example.com/x', price: null });
    const [after] = await t().database.db.select().from(items).where(eq(items.id, id));
    expect(after).toMatchObject({ upc: null, price: null, itemName: 'Switch OLED' });
    expect((await save(tk.admin, { id, itemName: 'Switch OLED', productId: 'B0TEST', status: 'close', price: 0.1 })).body.data!.price).toBe(0.1);

    const audit = await t().database.db.select().from(auditLog).where(eq(auditLog.entity, 'item')).orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'edit', 'edit']);
    expect(audit[1]).toMatchObject({
      entityId: id,
      itemName: 'Switch OLED',
      status: 'close',
      before: { itemName: '任天堂 Switch', price: 19.99 },
      after: { status: 'close', price: null },
    });
  });

  it('refuses bad forms with 400 A00001 and unknown ids with 404 A00004, changing nothing', async () => {
    const tk = await tokens();
    const good = { itemName: 'Item', productId: 'P1', status: 'open' };
    expect(await save(tk.admin, { ...good, itemName: '   ' })).toMatchObject({ status: 400, body: { code: 'A00001', msg: '商品名称必填' } });
    expect(await save(tk.admin, { ...good, productId: ' ' })).toMatchObject({ status: 400, body: { code: 'A00001', msg: '商品ID必填' } });
    const bad: [unknown, string][] = [
      [{ ...good, itemName: '' }, 'itemName'],
      [{ ...good, productId: '' }, 'productId'],
      [{ itemName: 'Item', status: 'open' }, 'productId'],
      [{ itemName: 'Item', productId: 'P1' }, 'status'],
      [{ ...good, status: 'sold' }, 'status'],
      [{ ...good, price: 1.234 }, 'price'],
      [{ ...good, price: -1 }, 'price'],
      [{ ...good, price: '9.99' }, 'price'],
      [{ ...good, stock: 3 }, 'stock'],
      [{ ...good, id: 0 }, 'id'],
    ];
    for (const [body, field] of bad) {
      const res = await save(tk.admin, body);
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { code: 'A00001' } });
      expect(res.body.msg).toContain(field);
    }
    expect(await save(tk.admin, { ...good, id: 4242 })).toMatchObject({ status: 404, body: { code: 'A00004', msg: '商品不存在' } });
    expect(await t().database.db.select().from(items)).toEqual([]);
    expect(await t().database.db.select().from(auditLog)).toEqual([]);

    expect(await get(tk.admin, '/api/item/info/4242')).toMatchObject({ status: 404, body: { code: 'A00004', msg: '商品不存在' } });
    expect(await get(tk.admin, '/api/item/info/99999999999')).toMatchObject({
      status: 400,
      body: { code: 'A00001', msg: '参数错误：字段 id 不能大于 2147483647' },
    });
    expect(await get(tk.admin, '/api/item/info/abc')).toMatchObject({ status: 400, body: { code: 'A00001' } });
    // Members read the catalogue but do not edit it.
    expect(await save(tk.user, good)).toMatchObject({ status: 403, body: { code: 'A00003' } });
    expect(await get(tk.user, '/api/item/page')).toMatchObject({ status: 403, body: { code: 'A00003' } });
  });
});

describe('/admin/item-list', () => {
  it('pages 10 by default, newest first unless isDesc=false', async () => {
    const tk = await tokens();
    await seed(23);
    const page = async (q = '') => (await get<Page<Item>>(tk.admin, `/api/item/page?${q}`)).body.data!;
    const first = await page();
    expect(first).toMatchObject({ totalPages: 3, totalElements: 23 });
    expect(first.content.map((i) => i.itemName)).toEqual(Array.from({ length: 10 }, (_, k) => `Item ${String(23 - k).padStart(2, '0')}`));
    expect((await page('page=2')).content.map((i) => i.itemName)).toEqual(['Item 03', 'Item 02', 'Item 01']);
    expect((await page('page=0&size=15')).content).toHaveLength(15);
    expect((await page('size=20&isDesc=false')).content[0]!.itemName).toBe('Item 01');
    expect(first.content[0]).toEqual({
      id: first.content[0]!.id,
      itemName: 'Item 23',
      upc: '000000000023',
      url: '',
      status: 'open',
      productId: 'P-23',
      price: null,
      createdAt: Date.parse('2024-01-01T00:23:00Z'),
    });
    expect((await get(tk.admin, '/api/item/page?size=1001')).status).toBe(400);
  });

  it('filters by keyword (name, upc or productId, case-insensitive) and status', async () => {
    const tk = await tokens();
    await seed(12, (i) => ({ status: i % 3 === 0 ? 'close' : 'open', ...(i === 5 ? { itemName: 'Nintendo Switch', productId: 'B0SWITCH' } : {}) }));
    const names = async (q: string) => (await get<Page<Item>>(tk.admin, `/api/item/page?size=100&${q}`)).body.data!.content.map((i) => i.itemName);
    expect(await names('productIdLike=switch')).toEqual(['Nintendo Switch']);
    expect(await names('productIdLike=b0sw')).toEqual(['Nintendo Switch']);
    expect(await names('productIdLike=00000000001')).toEqual(['Item 12', 'Item 11', 'Item 10', 'Item 01']);
    expect(await names('productIdLike=p-0')).toHaveLength(8);
    expect(await names('productIdLike=%25')).toEqual([]);
    expect(await names('status=close')).toEqual(['Item 12', 'Item 09', 'Item 06', 'Item 03']);
    expect(await names('status=open&productIdLike=item%201')).toEqual(['Item 11', 'Item 10']);
    const counted = (await get<Page<Item>>(tk.admin, '/api/item/page?status=open&size=3')).body.data!;
    expect(counted).toMatchObject({ totalElements: 8, totalPages: 3 });
    expect((await get(tk.admin, '/api/item/page?status=gone')).status).toBe(400);
  });
});

describe('product pickers', () => {
  it('search matches name, upc or productId, open items first, exact codes next, at most 20', async () => {
    const tk = await tokens();
    await seed(30, (i) => ({ status: i === 30 ? 'close' : 'open' }));
    const search = async (q: string, token = tk.user) => (await get<Item[]>(token, `/api/item/info/like/${encodeURIComponent(q)}`)).body.data!;

    const many = await search('item');
    expect(many).toHaveLength(20);
    expect(many.every((i) => i.status === 'open')).toBe(true);
    expect(many[0]!.itemName).toBe('Item 29');

    // The closed item comes after the open ones; an exact upc comes before partial matches.
    expect((await search('00000000003')).map((i) => i.itemName)).toEqual(['Item 03', 'Item 30']);
    const [, , third] = await t()
      .database.db.insert(items)
      .values([
        { itemName: 'Widget A', upc: '123', productId: 'W-1', createdAt: new Date('2024-02-01') },
        { itemName: 'Widget 123 B', upc: '999', productId: 'W-2', createdAt: new Date('2024-02-02') },
        { itemName: 'Widget C', upc: '5123', productId: 'w-123', createdAt: new Date('2024-02-03') },
      ])
      .returning();
    expect((await search('123')).map((i) => i.itemName)).toEqual(['Widget A', 'Widget C', 'Widget 123 B']);
    expect((await search('W-123', tk.lower)).map((i) => i.id)).toEqual([third!.id]);
    expect(await search('nothing-like-this')).toEqual([]);
    expect(await search('   ')).toEqual([]);
    expect(await search('_')).toEqual([]);
  });

  it('lists every item for pickers, open ones first', async () => {
    const tk = await tokens();
    await seed(4, (i) => ({ status: i === 4 ? 'close' : 'open' }));
    const all = (await get<Item[]>(tk.user, '/api/item/list')).body.data!;
    expect(all.map((i) => i.itemName)).toEqual(['Item 03', 'Item 02', 'Item 01', 'Item 04']);
  });
});
