// Live updates, the writing side (docs/decisions/016-live-updates.md): each write path names what it
// changed (publishLive) and the change travels as a NOTIFY inside its transaction, so PostgreSQL
// hands it to every server process on the database when, and only if, the transaction commits
// (PGlite: to this process). Hints, never data: a kind, an audience and ids. A member is told of
// their own objects only; the admin side of claims (by board). NOTIFY takes at most 8000 bytes.
import { sql, type SQL } from 'drizzle-orm';
import type { components } from '../../api/schema';
import type { AuditEntry } from '../audit.ts';
import { awaitAtCommit, executePrepared, type Tx } from '../db/client.ts';

export type LiveKind = components['schemas']['LiveEvent']['kind'];
export type LiveEvent = components['schemas']['LiveEvent'];

/** The NOTIFY channel of the live updates. */
export const LIVE_CHANNEL = 'ph_live';

/** Who hears of a change: the member who owns the object (their user id), or the admin side. */
export type Audience = number | 'admins';

export interface LiveChange {
  to: Audience;
  kind: LiveKind;
  id: number;
}

/** On the wire: [audience, kind, ids] with audience 0 for the admin side and ids null for "too many to list". */
export type WireGroup = [number, LiveKind, number[] | null];

/** Ids listed per audience and kind; beyond, the hint says "some" (a page reads everything again anyway). */
export const MAX_IDS = 100;
/** Bytes of a NOTIFY payload: under PostgreSQL's 8000 with room to spare. */
export const MAX_PAYLOAD = 7000;

/** A task changed in what its member sees (its records, say): its member hears of it. */
export const memberTaskChanged = (t: { id: number; userId: number }): LiveChange => ({ to: t.userId, kind: 'task', id: t.id });

/** A task changed (claimed, its count or status): its member hears of it, and the admin side of its board's claims. */
export const taskChanged = (t: { id: number; userId: number; boardId: number }): LiveChange[] => [
  memberTaskChanged(t),
  { to: 'admins', kind: 'claim', id: t.boardId },
];

/** A payment application changed: its member hears of it. */
export const applicationChanged = (a: { id: number; userId: number }): LiveChange => ({ to: a.userId, kind: 'apply', id: a.id });

/** A withdraw line changed: its member hears of it. */
export const withdrawLineChanged = (l: { id: number; userId: number }): LiveChange => ({ to: l.userId, kind: 'withdraw', id: l.id });

/**
 * What a matching run changed, from its audit entries (every scan row, record and task it wrote has
 * one, with before and after): the member of each task concerned, before and after (a parcel that
 * left one member's task for another's is news to both), and the boards of the tasks it moved.
 */
export function matchingChanges(entries: readonly AuditEntry[]): LiveChange[] {
  const out: LiveChange[] = [];
  const owner = (row: unknown) => {
    const r = row as { userId?: unknown; taskId?: unknown } | null;
    if (r && typeof r.userId === 'number' && typeof r.taskId === 'number') out.push(memberTaskChanged({ userId: r.userId, id: r.taskId }));
  };
  for (const e of entries) {
    if (e.entity === 'task') {
      out.push(...taskChanged(e.after as { id: number; userId: number; boardId: number }));
      continue;
    }
    owner(e);
    if (e.entity === 'tracking') owner(e.before);
  }
  return out;
}

/** The changes as NOTIFY payloads: grouped by audience and kind, ids capped, each payload within MAX_PAYLOAD. */
export function livePayloads(changes: Iterable<LiveChange>): string[] {
  const groups = new Map<string, { to: number; kind: LiveKind; ids: Set<number> }>();
  for (const c of changes) {
    const to = c.to === 'admins' ? 0 : c.to;
    const key = `${to}|${c.kind}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { to, kind: c.kind, ids: new Set() }));
    g.ids.add(c.id);
  }
  const payloads: string[] = [];
  let part: string[] = [];
  let size = 2;
  for (const g of groups.values()) {
    const ids = g.ids.size > MAX_IDS ? null : [...g.ids].sort((a, b) => a - b);
    const text = JSON.stringify([g.to, g.kind, ids] satisfies WireGroup);
    if (part.length && size + text.length + 1 > MAX_PAYLOAD) {
      payloads.push(`[${part.join(',')}]`);
      part = [];
      size = 2;
    }
    part.push(text);
    size += text.length + 1;
  }
  if (part.length) payloads.push(`[${part.join(',')}]`);
  return payloads;
}

/** A payload read back (the hub's side); null for anything that is not one. */
export function parsePayload(payload: string): WireGroup[] | null {
  try {
    const groups = JSON.parse(payload) as unknown;
    if (!Array.isArray(groups)) return null;
    return groups.filter(
      (g): g is WireGroup =>
        Array.isArray(g) && typeof g[0] === 'number' && typeof g[1] === 'string' && (g[2] === null || (Array.isArray(g[2]) && g[2].every(Number.isInteger))),
    );
  } catch {
    return null;
  }
}

/**
 * Announces `changes`, written in `tx`, to the live streams of every server process: delivered at
 * commit, dropped on rollback (NOTIFY is transactional). One statement; in a pipelined transaction
 * (db/client.ts) it goes with the COMMIT, at no round trip of its own. Nothing when there is nothing.
 */
export async function publishLive(tx: Tx, changes: Iterable<LiveChange>): Promise<void> {
  const notify = liveNotification(changes);
  if (notify) await awaitAtCommit(tx, executePrepared(tx, notify));
}

/**
 * publishLive's statement, for a writer that sends it inside a statement of its own (matching's
 * write, db/together.ts: a scan batch stays one lock, one read and one write); null for no change.
 */
export function liveNotification(changes: Iterable<LiveChange>): SQL | null {
  const payloads = livePayloads(changes);
  return payloads.length ? sql`select pg_notify(${LIVE_CHANNEL}, p) from unnest(${sql.param(payloads)}::text[]) as p` : null;
}
