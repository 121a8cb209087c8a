// Money is integer cents in the database and in every computation; the wire carries decimal
// numbers with at most two places (DECISIONS "Money"). These are the only two conversions.
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
