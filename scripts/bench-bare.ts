// The bench's limits (docs/decisions/140-receiving-targets-as-ratios.md): a bare Fastify route per
// receiving figure, on the app's database and tables, doing the same SQL work with node-postgres (or
// the same PGlite) and nothing else: no contract, validation, session, envelope, audit helpers or
// batching. The bench runs it beside the app in one run; the app's figure over this one is the
// ratio held to >= 0.7, which compares across hosts where absolute figures do not. Bench only.
import Fastify, { type FastifyInstance } from 'fastify';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DELETED_TASK_STATUS, taskDisplayId } from '../machines/task.machine.ts';
import { isNearTrackingId, isOneEditApart, NEAR_MIN_LENGTH } from '../machines/tracking-id.ts';
import { KEY_LOOKUP_OPTIONS, KEY_LOOKUP_SETTINGS, statementNameOf as nameOf } from '../src/server/db/client.ts';
import { namedQuery, type NamedQuery } from '../src/server/db/pglite-named.ts';
import { cutSlice, nextSliceSize, SliceTurns, SLICING } from '../src/server/files/slices.ts';
import { NEAR_CANDIDATES, NEAR_PER_KEY, type NearRecordRow } from '../src/server/matching/near-misses.ts';

type Row = Record<string, unknown>;
type Query = <T = Row>(text: string, params?: unknown[]) => Promise<T[]>;

/** The database as the bare routes use it: plain queries and a transaction. */
export interface BareDb {
  query: Query;
  /** A named statement (node-postgres's `{ name, text, values }`): parsed and planned once per connection, as the app's lookup (decision 142). */
  prepared: <T = Row>(name: string, text: string, params: unknown[]) => Promise<T[]>;
  transaction<T>(work: (q: Query) => Promise<T>): Promise<T>;
  /**
   * A named read by key under the planner's key-lookup settings, as the app's withKeyLookupsOnly: on
   * PostgreSQL one statement on a pool whose sessions keep them, on PGlite a transaction that sets them first.
   */
  keyLookup: BareDb['prepared'];
  close(): Promise<void>;
  /** PGlite: an upload is written in slices, as the app's (inSlices). */
  sliced: boolean;
}

/** A pool of its own on PostgreSQL (as large as the app's), or the app's PGlite client (one connection either way). */
export async function bareDb(target: { url: string } | { pglite: unknown }): Promise<BareDb> {
  if ('url' in target) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    pool.on('error', () => undefined);
    const keyPool = new pg.Pool({ connectionString: target.url, max: 4, options: KEY_LOOKUP_OPTIONS });
    keyPool.on('error', () => undefined);
    const query: Query = async (text, params) => (await pool.query(text, params)).rows;
    return {
      query,
      keyLookup: async <T = Row>(name: string, text: string, values: unknown[]) => (await keyPool.query({ name, text, values })).rows as T[],
      prepared: async <T = Row>(name: string, text: string, values: unknown[]) => (await pool.query({ name, text, values })).rows as T[],
      async transaction(work) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const out = await work(async (text, params) => (await client.query({ name: nameOf(text), text, values: params })).rows);
          await client.query('commit');
          return out;
        } catch (err) {
          await client.query('rollback').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      },
      close: async () => void (await Promise.all([pool.end(), keyPool.end()])),
      sliced: false,
    };
  }
  type Q = { query(text: string, params?: unknown[]): Promise<{ rows: Row[] }> };
  const client = target.pglite as Q & { transaction<T>(f: (tx: Q) => Promise<T>): Promise<T> };
  const on = (c: Q): Query => (async (text: string, params?: unknown[]) => (await c.query(text, params)).rows) as Query;
  // In a transaction of the app's PGlite client, its statements named as the app's (pglite-named.ts,
  // decision 192); on PostgreSQL too (above): the app names its hot statements on both databases.
  const namedOn = (tx: Q): Query => {
    const named = (tx as { [namedQuery]?: NamedQuery })[namedQuery];
    if (!named) throw new Error('the PGlite client has no named statements: pass the app’s client (db/client.ts)');
    return (async (text: string, params?: unknown[]) => (await named(nameOf(text), text, params ?? [])).rows) as Query;
  };
  return {
    query: on(client),
    prepared: <T = Row>(_name: string, text: string, params: unknown[]) => on(client)<T>(text, params),
    transaction: (work) => client.transaction((tx) => work(namedOn(tx))),
    keyLookup: <T = Row>(_name: string, text: string, params: unknown[]) =>
      client.transaction(async (tx) => {
        await tx.query(`select ${KEY_LOOKUP_SETTINGS.map((s) => `set_config('${s}', 'off', true)`).join(', ')}`);
        return namedOn(tx)<T>(text, params);
      }),
    close: async () => undefined,
    sliced: true,
  };
}

/** A scan row as the app answers it (receiving/scan-service.ts scanOut). */
const scanOut = (r: Row, upcs?: { recorded: Set<string>; contested: Set<string> }) => ({
  id: r.id,
  trackingId: r.tracking_id,
  upc: r.upc,
  count: r.count,
  itemId: r.item_id,
  itemName: r.item_name,
  status: r.status,
  matchedUser: r.matched_user,
  createdAt: new Date(r.created_at as string).getTime(),
  updatedAt: new Date(r.updated_at as string).getTime(),
  opUid: r.op_uid,
  userId: r.user_id,
  mainId: r.main_id,
  subId: r.sub_id,
  taskId: r.task_id,
  ...(upcs ? { unmatchReason: r.status === 'unmatch' ? reasonOf(r.upc as string, upcs) : null } : {}),
});

const reasonOf = (upc: string, { recorded, contested }: { recorded: Set<string>; contested: Set<string> }) =>
  recorded.has(upc) ? (contested.has(upc) ? 'contested' : 'moreThanRecorded') : recorded.size ? 'otherProduct' : 'notRecorded';

// The app's lookup statements (receiving/scan-service.ts trackingOf), as drizzle writes them.
const ROWS_OF_TRACKING = `select "id", "tracking_id", "upc", "count", "item_id", "item_name", "status", "matched_user", "user_id", "main_id", "sub_id", "task_id", "op_uid", "created_at", "updated_at" from "scan_trackings" where "scan_trackings"."tracking_id" = $1 order by "scan_trackings"."id" asc`;
const RECORDED_UPCS = `select distinct "tasks"."upc", "purchased_records"."msg" = $1 from "purchased_records" inner join "tasks" on "tasks"."id" = "purchased_records"."task_id" where ("purchased_records"."tracking_id" = $2 and "tasks"."status" <> $3)`;
const CONTESTED_MESSAGE = '该包裹正在核对中，请等待管理员处理';
// The app's near records of one tracking id (matching/near-misses.ts nearRecords), as drizzle writes it.
const NEAR_RECORDS = `
        select q.key, p.id, p.tracking_id as "trackingId", p.typed_tracking_id as typed, t.id as "taskId", t.main_id as "mainId", t.sub_id as "subId",
          u.nick_name as "nickName", t.item_name as "itemName"
        from unnest($1::text[]) as q(key)
  cross join lateral (
    (select c.id from purchased_records c where right(c.tracking_id, 6) = right(q.key, 6) and c.tracking_id <> q.key  limit $2)
    union
    (select c.id from purchased_records c where left(c.tracking_id, -6) = any(array[left(q.key, -7), left(q.key, -6), left(q.key, -5)])
       and c.tracking_id <> q.key  limit $3)
  ) cand
        join purchased_records p on p.id = cand.id
        join tasks t on t.id = p.task_id and t.status <> $4
        join users u on u.id = t.user_id
        `;

/** The records near `key` that the app's lookup answers: near by the rule, closest and newest first, NEAR_PER_KEY of them. */
async function nearRecords(db: BareDb, key: string) {
  const rows = await db.keyLookup<NearRecordRow>('bare_near_records', NEAR_RECORDS, [[key], NEAR_CANDIDATES, NEAR_CANDIDATES, DELETED_TASK_STATUS]);
  return rows
    .filter((r) => isNearTrackingId(r.key, r.trackingId))
    .map((r) => ({ r, oneEdit: isOneEditApart(r.key, r.trackingId) }))
    .sort((a, b) => Number(b.oneEdit) - Number(a.oneEdit) || b.r.id - a.r.id)
    .slice(0, NEAR_PER_KEY)
    .map(({ r }) => ({ trackingId: r.typed || r.trackingId, taskId: r.taskId, taskDisplayId: taskDisplayId(r), nickName: r.nickName, itemName: r.itemName }));
}

/** An audit entry of a changed row, with its row before and after (the app's audit_log columns). */
const audit = (entity: string, action: string, opUid: number, before: Row | null, after: Row) => ({
  entity,
  entity_id: after.id,
  action,
  op_uid: opUid,
  user_id: after.user_id ?? null,
  main_id: after.main_id ?? null,
  sub_id: after.sub_id ?? null,
  upc: after.upc ?? null,
  count: after.count ?? null,
  item_name: after.item_name ?? null,
  status: after.status ?? null,
  tracking_id: after.tracking_id ?? null,
  task_id: after.task_id ?? null,
  before,
  after,
});
const AUDIT_INSERT = `insert into audit_log (entity, entity_id, action, op_uid, user_id, main_id, sub_id, upc, count, item_name, status, tracking_id, task_id, before, after)
  select entity, entity_id, action, op_uid, user_id, main_id, sub_id, upc, count, item_name, status, tracking_id, task_id, before, after
  from jsonb_to_recordset($1::jsonb) as x(entity audit_entity, entity_id int, action text, op_uid int, user_id int, main_id int, sub_id int,
    upc text, count int, item_name text, status text, tracking_id text, task_id int, before jsonb, after jsonb)`;

/**
 * What a scan changes in a tracking id's rows: each (upc, count) line sees its announced (init) row,
 * or is a new row; a row whose upc a member's live record on the tracking id has is matched to that
 * record's task (record match, task's product_count up, locked when complete), else unmatch. A
 * simplification of matching with the same writes: the scan rows, the records, the tasks, an audit
 * entry each.
 */
function planScan(rows: Row[], records: Row[], lines: { upc: string; count: number; itemId: number | null; itemName: string }[], opUid: number, now: string) {
  const scans: { before: Row | null; after: Row }[] = [];
  const recordChanges: Row[] = [];
  const taskChanges = new Map<number, { before: Row; after: Row }>();
  for (const line of lines) {
    const announced = rows.find((r) => r.upc === line.upc && r.status === 'init');
    const base: Row = announced ?? { tracking_id: rows[0]?.tracking_id ?? records[0]?.tracking_id, upc: line.upc, created_at: now };
    const record = records.find((p) => p.task_upc === line.upc && p.status !== 'match');
    const after: Row = { ...base, count: line.count, item_id: line.itemId, item_name: line.itemName, op_uid: opUid, updated_at: now, status: 'unmatch' };
    if (record) {
      const task = (taskChanges.get(record.task_id as number)?.after ?? record.task) as Row;
      const productCount = Math.min(task.count as number, (task.product_count as number) + line.count);
      const taskAfter: Row = { ...task, product_count: productCount, status: productCount >= (task.count as number) ? 'locked' : task.status, updated_at: now };
      taskChanges.set(record.task_id as number, { before: taskChanges.get(record.task_id as number)?.before ?? (record.task as Row), after: taskAfter });
      record.status = 'match';
      recordChanges.push({ id: record.id, task_id: record.task_id, tracking_id: record.tracking_id, status: 'match', user_id: task.user_id });
      Object.assign(after, {
        status: 'match',
        user_id: task.user_id,
        main_id: task.main_id,
        sub_id: task.sub_id,
        task_id: task.id,
        matched_user: record.nick_name,
      });
    }
    scans.push({ before: announced ?? null, after });
  }
  return { scans, recordChanges, taskChanges: [...taskChanges.values()] };
}

/** The rows of these tracking ids, and their live records with their tasks (locked) and members' names. */
async function readTrackings(q: Query, trackingIds: string[]) {
  const rows = await q(`select * from scan_trackings where tracking_id = any($1::text[]) order by id`, [trackingIds]);
  const records = await q(
    `select p.id, p.task_id, p.tracking_id, p.status, t.upc as task_upc, to_json(t) as task, u.nick_name
     from purchased_records p join tasks t on t.id = p.task_id join users u on u.id = t.user_id
     where p.tracking_id = any($1::text[]) and t.status <> 'deleted' order by t.id for update of t`,
    [trackingIds],
  );
  return { rows, records };
}

/** Writes a plan set-based: scan rows (insert or update), records, tasks, the audit entries; one statement each kind. */
async function writePlan(q: Query, plan: ReturnType<typeof planScan>, opUid: number, action: string, notify: boolean) {
  const fresh = plan.scans.filter((s) => !s.before);
  if (fresh.length) {
    const ids = await q<{ id: number }>(`select nextval(pg_get_serial_sequence('scan_trackings', 'id'))::int as id from generate_series(1, $1::int)`, [
      fresh.length,
    ]);
    fresh.forEach((s, i) => (s.after.id = ids[i]!.id));
    await q(
      `insert into scan_trackings (id, tracking_id, upc, count, item_id, item_name, status, matched_user, user_id, main_id, sub_id, task_id, op_uid, created_at, updated_at)
       select id, t, u, c, item, name, status::scan_status, m, uid, main, sub, task, op, created, updated
       from unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[], $14::timestamptz[], $15::timestamptz[])
         as x(id, t, u, c, item, name, status, m, uid, main, sub, task, op, created, updated)`,
      colsOf(
        fresh.map((s) => s.after),
        SCAN_COLUMNS,
      ),
    );
  }
  const seen = plan.scans.filter((s) => s.before).map((s) => s.after);
  for (let i = 0; i < seen.length; i += 5000)
    await q(
      `update scan_trackings s set count = v.count, item_id = v.item_id, item_name = v.item_name, status = v.status::scan_status, matched_user = v.matched_user, user_id = v.user_id,
         main_id = v.main_id, sub_id = v.sub_id, task_id = v.task_id, op_uid = v.op_uid, updated_at = v.updated_at
       from unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::int[], $10::int[], $11::int[], $12::timestamptz[])
         as v(id, count, item_id, item_name, status, matched_user, user_id, main_id, sub_id, task_id, op_uid, updated_at)
       where s.id = v.id`,
      colsOf(seen.slice(i, i + 5000), SEEN_COLUMNS),
    );
  if (plan.recordChanges.length)
    await q(`update purchased_records p set status = 'match', updated_at = now() where p.id = any($1::int[])`, [plan.recordChanges.map((r) => r.id)]);
  // The live announcement (`notify`), as the app sends it: a pg_notify in a statement it sends
  // anyway (here the task update), so it costs no round trip of its own.
  const changed = plan.taskChanges.map((c) => c.after);
  const payloads = [JSON.stringify(changed.map((t) => [t.user_id, 'task', [t.id]]))];
  if (changed.length)
    await q(
      `with u as (update tasks t set product_count = v.product_count, status = v.status::task_status, updated_at = now()
         from unnest($1::int[], $2::int[], $3::text[]) as v(id, product_count, status) where t.id = v.id returning t.id)
       ${notify ? `select pg_notify('ph_live', p) from unnest($4::text[]) as p` : 'select count(*) from u'}`,
      [...colsOf(changed, ['id', 'product_count', 'status']), ...(notify ? [payloads] : [])],
    );
  const entries = [
    ...plan.scans.map((s) => audit('tracking', action, opUid, s.before, s.after)),
    ...plan.recordChanges.map((r) => audit('purchased', 'match', opUid, null, r)),
    ...plan.taskChanges.map((c) => audit('task', 'match', opUid, c.before, c.after)),
  ];
  for (let i = 0; i < entries.length; i += 5000) await q(AUDIT_INSERT, [JSON.stringify(entries.slice(i, i + 5000))]);
  return entries.length;
}

/** One array parameter per column (timestamps as ISO text, which both drivers take in an array). */
/** A scan row's columns as the INSERT lists them, and those a seen row's UPDATE sets (with its id). */
const SCAN_COLUMNS = [
  'id',
  'tracking_id',
  'upc',
  'count',
  'item_id',
  'item_name',
  'status',
  'matched_user',
  'user_id',
  'main_id',
  'sub_id',
  'task_id',
  'op_uid',
  'created_at',
  'updated_at',
];
const SEEN_COLUMNS = SCAN_COLUMNS.filter((c) => !['tracking_id', 'upc', 'created_at'].includes(c));
const colsOf = (rows: Row[], cols: string[]) => cols.map((c) => rows.map((r) => (r[c] instanceof Date ? (r[c] as Date).toISOString() : (r[c] ?? null))));

/**
 * The rows of a tracking workbook as the app's template has them (tracking, upc, itemId, name, qty):
 * xlsx's read with the options the app's sheet worker uses (files/sheet-worker.mjs), in a worker
 * thread of its own as there (on the bench's thread, whose heap holds the bench's data, the same
 * parse took 20 s instead of 2), without the worker's checks.
 */
const PARSE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const XLSX = require('xlsx');
const wb = XLSX.read(Buffer.from(workerData), { type: 'buffer', dense: true, sheets: 0, cellFormula: false, cellHTML: false, cellText: false,
  cellNF: false, cellStyles: false, cellDates: true, bookVBA: false, bookDeps: false, bookFiles: false, bookProps: false });
const sheet = wb.Sheets[wb.SheetNames[0]];
const rows = [];
for (let r = 1; r < sheet.length; r++) {
  const row = sheet[r];
  if (!Array.isArray(row)) continue;
  const v = (c) => (row[c] && row[c].v !== undefined ? row[c].v : null);
  if (v(0) === null && v(1) === null) continue;
  rows.push([String(v(0) ?? '').trim(), String(v(1) ?? '').trim(), v(2) === null ? null : Number(v(2)), String(v(3) ?? ''), v(5) === null ? null : Number(v(5))]);
}
parentPort.postMessage(rows);
`;

function parseWorkbook(bytes: Buffer): Promise<{ tracking: string; upc: string; itemId: number | null; name: string; qty: number | null }[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(PARSE_WORKER, { eval: true, workerData: new Uint8Array(bytes) });
    w.once('message', (rows: [string, string, number | null, string, number | null][]) => {
      void w.terminate();
      resolve(rows.map(([tracking, upc, itemId, name, qty]) => ({ tracking, upc, itemId, name, qty })));
    });
    w.once('error', reject);
  });
}

/**
 * An upload's groups (the rows of one tracking id) written as the app writes them (upload-rows.ts
 * applyInSlices), so that the ratio compares the same batching: on PGlite in slices of whole groups,
 * each its own transaction timed from its turn and sized by the app's rule (SLICING.pglite,
 * nextSliceSize), a turn of the event loop between two; on PostgreSQL in one transaction (the app
 * writes 400-row slices there, two at once: this reference does less work per row than the app).
 */
async function inSlices<G extends unknown[], T>(db: BareDb, groups: G[], work: (q: Query, slice: G[]) => Promise<T>): Promise<T[]> {
  if (!db.sliced) return [await db.transaction((q) => work(q, groups))];
  const { targetMs, firstRows, maxRows } = SLICING.pglite;
  const out: T[] = [];
  let size = firstRows;
  for (let i = 0; i < groups.length;) {
    const { slice, rows, next } = cutSlice(groups, i, size, (g) => g.length);
    i = next;
    let started = 0;
    out.push(await bareTurns.run(() => ((started = performance.now()), db.transaction((q) => work(q, slice)))));
    size = nextSliceSize(size, rows, performance.now() - started, { targetMs, maxRows });
    await nextTurn();
  }
  return out;
}
const bareTurns = new SliceTurns();

/**
 * The bare server: GET /bare/tracking/:id/list (the lookup's SQL), POST /bare/tracking/:id/create
 * (a scan: begin, the tracking lock, the reads, the writes, commit; `?notify=1` adds the live
 * announcement's NOTIFY), POST /bare/upload/import and /bare/upload/confirm (a raw workbook body:
 * xlsx's parse, then set-based statements: in slices on PGlite, as the app's, inSlices). `onResponse` gets each response's
 * server time, as the app's hook in the bench does; with `takeTimes`, GET /bare/server-times answers what it hands over.
 */
export async function startBare(
  db: BareDb,
  opUid: number,
  onResponse: (ms: number) => void,
  takeTimes?: () => number[],
): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  if (takeTimes) app.get('/bare/server-times', async () => takeTimes());
  app.addHook('onResponse', async (req, reply) => {
    if (req.url !== '/bare/server-times') onResponse(reply.elapsedTime);
  });

  app.get('/bare/tracking/:id/list', async (req) => {
    const id = (req.params as { id: string }).id;
    const rows = await db.prepared('bare_rows_of_tracking', ROWS_OF_TRACKING, [id]);
    const upcs = { recorded: new Set<string>(), contested: new Set<string>() };
    if (rows.some((r) => r.status === 'unmatch'))
      for (const r of await db.prepared<{ upc: string; '?column?': boolean | null }>('bare_recorded_upcs', RECORDED_UPCS, [CONTESTED_MESSAGE, id, 'deleted'])) {
        upcs.recorded.add(r.upc);
        if (r['?column?']) upcs.contested.add(r.upc);
      }
    const list = rows.map((r) => scanOut(r, upcs));
    // The records near a tracking id no member recorded, as the app answers them (matching/near-misses.ts
    // nearRecords): asked only for an id long enough to have near ids.
    if (id.length >= NEAR_MIN_LENGTH && list.some((r) => r.unmatchReason === 'notRecorded')) {
      const near = await nearRecords(db, id);
      for (const r of list) if (r.unmatchReason === 'notRecorded' && near.length) Object.assign(r, { nearMisses: near });
    }
    return { code: 'A00000', msg: '', data: { isExist: rows.length > 0, scanTrackingList: list } };
  });

  const scans = new BareScanBatcher(db, opUid);
  app.post('/bare/tracking/:id/create', async (req) => {
    const id = (req.params as { id: string }).id;
    const notify = (req.query as { notify?: string }).notify === '1';
    const lines = (req.body as { items: { upc: string; count: number; itemId: number }[] }).items;
    const rows = await scans.submit({ trackingId: id, lines, notify });
    return { code: 'A00000', msg: '创建成功', data: { opStatus: 'succ', msg: '创建成功', scanTrackingList: rows.map((r) => scanOut(r)) } };
  });

  // Import: the file's (tracking, upc) pairs not yet recorded become init rows, audited.
  app.post('/bare/upload/import', async (req) => {
    const t0 = performance.now();
    const file = await parseWorkbook(req.body as Buffer);
    const parsed = performance.now();
    const slices = await inSlices(db, [...groupBy(file, (r) => r.tracking).values()], async (q, groups) => {
      const lines = groups.flat();
      await q(`select pg_advisory_xact_lock(hashtextextended('trackings:all', 0))`);
      const rows = await q(
        `insert into scan_trackings (tracking_id, upc, count, item_id, item_name, status, op_uid)
         select f.t, f.u, f.c, i.id, coalesce(i.item_name, f.n), 'init', $6 from unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[]) as f(t, u, c, item, n)
         left join items i on i.id = f.item
         where not exists (select 1 from scan_trackings s where s.tracking_id = f.t and s.upc = f.u)
         returning *`,
        [lines.map((r) => r.tracking), lines.map((r) => r.upc), lines.map((r) => r.qty ?? 1), lines.map((r) => r.itemId), lines.map((r) => r.name), opUid],
      );
      const entries = rows.map((r) => audit('tracking', 'upload.import', opUid, null, r));
      for (let i = 0; i < entries.length; i += 5000) await q(AUDIT_INSERT, [JSON.stringify(entries.slice(i, i + 5000))]);
      return rows.length;
    });
    const written = slices.reduce((n, k) => n + k, 0);
    return {
      code: 'A00000',
      msg: '',
      data: { succ: written, skip: file.length - written, error: 0 },
      phases: phases({ parse: parsed - t0, write: performance.now() - parsed }),
    };
  });

  // Confirm: the init rows of the file's pairs are seen and matched (planScan), written set-based.
  app.post('/bare/upload/confirm', async (req) => {
    const t0 = performance.now();
    const file = await parseWorkbook(req.body as Buffer);
    const parsed = performance.now();
    let read = 0;
    const slices = await inSlices(db, [...groupBy(file, (r) => r.tracking).values()], async (q, groups) => {
      await q(`select pg_advisory_xact_lock(hashtextextended('trackings:all', 0))`);
      const t0 = performance.now();
      const { rows, records } = await readTrackings(
        q,
        groups.map((g) => g[0]!.tracking),
      );
      read += performance.now() - t0;
      const rowsOf = groupBy(rows, (r) => r.tracking_id as string);
      const recordsOf = groupBy(records, (r) => r.tracking_id as string);
      const plans = groups.map((lines) => {
        const t = lines[0]!.tracking;
        return planScan(
          rowsOf.get(t) ?? [],
          recordsOf.get(t) ?? [],
          lines
            .filter((l) => (rowsOf.get(t) ?? []).some((r) => r.upc === l.upc && r.status === 'init'))
            .map((l) => {
              const announced = rowsOf.get(t)!.find((r) => r.upc === l.upc && r.status === 'init')!;
              return {
                upc: l.upc,
                count: l.qty ?? (announced.count as number),
                itemId: announced.item_id as number | null,
                itemName: announced.item_name as string,
              };
            }),
          opUid,
          new Date().toISOString(),
        );
      });
      const all = {
        scans: plans.flatMap((p) => p.scans),
        recordChanges: plans.flatMap((p) => p.recordChanges),
        taskChanges: plans.flatMap((p) => p.taskChanges),
      };
      await writePlan(q, all, opUid, 'upload.confirm', false);
      return all.scans.length;
    });
    const written = slices.reduce((n, k) => n + k, 0);
    const done = performance.now();
    return {
      code: 'A00000',
      msg: '',
      data: { succ: written, skip: 0, error: file.length - written },
      phases: phases({ parse: parsed - t0, read, write: done - parsed - read }),
    };
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

interface BareScan {
  trackingId: string;
  lines: { upc: string; count: number; itemId: number }[];
  notify: boolean;
}

/**
 * The bare matched scan's batching, as the app's ScanBatcher (receiving/scan-batcher.ts) batches
 * scans: at most 32 scans of distinct tracking ids a transaction, 2 transactions at once; a scan
 * arriving while both are being written waits for the next batch. A batch is one transaction of the
 * bare scan's statements for all its scans: begin, the tracking locks (one statement), the reads
 * (rows, records with their tasks locked, the items), the writes (scan rows, records, tasks, audit
 * entries: one statement each kind), commit. Without its retry of a failed batch scan by scan.
 */
class BareScanBatcher {
  private queue: { scan: BareScan; resolve(rows: Row[]): void; reject(err: unknown): void }[] = [];
  private busy = new Set<string>();
  private running = 0;

  constructor(
    private db: BareDb,
    private opUid: number,
    private maxBatch = 32,
    private parallel = 2,
  ) {}

  submit(scan: BareScan): Promise<Row[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ scan, resolve, reject });
      this.pump();
    });
  }

  private pump() {
    while (this.running < this.parallel && this.queue.length) {
      const batch: typeof this.queue = [];
      const rest: typeof this.queue = [];
      const ids = new Set<string>();
      for (const w of this.queue) {
        const t = w.scan.trackingId;
        if (batch.length < this.maxBatch && !ids.has(t) && !this.busy.has(t)) batch.push(w);
        else rest.push(w);
        ids.add(t);
      }
      this.queue = rest;
      if (!batch.length) return;
      this.running++;
      for (const w of batch) this.busy.add(w.scan.trackingId);
      void this.write(batch.map((w) => w.scan))
        .then(
          (rows) => batch.forEach((w, i) => w.resolve(rows[i]!)),
          (err: unknown) => batch.forEach((w) => w.reject(err)),
        )
        .finally(() => {
          for (const w of batch) this.busy.delete(w.scan.trackingId);
          this.running--;
          this.pump();
        });
    }
  }

  /** One transaction for the batch; answers each scan's tracking rows after it. */
  private write(batch: BareScan[]): Promise<Row[][]> {
    const opUid = this.opUid;
    return this.db.transaction(async (q) => {
      const ids = batch.map((s) => s.trackingId);
      await q(`select pg_advisory_xact_lock(hashtextextended('tracking:' || t, 0)) from unnest($1::text[]) as t order by t`, [ids]);
      const { rows, records } = await readTrackings(q, ids);
      const items = await q<{ id: number; item_name: string }>(`select id, item_name from items where id = any($1::int[])`, [
        [...new Set(batch.flatMap((s) => s.lines.map((l) => l.itemId)))],
      ]);
      const name = new Map(items.map((i) => [i.id, i.item_name]));
      const rowsOf = groupBy(rows, (r) => r.tracking_id as string);
      const recordsOf = groupBy(records, (r) => r.tracking_id as string);
      const now = new Date().toISOString();
      const plans = batch.map((s) =>
        planScan(
          rowsOf.get(s.trackingId) ?? [],
          recordsOf.get(s.trackingId) ?? [],
          s.lines.map((l) => ({ upc: l.upc, count: l.count, itemId: l.itemId, itemName: name.get(l.itemId) ?? '' })),
          opUid,
          now,
        ),
      );
      await writePlan(
        q,
        { scans: plans.flatMap((p) => p.scans), recordChanges: plans.flatMap((p) => p.recordChanges), taskChanges: plans.flatMap((p) => p.taskChanges) },
        opUid,
        'scan',
        batch.some((s) => s.notify),
      );
      return batch.map((s, i) => {
        const changed = new Map(plans[i]!.scans.map((x) => [x.after.id, x.after]));
        const before = rowsOf.get(s.trackingId) ?? [];
        return [...before.map((r) => changed.get(r.id) ?? r), ...plans[i]!.scans.filter((x) => !x.before).map((x) => x.after)];
      });
    });
  }
}

/** Where an upload's time went, for the bench's line. */
const phases = (ms: Record<string, number>) =>
  Object.entries(ms)
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
    .join(', ');

function groupBy<T>(list: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of list) {
    const k = key(x);
    const group = out.get(k);
    if (group) group.push(x);
    else out.set(k, [x]);
  }
  return out;
}

// Run as a process of its own (`node --import tsx scripts/bench-bare.ts`, BARE_DATABASE_URL and
// BARE_OP_UID set): the bench's tracking uploads on PostgreSQL, whose app server is a process of its
// own too, so neither works in the bench's heap. Prints its address. Its server times are kept and
// handed over, then forgotten, by GET /bare/server-times (the bench asks after each run).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // SIGTERM ends it by exit, so a CPU profile (--cpu-prof) is written.
  process.on('SIGTERM', () => process.exit(0));
  const db = await bareDb({ url: process.env.BARE_DATABASE_URL! });
  let times: number[] = [];
  const { base } = await startBare(
    db,
    Number(process.env.BARE_OP_UID),
    (ms) => times.push(ms),
    () => {
      const out = times;
      times = [];
      return out;
    },
  );
  console.log(`bare routes: ${base}`);
}
