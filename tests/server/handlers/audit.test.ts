// The two logs (SPEC §2 /admin/task-audit and /admin/tracking-audit) page a table every scan writes
// to: each shows two entities merged newest first (or oldest first), the pages cut from that merge,
// and the total counted only up to the current page plus COUNT_AHEAD (paging.ts), saying when it
// stopped, so a log of a million entries answers like a small one.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/server/db/client.ts';
import { containsText } from '../../../src/server/db/contains.ts';
import { auditItemNames } from '../../../src/server/db/schema/audit.ts';
import { COUNT_AHEAD } from '../../../src/server/paging.ts';
import { call, createUser, login, useTestApp } from '../support/harness.ts';

const t = useTestApp();

interface Entry {
  id: number;
  entity: string;
  action: string;
  createdAt: number;
}
interface Page {
  content: Entry[];
  totalPages: number;
  totalElements: number;
  totalCapped?: boolean;
}

async function admin() {
  await createUser(t().database, { mailAddr: 'audit-admin@x.test', roleType: 'admin' });
  return login(t().app, 'audit-admin@x.test');
}

const page = async (token: string, log: 'task' | 'tracking', query: string) => {
  const res = await call<Page>(t().app, { method: 'GET', url: `/api/audit/${log}/list?${query}`, headers: { 'x-token': token } });
  expect(res.status).toBe(200);
  return res.body.data!;
};

/** n entries of each entity, their times interleaved (the same second for several, so id breaks ties), and some of other entities. */
async function seed(n: number) {
  await t().database.db.execute(sql`
    insert into audit_log (entity, action, created_at)
    select e::audit_entity, e || '-' || g, timestamptz '2026-01-01' + ((g * 7 + length(e)) / 3) * interval '1 second'
    from generate_series(1, ${n}) g, unnest(array['task', 'purchased', 'tracking', 'payment']) e`);
}

describe('the audit logs', () => {
  it('merge their two entities in time order, page after page, both ways', async () => {
    const token = await admin();
    await seed(30);
    const all = async (log: 'task' | 'tracking', isDesc: boolean) => {
      const seen: Entry[] = [];
      for (let p = 0; p < 7; p++) seen.push(...(await page(token, log, `page=${p}&size=9&isDesc=${isDesc}`)).content);
      return seen;
    };
    for (const [log, entities] of [
      ['task', ['task', 'purchased']],
      ['tracking', ['tracking', 'purchased']],
    ] as const) {
      const newest = await all(log, true);
      expect(newest).toHaveLength(60);
      expect(new Set(newest.map((e) => e.entity))).toEqual(new Set(entities));
      const byTime = [...newest].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
      expect(newest.map((e) => e.id)).toEqual(byTime.map((e) => e.id));
      const oldest = await all(log, false);
      expect(oldest.map((e) => e.id)).toEqual([...byTime].reverse().map((e) => e.id));
      expect(await page(token, log, 'size=9')).toMatchObject({ totalElements: 60, totalPages: 7 });
      expect((await page(token, log, 'size=9')).totalCapped).toBeUndefined();
    }
  });

  it('counts at most the entries up to the page plus COUNT_AHEAD, says so, and counts further as the admin pages on', async () => {
    const token = await admin();
    const n = COUNT_AHEAD + 100; // of each entity: the log shows twice that
    await seed(n);
    const first = await page(token, 'task', 'size=20');
    expect(first).toMatchObject({ totalElements: 20 + COUNT_AHEAD, totalPages: (20 + COUNT_AHEAD) / 20, totalCapped: true });
    expect(first.content).toHaveLength(20);
    const last = Math.ceil((2 * n) / 20) - 1;
    const deep = await page(token, 'task', `size=20&page=${last}`);
    expect(deep).toMatchObject({ totalElements: 2 * n, totalPages: last + 1 });
    expect(deep.totalCapped).toBeUndefined();
    expect(deep.content).toHaveLength(2 * n - 20 * last);
    // A filter counts what it matches, exactly when that is few.
    expect(await page(token, 'tracking', `size=20&status=scan`)).toMatchObject({ totalElements: 0, totalPages: 0, content: [] });
  });

  it('the admin log filtered by a scan status finds the scan entries, and the records’ entries only when a task can have that status', async () => {
    const token = await admin();
    await t().database.db.execute(sql`
      insert into audit_log (entity, action, status, created_at) values
        ('tracking', 'scan', 'match', now()), ('tracking', 'scan', 'unmatch', now()),
        ('purchased', 'create', 'locked', now()), ('purchased', 'create', 'unmatch', now())`);
    const entities = async (status: string) => (await page(token, 'tracking', `status=${status}`)).content.map((e) => `${e.entity}:${e.action}`).sort();
    expect(await entities('match')).toEqual(['tracking:scan']);
    // unmatch is a task status too: a record's entry of an unmatch task is listed beside the scan's.
    expect(await entities('unmatch')).toEqual(['purchased:create', 'tracking:scan']);
    expect(await page(token, 'tracking', 'status=match')).toMatchObject({ totalElements: 1, totalPages: 1 });
  });
});

describe('the user log filtered by item name', () => {
  /** The user log's entries whose item name contains `text`, as "entity:name", sorted. */
  const named = async (token: string, text: string) =>
    (await page(token, 'task', `size=100&itemName=${encodeURIComponent(text)}`)).content
      .map((e) => `${e.entity}:${(e as Entry & { itemName: string }).itemName}`)
      .sort();

  it('finds a name containing the text anywhere in any case, with % _ and \\ matching themselves', async () => {
    const token = await admin();
    await t().database.db.execute(sql`
      insert into audit_log (entity, action, item_name, created_at) values
        ('task', 'claim', 'Deluxe 50% Off Bundle', now()), ('purchased', 'create', 'deluxe 50% OFF bundle XL', now()),
        ('task', 'claim', 'Deluxe 50 Off Bundle', now()), ('task', 'claim', 'Deluxe 5000 Off', now()),
        ('tracking', 'scan', 'Deluxe 50% Off Bundle', now()),
        ('task', 'claim', 'Snack_Box', now()), ('task', 'claim', 'SnackXBox', now()), ('task', 'claim', 'Snack\\Box', now())`);
    expect(await named(token, '50% off')).toEqual(['purchased:deluxe 50% OFF bundle XL', 'task:Deluxe 50% Off Bundle']);
    expect(await named(token, 'LUXE 50')).toEqual([
      'purchased:deluxe 50% OFF bundle XL',
      'task:Deluxe 50 Off Bundle',
      'task:Deluxe 50% Off Bundle',
      'task:Deluxe 5000 Off',
    ]);
    expect(await named(token, '%')).toEqual(['purchased:deluxe 50% OFF bundle XL', 'task:Deluxe 50% Off Bundle']);
    expect(await named(token, 'k_b')).toEqual(['task:Snack_Box']);
    expect(await named(token, 'k\\B')).toEqual(['task:Snack\\Box']);
    // Shorter than a trigram: the index cannot narrow it, the answer is the same.
    expect(await named(token, 'xl')).toEqual(['purchased:deluxe 50% OFF bundle XL']);
  });

  it('pages many matching names in order, the same whether each name is read on its own or all at once (decision 183)', async () => {
    const token = await admin();
    // 70 names, more than are read one at a time (64); each name twice, once as a record's entry,
    // the times a name's number in minutes ago, so newest first is Widget 001, 002, ...
    await t().database.db.execute(sql`
      insert into audit_log (entity, action, item_name, created_at)
      select e, 'claim', 'Widget ' || lpad(k::text, 3, '0'), now() - make_interval(mins => k) - case when e = 'task' then interval '0' else interval '1 second' end
      from generate_series(1, 70) k, unnest(array['task', 'purchased']::audit_entity[]) e`);
    await t().database.db.execute(
      sql`insert into audit_log (entity, action, item_name) values ('task', 'claim', 'Gadget'), ('tracking', 'scan', 'Widget 999')`,
    );
    const listed = async (query: string) => {
      const body = await page(token, 'task', query);
      return { names: body.content.map((e) => `${e.entity.slice(0, 1)}${(e as Entry & { itemName: string }).itemName.slice(-3)}`), total: body.totalElements };
    };
    // All 70 names (one filter): the third page of 10, newest first, and the total of 140.
    expect(await listed('itemName=widget&size=10&page=2')).toEqual({
      names: ['t011', 'p011', 't012', 'p012', 't013', 'p013', 't014', 'p014', 't015', 'p015'],
      total: 140,
    });
    // Nine names (each read on its own, merged): the same order, oldest first too.
    expect(await listed('itemName=WIDGET 00&size=4&page=1')).toEqual({ names: ['t003', 'p003', 't004', 'p004'], total: 18 });
    expect(await listed('itemName=WIDGET 00&size=4&page=0&isDesc=false')).toEqual({ names: ['p009', 't009', 'p008', 't008'], total: 18 });
    // A scan's name is not the user log's; a text no name has reads nothing.
    expect(await listed('itemName=widget 999')).toEqual({ names: [], total: 0 });
    expect(await listed('itemName=nothing like it')).toEqual({ names: [], total: 0 });
  });

  it('walks the list for a text in more names than are read (5,000), with the same page and a capped count', async () => {
    const token = await admin();
    await t().database.db.execute(sql`
      insert into audit_log (entity, action, item_name, created_at)
      select 'task', 'claim', 'Bulk ' || k, now() - make_interval(secs => k) from generate_series(1, 5001) k`);
    const body = await page(token, 'task', 'itemName=BULK&size=3&page=1');
    expect(body.content.map((e) => (e as Entry & { itemName: string }).itemName)).toEqual(['Bulk 4', 'Bulk 5', 'Bulk 6']);
    expect(body).toMatchObject({ totalElements: 6 + COUNT_AHEAD, totalCapped: true });
  });

  it('knows each name of each entity once, whoever wrote the entries, and finds names through a trigram index', async () => {
    const db = t().database.db;
    await db.execute(sql`insert into audit_log (entity, action, item_name) values
      ('task', 'claim', 'Tea'), ('task', 'claim', 'Tea'), ('purchased', 'create', 'Tea'), ('task', 'claim', null)`);
    await db.execute(sql`insert into audit_log (entity, action, item_name) values ('task', 'claim', 'Tea'), ('task', 'claim', 'Coffee')`);
    const names = await rowsOf<{ entity: string; item_name: string }>(db.execute(sql`select entity, item_name from audit_item_names order by 1, 2`));
    expect(names.map((n) => `${n.entity}:${n.item_name}`)).toEqual(['task:Coffee', 'task:Tea', 'purchased:Tea']);
    // A catalog of 3,000 names, its statistics current: a rare text's names can be found through the
    // trigram index, the filter's ILIKE escapes and all (read whole, 3,000 names cost about as much).
    await db.execute(sql`insert into audit_log (entity, action, item_name) select 'task', 'claim', 'Product ' || k from generate_series(1, 3000) k`);
    await db.execute(sql`vacuum analyze audit_item_names`);
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<Record<string, string>>(
        tx.execute(sql`explain select ${auditItemNames.entity} from ${auditItemNames} where ${containsText(auditItemNames.itemName, 'snack_box 50%')}`),
      );
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toMatch(/Bitmap Index Scan on audit_item_names_trgm_idx/);
  });
});
