// How long an upload's slice aims to be (files/slices.ts): its target while the upload keeps pace
// with its budget, longer once the rows left would not be applied in time at the pace so far (the
// rows past the budget are not processed: the uploader notices), within a bound.
import { describe, expect, it } from 'vitest';
import { budgetedTargetMs, nextSliceSize } from '../../../src/server/files/slices.ts';

describe('budgetedTargetMs', () => {
  it('keeps the target while the rows left fit in the time left at the pace so far, and before any row is done', () => {
    // 10,000 rows in 20 s: 40,000 left take 80 s, within 0.9 of the 100 s left.
    expect(budgetedTargetMs(40, { rowsDone: 10_000, rowsLeft: 40_000, elapsedMs: 20_000, remainingMs: 100_000 })).toBe(40);
    expect(budgetedTargetMs(40, { rowsDone: 0, rowsLeft: 50_000, elapsedMs: 5_000, remainingMs: 115_000 })).toBe(40);
    expect(budgetedTargetMs(40, { rowsDone: 50_000, rowsLeft: 0, elapsedMs: 119_000, remainingMs: 1_000 })).toBe(40);
  });

  it('aims longer in proportion once the upload falls behind its budget, up to 150 ms', () => {
    // 4,000 rows in 60 s: 6,000 left take 90 s against 0.9 x 60 s = 54 s of room.
    expect(budgetedTargetMs(30, { rowsDone: 4_000, rowsLeft: 6_000, elapsedMs: 60_000, remainingMs: 60_000 })).toBeCloseTo(50);
    // Far behind: at most 150 ms.
    expect(budgetedTargetMs(30, { rowsDone: 100, rowsLeft: 9_900, elapsedMs: 60_000, remainingMs: 60_000 })).toBe(150);
    // Past the deadline (nothing left of it): the bound too.
    expect(budgetedTargetMs(40, { rowsDone: 100, rowsLeft: 100, elapsedMs: 120_000, remainingMs: -5 })).toBe(150);
  });

  it('never shortens a target already above the bound (PostgreSQL aims at 400 ms)', () => {
    expect(budgetedTargetMs(400, { rowsDone: 100, rowsLeft: 9_900, elapsedMs: 60_000, remainingMs: 60_000 })).toBe(400);
  });

  it('grows the next slice with it', () => {
    const slow = { rowsDone: 4_000, rowsLeft: 6_000, elapsedMs: 60_000, remainingMs: 60_000 };
    const kept = nextSliceSize(10, 10, 30, { targetMs: 30, maxRows: 400 });
    const grown = nextSliceSize(10, 10, 30, { targetMs: budgetedTargetMs(30, slow), maxRows: 400 });
    expect(kept).toBe(10);
    expect(grown).toBeGreaterThan(kept);
  });
});
