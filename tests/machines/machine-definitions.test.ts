// Every machine of machines/ as it is defined: the name the state inspector shows it by, the state a
// new row or a new screen starts in, and - for the lifecycle machines - that the chart's states are
// exactly the statuses the database stores. Each module is imported inside its test, not at the top:
// a definition that no longer builds (a state or a guard renamed away) then fails this test by name
// instead of failing the file's import, which mutation testing (decision 042) cannot tell from a pass.
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';

interface Lifecycle {
  load: () => Promise<{ machine: AnyStateMachine; statuses: readonly string[]; first: string; firstName: string }>;
  id: string;
}

/** The lifecycle machines: a stored row's status is a state of its machine (stored-state.ts). */
const LIFECYCLES: Record<string, Lifecycle> = {
  task: {
    id: 'task',
    load: async () => {
      const m = await import('../../machines/task.machine');
      // A claim on an open board task starts open (a pending claim is stored as such by the claim call).
      return { machine: m.taskMachine, statuses: m.TASK_STATUSES, first: 'open', firstName: 'open' };
    },
  },
  payment: {
    id: 'payment',
    load: async () => {
      const m = await import('../../machines/payment.machine');
      return { machine: m.paymentMachine, statuses: m.PAYMENT_STATUSES, first: m.NEW_PAYMENT_STATUS, firstName: 'NEW_PAYMENT_STATUS' };
    },
  },
  withdraw: {
    id: 'withdraw',
    load: async () => {
      const m = await import('../../machines/withdraw.machine');
      return { machine: m.withdrawMachine, statuses: m.WITHDRAW_STATUSES, first: m.AWAITING_PAY_WITHDRAW_STATUS, firstName: 'AWAITING_PAY_WITHDRAW_STATUS' };
    },
  },
  board: {
    id: 'board',
    load: async () => {
      const m = await import('../../machines/board.machine');
      return { machine: m.boardMachine, statuses: m.BOARD_STATUSES, first: 'unpublish', firstName: 'unpublish' };
    },
  },
  'purchased record': {
    id: 'purchasedRecord',
    load: async () => {
      const m = await import('../../machines/purchased-record.machine');
      const { PURCHASED_STATUSES, UNSEEN_PURCHASED_STATUS } = await import('../../machines/task.machine');
      // A member's new record is unseen until matching judges it.
      return { machine: m.purchasedRecordMachine, statuses: PURCHASED_STATUSES, first: UNSEEN_PURCHASED_STATUS, firstName: 'UNSEEN_PURCHASED_STATUS' };
    },
  },
  'scan record': {
    id: 'scanRecord',
    load: async () => {
      const m = await import('../../machines/scan-record.machine');
      return { machine: m.scanRecordMachine, statuses: m.SCAN_STATUSES, first: 'init', firstName: 'init' };
    },
  },
};

describe('the lifecycle machines, as the database stores their rows', () => {
  for (const [name, { id, load }] of Object.entries(LIFECYCLES)) {
    it(`${name}: named ${id} in the inspector, a new row starts in its first state, and its states are exactly the stored statuses`, async () => {
      const { machine, statuses, first, firstName } = await load();
      expect(machine.id).toBe(id);
      expect(machine.config.initial, firstName).toBe(first);
      expect(Object.keys(machine.config.states ?? {}).sort()).toEqual([...statuses].sort());
      // Every stored status resolves to itself: a row read back is in the state it was written in.
      for (const status of statuses) expect(machine.resolveState({ value: status, context: {} as never }).value).toBe(status);
    });
  }
});

/** The screens' machines: the id the inspector shows and the state a screen opens in (scan2: its regions run side by side). */
const SCREENS: Record<string, () => Promise<{ machine: AnyStateMachine; id: string; initial: string }>> = {
  claim: async () => ({ machine: (await import('../../machines/claim.machine')).claimMachine, id: 'claim', initial: 'closed' }),
  scan: async () => ({ machine: (await import('../../machines/scan.machine')).scanMachine, id: 'scan', initial: 'noTracking' }),
  scan2: async () => ({ machine: (await import('../../machines/scan2.machine')).scan2Machine, id: 'scan2', initial: 'parallel' }),
  session: async () => ({ machine: (await import('../../machines/session.machine')).sessionMachine, id: 'session', initial: 'starting' }),
};

describe('the screens’ machines', () => {
  for (const [name, load] of Object.entries(SCREENS)) {
    it(`${name}: builds, named ${name} in the inspector, and opens where its screen starts`, async () => {
      const { machine, id, initial } = await load();
      expect(machine.id).toBe(id);
      expect(initial === 'parallel' ? machine.config.type : machine.config.initial).toBe(initial);
    });
  }
});

// The withdraw order's state is read from its lines (deriving), never stored, so it is neither a
// lifecycle of stored statuses nor a screen.
describe('the withdraw order machine', () => {
  it('builds, named withdrawOrder in the inspector, and reads a new order from its lines first', async () => {
    const m = await import('../../machines/withdraw-order.machine');
    expect(m.withdrawOrderMachine.id).toBe('withdrawOrder');
    expect(m.withdrawOrderMachine.config.initial).toBe('deriving');
    const waited = [{ id: 1, status: 'waited', cancelFlag: true }] as const;
    expect(m.decideWithdrawOrder(waited, { type: 'order.requestCancel' })).toMatchObject({ ok: true, state: 'requestedCancel' });
    expect(m.decideWithdrawOrder(waited, { type: 'order.confirmApplication' })).toMatchObject({ ok: true, state: 'waited' });
  });
});
