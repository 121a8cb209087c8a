// Money in cents (machines/cents.ts), as the screens show it and the server reads typed amounts:
// a wrong digit here is a member paid or asked for the wrong amount.
import { describe, expect, it } from 'vitest';
import { formatCents, fromCents, moneyTextToCents, toCents } from '../../machines/cents';

describe('cents', () => {
  it('turns amounts on the wire into cents and back without float drift', () => {
    expect(toCents(12.5)).toBe(1250);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(19.99)).toBe(1999);
    expect(fromCents(1250)).toBe(12.5);
    expect(fromCents(-120)).toBe(-1.2);
  });

  it('shows cents with two decimals, a sign only below zero', () => {
    expect(formatCents(1250)).toBe('12.50');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(-120)).toBe('-1.20');
    expect(formatCents(123456789)).toBe('1234567.89');
  });

  it('reads a typed amount: digits, at most two places, spaces around allowed; anything else is no amount', () => {
    expect(moneyTextToCents('12.5')).toBe(1250);
    expect(moneyTextToCents('12.05')).toBe(1205);
    expect(moneyTextToCents(' 7 ')).toBe(700);
    expect(moneyTextToCents('0.1')).toBe(10);
    expect(moneyTextToCents('12345678')).toBe(1234567800);
    for (const bad of ['', 'abc', '-1', '1.005', '1.', '.5', '123456789', '1e3', '1,5', 'x12.5', '12.5x']) expect(moneyTextToCents(bad), bad).toBeNaN();
  });
});
