// @vitest-environment happy-dom
// The slots of /admin/scan2's stored rows (scan2-storage.ts): two tabs of one admin never write over
// each other's unsent rows, and rows left by a tab that is gone are taken over by the next one.
import { afterEach, describe, expect, it } from 'vitest';
import { claimScan2Slot, createScan2Store, scan2StorageKey, SLOT_STALE_MS } from '../../../src/web/features/scan/scan2-storage';

const ADMIN = 7;
const row = (trackingId: string) => ({
  key: 1,
  trackingId,
  itemId: 5,
  itemName: '商品5',
  upc: 'UPC5',
  status: 0 as const,
  message: '',
  retryable: true,
  attempts: 0,
  sent: false,
  scannedAt: 0,
});
const rowsOf = (key: string) => (createScan2Store(key).read().rows ?? []).map((r) => r.trackingId);

afterEach(() => localStorage.clear());

describe('scan2 storage slots', () => {
  it('gives a second open tab its own key, so each keeps its own unsent rows', () => {
    const a = claimScan2Slot(ADMIN, 'tab-a');
    const b = claimScan2Slot(ADMIN, 'tab-b');
    expect(a.key).toBe(scan2StorageKey(ADMIN));
    expect(b.key).not.toBe(a.key);
    createScan2Store(a.key).write({ item: null, rows: [row('1ZA')], nextKey: 2 });
    createScan2Store(b.key).write({ item: null, rows: [row('1ZB')], nextKey: 2 });
    expect(rowsOf(a.key)).toEqual(['1ZA']);
    expect(rowsOf(b.key)).toEqual(['1ZB']);
  });

  it('hands a released slot, with the rows left in it, to the next tab', () => {
    const a = claimScan2Slot(ADMIN, 'tab-a');
    claimScan2Slot(ADMIN, 'tab-b');
    createScan2Store(a.key).write({ item: null, rows: [row('1ZA')], nextKey: 2 });
    a.release();
    const c = claimScan2Slot(ADMIN, 'tab-c');
    expect(c.key).toBe(a.key);
    expect(rowsOf(c.key)).toEqual(['1ZA']);
  });

  it('takes over the slot of a tab that stopped beating, not of one that beats', () => {
    let now = 1_000_000;
    const clock = () => now;
    const a = claimScan2Slot(ADMIN, 'tab-a', localStorage, clock);
    now += SLOT_STALE_MS - 1;
    expect(claimScan2Slot(ADMIN, 'tab-b', localStorage, clock).key).not.toBe(a.key);
    a.beat();
    now += SLOT_STALE_MS - 1;
    expect(claimScan2Slot(ADMIN, 'tab-c', localStorage, clock).key).not.toBe(a.key);
    now += 2;
    // a's last beat is SLOT_STALE_MS + 1 ago: the tab is gone.
    expect(claimScan2Slot(ADMIN, 'tab-d', localStorage, clock).key).toBe(a.key);
  });

  it('answers the same slot to the same tab asking again (a state initialiser run twice)', () => {
    const first = claimScan2Slot(ADMIN, 'tab-a');
    expect(claimScan2Slot(ADMIN, 'tab-a').key).toBe(first.key);
    expect(claimScan2Slot(ADMIN + 1, 'tab-b').key).toBe(scan2StorageKey(ADMIN + 1));
  });
});

describe('scan2 storage: the scans that wait (decision 085)', () => {
  const item = { id: 21, itemName: '钢化膜', upc: '690000000300' };
  const choice = { code: '690000000300', items: [item, { ...item, id: 22, itemName: '防窥膜' }] };

  it('keeps the open choice and its kept labels with the rows, and reads them back', () => {
    const key = scan2StorageKey(ADMIN);
    const held = [
      { code: '1Z001', at: 5 },
      { code: '4901234567894', tracking: true as const },
    ];
    createScan2Store(key).write({ item: null, rows: [row('A')], nextKey: 2, choice, held, vetting: null });
    expect(createScan2Store(key).read()).toEqual({ item: null, rows: [row('A')], nextKey: 2, choice, held, vetting: null });
    createScan2Store(key).write({
      item: null,
      rows: [],
      nextKey: 1,
      choice: null,
      held: [{ code: '1Z002' }],
      vetting: { code: '690000000317', heldBefore: 0 },
    });
    expect(createScan2Store(key).read()).toMatchObject({ held: [{ code: '1Z002' }], vetting: { code: '690000000317', heldBefore: 0 } });
  });

  it('reads a store written before the waiting scans were stored; a malformed waiting part is left out, the rows still read', () => {
    const key = scan2StorageKey(ADMIN);
    localStorage.setItem(key, JSON.stringify({ item: null, rows: [row('A')], nextKey: 2 }));
    expect(rowsOf(key)).toEqual(['A']);
    localStorage.setItem(key, JSON.stringify({ item: null, rows: [row('A')], nextKey: 2, held: [{ at: 1 }] }));
    expect(createScan2Store(key).read()).toEqual({ item: null, rows: [row('A')], nextKey: 2 });
  });
});
