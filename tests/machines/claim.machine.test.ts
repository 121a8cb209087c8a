import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor, type EventObject } from 'xstate';
import { createTestModel, getShortestPaths } from 'xstate/graph';
import {
  BOARD_TASK_STATUSES,
  claimFieldErrors,
  claimMachine,
  claimMessages,
  claimOutcome,
  hasErrors,
  needsApproval,
  NORMAL_BOARD_TASK_STATUS,
  remainingOf,
  type ClaimRequest,
  type ClaimTarget,
  type ClaimValues,
} from '../../machines/claim.machine';

/** An open board, a normal board task showing 10 of which 4 are claimed: 6 remain. */
const target = (over: Partial<ClaimTarget> = {}): ClaimTarget => ({
  boardStatus: 'open',
  boardExpired: false,
  boardTaskStatus: 'normal',
  show: 10,
  claimed: 4,
  ...over,
});

const values = (over: Partial<ClaimValues> = {}): ClaimValues => ({ count: 1, isHome: false, ...over });
const home = (over: Partial<ClaimValues> = {}): ClaimValues => values({ isHome: true, state: 'CA', zipCode: '94105', labelCount: 2, ...over });

describe('claimOutcome: what may be claimed', () => {
  it('a new board task is normal, the first status the admin is offered, and is claimed as an open task', () => {
    expect(NORMAL_BOARD_TASK_STATUS).toBe(BOARD_TASK_STATUSES[0]);
    expect(claimOutcome(target({ boardTaskStatus: NORMAL_BOARD_TASK_STATUS }))).toEqual({ ok: true, taskStatus: 'open' });
  });

  it.each(['normal', 'urgent'] as const)('an open board and a %s board task give an open task', (boardTaskStatus) => {
    expect(claimOutcome(target({ boardTaskStatus }))).toEqual({ ok: true, taskStatus: 'open' });
  });

  it('a closed board task gives a pending task (admin approval)', () => {
    expect(claimOutcome(target({ boardTaskStatus: 'closed' }))).toEqual({ ok: true, taskStatus: 'pending' });
  });

  it.each(['normal', 'urgent', 'closed'] as const)('an expired board gives a pending task (board task %s)', (boardTaskStatus) => {
    expect(claimOutcome(target({ boardExpired: true, boardTaskStatus }))).toEqual({ ok: true, taskStatus: 'pending' });
  });

  it("refuses a full board task with '该任务已满，无法认领'", () => {
    expect(claimOutcome(target({ boardTaskStatus: 'full' }))).toEqual({ ok: false, msg: '该任务已满，无法认领' });
  });

  it("refuses a deleted board task with '该任务已删除，无法认领'", () => {
    expect(claimOutcome(target({ boardTaskStatus: 'deleted' }))).toEqual({ ok: false, msg: '该任务已删除，无法认领' });
  });

  it.each(['unpublish', 'close'] as const)("refuses a board in %s with '看板未开放，无法认领'", (boardStatus) => {
    expect(claimOutcome(target({ boardStatus }))).toEqual({ ok: false, msg: '看板未开放，无法认领' });
    // The board's state wins over the board task's.
    expect(claimOutcome(target({ boardStatus, boardTaskStatus: 'full' }))).toEqual({ ok: false, msg: claimMessages.boardNotOpen });
  });

  it('full and deleted are refused even on an expired board', () => {
    expect(claimOutcome(target({ boardExpired: true, boardTaskStatus: 'full' })).ok).toBe(false);
    expect(claimOutcome(target({ boardExpired: true, boardTaskStatus: 'deleted' })).ok).toBe(false);
  });
});

describe('needsApproval: the dialog warning', () => {
  it('is true for a closed board task or an expired board', () => {
    expect(needsApproval(target({ boardTaskStatus: 'closed' }))).toBe(true);
    expect(needsApproval(target({ boardExpired: true }))).toBe(true);
    expect(needsApproval(target({ boardExpired: true, boardTaskStatus: 'urgent' }))).toBe(true);
  });

  it('is false for a plain open claim and for a refused one', () => {
    expect(needsApproval(target())).toBe(false);
    expect(needsApproval(target({ boardTaskStatus: 'urgent' }))).toBe(false);
    expect(needsApproval(target({ boardTaskStatus: 'full', boardExpired: true }))).toBe(false);
    expect(needsApproval(target({ boardTaskStatus: 'deleted' }))).toBe(false);
    expect(needsApproval(target({ boardStatus: 'close', boardTaskStatus: 'closed' }))).toBe(false);
  });

  it("the warning text is '该任务已关闭或看板已过期，认领后需管理员审核通过'", () => {
    expect(claimMessages.needsApproval).toBe('该任务已关闭或看板已过期，认领后需管理员审核通过');
  });
});

describe('remainingOf', () => {
  it('is show minus claimed, never below 0', () => {
    expect(remainingOf(target())).toBe(6);
    expect(remainingOf(target({ claimed: 10 }))).toBe(0);
    expect(remainingOf(target({ claimed: 12 }))).toBe(0);
  });
});

describe('claimFieldErrors: count', () => {
  it('accepts whole numbers from 1 to the remaining quantity, as number or text', () => {
    for (const count of [1, 6, '1', ' 6 ', '006']) {
      expect(claimFieldErrors(values({ count }), target())).toEqual({});
    }
  });

  it.each([
    ['', 'empty'],
    ['  ', 'blank'],
    ['abc', 'letters'],
    ['1.5', 'a fraction'],
    ['-1', 'negative'],
    ['1e2', 'exponent'],
    [1.5, 'a fractional number'],
  ])("'%s' (%s) gives '请输入数字'", (count: string | number, _what: string) => {
    expect(claimFieldErrors(values({ count }), target())).toEqual({ count: '请输入数字' });
  });

  it("0 gives '认领数量至少为1件'", () => {
    expect(claimFieldErrors(values({ count: 0 }), target())).toEqual({ count: '认领数量至少为1件' });
    expect(claimFieldErrors(values({ count: '0' }), target())).toEqual({ count: claimMessages.atLeastOne });
  });

  it("above show - claimed gives '不能认领超过N件' with N the remaining quantity", () => {
    expect(claimFieldErrors(values({ count: 7 }), target())).toEqual({ count: '不能认领超过6件' });
    expect(claimFieldErrors(values({ count: 11 }), target({ claimed: 0 }))).toEqual({ count: '不能认领超过10件' });
    expect(claimFieldErrors(values({ count: 1 }), target({ claimed: 10 }))).toEqual({ count: '不能认领超过0件' });
    expect(claimMessages.tooMany(3)).toBe('不能认领超过3件');
  });

  it('in edit mode the task’s own units count as remaining (N = show - claimed + own count)', () => {
    // 4 claimed, of which 3 are this task's: it may grow to 6 + 3 = 9.
    expect(claimFieldErrors(values({ count: 9 }), target(), 'edit', 3)).toEqual({});
    expect(claimFieldErrors(values({ count: 10 }), target(), 'edit', 3)).toEqual({ count: '不能认领超过9件' });
    // The own count is ignored when creating.
    expect(claimFieldErrors(values({ count: 9 }), target(), 'create', 3)).toEqual({ count: '不能认领超过6件' });
  });
});

describe('claimFieldErrors: isHome', () => {
  it('without isHome, state, zipCode and labelCount are not looked at', () => {
    expect(claimFieldErrors(values({ state: '', zipCode: '', labelCount: null }), target())).toEqual({});
  });

  it('with isHome, state, zipCode and labelCount are all required', () => {
    expect(claimFieldErrors(values({ isHome: true }), target())).toEqual({
      state: '请填写州',
      zipCode: '请填写邮编',
      labelCount: '请填写标签数量',
    });
    expect(claimFieldErrors(home({ state: '  ', zipCode: ' ', labelCount: '' }), target())).toEqual({
      state: claimMessages.stateRequired,
      zipCode: claimMessages.zipCodeRequired,
      labelCount: claimMessages.labelCountRequired,
    });
    expect(claimFieldErrors(home({ labelCount: null }), target())).toEqual({ labelCount: claimMessages.labelCountRequired });
  });

  it("labelCount must be a whole number of at least 1 ('请输入数字')", () => {
    for (const labelCount of ['x', '0', 0, '1.5', '-2']) {
      expect(claimFieldErrors(home({ labelCount }), target())).toEqual({ labelCount: '请输入数字' });
    }
    expect(claimFieldErrors(home({ labelCount: '3' }), target())).toEqual({});
  });

  it('count and isHome errors come together, each on its own field', () => {
    const errors = claimFieldErrors(values({ count: 'x', isHome: true, zipCode: '10001', labelCount: 1 }), target());
    expect(errors).toEqual({ count: claimMessages.notNumber, state: claimMessages.stateRequired });
    expect(hasErrors(errors)).toBe(true);
    expect(hasErrors({})).toBe(false);
  });
});

// ------------------------------------------------------------------ the dialog flow

/** The real machine, with a submitClaim the test settles by hand. */
function harness() {
  const calls: Array<{ input: ClaimRequest; resolve: (taskId: number | null) => void; reject: (e: unknown) => void }> = [];
  const logic = claimMachine.provide({
    actors: {
      submitClaim: fromPromise<{ taskId: number | null }, ClaimRequest>(
        ({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve: (taskId) => resolve({ taskId }), reject })),
      ),
    },
  });
  const actor = createActor(logic);
  actor.start();
  const last = () => {
    const call = calls.at(-1);
    if (!call) throw new Error('submitClaim was not invoked');
    return call;
  };
  return {
    actor,
    calls,
    send: (event: EventObject) => actor.send(event as never),
    async resolves(taskId: number | null = 41) {
      last().resolve(taskId);
      await waitFor(actor, (s) => !s.matches('submitting'));
    },
    async rejects(error: unknown) {
      last().reject(error);
      await waitFor(actor, (s) => !s.matches('submitting'));
    },
  };
}

const open = (t: ClaimTarget = target(), boardTaskId = 12) => ({ type: 'claim.open', boardTaskId, target: t }) as const;

describe('claim machine', () => {
  it('starts closed and opens only for a claimable board task', () => {
    const h = harness();
    expect(h.actor.getSnapshot().value).toBe('closed');
    h.send(open(target({ boardTaskStatus: 'full' })));
    h.send(open(target({ boardTaskStatus: 'deleted' })));
    h.send(open(target({ boardStatus: 'close' })));
    expect(h.actor.getSnapshot().value).toBe('closed');
    h.send(open(target({ boardTaskStatus: 'closed' }), 15));
    expect(h.actor.getSnapshot().value).toBe('editing');
    expect(h.actor.getSnapshot().context).toEqual({
      boardTaskId: 15,
      target: target({ boardTaskStatus: 'closed' }),
      serverMessage: null,
      claimedTaskId: null,
    });
  });

  it('refuses invalid values without calling the server', () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.submit', values: values({ count: 7 }) } as EventObject);
    h.send({ type: 'claim.submit', values: values({ isHome: true }) } as EventObject);
    expect(h.actor.getSnapshot().value).toBe('editing');
    expect(h.calls).toHaveLength(0);
  });

  it('submits the trimmed values; without isHome no state, zipCode or labelCount is sent', async () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.submit', values: values({ count: ' 3 ', state: 'CA', zipCode: '1', labelCount: 2 }) } as EventObject);
    expect(h.actor.getSnapshot().value).toBe('submitting');
    expect(h.calls[0]?.input).toEqual({ boardTaskId: 12, count: 3, isHome: false, state: '', zipCode: '', labelCount: null });
    await h.resolves(77);
    expect(h.actor.getSnapshot().value).toBe('done');
    expect(h.actor.getSnapshot().context.claimedTaskId).toBe(77);
  });

  it('with isHome sends state, zipCode and labelCount', () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.submit', values: home({ count: '2', state: ' NY ', zipCode: ' 10001 ', labelCount: '3' }) } as EventObject);
    expect(h.calls[0]?.input).toEqual({ boardTaskId: 12, count: 2, isHome: true, state: 'NY', zipCode: '10001', labelCount: 3 });
  });

  it("a failure goes back to editing with the server's message, or '操作失败' without one", async () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.submit', values: values() } as EventObject);
    await h.rejects(new Error('不能认领超过2件'));
    expect(h.actor.getSnapshot().value).toBe('editing');
    expect(h.actor.getSnapshot().context.serverMessage).toBe('不能认领超过2件');

    for (const error of [new Error(''), 'plain string', undefined]) {
      h.send({ type: 'claim.submit', values: values() } as EventObject);
      await h.rejects(error);
      expect(h.actor.getSnapshot().context.serverMessage).toBe('操作失败');
    }
  });

  it('ignores cancel and submit while submitting', () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.submit', values: values() } as EventObject);
    h.send({ type: 'claim.cancel' });
    h.send({ type: 'claim.submit', values: values({ count: 2 }) } as EventObject);
    expect(h.actor.getSnapshot().value).toBe('submitting');
    expect(h.calls).toHaveLength(1);
  });

  it('cancel closes the dialog, before a submit and after a claim', async () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.cancel' });
    expect(h.actor.getSnapshot().value).toBe('closed');
    h.send(open());
    h.send({ type: 'claim.submit', values: values() } as EventObject);
    await h.resolves(5);
    h.send({ type: 'claim.cancel' });
    expect(h.actor.getSnapshot().value).toBe('closed');
  });

  it('after a claim, a board task that is full or deleted does not open the dialog again', async () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.submit', values: values() } as EventObject);
    await h.resolves(5);
    h.send(open(target({ boardTaskStatus: 'full' }), 13));
    h.send(open(target({ boardTaskStatus: 'deleted' }), 14));
    expect(h.actor.getSnapshot().value).toBe('done');
    expect(h.actor.getSnapshot().context).toMatchObject({ boardTaskId: 12, claimedTaskId: 5 });
  });

  it('reopening after a refused claim shows no message from before', async () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.submit', values: values() } as EventObject);
    await h.rejects(new Error(SERVER_MSG));
    h.send({ type: 'claim.cancel' });
    h.send(open(target(), 13));
    expect(h.actor.getSnapshot().value).toBe('editing');
    expect(h.actor.getSnapshot().context.serverMessage).toBeNull();
  });

  it('without the app’s submitClaim, a submit comes back to editing naming the call it lacks', async () => {
    const actor = createActor(claimMachine).start();
    actor.send(open());
    actor.send({ type: 'claim.submit', values: values() });
    await waitFor(actor, (s) => !s.matches('submitting'));
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.serverMessage).toBe('submitClaim not provided');
  });

  it('reopening after a claim starts clean', async () => {
    const h = harness();
    h.send(open());
    h.send({ type: 'claim.submit', values: values() } as EventObject);
    await h.resolves(5);
    h.send(open(target({ claimed: 5 }), 13));
    expect(h.actor.getSnapshot().value).toBe('editing');
    expect(h.actor.getSnapshot().context).toMatchObject({ boardTaskId: 13, serverMessage: null, claimedTaskId: null });
  });
});

// ------------------------------------------------------------------ model-based
//
// createTestModel refuses machines with invoke, so (as in session.machine.test.ts) the model is the
// dialog's flow written as its own small machine: what the member and the server can do, and which
// state must follow. The two failure outcomes get their own states so the message is checked too.
// Every shortest path of the model is replayed against the real claim actor; getShortestPaths on the
// real machine checks it reaches exactly the model's states.

const claimSpec = createMachine({
  id: 'claimSpec',
  initial: 'closed',
  states: {
    closed: {
      on: { 'open.claimable': 'editing', 'open.refused': 'closed', 'submit.valid': 'closed', cancel: 'closed' },
    },
    editing: {
      on: { 'submit.valid': 'submitting', 'submit.invalid': 'editing', cancel: 'closed', 'open.claimable': 'editing' },
    },
    submitting: {
      on: {
        'server.accepts': 'done',
        'server.refusesWithMsg': 'failedWithMsg',
        'server.refusesSilently': 'failedDefault',
        cancel: 'submitting',
        'submit.valid': 'submitting',
      },
    },
    failedWithMsg: { on: { 'submit.valid': 'submitting', 'submit.invalid': 'failedWithMsg', cancel: 'closed' } },
    failedDefault: { on: { 'submit.valid': 'submitting', 'submit.invalid': 'failedDefault', cancel: 'closed' } },
    done: { on: { 'open.claimable': 'editing', 'open.refused': 'done', cancel: 'closed' } },
  },
});

const SERVER_MSG = '该任务已满，无法认领';
const serializeState = (s: { value: unknown }) => JSON.stringify(s.value);

describe('claim machine: model', () => {
  it('the real machine reaches exactly closed, editing, submitting and done', () => {
    const paths = getShortestPaths(claimMachine, {
      events: [
        open(),
        open(target({ boardTaskStatus: 'full' })),
        { type: 'claim.submit', values: values() },
        { type: 'claim.submit', values: values({ count: 'x' }) },
        { type: 'claim.cancel' },
        { type: 'xstate.done.actor.0.claim.submitting', output: { taskId: 1 } },
        { type: 'xstate.error.actor.0.claim.submitting', error: new Error(SERVER_MSG) },
      ] as never,
      serializeState,
    });
    const reached = new Set(paths.map((p) => serializeState(p.state)));
    expect([...reached].sort()).toEqual(['"closed"', '"done"', '"editing"', '"submitting"']);
    expect(Object.keys(claimMachine.root.states).sort()).toEqual(['closed', 'done', 'editing', 'submitting']);
  });

  const model = createTestModel(claimSpec, { serializeState });
  const paths = model.getShortestPaths();

  it('the replayed paths visit every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((step) => serializeState(step.state))));
    expect(reached.size).toBe(Object.keys(claimSpec.root.states).length);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const h = harness();
      await path.test({
        events: {
          'open.claimable': () => void h.send(open()),
          'open.refused': () => void h.send(open(target({ boardTaskStatus: 'deleted' }))),
          'submit.valid': () => void h.send({ type: 'claim.submit', values: home() } as EventObject),
          'submit.invalid': () => void h.send({ type: 'claim.submit', values: values({ count: 100 }) } as EventObject),
          cancel: () => void h.send({ type: 'claim.cancel' }),
          'server.accepts': () => h.resolves(99),
          'server.refusesWithMsg': () => h.rejects(new Error(SERVER_MSG)),
          'server.refusesSilently': () => h.rejects(new Error('')),
        },
        states: {
          closed: () => expect(h.actor.getSnapshot().value).toBe('closed'),
          editing: () => {
            const s = h.actor.getSnapshot();
            expect(s.value).toBe('editing');
            expect(s.context.serverMessage).toBeNull();
            expect(s.context.boardTaskId).toBe(12);
          },
          submitting: () => {
            expect(h.actor.getSnapshot().value).toBe('submitting');
            expect(h.calls.at(-1)?.input).toEqual({ boardTaskId: 12, count: 1, isHome: true, state: 'CA', zipCode: '94105', labelCount: 2 });
          },
          failedWithMsg: () => {
            const s = h.actor.getSnapshot();
            expect(s.value).toBe('editing');
            expect(s.context.serverMessage).toBe(SERVER_MSG);
          },
          failedDefault: () => {
            const s = h.actor.getSnapshot();
            expect(s.value).toBe('editing');
            expect(s.context.serverMessage).toBe(claimMessages.failed);
          },
          done: () => {
            const s = h.actor.getSnapshot();
            expect(s.value).toBe('done');
            expect(s.context.claimedTaskId).toBe(99);
          },
        },
      });
    });
  }
});
