// Near misses (issue 33, docs/decisions/098-near-misses.md): a parcel whose tracking id no member
// recorded, and a record whose parcel never arrived, are often one parcel - a member's typo, a digit
// dropped, a prefix a scanner added. machines/tracking-id.ts isNearTrackingId decides; this module
// finds its candidates with indexed reads and asks it, for the few keys that found nothing:
// - nearRecords: records (live tasks) near tracking ids no member recorded - the clerk's 可能是…
//   on the scan stations and in the tracking upload's result rows;
// - nearArrivals: seen scan rows of tracking ids no member recorded, near a member's records whose
//   parcel has not arrived - the member's hint (which tells nothing of another member's records).
// One statement per NEAR_KEYS_PER_STATEMENT keys (an unnest of the keys, a lateral pair of index
// reads per key, each at most NEAR_CANDIDATES rows), never asked on the matched path. Each runs with
// key lookups only (withKeyLookupsOnly, decision 094): a head shared by many stored ids (R00 for
// R00012345) made the planner expect its LIMIT met at once and scan the table, for every key that
// then matched nothing - the growth bench's 50,000-row import went 14 s -> 190 s from 10k to 300k rows.
//
// The candidates: one edit before a key's last 6 characters leaves them intact, and one among them
// leaves all before them intact (the head: the key but its last 6 characters, of the near key's own
// length n, n-1 or n+1 - that is the key's first n-6, n-7 or n-5 characters); a shared last 10 shares
// the last 6. So a key's near keys are among the rows whose right(key, 6) is its own or whose
// left(key, -6) is one of its three heads: equality reads of two expression indexes
// (*_tracking_tail_idx, *_tracking_head_idx; measured at a million records: a thousand keys in
// 0.24 s, six in 0.2 ms on PostgreSQL).
import { sql } from 'drizzle-orm';
import type { components } from '../../api/schema';
import { SEEN_SCAN_STATUSES } from '../../../machines/scan-record.machine.ts';
import { DELETED_TASK_STATUS, taskDisplayId } from '../../../machines/task.machine.ts';
import { isNearTrackingId, isOneEditApart, NEAR_MIN_LENGTH } from '../../../machines/tracking-id.ts';
import { buildQuery, executePrepared, rowsOf, withValue, type Tx } from '../db/client.ts';
import { withKeyLookupsOnly } from '../db/matching-store.ts';
import { noLiveRecord } from '../receiving/unknown-parcels.ts';

/** Suggestions per tracking id: the clerk reads a few, not a list. */
export const NEAR_PER_KEY = 3;
/** Rows each of a key's two index reads takes at most (before the rule): bounded work however alike the stored ids are. */
export const NEAR_CANDIDATES = 32;
/** Keys per statement (one array parameter; at most 2 x NEAR_CANDIDATES rows read for each). */
export const NEAR_KEYS_PER_STATEMENT = 1000;

/** A record near a tracking id, as the scan calls answer it (the contract's NearMiss). */
export type NearRecord = components['schemas']['NearMiss'];

/** The usable keys (long enough to have near keys, distinct), `size` (NEAR_KEYS_PER_STATEMENT) at a time. */
function* batches(keys: Iterable<string>, size = NEAR_KEYS_PER_STATEMENT) {
  const usable = [...new Set(keys)].filter((key) => key.length >= NEAR_MIN_LENGTH);
  for (let i = 0; i < usable.length; i += size) yield usable.slice(i, i + size);
}

/**
 * How an upload reads its parcels' near records (after its slices): `keysPerStatement` keys a
 * statement, each statement run by `turn` (on PGlite, its turn among the uploads' slices).
 */
export interface NearPacing {
  keysPerStatement: number;
  turn: <T>(statement: () => Promise<T>) => Promise<T>;
}
/** Unpaced: each statement at once (the scan calls, and uploads on PostgreSQL). */
const AT_ONCE: NearPacing['turn'] = (statement) => statement();

/** The keys' parameter of the statements below: built once, their keys put in at each call (withValue). */
const KEYS = sql.placeholder('keys');
const q = sql`unnest(${KEYS}::text[]) as q(key)`;

/**
 * The candidate ids of `table` for each q(key): the two index reads. The expressions are written out
 * as the indexes declare them (a parameter in their place would not use the index).
 */
const candidates = (table: 'purchased_records' | 'scan_trackings', extra = sql``) => sql`
  cross join lateral (
    (select c.id from ${sql.raw(table)} c where right(c.tracking_id, 6) = right(q.key, 6) and c.tracking_id <> q.key ${extra} limit ${NEAR_CANDIDATES})
    union
    (select c.id from ${sql.raw(table)} c where left(c.tracking_id, -6) = any(array[left(q.key, -7), left(q.key, -6), left(q.key, -5)])
       and c.tracking_id <> q.key ${extra} limit ${NEAR_CANDIDATES})
  ) cand`;

/** A row of nearRecords' statement (the bench's bare lookup reads the same). */
export type NearRecordRow = {
  key: string;
  id: number;
  trackingId: string;
  typed: string | null;
  taskId: number;
  mainId: number;
  subId: number;
  nickName: string;
  itemName: string;
};
/** nearRecords' statement: the records of live tasks among the candidates (`unrecorded`: of keys no live record has). */
const nearRecordsOf = (unrecordedOnly: boolean) =>
  buildQuery(sql`
        select q.key, p.id, p.tracking_id as "trackingId", p.typed_tracking_id as typed, t.id as "taskId", t.main_id as "mainId", t.sub_id as "subId",
          u.nick_name as "nickName", t.item_name as "itemName"
        from ${q} ${candidates('purchased_records')}
        join purchased_records p on p.id = cand.id
        join tasks t on t.id = p.task_id and t.status <> ${DELETED_TASK_STATUS}
        join users u on u.id = t.user_id
        ${unrecordedOnly ? sql`where ${noLiveRecord(sql`q.key`)}` : sql``}`);
const NEAR_RECORDS = { all: nearRecordsOf(false), unrecorded: nearRecordsOf(true) };

/** Closest first: one edit apart before a shared suffix only, then the newest record. */
const byCloseness = <T extends { oneEdit: boolean; id: number }>(a: T, b: T) => Number(b.oneEdit) - Number(a.oneEdit) || b.id - a.id;

/**
 * The records of live tasks near each key (at most NEAR_PER_KEY, closest and newest first), for keys
 * that have none of their own. `unrecordedOnly`: a key some live record has gets nothing (the upload,
 * which does not know; the scan calls ask only for tracking ids whose rows say notRecorded).
 */
export async function nearRecords(
  tx: Tx,
  keys: Iterable<string>,
  opts: { unrecordedOnly?: boolean; pacing?: NearPacing } = {},
): Promise<Map<string, NearRecord[]>> {
  const found = new Map<string, (NearRecord & { id: number; oneEdit: boolean })[]>();
  const statement = opts.unrecordedOnly ? NEAR_RECORDS.unrecorded : NEAR_RECORDS.all;
  const turn = opts.pacing?.turn ?? AT_ONCE;
  for (const batch of batches(keys, opts.pacing?.keysPerStatement)) {
    const rows = await turn(() => rowsOf<NearRecordRow>(withKeyLookupsOnly(tx, (k) => executePrepared(k, withValue(statement, KEYS, batch)))));
    for (const r of rows) {
      if (!isNearTrackingId(r.key, r.trackingId)) continue;
      const list = found.get(r.key) ?? [];
      list.push({
        id: r.id,
        oneEdit: isOneEditApart(r.key, r.trackingId),
        trackingId: r.typed || r.trackingId,
        taskId: r.taskId,
        taskDisplayId: taskDisplayId(r),
        nickName: r.nickName,
        itemName: r.itemName,
      });
      found.set(r.key, list);
    }
  }
  return new Map(
    [...found].map(([key, list]) => [
      key,
      list
        .sort(byCloseness)
        .slice(0, NEAR_PER_KEY)
        .map(({ id: _id, oneEdit: _e, ...near }) => near),
    ]),
  );
}

/** nearArrivals' statement: the seen scan rows among the candidates that no live record has. */
const NEAR_ARRIVALS = buildQuery(sql`
        select q.key, s.id, s.tracking_id as "trackingId"
        from ${q} ${candidates('scan_trackings', sql`and c.status = any(${sql.param([...SEEN_SCAN_STATUSES])}::text[]::scan_status[])`)}
        join scan_trackings s on s.id = cand.id
        where ${noLiveRecord(sql`s.tracking_id`)}`);

/**
 * For each record key (records whose parcel has not arrived), the tracking id of a seen parcel near
 * it that NO member recorded (closest, then newest first), if any. A parcel someone recorded is
 * never answered: it would tell one member of another's record.
 */
export async function nearArrivals(tx: Tx, keys: Iterable<string>): Promise<Map<string, string>> {
  const found = new Map<string, { trackingId: string; id: number; oneEdit: boolean }>();
  for (const batch of batches(keys)) {
    const rows = await rowsOf<{ key: string; id: number; trackingId: string }>(
      withKeyLookupsOnly(tx, (k) => executePrepared(k, withValue(NEAR_ARRIVALS, KEYS, batch))),
    );
    for (const r of rows) {
      if (!isNearTrackingId(r.key, r.trackingId)) continue;
      const candidate = { trackingId: r.trackingId, id: r.id, oneEdit: isOneEditApart(r.key, r.trackingId) };
      const have = found.get(r.key);
      if (!have || byCloseness(candidate, have) < 0) found.set(r.key, candidate);
    }
  }
  return new Map([...found].map(([key, c]) => [key, c.trackingId]));
}
