// The fine rows a large upload's answer leaves out, kept for paging (files/upload-results.ts,
// decision 172): only for their owner, for a while, and a bounded number and size of them.
import { describe, expect, it } from 'vitest';
import { UploadResults } from '../../../src/server/files/upload-results.ts';

const rows = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ line: from + i + 2, tracking: `T${from + i}`, opStatus: 'succ' as const, msg: '导入成功' }));

describe('UploadResults', () => {
  it('pages the rows kept for their owner, in order, and to nobody else', async () => {
    const results = new UploadResults();
    const id = await results.keep(7, rows(45));
    expect(results.page(7, id, 0, 20)).toEqual({ content: rows(20), totalElements: 45, totalPages: 3 });
    expect(results.page(7, id, 2, 20)).toEqual({ content: rows(5, 40), totalElements: 45, totalPages: 3 });
    expect(results.page(7, id, 3, 20)!.content).toEqual([]);
    expect(results.page(7, id, 0, 100_000)!.content).toEqual(rows(45));
    expect(results.page(8, id, 0, 20)).toBeNull();
    expect(results.page(7, 'nope', 0, 20)).toBeNull();
  });

  it('forgets a result past its time, and the oldest past the count or bytes allowed (never the newest)', async () => {
    let now = 0;
    const results = new UploadResults({ ttlMs: 1000, maxResults: 2, maxBytes: 10_000 }, () => now);
    const a = await results.keep(1, rows(10));
    now = 500;
    const b = await results.keep(1, rows(10));
    const c = await results.keep(1, rows(10));
    expect([results.page(1, a, 0, 1), results.page(1, b, 0, 1) !== null, results.page(1, c, 0, 1) !== null]).toEqual([null, true, true]);
    now = 1600;
    expect(results.page(1, b, 0, 1)).toBeNull();
    expect(results.size).toBe(0);
    const big = await results.keep(1, rows(500));
    expect(results.page(1, big, 0, 1)!.totalElements).toBe(500);
    const next = await results.keep(1, rows(1));
    expect([results.page(1, big, 0, 1), results.size]).toEqual([null, 1]);
    expect(results.page(1, next, 0, 1)!.content).toEqual(rows(1));
  });
});
