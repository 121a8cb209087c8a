// What follows a payment event is the payment machine's: paid (by its withdraw, pay.paid, or the
// admin's confirm, pay.confirm) emits the task's task.pay with the event that paid it; no other
// event sends anything on (the server's lifecycle store delivers only what is emitted).
import { describe, expect, it } from 'vitest';
import { explainPaymentRefusal, paymentMachine, PAYMENT_STATUSES, type PaymentEvent } from '../../machines/payment.machine';
import { decide } from '../../machines/stored-state';

const run = (status: (typeof PAYMENT_STATUSES)[number], event: PaymentEvent) => decide(paymentMachine, status, {}, event, explainPaymentRefusal);

describe('payment machine follow-ons', () => {
  it('pay.paid and pay.confirm pay the task (task.pay, with the paying event)', () => {
    expect(run('withdrawing', { type: 'pay.paid' })).toEqual({ ok: true, next: 'paid', emits: [{ type: 'task.pay', cause: 'pay.paid' }] });
    expect(run('withdrawing', { type: 'pay.confirm' })).toEqual({ ok: true, next: 'paid', emits: [{ type: 'task.pay', cause: 'pay.confirm' }] });
  });

  it('agree, withdraw, release and collect send nothing on', () => {
    expect(run('applied', { type: 'pay.agree' })).toEqual({ ok: true, next: 'agreed' });
    expect(run('agreed', { type: 'pay.withdraw' })).toEqual({ ok: true, next: 'withdrawing' });
    expect(run('withdrawing', { type: 'pay.release' })).toEqual({ ok: true, next: 'agreed' });
    expect(run('paid', { type: 'pay.collect' })).toEqual({ ok: true, next: 'collected' });
  });
});
