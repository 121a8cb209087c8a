// How a purchased record's status moves (machines/purchased-record.machine.ts), and the money-side
// status groups the server reads from the machines instead of spelling them.
import { describe, expect, it } from 'vitest';
import { getSimplePaths } from 'xstate/graph';
import {
  CHANGEABLE_PURCHASED_STATUSES,
  decidePurchasedRecord,
  isRecordFrozen,
  nextPurchasedStatus,
  purchasedRecordMachine,
  recordVerdict,
  type PurchasedRecordEvent,
} from '../../machines/purchased-record.machine';
import { AGREED_PAYMENT_STATUSES, paymentAccepts, WITHDRAWABLE_PAYMENT_STATUSES } from '../../machines/payment.machine';
import { matchedScanStatus, SCANNED_SCAN_STATUS } from '../../machines/scan-record.machine';
import { MATCH_OUTCOME_STATUS, PURCHASED_STATUSES, UNSEEN_PURCHASED_STATUS, type PurchasedStatus } from '../../machines/task.machine';

describe('purchased record machine', () => {
  it('starts unseen and takes matching verdicts', () => {
    expect(UNSEEN_PURCHASED_STATUS).toBe('init');
    expect(recordVerdict(false, false)).toBe('init');
    expect(recordVerdict(true, true)).toBe('unmatch');
    expect(recordVerdict(true, false)).toBe('match');
  });

  it('sends a changed record back to init, and never changes a matched (frozen) one', () => {
    expect(decidePurchasedRecord('unmatch', { type: 'record.change' })).toEqual({ ok: true, next: 'init' });
    expect(decidePurchasedRecord('match', { type: 'record.change' }).ok).toBe(false);
    // What the member's record dialog and the server act on: an unseen or unmatched record may still
    // be corrected; a matched one is what was received and is refused its edit and its removal.
    expect(CHANGEABLE_PURCHASED_STATUSES).toEqual(['init', 'unmatch']);
    expect(isRecordFrozen({ status: 'match' })).toBe(true);
    expect(isRecordFrozen({ status: 'init' })).toBe(false);
    expect(isRecordFrozen({ status: 'unmatch' })).toBe(false);
  });

  it("answers a frozen record's change (a caller's bug) with an error naming the status and the event, never a status", () => {
    const refusal = 'purchased record: match refuses record.change';
    expect(decidePurchasedRecord('match', { type: 'record.change' })).toEqual({ ok: false, msg: refusal });
    expect(() => nextPurchasedStatus('match', { type: 'record.change' })).toThrow(refusal);
    expect(nextPurchasedStatus('unmatch', { type: 'record.change' })).toBe('init');
  });

  it('splits a record into the arrived part (match) and the part still expected (init)', () => {
    for (const status of PURCHASED_STATUSES) {
      expect(decidePurchasedRecord(status, { type: 'record.split', part: 'arrived' })).toEqual({ ok: true, next: 'match' });
      expect(decidePurchasedRecord(status, { type: 'record.split', part: 'rest' })).toEqual({ ok: true, next: 'init' });
    }
  });
});

describe('status groups read from the machines', () => {
  it('withdrawable applications are the agreed ones; counted ones are agreed or later', () => {
    expect(WITHDRAWABLE_PAYMENT_STATUSES).toEqual(['agreed']);
    expect(AGREED_PAYMENT_STATUSES).toEqual(['agreed', 'withdrawing', 'paid', 'collected']);
    // An application an admin already confirmed paid takes no pay.paid from its order.
    expect(paymentAccepts('withdrawing', { type: 'pay.paid' })).toBe(true);
    expect(paymentAccepts('paid', { type: 'pay.paid' })).toBe(false);
  });

  it("matching's outcomes and a scan row's verdicts", () => {
    expect(MATCH_OUTCOME_STATUS).toEqual({ locked: 'locked', unmatch: 'unmatch', open: 'open' });
    expect(SCANNED_SCAN_STATUS).toBe('scan');
    expect([matchedScanStatus(true), matchedScanStatus(false)]).toEqual(['match', 'unmatch']);
  });
});

// Model: every simple path of the record machine from a new record (xstate/graph), replayed through
// decidePurchasedRecord as the server asks it, ends in the path's status; and no path changes a
// record while it is matched (frozen: what was received is not edited).
describe('purchased record machine: model', () => {
  const events: PurchasedRecordEvent[] = [
    { type: 'record.change' },
    { type: 'record.split', part: 'arrived' },
    { type: 'record.split', part: 'rest' },
    { type: 'record.verdict', seen: false, problem: false },
    { type: 'record.verdict', seen: true, problem: true },
    { type: 'record.verdict', seen: true, problem: false },
  ];
  // Walked inside each test: a chart that cannot be walked fails a test, not the file's collection.
  const walk = () => getSimplePaths(purchasedRecordMachine, { events });

  it('reaches every status', () => {
    const paths = walk();
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(PURCHASED_STATUSES));
  });

  it('every path replays through decidePurchasedRecord to its status, never changing a matched record', () => {
    for (const path of walk()) {
      let status: PurchasedStatus = UNSEEN_PURCHASED_STATUS;
      for (const step of path.steps.slice(1)) {
        const event = step.event as PurchasedRecordEvent;
        if (event.type === 'record.change') expect(isRecordFrozen({ status }), `a change of a ${status} record`).toBe(false);
        const d = decidePurchasedRecord(status, event);
        expect(d.ok).toBe(true);
        if (d.ok) status = d.next;
      }
      expect(status).toBe(path.state.value);
    }
  });
});
