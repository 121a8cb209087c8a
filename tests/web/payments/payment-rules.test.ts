// The payment screens' rules: which buttons each status offers (the payment machine's own answer,
// machines/payment.machine.ts) and money typed and reckoned in cents.
import { describe, expect, it } from 'vitest';
import { formatCents, moneyTextToCents } from '../../../machines/cents';
import { PAYMENT_STATUSES } from '../../../machines/payment.machine';
import { agreeBody } from '../../../src/web/features/payments/agree-payment-dialog';
import { ADMIN_PAYMENT_ACTIONS, MEMBER_PAYMENT_ACTIONS, paymentActions } from '../../../src/web/features/payments/payment-rules';

describe('payment actions by status', () => {
  it('the member may confirm receipt of a paid application only', () => {
    expect(Object.fromEntries(PAYMENT_STATUSES.map((status) => [status, paymentActions(status, MEMBER_PAYMENT_ACTIONS)]))).toEqual({
      applied: [],
      agreed: [],
      withdrawing: [],
      paid: ['collect'],
      collected: [],
    });
  });

  it('the admin side agrees to applied applications and confirms payment of withdrawing ones', () => {
    expect(Object.fromEntries(PAYMENT_STATUSES.map((status) => [status, paymentActions(status, ADMIN_PAYMENT_ACTIONS)]))).toEqual({
      applied: ['agree'],
      agreed: [],
      withdrawing: ['confirm'],
      paid: [],
      collected: [],
    });
  });
});

describe('money', () => {
  it('reads typed amounts into cents without floats', () => {
    expect(moneyTextToCents('0.29')).toBe(29);
    expect(moneyTextToCents(' 12.5 ')).toBe(1250);
    expect(moneyTextToCents('12')).toBe(1200);
    expect(moneyTextToCents('99999999.99')).toBe(9_999_999_999);
    for (const bad of ['', '-1', '1.234', 'abc', '1e3', '.5', '1.']) expect(moneyTextToCents(bad)).toBeNaN();
  });

  it('shows cents with two decimals', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(4350)).toBe('43.50');
    expect(formatCents(-120)).toBe('-1.20');
  });

  it('the agree body carries the bonus only when one was typed', () => {
    expect(agreeBody(4, '')).toEqual({ paymentApplyId: 4 });
    expect(agreeBody(4, '  ')).toEqual({ paymentApplyId: 4 });
    expect(agreeBody(4, '0')).toEqual({ paymentApplyId: 4, bonus: 0 });
    expect(agreeBody(4, '3.05')).toEqual({ paymentApplyId: 4, bonus: 3.05 });
  });
});
