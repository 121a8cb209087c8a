// Money is integer cents in the database (bigint columns, db/schema/cents.ts) and in every
// computation; the wire carries decimal numbers with at most two places (DECISIONS "Money").
// toCents / fromCents are the only two conversions, and centsOf is the only way a money value or sum
// answered by a driver becomes a number: node-postgres answers int8 and numeric as text, PGlite int8
// as a number (a bigint past 2^53) and numeric as text. MAX_TOTAL_CENTS keeps every amount and every
// sum the server reads below Number.MAX_SAFE_INTEGER, so those numbers are exact.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { fromCents } from '../../../machines/cents.ts';

// The two conversions are the machines' (shared with the web); server code takes them from here.
export { fromCents, toCents } from '../../../machines/cents.ts';

/**
 * The most one income, or the incomes of one member summed, may reach: 90,000,000,000,000.00 in
 * cents, below Number.MAX_SAFE_INTEGER (9,007,199,254,740,991). One amount of the contract
 * (99,999,999.99) is far below it, but an income is buyIn x count + bonus, and the contract's
 * 99,999,999.99 x 1,000,000 units would pass 2^53; payment-service.ts checks both where they are made.
 */
export const MAX_TOTAL_CENTS = 9_000_000_000_000_000;

export const moneyLimitMessages = {
  income: `收入超出上限：单个付款申请的收入（回收价 × 到货数量 + 奖励 - 折扣）不能超过 ${fromCents(MAX_TOTAL_CENTS).toFixed(2)}`,
  total: `收入合计超出上限：一个成员已同意的收入合计不能超过 ${fromCents(MAX_TOTAL_CENTS).toFixed(2)}`,
} as const;

/**
 * A money value or sum as a driver answered it (number, bigint or integer text) as an exact number of
 * cents. Anything else (a fraction, text that is not an integer, a value past 2^53) throws: the
 * bounds above make it impossible, and a wrong amount must never be answered silently.
 */
export function centsOf(value: unknown): number {
  let n = Number.NaN;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'bigint') n = Number(value);
  else if (typeof value === 'string' && /^-?\d+$/.test(value)) n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`money value out of range: ${String(value)}`);
  return n;
}

/** sum(column) of a money column in the database's exact arithmetic (numeric), 0 for no rows, read with centsOf. */
export const sumCents = (column: SQLWrapper): SQL<number> => sql<number>`coalesce(sum(${column}), 0)`.mapWith(centsOf);

/**
 * buyIn x count + bonus - punish (cents) in exact arithmetic, for checking against MAX_TOTAL_CENTS
 * before the income is computed as a number (incomeCents, machines/payment.machine.ts): below the
 * bound every step of that computation is an exact integer.
 */
export const exactIncome = (a: { buyIn: number; count: number; bonus: number; punish: number }): bigint =>
  BigInt(a.buyIn) * BigInt(a.count) + BigInt(a.bonus) - BigInt(a.punish);
