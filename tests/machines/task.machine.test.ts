// The task lifecycle rules (machines/task.machine.ts), asked the way the server and the UI ask them.
import { describe, expect, it } from 'vitest';
import {
  canApplyForArrived,
  decideApplyForArrived,
  explainTaskRefusal,
  MEMBER_RECORDABLE_STATUSES,
  PURCHASED_STATUSES,
  recordsEvent,
  recordArrivalOf,
  taskMachine,
  taskMessages,
  TASK_STATUSES,
  type TaskContext,
  type TaskEvent,
  type TaskStatus,
} from '../../machines/task.machine';
import { allowedEvents, decide } from '../../machines/stored-state';
import { decideTask } from '../../src/server/tasks/apply-event';

const none: TaskContext = { productCount: 0, canSplit: false };
const partial: TaskContext = { productCount: 2, canSplit: true };
const run = (s: TaskStatus, c: TaskContext, e: TaskEvent) => decide(taskMachine, s, c, e, explainTaskRefusal);
const ALL: TaskEvent[] = [
  { type: 'task.accept' },
  { type: 'task.reject' },
  { type: 'task.edit', by: 'user' },
  { type: 'task.edit', by: 'admin' },
  { type: 'task.delete', by: 'user' },
  { type: 'task.match', outcome: 'open' },
  { type: 'task.split' },
  { type: 'task.apply' },
  { type: 'task.pay' },
  { type: 'task.close' },
];
const offered = (s: TaskStatus, c: TaskContext) => allowedEvents(taskMachine, s, c, ALL).map((e) => ('by' in e ? `${e.type}:${e.by}` : e.type));

describe('task machine', () => {
  it('lets an admin accept or reject only pending tasks', () => {
    expect(run('pending', none, { type: 'task.accept' })).toEqual({ ok: true, next: 'open' });
    expect(run('pending', none, { type: 'task.reject' })).toEqual({ ok: true, next: 'deleted' });
    expect(run('open', none, { type: 'task.accept' })).toEqual({ ok: false, msg: taskMessages.notPending });
  });

  it('lets a member edit only open tasks and an admin any task that is not pending or deleted', () => {
    expect(offered('open', none)).toContain('task.edit:user');
    for (const s of ['unmatch', 'locked', 'processing', 'finished', 'closed'] as const) {
      expect(offered(s, none)).not.toContain('task.edit:user');
      expect(offered(s, none)).toContain('task.edit:admin');
    }
    expect(offered('pending', none)).not.toContain('task.edit:admin');
    expect(run('unmatch', none, { type: 'task.edit', by: 'user' })).toEqual({ ok: false, msg: taskMessages.editOpenOnly });
  });

  it('deletes open or unmatch tasks with nothing arrived', () => {
    expect(run('open', none, { type: 'task.delete', by: 'user' })).toEqual({ ok: true, next: 'deleted' });
    expect(run('unmatch', none, { type: 'task.delete', by: 'user' })).toEqual({ ok: true, next: 'deleted' });
    expect(run('open', partial, { type: 'task.delete', by: 'user' })).toEqual({ ok: false, msg: taskMessages.deleteRule });
    expect(run('locked', none, { type: 'task.delete', by: 'user' })).toEqual({ ok: false, msg: taskMessages.deleteRule });
  });

  it('matches unless locked, and the outcome decides the next state', () => {
    expect(run('open', none, { type: 'task.match', outcome: 'locked' })).toEqual({ ok: true, next: 'locked' });
    expect(run('open', none, { type: 'task.match', outcome: 'unmatch' })).toEqual({ ok: true, next: 'unmatch' });
    expect(run('unmatch', partial, { type: 'task.match', outcome: 'open' })).toEqual({ ok: true, next: 'open' });
    expect(run('locked', none, { type: 'task.match', outcome: 'open' })).toEqual({ ok: false, msg: taskMessages.matchLocked });
  });

  it('splits only open or unmatch tasks that can split, and applies for payment only when locked', () => {
    expect(run('open', partial, { type: 'task.split' })).toEqual({ ok: true, next: 'open' });
    expect(run('unmatch', partial, { type: 'task.split' })).toEqual({ ok: true, next: 'open' });
    expect(run('open', none, { type: 'task.split' })).toEqual({ ok: false, msg: taskMessages.splitRule });
    expect(run('locked', none, { type: 'task.apply' })).toEqual({ ok: true, next: 'processing' });
    expect(run('open', none, { type: 'task.apply' })).toEqual({ ok: false, msg: taskMessages.applyLockedOnly });
    expect(run('processing', none, { type: 'task.pay' })).toEqual({ ok: true, next: 'finished' });
  });

  it('offers nothing on a deleted task', () => {
    expect(offered('deleted', none)).toEqual([]);
  });

  it('the server remembers its decisions (decideTask) without changing any: asked twice, it answers what decide answers for every status, context and event', () => {
    const events: TaskEvent[] = [
      ...ALL,
      { type: 'task.delete', by: 'admin' },
      { type: 'task.match', outcome: 'locked' },
      { type: 'task.match', outcome: 'unmatch' },
    ];
    for (const status of TASK_STATUSES) {
      for (const context of [none, partial, { productCount: 5, canSplit: false }]) {
        for (const event of events) {
          const expected = run(status, context, event);
          expect(decideTask({ status, ...context }, event)).toEqual(expected);
          expect(decideTask({ status, ...context }, event)).toEqual(expected);
        }
      }
    }
  });
});

describe('the questions of /user/my-task', () => {
  it('reads a purchased record as arrived, still expected or disagreed', () => {
    expect(PURCHASED_STATUSES.map((status) => recordArrivalOf({ status }))).toEqual(['expected', 'arrived', 'disagreed']);
  });

  it('lets a member pay for the arrived units in one step only when some but not all arrived', () => {
    const facts = (status: TaskStatus, count: number, productCount: number, canSplit: boolean) => ({ status, count, productCount, canSplit });
    expect(decideApplyForArrived(facts('open', 5, 2, true))).toEqual({ ok: true, next: 'processing' });
    expect(decideApplyForArrived(facts('unmatch', 5, 2, true))).toEqual({ ok: true, next: 'processing' });
    expect(canApplyForArrived(facts('open', 5, 2, true))).toBe(true);
    // Nothing arrived, or the stored numbers say nothing (or everything) would split off.
    expect(decideApplyForArrived(facts('open', 5, 0, false))).toEqual({ ok: false, msg: taskMessages.applyArrivedPartialOnly });
    expect(decideApplyForArrived(facts('open', 5, 0, true))).toEqual({ ok: false, msg: taskMessages.applyArrivedPartialOnly });
    expect(decideApplyForArrived(facts('open', 2, 2, true))).toEqual({ ok: false, msg: taskMessages.applyArrivedPartialOnly });
    // All arrived: the plain apply.
    expect(decideApplyForArrived(facts('locked', 5, 5, false))).toEqual({ ok: false, msg: taskMessages.applyArrivedUseApply });
    for (const status of ['pending', 'closed', 'processing', 'finished', 'deleted'] as const) {
      expect(canApplyForArrived(facts(status, 5, 2, true))).toBe(false);
    }
  });
});

describe('where a member may add records (the paste box and the member home ask this list)', () => {
  it('is every status whose task.records by the member the machine accepts: open and unmatch', () => {
    expect(MEMBER_RECORDABLE_STATUSES).toEqual(['open', 'unmatch']);
    for (const status of TASK_STATUSES) expect(run(status, partial, recordsEvent('user')).ok, status).toBe(MEMBER_RECORDABLE_STATUSES.includes(status));
  });
});
