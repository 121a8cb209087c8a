// The one `init` migration must build the whole schema on both engines the project runs on: PGlite
// (embedded default, tests) and PostgreSQL 15 (set TEST_DATABASE_URL to a server where the role may
// CREATE DATABASE; a throwaway database is created and dropped). Besides "every exported table and
// enum exists", it checks the few rules the schema itself enforces, so a later regeneration that
// loses one of them fails here rather than in production. Money columns are bigint cents, and a
// database that held int4 amounts keeps them through that migration (replayed from 0003).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { eq, getTableName, is, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { isPgEnum, PgTable, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../src/server/db/schema/index';
import { pgliteExtensions } from '../../../src/server/db/pglite-extensions.ts';
import { MAX_TOTAL_CENTS } from '../../../src/server/money/cents.ts';

const migrationsFolder = fileURLToPath(new URL('../../../src/server/db/migrations', import.meta.url));

/** Every money column (cents; bigint since 0004_money_bigint). */
const MONEY_COLUMNS = [
  'items.price',
  'board_tasks.price',
  'board_tasks.buy_in',
  'board_tasks.average_cost',
  'tasks.price',
  'tasks.buy_in',
  'tasks.bonus',
  'tasks.punish',
  'payment_applies.price',
  'payment_applies.buy_in',
  'payment_applies.bonus',
  'payment_applies.punish',
  'payment_applies.income',
  'payment_applies.asked_bonus',
  'withdraw_requests.withdraw_amount',
];

/**
 * The migrations folder as it was before money became bigint (the journal up to 0003), so the
 * upgrade of a database holding amounts can be replayed.
 */
/** A migrations folder holding the migrations before the one whose tag ends with `suffix`. */
function foldersBefore(suffix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ph-mig-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag.endsWith(suffix));
  journal.entries = journal.entries.slice(0, cut);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries) fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}
const exported = Object.values(schema) as unknown[];
const tableNames = exported.filter((v): v is PgTable => is(v, PgTable)).map((t) => getTableName(t));
const enumNames = exported.filter(isPgEnum).map((e) => e.enumName);

type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Rows of db.execute(): both drivers answer { rows }, but the shared PgDatabase type says unknown. */
async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

/** The SQLSTATE of a failed query, looking through drizzle's error wrapper. */
async function sqlState(promise: PromiseLike<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (e) {
    for (let err: unknown = e; err; err = (err as { cause?: unknown }).cause) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string') return code;
    }
    throw e;
  }
  return undefined;
}

function engineSuite(getDb: () => Db) {
  it('stores every money column as bigint', async () => {
    const columns = await rows<{ name: string; data_type: string }>(
      getDb(),
      sql`select table_name || '.' || column_name as name, data_type from information_schema.columns where table_schema = 'public'`,
    );
    const types = new Map(columns.map((c) => [c.name, c.data_type]));
    expect(MONEY_COLUMNS.map((c) => [c, types.get(c)])).toEqual(MONEY_COLUMNS.map((c) => [c, 'bigint']));
  });

  it('creates every table and enum exported from the schema', async () => {
    const db = getDb();
    expect(tableNames.length).toBeGreaterThanOrEqual(22);
    const tables = await rows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(tables.map((r) => r.table_name).sort()).toEqual([...tableNames].sort());
    const enums = await rows<{ typname: string }>(
      db,
      sql`select t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public' and t.typtype = 'e'`,
    );
    expect(enums.map((r) => r.typname).sort()).toEqual([...enumNames].sort());
  });

  it('enforces the claim identity, one application per task and one live withdraw per application', async () => {
    const db = getDb();
    const [user] = await db.insert(schema.users).values({ mailAddr: 'u@example.com', nickName: 'u', passwordHash: 'x' }).returning();
    const [item] = await db.insert(schema.items).values({ itemName: 'Widget', upc: '012345678905', productId: 'P1' }).returning();
    const [board] = await db
      .insert(schema.boards)
      .values({ boardName: 'B', publishAt: new Date(), expireAt: new Date(Date.now() + 86_400_000) })
      .returning();
    if (!user || !item || !board) throw new Error('seed failed');
    expect(board.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const [bt] = await db
      .insert(schema.boardTasks)
      .values({ boardId: board.id, itemId: item.id, itemName: item.itemName, buyIn: 1250, show: 10, need: 10 })
      .returning();
    if (!bt) throw new Error('seed failed');
    expect(bt.address).toBe(schema.DEFAULT_BOARD_TASK_ADDRESS);
    expect(bt.status).toBe('normal');

    const claim = {
      boardId: board.id,
      boardTaskId: bt.id,
      userId: user.id,
      itemId: item.id,
      itemName: item.itemName,
      buyIn: 1250,
      count: 3,
      status: 'open' as const,
    };
    // The claim takes its id first so that mainId can equal it (tasks_claim_is_main).
    const [next] = await rows<{ id: string | number }>(db, sql`select nextval(pg_get_serial_sequence('tasks', 'id')) as id`);
    const id = Number(next?.id);
    const [task] = await db
      .insert(schema.tasks)
      .values({ ...claim, id, mainId: id })
      .returning();
    if (!task) throw new Error('seed failed');
    expect([task.mainId, task.subId]).toEqual([id, 0]);
    // A claim (subId 0) must be its own main; a split sibling must point at an existing claim.
    expect(await sqlState(db.insert(schema.tasks).values({ ...claim, mainId: id }))).toBe('23514');
    expect(await sqlState(db.insert(schema.tasks).values({ ...claim, mainId: id + 1000, subId: 1 }))).toBe('23503');
    const [sibling] = await db
      .insert(schema.tasks)
      .values({ ...claim, mainId: id, subId: 1, count: 1 })
      .returning();
    expect(sibling?.subId).toBe(1);
    expect(await sqlState(db.insert(schema.tasks).values({ ...claim, mainId: id, subId: 1 }))).toBe('23505');

    const application = {
      taskId: task.id,
      mainId: task.mainId,
      subId: task.subId,
      userId: user.id,
      itemName: task.itemName,
      buyIn: 1250,
      count: 3,
      income: 3750,
    };
    const [apply] = await db.insert(schema.paymentApplies).values(application).returning();
    if (!apply) throw new Error('seed failed');
    expect(apply.status).toBe('applied');
    expect(await sqlState(db.insert(schema.paymentApplies).values(application))).toBe('23505');

    await db.insert(schema.withdrawOrders).values([
      { orderId: 'W1', userId: user.id },
      { orderId: 'W2', userId: user.id },
      { orderId: 'W3', userId: user.id },
    ]);
    await db.insert(schema.withdrawOrderApplies).values({ orderId: 'W1', paymentApplyId: apply.id });
    expect(await sqlState(db.insert(schema.withdrawOrderApplies).values({ orderId: 'W2', paymentApplyId: apply.id }))).toBe('23505');
    // Cancelling W1 releases the application; the cancelled link stays as history.
    await db.update(schema.withdrawOrderApplies).set({ live: false }).where(eq(schema.withdrawOrderApplies.orderId, 'W1'));
    await db.insert(schema.withdrawOrderApplies).values({ orderId: 'W3', paymentApplyId: apply.id });
    const links = await db.select().from(schema.withdrawOrderApplies).where(eq(schema.withdrawOrderApplies.paymentApplyId, apply.id));
    expect(links.map((l) => [l.orderId, l.live]).sort()).toEqual([
      ['W1', false],
      ['W3', true],
    ]);
    // A withdraw line must belong to an existing order.
    const [card] = await db
      .insert(schema.bankCards)
      .values({ userId: user.id, paymentType: 'Zelle', accountNameEncrypt: 'c', accountNameLast4: 'abcd' })
      .returning();
    if (!card) throw new Error('seed failed');
    const line = { userId: user.id, cardId: card.id, paymentType: 'Zelle', accountNameEncrypt: 'c', accountNameLast4: 'abcd', withdrawAmount: 3750 };
    expect(await sqlState(db.insert(schema.withdrawRequests).values({ ...line, orderId: 'nope' }))).toBe('23503');
    const [req] = await db
      .insert(schema.withdrawRequests)
      .values({ ...line, orderId: 'W3' })
      .returning();
    expect([req?.status, req?.cancelFlag]).toEqual(['waited', true]);
    expect(await sqlState(db.insert(schema.withdrawRequests).values({ ...line, orderId: 'W3' }))).toBe('23505');
  });
}

/**
 * A database migrated up to 0003 holding amounts (int4 cents, the largest int4 among them) is
 * migrated to the end: every amount is kept, and amounts past int4 then fit, read back exactly.
 */
async function upgradeKeepsAmounts(db: Db, migrateTo: (folder: string) => Promise<void>) {
  await migrateTo(foldersBefore('_money_bigint'));
  const INT4_MAX = 2_147_483_647;
  const one = async (q: ReturnType<typeof sql>) => Number((await rows<{ id: number }>(db, q))[0]!.id);
  const user = await one(sql`insert into users (mail_addr, nick_name, password_hash) values ('u@example.com', 'u', 'x') returning id`);
  const item = await one(sql`insert into items (item_name, product_id, price) values ('Widget', 'P1', 999) returning id`);
  const board = await one(sql`insert into boards (board_name, publish_at, expire_at) values ('B', now(), now()) returning id`);
  const bt = await one(sql`insert into board_tasks (board_id, item_id, item_name, price, buy_in, average_cost, show, need)
    values (${board}, ${item}, 'Widget', 1, ${INT4_MAX}, 3, 1, 1) returning id`);
  const task = await one(sql`insert into tasks (id, main_id, board_id, board_task_id, user_id, item_id, item_name, price, buy_in, bonus, punish, count, status)
    values (1, 1, ${board}, ${bt}, ${user}, ${item}, 'Widget', 1, ${INT4_MAX}, 2, 3, 1, 'locked') returning id`);
  const apply =
    await one(sql`insert into payment_applies (task_id, main_id, sub_id, user_id, item_name, price, buy_in, count, bonus, punish, income, asked_bonus)
    values (${task}, 1, 0, ${user}, 'Widget', 1, ${INT4_MAX}, 1, 2, 3, ${INT4_MAX}, 4) returning id`);
  const card = await one(
    sql`insert into bank_cards (user_id, payment_type, account_name_encrypt, account_name_last4) values (${user}, 'Zelle', 'c', 'abcd') returning id`,
  );
  await db.execute(sql`insert into withdraw_orders (order_id, user_id) values ('1', ${user})`);
  await db.execute(sql`insert into withdraw_requests (order_id, user_id, card_id, payment_type, account_name_encrypt, account_name_last4, withdraw_amount)
    values ('1', ${user}, ${card}, 'Zelle', 'c', 'abcd', ${INT4_MAX})`);

  await migrateTo(migrationsFolder);
  expect((await db.select().from(schema.items).where(eq(schema.items.id, item)))[0]?.price).toBe(999);
  expect((await db.select().from(schema.boardTasks))[0]).toMatchObject({ price: 1, buyIn: INT4_MAX, averageCost: 3 });
  expect((await db.select().from(schema.tasks))[0]).toMatchObject({ price: 1, buyIn: INT4_MAX, bonus: 2, punish: 3 });
  expect((await db.select().from(schema.paymentApplies))[0]).toMatchObject({ price: 1, buyIn: INT4_MAX, bonus: 2, punish: 3, income: INT4_MAX, askedBonus: 4 });
  expect((await db.select().from(schema.withdrawRequests))[0]?.withdrawAmount).toBe(INT4_MAX);
  // Past int4 now, up to the server's bound on any income (src/server/money/cents.ts), exact.
  const [after] = await db
    .update(schema.paymentApplies)
    .set({ income: MAX_TOTAL_CENTS, buyIn: 9_999_999_999 })
    .where(eq(schema.paymentApplies.id, apply))
    .returning();
  expect([after?.income, after?.buyIn]).toEqual([MAX_TOTAL_CENTS, 9_999_999_999]);
}

describe('upgrading a database that holds amounts to bigint money', () => {
  it('on PGlite', async () => {
    const client = new PGlite({ extensions: await pgliteExtensions() });
    try {
      const db = drizzlePglite(client, { schema });
      await upgradeKeepsAmounts(db, (folder) => migratePglite(db, { migrationsFolder: folder }));
    } finally {
      await client.close();
    }
  }, 60_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL',
    async () => {
      const dbName = `mig_up_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${dbName}`;
      const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
      // DROP ... WITH (FORCE) below may reach a client still closing after pool.end(): its 57P01 is expected.
      pool.on('error', () => undefined);
      try {
        const db = drizzleNodePg(pool, { schema });
        await upgradeKeepsAmounts(db, (folder) => migrateNodePg(db, { migrationsFolder: folder }));
      } finally {
        await pool.end();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
    60_000,
  );
});

describe('upgrading a database that holds audit entries to the table of their names (0021, decision 183)', () => {
  it('on PGlite: each name an entity has, once, and the names written after by the trigger', async () => {
    const client = new PGlite({ extensions: await pgliteExtensions() });
    try {
      const db = drizzlePglite(client, { schema });
      await migratePglite(db, { migrationsFolder: foldersBefore('_audit_item_names') });
      await db.execute(sql`insert into audit_log (entity, action, item_name) values
        ('task', 'claim', 'Tea'), ('task', 'claim', 'Tea'), ('purchased', 'create', 'Tea'), ('tracking', 'scan', null)`);
      await migratePglite(db, { migrationsFolder });
      await db.execute(sql`insert into audit_log (entity, action, item_name) values ('tracking', 'scan', 'Coffee'), ('task', 'claim', 'Tea')`);
      const names = await rows<{ entity: string; item_name: string }>(db, sql`select entity, item_name from audit_item_names order by 1, 2`);
      expect(names.map((n) => `${n.entity}:${n.item_name}`)).toEqual(['task:Tea', 'tracking:Coffee', 'purchased:Tea']);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('migrations on PGlite', () => {
  let client: PGlite;
  let db: Db;
  beforeAll(async () => {
    client = new PGlite({ extensions: await pgliteExtensions() });
    const pgliteDb = drizzlePglite(client, { schema });
    await migratePglite(pgliteDb, { migrationsFolder });
    db = pgliteDb;
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });
  engineSuite(() => db);
});

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('migrations on PostgreSQL (TEST_DATABASE_URL)', () => {
  const dbName = `mig_test_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  let pool: pg.Pool | undefined;
  let db: Db;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(serverUrl!);
    url.pathname = `/${dbName}`;
    pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    // DROP ... WITH (FORCE) in afterAll may reach a client still closing after pool.end(): its 57P01 is expected.
    pool.on('error', () => undefined);
    const nodeDb = drizzleNodePg(pool, { schema });
    await migrateNodePg(nodeDb, { migrationsFolder });
    db = nodeDb;
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin?.end();
  });
  engineSuite(() => db);
});
