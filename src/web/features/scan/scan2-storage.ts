// Where /admin/scan2 keeps its rows between page loads (NO SCAN IS LOST): localStorage, one key per
// signed-in admin, written on every change of the rows or the product and read once when the page
// opens. What is read back is checked (valibot): a damaged or foreign value is ignored rather than
// breaking the page; a store that cannot be written (private mode, quota) leaves the page working
// on its in-memory rows.
import * as v from 'valibot';
import type { Scan2Input } from '../../../../machines/scan2.machine';

export const SCAN2_STORAGE_PREFIX = 'purchase-hub.scan2.v1.';

export const scan2StorageKey = (userId: number | null) => `${SCAN2_STORAGE_PREFIX}${userId ?? 'anonymous'}`;

const statusSchema = v.picklist([0, 1, 2, 3, 4, 5, 9] as const);

const itemSchema = v.object({ id: v.number(), itemName: v.string(), upc: v.string() });

const rowSchema = v.object({
  key: v.number(),
  trackingId: v.string(),
  itemId: v.number(),
  itemName: v.string(),
  upc: v.string(),
  status: statusSchema,
  message: v.string(),
  retryable: v.boolean(),
  attempts: v.number(),
  sent: v.boolean(),
  baseline: v.nullable(v.number()),
  scannedAt: v.number(),
});

const storedSchema = v.object({
  item: v.nullable(itemSchema),
  rows: v.array(rowSchema),
  nextKey: v.number(),
});

export type StoredScan2 = v.InferOutput<typeof storedSchema>;

export interface Scan2Store {
  read(): Scan2Input;
  write(value: StoredScan2): void;
}

export function createScan2Store(key: string, storage: Pick<Storage, 'getItem' | 'setItem'> | null = browserStorage()): Scan2Store {
  return {
    read() {
      try {
        const raw = storage?.getItem(key);
        if (!raw) return {};
        const parsed = v.safeParse(storedSchema, JSON.parse(raw));
        return parsed.success ? parsed.output : {};
      } catch {
        return {};
      }
    },
    write(value) {
      try {
        storage?.setItem(key, JSON.stringify(value));
      } catch {
        // Quota or private mode: the rows stay in memory and on screen.
      }
    },
  };
}

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
