// Seeding for `npm run bench`: large amounts of data written with set-based SQL (generate_series),
// so seeding 100,000s of rows takes seconds. Only the bench uses it; tests build their data through
// the API (tests/server/support/*-fixtures.ts).
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../src/server/db/client.ts';
import { MATCH_CHUNK, matchTrackings } from '../src/server/matching/match.ts';

/**
 * A tracking id form as a carrier prints it: a prefix and a number of the carrier's length. Number
 * `n` is spread as (n x step + start) mod 10^digits (step prime to 10, so no two n share an id): ids
 * numbered 0, 1, 2... in two forms would end alike, and a lookup of one would read the other's as
 * near candidates (their last 6 characters), which real ids of two carriers seldom do.
 */
export interface TrackingForm {
  /** The id of number `n`. */
  of(n: number): string;
  /** The same, in a seeding statement, of the SQL integer `n` (a column or series alias). */
  sql(n: SQL): SQL;
  /** A LIKE pattern that matches this form's ids and no other form's. */
  like: string;
}
const carrierForm = (prefix: string, digits: number, step: number, start: number): TrackingForm => ({
  // n below 10^6 (the largest world's scans): n x step + start stays an exact integer.
  of: (n) => prefix + String((n * step + start) % 10 ** digits).padStart(digits, '0'),
  sql: (n) =>
    sql`${sql.raw(`'${prefix}'`)} || lpad((((${n})::bigint * ${sql.raw(String(step))} + ${sql.raw(String(start))}) % ${sql.raw(`1${'0'.repeat(digits)}`)})::text, ${sql.raw(String(digits))}, '0')`,
  like: `${prefix}%`,
});

/**
 * The seeded worlds' tracking ids, at the lengths carriers print them (12-22 characters in the
 * field): the app indexes, compares and looks near ids of that length, so the bench does too (a
 * lookup of an id nobody recorded reads the records near it from NEAR_MIN_LENGTH characters on:
 * matching/near-misses.ts). Decision 143.
 */
export const BENCH_TRACKING = {
  /** The receiving world's parcels members recorded: SF Express's form, SF + 13 digits (15). */
  recorded: carrierForm('SF', 13, 7_652_413, 104_729),
  /** The receiving world's parcels nobody recorded: YunExpress's form, YT + 16 digits (18). */
  unknown: carrierForm('YT', 16, 387_420_489, 2_718_281),
  /** The responsiveness world's recorded parcels: JD Logistics' form, JD + 13 digits (15). */
  responsive: carrierForm('JD', 13, 48_271, 5_915_587),
} as const;

export interface SeededTasks {
  boardId: number;
  itemId: number;
  upc: string;
  /** The seeded tasks' ids, in id order. */
  taskIds: number[];
}

/**
 * One item (with `upc`), one open board with one board task, and `count` open tasks of `userId`,
 * each claiming `units` units (main tasks: mainId = id, subId 0).
 */
export async function seedOpenTasks(db: Db, opts: { userId: number; count: number; units: number; upc: string }): Promise<SeededTasks> {
  const one = async (q: ReturnType<typeof sql>) => (await rowsOf<{ id: number }>(db.execute(q)))[0]!.id;
  const itemId = await one(sql`insert into items (item_name, upc, product_id, price) values ('Bench item', ${opts.upc}, 'B-1', 1000) returning id`);
  const boardId = await one(
    sql`insert into boards (board_name, publish_at, expire_at, status) values ('Bench board', now() - interval '1 day', now() + interval '30 days', 'open') returning id`,
  );
  const boardTaskId = await one(
    sql`insert into board_tasks (board_id, item_id, item_name, buy_in, show, need) values (${boardId}, ${itemId}, 'Bench item', 1200, 1000000, 1000000) returning id`,
  );
  const ids = await rowsOf<{ id: number }>(
    db.execute(sql`
      with ids as (select nextval(pg_get_serial_sequence('tasks', 'id'))::int as id from generate_series(1, ${opts.count}))
      insert into tasks (id, main_id, sub_id, board_id, board_task_id, user_id, item_id, item_name, buy_in, count, status, upc, label_count)
      select id, id, 0, ${boardId}, ${boardTaskId}, ${opts.userId}, ${itemId}, 'Bench item', 1200, ${opts.units}, 'open', ${opts.upc}, 0 from ids
      returning id`),
  );
  return {
    boardId,
    itemId,
    upc: opts.upc,
    taskIds: ids.map((r) => r.id).sort((x, y) => x - y),
  };
}

/** Scan rows (status scan, not yet matched): one per (tracking id, count) given. */
export async function seedScans(db: Db, rows: { trackingId: string; upc: string; count: number }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    await db.execute(sql`
      insert into scan_trackings (tracking_id, upc, count, item_name, status)
      select t, u, c, '', 'scan' from unnest(${sql.param(chunk.map((r) => r.trackingId))}::text[], ${sql.param(chunk.map((r) => r.upc))}::text[], ${sql.param(chunk.map((r) => r.count))}::int[]) as x(t, u, c)`);
  }
}

export interface ReceivingWorld {
  /** Members (all in one group) and the item UPCs, for scenarios that scan or import. */
  memberIds: number[];
  items: { id: number; upc: string }[];
  /** Tracking ids with purchased records (the first `recordedTrackings` of BENCH_TRACKING.recorded). */
  recordedTrackings: number;
}

/**
 * The receiving bench's world (the receiving targets): `tasks` tasks over `members` members and 2,000
 * items, `records` purchased records (one tracking id each, BENCH_TRACKING.recorded), and `scans` scan rows:
 * the first `records` of them are the parcels of those records (same upc), the rest parcels nobody
 * recorded (BENCH_TRACKING.unknown), spread over the last 365 days with the statuses a year of work leaves. Written
 * set-based, then settled by the app's matching (settleMatching). VACUUM ANALYZE refreshes the
 * statistics and the visibility map, as autovacuum would on a table in use.
 */
export async function seedReceiving(
  db: Db,
  opts: { adminId: number; passwordHash: string; members: number; tasks: number; records: number; scans: number },
): Promise<ReceivingWorld> {
  const run = (q: ReturnType<typeof sql>) => db.execute(q);
  const memberIds = (
    await rowsOf<{ id: number }>(
      db.execute(sql`
        insert into users (mail_addr, nick_name, role_type, password_hash)
        select 'm' || g || '@bench.test', 'member' || g, 'user', ${opts.passwordHash} from generate_series(1, ${opts.members}) g
        returning id`),
    )
  ).map((r) => r.id);
  const groupId = (await rowsOf<{ id: number }>(db.execute(sql`insert into user_groups (group_name) values ('bench members') returning id`)))[0]!.id;
  await run(sql`insert into user_group_members (group_id, user_id) select ${groupId}, unnest(${sql.param(memberIds)}::int[])`);
  const items = await rowsOf<{ id: number; upc: string }>(
    db.execute(sql`
      insert into items (item_name, upc, product_id, price)
      select 'Bench item ' || g, lpad((100000000000 + g)::text, 12, '0'), 'P' || g, 1000 + g from generate_series(1, 2000) g
      returning id, upc`),
  );
  const boardId = (
    await rowsOf<{ id: number }>(
      db.execute(
        sql`insert into boards (board_name, publish_at, expire_at, status) values ('Bench receiving', now() - interval '365 days', now() + interval '30 days', 'open') returning id`,
      ),
    )
  )[0]!.id;
  await run(sql`
    insert into board_tasks (board_id, user_id, item_id, item_name, buy_in, show, need)
    select ${boardId}, ${opts.adminId}, i.id, i.item_name, 1200, 1000000, 1000000 from items i where i.item_name like 'Bench item %'`);
  // Tasks: member = n % members, item = n % 2000, count 1..4; a tenth locked, the rest open.
  await run(sql`
    with n as (select g, nextval(pg_get_serial_sequence('tasks', 'id'))::int as id from generate_series(0, ${opts.tasks - 1}) g),
    bt as (select row_number() over (order by id) - 1 as k, id, item_id, item_name from board_tasks where board_id = ${boardId}),
    it as (select id, upc from items)
    insert into tasks (id, main_id, sub_id, board_id, board_task_id, user_id, item_id, item_name, buy_in, count, product_count, status, upc, label_count, created_at)
    select n.id, n.id, 0, ${boardId}, bt.id, (${sql.param(memberIds)}::int[])[1 + n.g % ${opts.members}], bt.item_id, bt.item_name, 1200, 1 + n.g % 4,
      case when n.g % 10 = 0 then 1 + n.g % 4 else 0 end, case when n.g % 10 = 0 then 'locked'::task_status else 'open'::task_status end,
      it.upc, 0, now() - (n.g % 365) * interval '1 day'
    from n join bt on bt.k = n.g % 2000 join it on it.id = bt.item_id`);
  // Records: record r on task r % tasks (the r-th task in id order), tracking recorded.of(r).
  await run(sql`
    with t as (select id, user_id, count, row_number() over (order by id) - 1 as k from tasks where board_id = ${boardId})
    insert into purchased_records (task_id, user_id, tracking_id, product_count, status, created_at, updated_at)
    select t.id, t.user_id, ${BENCH_TRACKING.recorded.sql(sql.raw('r'))}, 1, case when r % 3 = 0 then 'match'::purchased_status else 'init'::purchased_status end,
      now() - (r % 365) * interval '1 day', now() - (r % 365) * interval '1 day'
    from generate_series(0, ${opts.records - 1}) r join t on t.k = r % ${opts.tasks}`);
  // Scans: the first `records` rows are the recorded parcels (their task's upc), the rest unknown parcels.
  await run(sql`
    with t as (select id, user_id, main_id, upc, item_id, item_name, row_number() over (order by id) - 1 as k from tasks where board_id = ${boardId}),
    it as (select id, upc, item_name, row_number() over (order by id) - 1 as k from items)
    insert into scan_trackings (tracking_id, upc, count, item_id, item_name, status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at)
    select ${BENCH_TRACKING.recorded.sql(sql.raw('s'))}, t.upc, 1, t.item_id, t.item_name,
      case when s % 3 = 0 then 'match'::scan_status when s % 3 = 1 then 'scan'::scan_status else 'init'::scan_status end,
      case when s % 3 = 0 then 'member' else null end, case when s % 3 = 0 then t.user_id end, case when s % 3 = 0 then t.main_id end,
      case when s % 3 = 0 then 0 end, case when s % 3 = 0 then t.id end, ${opts.adminId},
      now() - (s % 365) * interval '1 day' - (s % 86400) * interval '1 second', now()
    from generate_series(0, ${Math.min(opts.records, opts.scans) - 1}) s join t on t.k = s % ${opts.tasks}`);
  if (opts.scans > opts.records) {
    await run(sql`
      with it as (select id, upc, item_name, row_number() over (order by id) - 1 as k from items)
      insert into scan_trackings (tracking_id, upc, count, item_id, item_name, status, op_uid, created_at, updated_at)
      select ${BENCH_TRACKING.unknown.sql(sql.raw('s'))}, it.upc, 1 + s % 3, it.id, it.item_name,
        case when s % 4 = 0 then 'init'::scan_status else 'unmatch'::scan_status end, ${opts.adminId},
        now() - (s % 365) * interval '1 day' - (s % 86400) * interval '1 second', now()
      from generate_series(0, ${opts.scans - opts.records - 1}) s join it on it.k = s % 2000`);
  }
  await settleMatching(db, opts.records);
  await run(sql`vacuum analyze`);
  return { memberIds, items, recordedTrackings: opts.records };
}

export interface ResponsiveWorld {
  adminMail: string;
  memberMail: string;
  /** The member's open tasks for the purchase upload (SeededTasks of seedOpenTasks). */
  memberTasks: SeededTasks;
  /** Tracking ids with a member's purchased record (the first `recorded` of BENCH_TRACKING.responsive), each on a task of its own of `recordedUpc`. */
  recorded: number;
  recordedUpc: string;
  recordedItemId: number;
}

/**
 * The world of the responsiveness scenario (BENCH_ONLY=responsive), on a database of its own or
 * beside the others (its names do not collide with theirs): an admin, a member with `memberTaskCount`
 * open tasks of `memberUnits` units for the purchase upload, and a second member whose `recorded`
 * open tasks (1 unit each) have one purchased record each on tracking responsive.of(k), so a confirm of those
 * parcels matches and locks them.
 */
export async function seedResponsive(
  db: Db,
  opts: { passwordHash: string; memberTaskCount: number; memberUnits: number; recorded: number },
): Promise<ResponsiveWorld> {
  const ids = await rowsOf<{ id: number; mail: string }>(
    db.execute(sql`
      insert into users (mail_addr, nick_name, role_type, password_hash) values
        ('resp-admin@bench.test', 'resp-admin', 'admin', ${opts.passwordHash}),
        ('resp-member@bench.test', 'resp-member', 'user', ${opts.passwordHash}),
        ('resp-owner@bench.test', 'resp-owner', 'user', ${opts.passwordHash})
      returning id, mail_addr as mail`),
  );
  const idOf = (mail: string) => ids.find((r) => r.mail === mail)!.id;
  const groupId = (await rowsOf<{ id: number }>(db.execute(sql`insert into user_groups (group_name) values ('resp members') returning id`)))[0]!.id;
  await db.execute(
    sql`insert into user_group_members (group_id, user_id) values (${groupId}, ${idOf('resp-member@bench.test')}), (${groupId}, ${idOf('resp-owner@bench.test')})`,
  );
  const memberTasks = await seedOpenTasks(db, {
    userId: idOf('resp-member@bench.test'),
    count: opts.memberTaskCount,
    units: opts.memberUnits,
    upc: '294253397168',
  });
  const owned = await seedOpenTasks(db, { userId: idOf('resp-owner@bench.test'), count: opts.recorded, units: 1, upc: '394253397168' });
  await db.execute(sql`
    insert into purchased_records (task_id, user_id, tracking_id, product_count, status)
    select t, ${idOf('resp-owner@bench.test')}, ${BENCH_TRACKING.responsive.sql(sql.raw('(k - 1)'))}, 1, 'init'
    from unnest(${sql.param(owned.taskIds)}::int[]) with ordinality as x(t, k)`);
  await db.execute(
    sql`update tasks t set tracking_id = p.tracking_id from purchased_records p where p.task_id = t.id and t.user_id = ${idOf('resp-owner@bench.test')}`,
  );
  await db.execute(sql`vacuum analyze`);
  return {
    adminMail: 'resp-admin@bench.test',
    memberMail: 'resp-member@bench.test',
    memberTasks,
    recorded: opts.recorded,
    recordedUpc: owned.upc,
    recordedItemId: owned.itemId,
  };
}

/**
 * The SQL above writes statuses by pattern, which leaves states matching never leaves (seen rows
 * not matched, task counts that disagree with their records). The app's matching settles every
 * recorded parcel once, so a measured upload or scan does only the work its own rows cause, as in a
 * real warehouse, and the bare routes' limits (bench-bare.ts) are measured on the same work.
 */
async function settleMatching(db: Db, records: number) {
  const ids = Array.from({ length: records }, (_, r) => BENCH_TRACKING.recorded.of(r));
  for (let i = 0; i < ids.length; i += MATCH_CHUNK) {
    await db.transaction((tx) => matchTrackings(tx, ids.slice(i, i + MATCH_CHUNK), null));
  }
}

export interface GrowthWorld {
  /** Item 0 is the one product most rows are of; the other 199 share the rest. */
  items: { id: number; upc: string }[];
  boardId: number;
  memberIds: number[];
  /** Scan rows seeded so far (row s of the growth: R<s> a recorded parcel, U<s> another). */
  scans: number;
}

/** The growth bench's fixed part: 200 members, 200 items (each with a board task) on one open board. */
export async function seedGrowthBase(db: Db, opts: { adminId: number; passwordHash: string }): Promise<GrowthWorld> {
  const memberIds = (
    await rowsOf<{ id: number }>(
      db.execute(sql`
        insert into users (mail_addr, nick_name, role_type, password_hash)
        select 'g' || g || '@bench.test', 'grower' || g, 'user', ${opts.passwordHash} from generate_series(1, 200) g
        returning id`),
    )
  ).map((r) => r.id);
  const items = await rowsOf<{ id: number; upc: string }>(
    db.execute(sql`
      insert into items (item_name, upc, product_id, price)
      select 'Growth item ' || g, lpad((200000000000 + g)::text, 12, '0'), 'G' || g, 1000 + g from generate_series(1, 200) g
      returning id, upc`),
  );
  const [board] = await rowsOf<{ id: number }>(
    db.execute(
      sql`insert into boards (board_name, publish_at, expire_at, status) values ('Bench growth', now() - interval '365 days', now() + interval '30 days', 'open') returning id`,
    ),
  );
  await db.execute(sql`
    insert into board_tasks (board_id, user_id, item_id, item_name, buy_in, show, need)
    select ${board!.id}, ${opts.adminId}, i.id, i.item_name, 1200, 1000000, 1000000 from items i where i.item_name like 'Growth item %'`);
  return { items: items.sort((a, b) => a.id - b.id), boardId: board!.id, memberIds, scans: 0 };
}

/**
 * Grows the growth world to `to` scan rows, in set-based SQL, without ANALYZE (what the app and
 * autovacuum do about it is part of what is measured). Row s: 9 in 10 are of item 0 (the one
 * product); 3 in 10 are parcels a member recorded (R<s>: a task of 1 unit and its record), of which
 * s % 10 = 0 announced by an import and not yet scanned (an init row: what the matched scans scan),
 * the other two matched; the rest parcels nobody recorded (U<s>: unmatch, or init one in five).
 * Spread over the last 365 days.
 */
export async function growScans(db: Db, world: GrowthWorld, to: number): Promise<void> {
  // (and the audit log: about 1.6 entries a scan row)
  const from = world.scans;
  const item = (s: SQL) => sql`(${sql.param(world.items.map((i) => i.id))}::int[])[case when ${s} % 10 = 9 then 2 + (${s} / 10) % 199 else 1 end]`;
  const [{ before } = { before: 0 }] = await rowsOf<{ before: number }>(db.execute(sql`select coalesce(max(id), 0)::int as before from tasks`));
  await db.execute(sql`
    with n as (select s, nextval(pg_get_serial_sequence('tasks', 'id'))::int as id, ${item(sql`s`)} as item_id from generate_series(${from}::int, ${to - 1}::int) s where s % 10 < 3)
    insert into tasks (id, main_id, sub_id, board_id, board_task_id, user_id, item_id, item_name, buy_in, count, product_count, status, upc, label_count, tracking_id, created_at)
    select n.id, n.id, 0, ${world.boardId}, bt.id, (${sql.param(world.memberIds)}::int[])[1 + n.s % 200], n.item_id, bt.item_name, 1200, 1,
      case when n.s % 10 = 0 then 0 else 1 end, case when n.s % 10 = 0 then 'open'::task_status else 'locked'::task_status end,
      i.upc, 0, 'R' || lpad(n.s::text, 8, '0'), now() - (n.s % 365) * interval '1 day'
    from n join board_tasks bt on bt.board_id = ${world.boardId} and bt.item_id = n.item_id join items i on i.id = n.item_id`);
  await db.execute(sql`
    insert into purchased_records (task_id, user_id, tracking_id, product_count, status, created_at, updated_at)
    select t.id, t.user_id, t.tracking_id, 1, case when t.status = 'open' then 'init'::purchased_status else 'match'::purchased_status end, t.created_at, t.created_at
    from tasks t where t.id > ${before}`);
  await db.execute(sql`
    insert into scan_trackings (tracking_id, upc, count, item_id, item_name, status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at)
    select t.tracking_id, t.upc, 1, t.item_id, t.item_name, case when t.status = 'open' then 'init'::scan_status else 'match'::scan_status end,
      case when t.status = 'open' then null else 'grower' end, case when t.status = 'open' then null else t.user_id end,
      case when t.status = 'open' then null else t.main_id end, case when t.status = 'open' then null else 0 end,
      case when t.status = 'open' then null else t.id end, null, t.created_at - interval '1 hour', t.created_at
    from tasks t where t.id > ${before}`);
  await db.execute(sql`
    insert into scan_trackings (tracking_id, upc, count, item_id, item_name, status, op_uid, created_at, updated_at)
    select 'U' || lpad(s::text, 8, '0'), i.upc, 1 + s % 3, i.id, i.item_name, case when s % 5 = 0 then 'init'::scan_status else 'unmatch'::scan_status end, null,
      now() - (s % 365) * interval '1 day' - (s % 86400) * interval '1 second', now()
    from generate_series(${from}::int, ${to - 1}::int) s join items i on i.id = ${item(sql`s`)} where s % 10 >= 3`);
  // The audit log grows with them, as receiving writes it: an entry per scan row, task and record.
  await db.execute(sql`
    insert into audit_log (entity, action, user_id, main_id, sub_id, upc, count, item_name, status, tracking_id, task_id, created_at)
    select 'tracking', 'scan', s.user_id, s.main_id, s.sub_id, s.upc, s.count, s.item_name, s.status::text, s.tracking_id, s.task_id, s.created_at
    from scan_trackings s where s.created_at is not null and (s.tracking_id like 'R%' or s.tracking_id like 'U%')
      and (substr(s.tracking_id, 2))::int >= ${from} and (substr(s.tracking_id, 2))::int < ${to}`);
  await db.execute(sql`
    insert into audit_log (entity, action, user_id, main_id, sub_id, upc, count, item_name, status, tracking_id, task_id, created_at)
    select e.entity::audit_entity, e.action, t.user_id, t.main_id, t.sub_id, t.upc, t.count, t.item_name, t.status::text, t.tracking_id, t.id, t.created_at
    from tasks t, (values ('task', 'claim'), ('purchased', 'create')) e(entity, action) where t.id > ${before}`);
  world.scans = to;
}
