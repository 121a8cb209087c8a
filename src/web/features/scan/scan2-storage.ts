// Where /admin/scan2 keeps its rows between page loads (no scan is lost): localStorage, one key per
// admin and open tab ("slot"), written on every change and read once when the page opens; what is
// read back is checked (valibot), and a store that cannot be written leaves the in-memory rows.
// Two tabs never write over each other: a tab claims the first slot no live tab holds and keeps it
// with a heartbeat; a reload or the next tab takes it over with its rows, and a crashed tab's slot is
// free after SLOT_STALE_MS (whoever takes it sends what was left in it).
import * as v from 'valibot';
import type { Scan2Input } from '../../../../machines/scan2.machine';

export const SCAN2_STORAGE_PREFIX = 'purchase-hub.scan2.v1.';

export const scan2StorageKey = (userId: number | null, slot = 0) => `${SCAN2_STORAGE_PREFIX}${userId ?? 'anonymous'}${slot ? `.${slot}` : ''}`;

const ownerKey = (userId: number | null, slot: number) => `${SCAN2_STORAGE_PREFIX}owner.${userId ?? 'anonymous'}.${slot}`;

/** A live tab refreshes its claim this often; a claim older than SLOT_STALE_MS is a tab that is gone. */
export const SLOT_BEAT_MS = 2_000;
export const SLOT_STALE_MS = 10_000;
const MAX_SLOTS = 20;

export interface Scan2Slot {
  key: string;
  /** Refreshes the claim (call every SLOT_BEAT_MS). */
  beat(): void;
  /** Gives the slot up (the page goes away). */
  release(): void;
}

/** Claims the first slot of this admin no live tab holds (see the header). */
export function claimScan2Slot(
  userId: number | null,
  tabId: string,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null = browserStorage(),
  now: () => number = Date.now,
): Scan2Slot {
  const held = (slot: number) => {
    try {
      const claim = JSON.parse(storage?.getItem(ownerKey(userId, slot)) ?? 'null') as { tab?: unknown; at?: unknown } | null;
      return !!claim && claim.tab !== tabId && typeof claim.at === 'number' && now() - claim.at < SLOT_STALE_MS;
    } catch {
      return false;
    }
  };
  let slot = 0;
  while (slot < MAX_SLOTS - 1 && held(slot)) slot++;
  const write = () => {
    try {
      storage?.setItem(ownerKey(userId, slot), JSON.stringify({ tab: tabId, at: now() }));
    } catch {
      // Without storage there is nothing to share: the slot is this tab's alone.
    }
  };
  write();
  return {
    key: scan2StorageKey(userId, slot),
    beat: write,
    release() {
      try {
        storage?.removeItem(ownerKey(userId, slot));
      } catch {
        // As above.
      }
    },
  };
}

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
  scannedAt: v.number(),
});

/** A scan that waits (machines/scan2.machine.ts Scan2Held): a label kept while the choice is open, or one waiting for the catalog. */
const heldSchema = v.object({ code: v.string(), at: v.optional(v.number()), tracking: v.optional(v.literal(true)) });

const storedSchema = v.object({
  item: v.nullable(itemSchema),
  rows: v.array(rowSchema),
  nextKey: v.number(),
  // Stored since decision 085's kept labels; older stores have none. Never written malformed, but if
  // so, read as none: the rows are what must come back.
  choice: v.fallback(v.optional(v.nullable(v.object({ code: v.string(), items: v.array(itemSchema) }))), undefined),
  held: v.fallback(v.optional(v.array(heldSchema)), undefined),
  vetting: v.fallback(v.optional(v.nullable(v.object({ code: v.string(), at: v.optional(v.number()), heldBefore: v.optional(v.number()) }))), undefined),
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
