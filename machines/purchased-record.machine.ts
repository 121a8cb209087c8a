/**
 * A purchased record's status (SPEC §3 "Purchased record" status: matching's verdict on the record;
 * docs/decisions/054-money-through-its-machines.md). The statuses are task.machine.ts's
 * PURCHASED_STATUSES (the database enum and the contract's PurchasedStatus); this machine says how
 * a record moves between them, so the server writes what it answers and never a status of its own:
 *   (new) -> init (UNSEEN_PURCHASED_STATUS): a record starts unseen (the database default; matching then judges it)
 *   init | unmatch --record.change (tracking id or count changed)--> init: matching judges it again
 *   match: frozen (isRecordFrozen): no change; what was received is not edited
 *   any --record.split (its task's arrived units split off, task-changes.ts splitTask)-->
 *     match for the part that moves with the arrived units, init for the part left waiting
 *   any --record.verdict (matching, allocate.ts: recordVerdict)--> init | match | unmatch
 * The input rules of a record (its tracking id, its count, the paste) are purchased-record.ts.
 */
import { assertEvent, setup } from 'xstate';
import { decide, type Decision } from './stored-state';
import { PURCHASED_STATUSES, UNSEEN_PURCHASED_STATUS, type PurchasedStatus } from './task.machine';

export type PurchasedRecordEvent =
  { type: 'record.change' } | { type: 'record.split'; part: 'arrived' | 'rest' } | { type: 'record.verdict'; seen: boolean; problem: boolean };

const verdict = {
  'record.verdict': [{ guard: 'notSeen', target: 'init' }, { guard: 'problem', target: 'unmatch' }, { target: 'match' }],
  'record.split': [{ guard: 'arrivedPart', target: 'match' }, { target: 'init' }],
} as const;

export const purchasedRecordMachine = setup({
  // Stryker disable next-line ObjectLiteral: types only, erased at run time
  types: { events: {} as PurchasedRecordEvent },
  // Each guard is named by one event only (verdict); another is a chart bug and throws.
  guards: {
    notSeen: ({ event }) => {
      assertEvent(event, 'record.verdict');
      return !event.seen;
    },
    problem: ({ event }) => {
      assertEvent(event, 'record.verdict');
      return event.problem;
    },
    arrivedPart: ({ event }) => {
      assertEvent(event, 'record.split');
      return event.part === 'arrived';
    },
  },
}).createMachine({
  id: 'purchasedRecord',
  initial: UNSEEN_PURCHASED_STATUS,
  states: {
    init: { on: { ...verdict, 'record.change': 'init' } },
    unmatch: { on: { ...verdict, 'record.change': 'init' } },
    match: { on: { ...verdict } },
  },
});

/**
 * A refusal is a caller's bug (the record dialog refuses a frozen record's change first, with its own
 * words): it names the status and the event, for the server's answer and its log.
 */
const explain = (status: PurchasedStatus, _context: unknown, event: PurchasedRecordEvent) => `purchased record: ${status} refuses ${event.type}`;

/** Asks the machine about a record in `status`. */
export const decidePurchasedRecord = (status: PurchasedStatus, event: PurchasedRecordEvent): Decision<PurchasedStatus> =>
  decide(purchasedRecordMachine, status, {}, event, explain);

/** The status the machine answers, or an Error (a caller's bug: it asked what its own checks refuse). */
export function nextPurchasedStatus(status: PurchasedStatus, event: PurchasedRecordEvent): PurchasedStatus {
  const d = decidePurchasedRecord(status, event);
  if (!d.ok) throw new Error(d.msg);
  return d.next;
}

/** Matching's verdict on a record (allocate.ts): nothing of its tracking id seen -> init; a problem -> unmatch; else match. */
export const recordVerdict = (seen: boolean, problem: boolean): PurchasedStatus =>
  nextPurchasedStatus(UNSEEN_PURCHASED_STATUS, { type: 'record.verdict', seen, problem });

/** The statuses in which a record may be changed: every one but the frozen match. */
export const CHANGEABLE_PURCHASED_STATUSES: readonly PurchasedStatus[] = PURCHASED_STATUSES.filter(
  (s) => decidePurchasedRecord(s, { type: 'record.change' }).ok,
);

/**
 * A purchased record that matching has tied to its parcel (status match) is frozen: it is what was
 * received, so it is neither edited nor removed, whatever the task's state (SPEC §5). The machine's
 * answer to record.change, asked by the record dialog and the server alike.
 */
export const isRecordFrozen = (record: { status: PurchasedStatus }) => !CHANGEABLE_PURCHASED_STATUSES.includes(record.status);
