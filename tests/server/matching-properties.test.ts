// Properties of matching on random worlds (issue 17, decision 090), on plain data: no database.
// A world is a few tasks (each of one UPC and a count), parcels (tracking ids) and events: scans of
// units into a parcel and members' records. The world applies each event as the server does, with
// the server's own pure parts: the task machine says whether a record change is allowed and what a
// task.match does, allocate.ts divides each parcel (recordCaps, pieceStatus), the task machine's
// matchVerdict judges each task. What it adds is the bookkeeping match.ts does around them (one
// snapshot per run, pieces written back as rows, records and tasks updated), kept as small as the
// rules allow; the API tests (matching.test.ts) hold the real writer to the same outcomes.
//
// "Up to the earliest-record rule": a short shared parcel goes to the record recorded first, so two
// orders are compared with the records in the same relative order (scans anywhere among them).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../machines/stored-state.ts';
import { explainTaskRefusal, matchVerdict, recordsEvent, taskMachine, type TaskStatus } from '../../machines/task.machine.ts';
import { allocate, pieceStatus, POOL_STATUSES, recordCaps, type ScanStatus } from '../../src/server/matching/allocate.ts';

interface Task {
  id: number;
  upc: string;
  count: number;
  status: TaskStatus;
  productCount: number;
  canSplit: boolean;
}
interface Rec {
  id: number;
  taskId: number;
  trackingId: string;
  productCount: number;
  status: 'init' | 'match' | 'unmatch';
}
interface Row {
  id: number;
  trackingId: string;
  upc: string;
  count: number;
  status: ScanStatus;
  taskId: number | null;
}
type Event = { kind: 'scan'; trackingId: string; upc: string; count: number } | { kind: 'record'; taskId: number; trackingId: string; count: number };

class World {
  tasks: Task[];
  records: Rec[] = [];
  rows: Row[] = [];
  private nextId = 1;
  constructor(tasks: { upc: string; count: number }[]) {
    this.tasks = tasks.map((t, i) => ({ id: i + 1, ...t, status: 'open', productCount: 0, canSplit: false }));
  }
  task = (id: number) => this.tasks.find((t) => t.id === id)!;
  acceptsMatch = (t: Task) => decide(taskMachine, t.status, t, { type: 'task.match', outcome: 'open' }, explainTaskRefusal).ok;

  apply(e: Event): boolean {
    if (e.kind === 'scan') {
      this.rows.push({ id: this.nextId++, trackingId: e.trackingId, upc: e.upc, count: e.count, status: 'scan', taskId: null });
      this.match([e.trackingId]);
      return true;
    }
    return this.record(e.taskId, e.trackingId, e.count);
  }

  /** A member records units (purchased-service.ts's rules). */
  record(taskId: number, trackingId: string, count: number): boolean {
    const task = this.task(taskId);
    if (!decide(taskMachine, task.status, task, recordsEvent('user'), explainTaskRefusal).ok) return false;
    const own = this.records.filter((r) => r.taskId === taskId);
    if (own.some((r) => r.trackingId === trackingId)) return false;
    if (own.reduce((n, r) => n + r.productCount, 0) + count > task.count) return false;
    this.records.push({ id: this.nextId++, taskId, trackingId, productCount: count, status: 'init' });
    this.match([trackingId]);
    return true;
  }

  remove(recordId: number): boolean {
    const rec = this.records.find((r) => r.id === recordId)!;
    const task = this.task(rec.taskId);
    if (rec.status === 'match' || !decide(taskMachine, task.status, task, recordsEvent('user'), explainTaskRefusal).ok) return false;
    this.records = this.records.filter((r) => r !== rec);
    this.match([rec.trackingId]);
    return true;
  }

  allocation(trackingId: string, caps: Map<number, number>) {
    return allocate(
      this.rows.filter((s) => s.trackingId === trackingId),
      this.records
        .filter((r) => r.trackingId === trackingId)
        .map((r) => {
          const t = this.task(r.taskId);
          return { id: r.id, taskId: t.id, upc: t.upc, productCount: r.productCount, cap: caps.get(r.id)!, settled: !this.acceptsMatch(t) };
        }),
    );
  }

  /** One matching run of these tracking ids, as match.ts's run: one snapshot, then the writes. */
  match(trackingIds: string[]) {
    const concerned = [...new Set(this.records.filter((r) => trackingIds.includes(r.trackingId)).map((r) => r.taskId))].sort((a, b) => a - b);
    const read = new Set([...trackingIds, ...this.records.filter((r) => concerned.includes(r.taskId)).map((r) => r.trackingId)]);
    const caps = recordCaps(this.records, (id) => this.task(id).count);
    const allocs = new Map([...read].map((t) => [t, this.allocation(t, caps)]));
    for (const t of trackingIds) {
      const a = allocs.get(t)!;
      for (const row of this.rows.filter((r) => r.trackingId === t && POOL_STATUSES.includes(r.status))) {
        const pieces = a.pieces.get(row.id);
        if (!pieces?.length) continue;
        const [first, ...rest] = pieces;
        Object.assign(row, { count: first!.count, taskId: first!.taskId, status: pieceStatus(first!) });
        for (const p of rest) this.rows.push({ ...row, id: this.nextId++, count: p.count, taskId: p.taskId, status: pieceStatus(p) });
      }
      for (const r of this.records.filter((x) => x.trackingId === t && this.acceptsMatch(this.task(x.taskId)))) r.status = a.records.get(r.id)!.status;
    }
    for (const id of concerned) {
      const task = this.task(id);
      if (!this.acceptsMatch(task)) continue;
      const v = matchVerdict(
        task.count,
        this.records.filter((r) => r.taskId === id).map((r) => allocs.get(r.trackingId)!.records.get(r.id)!),
      );
      const d = decide(taskMachine, task.status, task, { type: 'task.match', outcome: v.outcome }, explainTaskRefusal);
      if (d.ok) Object.assign(task, { status: d.next, productCount: v.productCount, canSplit: v.canSplit });
    }
  }

  /** What a user notices: each task's status and counts, and the units of each (parcel, upc, row status, task). */
  outcome() {
    const units = new Map<string, number>();
    for (const r of this.rows) {
      const k = `${r.trackingId}|${r.upc}|${r.status}|${r.taskId}`;
      units.set(k, (units.get(k) ?? 0) + r.count);
    }
    return {
      tasks: this.tasks.map((t) => ({ id: t.id, status: t.status, productCount: t.productCount, canSplit: t.canSplit })),
      units: [...units].sort(([a], [b]) => a.localeCompare(b)),
    };
  }
}

const UPCS = ['X', 'Y'];
const TRACKINGS = ['T0', 'T1', 'T2'];
const worldArb = fc.record({
  tasks: fc.array(fc.record({ upc: fc.constantFrom(...UPCS), count: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 4 }),
  events: fc.array(
    fc.oneof(
      // 'Z' is a product nobody records.
      fc.record({ kind: fc.constant('scan' as const), trackingId: fc.constantFrom(...TRACKINGS), upc: fc.constantFrom('X', 'Y', 'Z'), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('record' as const), taskId: fc.integer({ min: 1, max: 4 }), trackingId: fc.constantFrom(...TRACKINGS), count: fc.integer({ min: 1, max: 3 }) }),
    ),
    { maxLength: 10 },
  ),
});
type Spec = { tasks: { upc: string; count: number }[]; events: Event[] };
const valid = (s: Spec) => s.events.filter((e) => e.kind === 'scan' || e.taskId <= s.tasks.length);

/** Another order of `events`: scans moved anywhere, records kept in their relative order (see the header). */
function reorder(events: Event[], keys: number[]): Event[] {
  const shuffled = events.map((e, i) => ({ e, k: keys[i] ?? 0, i })).sort((a, b) => a.k - b.k || a.i - b.i);
  const records = events.filter((e) => e.kind === 'record');
  let next = 0;
  return shuffled.map(({ e }) => (e.kind === 'record' ? records[next++]! : e));
}

/** The world after `events`; `origin` tells which event created each record, `accepted` which events were. */
function run(spec: Spec, events: Event[]) {
  const w = new World(spec.tasks);
  const origin = new Map<number, number>();
  const accepted = events.map((e, k) => {
    const ok = w.apply(e);
    if (ok && e.kind === 'record') origin.set(w.records.at(-1)!.id, k);
    return ok;
  });
  return Object.assign(w, { origin, accepted });
}

const RUNS = { numRuns: 2000 };

describe('matching on random worlds (decision 090)', () => {
  it('gives the same outcome whatever the order of scans among the records', () => {
    fc.assert(
      fc.property(worldArb, fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 10, maxLength: 10 }), (spec, keys) => {
        const events = valid(spec);
        expect(run(spec, reorder(events, keys)).outcome()).toEqual(run(spec, events).outcome());
      }),
      RUNS,
    );
  });

  it('changes nothing when matching runs again', () => {
    fc.assert(
      fc.property(worldArb, (spec) => {
        const w = run(spec, valid(spec));
        const before = w.outcome();
        w.match(TRACKINGS);
        expect(w.outcome()).toEqual(before);
      }),
      RUNS,
    );
  });

  it('keeps every unit in exactly one row, no row on a task of another UPC, never more units on a task than its count, and locks only what all arrived and agrees', () => {
    fc.assert(
      fc.property(worldArb, (spec) => {
        const events = valid(spec);
        const w = run(spec, events);
        for (const t of TRACKINGS) {
          for (const upc of [...UPCS, 'Z']) {
            const scanned = events.reduce((n, e) => n + (e.kind === 'scan' && e.trackingId === t && e.upc === upc ? e.count : 0), 0);
            expect(w.rows.filter((r) => r.trackingId === t && r.upc === upc).reduce((n, r) => n + r.count, 0)).toBe(scanned);
          }
        }
        expect(w.rows.every((r) => r.count > 0)).toBe(true);
        for (const task of w.tasks) {
          const tied = w.rows.filter((r) => r.taskId === task.id);
          expect(tied.every((r) => r.upc === task.upc)).toBe(true);
          expect(tied.reduce((n, r) => n + r.count, 0)).toBeLessThanOrEqual(task.count);
          if (task.status === 'locked') {
            expect(tied.filter((r) => r.status === 'match').reduce((n, r) => n + r.count, 0)).toBe(task.count);
            expect(tied.every((r) => r.status === 'match')).toBe(true);
          }
        }
        // Units of a product nobody records are never tied to a task.
        expect(w.rows.filter((r) => r.upc === 'Z').every((r) => r.taskId === null && r.status === 'unmatch')).toBe(true);
      }),
      RUNS,
    );
  });

  it('removing and re-creating a record gives the state of that record recorded last', () => {
    fc.assert(
      fc.property(worldArb, fc.nat(), (spec, pick) => {
        const events = valid(spec);
        const w = run(spec, events);
        fc.pre(w.records.length > 0);
        const rec = w.records[pick % w.records.length]!;
        fc.pre(w.remove(rec.id));
        const again = w.record(rec.taskId, rec.trackingId, rec.productCount);
        // The same world (the events it accepted) with that record's event moved to the end.
        const i = w.origin.get(rec.id)!;
        const last = new World(spec.tasks);
        for (const e of events.filter((_, k) => k !== i && w.accepted[k])) last.apply(e);
        expect(last.record(rec.taskId, rec.trackingId, rec.productCount)).toBe(again);
        expect(w.outcome()).toEqual(last.outcome());
      }),
      RUNS,
    );
  });
});
