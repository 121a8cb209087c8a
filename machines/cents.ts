/**
 * Money as the screens and the server compute it (DECISIONS "Money"): integer cents in every
 * computation, decimals with at most two places on the wire and on screen. The one set of
 * conversions, read by the web (typed amounts, totals) and the server (src/server/money/cents.ts adds
 * what only a database driver needs). Pure: imports nothing.
 */

/** Cents of an amount as it travels (a decimal with at most two places): 12.5 -> 1250. */
export const toCents = (amount: number): number => Math.round(amount * 100);

/** The amount that travels for cents: 1250 -> 12.5. */
export const fromCents = (cents: number): number => cents / 100;

/** Cents shown with two decimals: 1250 -> '12.50', -120 -> '-1.20'. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** An amount as typed: digits, optionally a point and one or two places (no sign: never below 0). */
const MONEY_TEXT = /^(\d{1,8})(?:\.(\d{1,2}))?$/;

/** Cents of a typed amount ('12.5' -> 1250), without going through a float; NaN when it is not one. */
export function moneyTextToCents(text: string): number {
  const match = MONEY_TEXT.exec(text.trim());
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
