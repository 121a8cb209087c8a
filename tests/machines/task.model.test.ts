// Model test of the task machine (machines/task.machine.ts): every simple path of its chart, from a
// new claim (open) and from a claim waiting for the admin (pending), for nothing arrived, some and
// all units arrived. Each path is replayed the way the server applies events (decide, one event
// at a time, from the stored status) and its end state is asked what it allows: the member's and
// the admin's buttons, whether the task can be paid, deleted or split. A changed guard or target
// changes some path's end and fails here.
import { describe, expect, it } from 'vitest';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { allowedEvents, decide } from '../../machines/stored-state';
import { explainTaskRefusal, taskMachine, TASK_STATUSES, type TaskContext, type TaskEvent, type TaskStatus } from '../../machines/task.machine';

const EVENTS: TaskEvent[] = [
  { type: 'task.accept' },
  { type: 'task.reject' },
  { type: 'task.edit', by: 'user' },
  { type: 'task.edit', by: 'admin' },
  { type: 'task.records', by: 'user' },
  { type: 'task.records', by: 'admin' },
  { type: 'task.delete', by: 'user' },
  { type: 'task.delete', by: 'admin' },
  { type: 'task.match', outcome: 'locked' },
  { type: 'task.match', outcome: 'unmatch' },
  { type: 'task.match', outcome: 'open' },
  { type: 'task.split' },
  { type: 'task.apply' },
  { type: 'task.pay' },
  { type: 'task.close' },
  { type: 'task.unclaim' },
];
const name = (e: TaskEvent) => ('by' in e ? `${e.type}:${e.by}` : 'outcome' in e ? `${e.type}:${e.outcome}` : e.type);

const CONTEXTS: Record<string, TaskContext> = {
  'nothing arrived': { productCount: 0, canSplit: false },
  'some arrived': { productCount: 2, canSplit: true },
  'all arrived': { productCount: 5, canSplit: false },
};

/** What a task in each status lets the member do (the buttons of /user/my-task). */
const MEMBER_MAY: Record<TaskStatus, string[]> = {
  pending: [],
  open: ['task.edit:user', 'task.records:user', 'task.delete:user'],
  unmatch: ['task.records:user', 'task.delete:user'],
  locked: [],
  processing: [],
  finished: [],
  closed: [],
  deleted: [],
};
/** The lifecycle steps each status accepts (admin or matching), whatever the context allows. */
const STEPS: Record<TaskStatus, string[]> = {
  pending: ['task.accept', 'task.reject'],
  open: ['task.match:locked', 'task.match:unmatch', 'task.match:open', 'task.split', 'task.close', 'task.unclaim'],
  unmatch: ['task.match:locked', 'task.match:unmatch', 'task.match:open', 'task.split', 'task.close', 'task.unclaim'],
  // An admin's undo of a claimed unknown parcel (decision 169) reopens a task until it is applied for.
  locked: ['task.apply', 'task.close', 'task.unclaim'],
  processing: ['task.pay'],
  finished: [],
  closed: [],
  deleted: [],
};

/** What a task in `status` with `context` allows, by the rules as SPEC §4 writes them. */
function expectedOffers(status: TaskStatus, context: TaskContext): string[] {
  const member = MEMBER_MAY[status].filter((e) => e !== 'task.delete:user' || context.productCount === 0);
  const adminEdits =
    status === 'pending' || status === 'deleted'
      ? []
      : ['task.edit:admin', 'task.records:admin', ...(member.includes('task.delete:user') ? ['task.delete:admin'] : [])];
  const steps = STEPS[status].filter((e) => e !== 'task.split' || context.canSplit);
  const all = new Set([...member, ...adminEdits, ...steps]);
  return EVENTS.map(name).filter((e) => all.has(e));
}

/** The server's way: each event decided from the stored status alone, its next status stored. */
function replay(from: TaskStatus, context: TaskContext, events: TaskEvent[]): TaskStatus {
  let status = from;
  for (const event of events) {
    const decision = decide(taskMachine, status, context, event, explainTaskRefusal);
    if (!decision.ok) throw new Error(`${status} refused ${name(event)}: ${decision.msg}`);
    status = decision.next;
  }
  return status;
}

describe('task machine: model', () => {
  for (const [label, context] of Object.entries(CONTEXTS)) {
    describe(label, () => {
      const pending = taskMachine.resolveState({ value: 'pending', context });
      const paths = [
        ...getSimplePaths(taskMachine, { input: context, events: EVENTS }),
        ...getSimplePaths(taskMachine, { input: context, events: EVENTS, fromState: pending }),
      ];

      it('every path replays through the server’s decide to the same status, which offers exactly what SPEC §4 allows', () => {
        expect(paths.length).toBeGreaterThan(10);
        for (const path of paths) {
          const events = path.steps.map((s) => s.event).filter((e) => !e.type.startsWith('xstate.')) as TaskEvent[];
          const start = path.steps[0]!.state.value as TaskStatus;
          const end = path.state.value as TaskStatus;
          const where = `${start} -> ${events.map(name).join(' -> ')}`;
          expect(replay(start, context, events), where).toBe(end);
          const offers = allowedEvents(taskMachine, end, context, EVENTS).map(name);
          expect(offers, where).toEqual(expectedOffers(end, context));
        }
      });

      it('pays a task only after every unit arrived: every path to processing or finished passes matching’s locked, then task.apply', () => {
        for (const path of paths.filter((p) => p.state.value === 'processing' || p.state.value === 'finished')) {
          const values = path.steps.map((s) => s.state.value);
          const applied = path.steps.findIndex((s) => s.event.type === 'task.apply');
          expect(applied, values.join(' -> ')).toBeGreaterThan(0);
          expect(path.steps[applied - 1]!.state.value).toBe('locked');
          // Locked is reached only by matching's verdict that every unit arrived.
          expect(
            path.steps.some((s) => s.event.type === 'task.match' && s.event.outcome === 'locked'),
            values.join(' -> '),
          ).toBe(true);
        }
      });

      it('undoes a claimed parcel only before payment: task.unclaim always lands in open, never from processing, finished or closed', () => {
        for (const path of paths) {
          path.steps.forEach((s, i) => {
            if (s.event.type !== 'task.unclaim') return;
            const from = path.steps[i - 1]?.state.value ?? path.steps[0]!.state.value;
            expect(['open', 'unmatch', 'locked']).toContain(from);
            expect(s.state.value).toBe('open');
          });
        }
      });

      it('deletes a claimed task only while nothing of it arrived (or an admin rejects the claim)', () => {
        for (const path of paths.filter((p) => p.state.value === 'deleted')) {
          const last = path.steps.at(-1)!.event;
          if (last.type === 'task.reject') continue;
          expect(last.type).toBe('task.delete');
          expect(context.productCount).toBe(0);
        }
      });

      it('reaches from a new claim every status but pending (a claim waits only when made on a closed board)', () => {
        const reached = new Set(getShortestPaths(taskMachine, { input: context, events: EVENTS }).map((p) => p.state.value));
        const deletable = context.productCount === 0;
        expect([...reached].sort()).toEqual(
          TASK_STATUSES.filter((s) => s !== 'pending' && (deletable || s !== 'deleted'))
            .slice()
            .sort(),
        );
      });
    });
  }
});
