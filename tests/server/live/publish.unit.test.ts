// What a NOTIFY of the live updates carries (src/server/live/publish.ts): the changes grouped by
// audience and kind, the ids of a group listed up to MAX_IDS (beyond, "several"), and a big change -
// an upload touching thousands of members - cut into payloads PostgreSQL accepts (under 8000 bytes),
// each read back whole by the hub.
import { describe, expect, it } from 'vitest';
import { livePayloads, MAX_IDS, MAX_PAYLOAD, parsePayload, taskChanged } from '../../../src/server/live/publish.ts';

describe('live payloads', () => {
  it('groups by audience and kind, the admin side as 0, ids once and sorted', () => {
    const payloads = livePayloads([
      ...taskChanged({ id: 9, userId: 4, boardId: 2 }),
      ...taskChanged({ id: 3, userId: 4, boardId: 2 }),
      { to: 4, kind: 'apply', id: 7 },
      { to: 4, kind: 'task', id: 9 },
    ]);
    expect(payloads.map(parsePayload)).toEqual([
      [
        [4, 'task', [3, 9]],
        [0, 'claim', [2]],
        [4, 'apply', [7]],
      ],
    ]);
    expect(livePayloads([])).toEqual([]);
  });

  it('says "several" instead of listing more than MAX_IDS ids', () => {
    const many = Array.from({ length: MAX_IDS + 1 }, (_, i) => ({ to: 5, kind: 'task' as const, id: i + 1 }));
    expect(livePayloads(many).map(parsePayload)).toEqual([[[5, 'task', null]]]);
    expect(parsePayload(livePayloads(many.slice(1))[0]!)![0]![2]).toHaveLength(MAX_IDS);
  });

  it('cuts thousands of members into payloads under the NOTIFY limit, every group read back', () => {
    const changes = Array.from({ length: 3000 }, (_, i) => taskChanged({ id: 100_000 + i, userId: 10_000 + i, boardId: 1 + (i % 40) })).flat();
    const payloads = livePayloads(changes);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD);
    const groups = payloads.flatMap((p) => parsePayload(p)!);
    expect(groups.filter((g) => g[1] === 'task')).toHaveLength(3000);
    expect(groups.filter((g) => g[1] === 'claim')).toEqual([[0, 'claim', Array.from({ length: 40 }, (_, i) => i + 1)]]);
  });

  it('reads back nothing from what is not a payload', () => {
    expect(parsePayload('not json')).toBeNull();
    expect(parsePayload('{"a":1}')).toBeNull();
    expect(parsePayload('[[1,"task",["x"]],[2,"apply",[3]]]')).toEqual([[2, 'apply', [3]]]);
  });
});
