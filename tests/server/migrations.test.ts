// The one `init` migration must build the whole schema on both engines the project runs on: PGlite
// (embedded default, tests) and PostgreSQL 15 (set TEST_DATABASE_URL to a server where the role may
// CREATE DATABASE; a throwaway database is created and dropped). Besides "every exported table and
// enum exists", it checks the few rules the schema itself enforces, so a later regeneration that
// loses one of them fails here rather than in production.
import { randomBytes } from 'node:crypto';
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
import * as schema from '../../src/server/db/schema/index';

const migrationsFolder = fileURLToPath(new URL('../../src/server/db/migrations', import.meta.url));
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
    const [task] = await db.insert(schema.tasks).values({ ...claim, id, mainId: id }).returning();
    if (!task) throw new Error('seed failed');
    expect([task.mainId, task.subId]).toEqual([id, 0]);
    // A claim (subId 0) must be its own main; a split sibling must point at an existing claim.
    expect(await sqlState(db.insert(schema.tasks).values({ ...claim, mainId: id }))).toBe('23514');
    expect(await sqlState(db.insert(schema.tasks).values({ ...claim, mainId: id + 1000, subId: 1 }))).toBe('23503');
    const [sibling] = await db.insert(schema.tasks).values({ ...claim, mainId: id, subId: 1, count: 1 }).returning();
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
    const [req] = await db.insert(schema.withdrawRequests).values({ ...line, orderId: 'W3' }).returning();
    expect([req?.status, req?.cancelFlag]).toEqual(['waited', true]);
    expect(await sqlState(db.insert(schema.withdrawRequests).values({ ...line, orderId: 'W3' }))).toBe('23505');
  });
}

describe('migrations on PGlite', () => {
  let client: PGlite;
  let db: Db;
  beforeAll(async () => {
    client = new PGlite();
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
