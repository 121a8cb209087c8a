// Rows -> the contract's Board, BoardTask and Task shapes. Money leaves the database in cents and the
// wire in decimals (money/cents.ts); times leave as epoch milliseconds; nullable text the contract types as
// a plain string leaves as ''.
import { remainingOf } from '../../../machines/claim.machine.ts';
import type { components } from '../../api/schema';
import { fromCents } from '../money/cents.ts';
import { isExpired, type BoardRow, type BoardTaskRow } from './visibility.ts';
import type { tasks } from '../db/schema/tasks.ts';

type Schemas = components['schemas'];
export type TaskRow = typeof tasks.$inferSelect;

const cents = (v: number | null) => (v === null ? null : fromCents(v));

export function boardOut(b: BoardRow, now = new Date()): Schemas['Board'] {
  return {
    id: b.id,
    uuid: b.uuid,
    boardName: b.boardName,
    remark: b.remark,
    publishAt: b.publishAt.getTime(),
    expireAt: b.expireAt.getTime(),
    status: b.status,
    createdAt: b.createdAt.getTime(),
    updatedAt: b.updatedAt.getTime(),
    expire: isExpired(b, now),
  };
}

/**
 * A board task as the contract promises it. need, averageCost and allCount are the admin's numbers
 * (actual demand, cost, arrivals): a member's answer leaves them out. show is the total the admin
 * set and never falls; remaining (what may still be claimed, the claim rules' remainingOf) does.
 */
export function boardTaskOut(r: { row: BoardTaskRow; upc: string | null; claimCount: number }, adminView: boolean): Schemas['BoardTask'] {
  const t = r.row;
  const out: Schemas['BoardTask'] = {
    id: t.id,
    boardId: t.boardId,
    userId: t.userId,
    itemId: t.itemId,
    itemName: t.itemName,
    upc: r.upc ?? '',
    url: t.url,
    price: cents(t.price),
    buyIn: fromCents(t.buyIn),
    show: t.show,
    claimCount: Number(r.claimCount),
    remaining: remainingOf({ show: t.show, claimed: Number(r.claimCount) }),
    address: t.address,
    status: t.status,
    note: t.note,
    itemSource: t.itemSource,
    createdAt: t.createdAt.getTime(),
    updatedAt: t.updatedAt.getTime(),
  };
  if (adminView) {
    out.need = t.need;
    out.averageCost = cents(t.averageCost);
    out.allCount = t.allCount;
  }
  return out;
}

/** Extra, joined columns of a task answer. */
export interface TaskExtras {
  /** Tracking ids of its purchased records, comma-joined. */
  trackingIds?: string | null;
  boardUuid?: string | null;
  boardName?: string | null;
  nickName?: string | null;
}

export function taskOut(t: TaskRow, x: TaskExtras = {}): Schemas['Task'] {
  const out: Schemas['Task'] = {
    id: t.id,
    mainId: t.mainId,
    subId: t.subId,
    boardId: t.boardId,
    boardTaskId: t.boardTaskId,
    userId: t.userId,
    itemId: t.itemId,
    itemName: t.itemName,
    url: t.url,
    price: cents(t.price),
    buyIn: fromCents(t.buyIn),
    bonus: fromCents(t.bonus),
    punish: fromCents(t.punish),
    count: t.count,
    productCount: t.productCount,
    status: t.status,
    isHome: t.isHome,
    state: t.state ?? '',
    zipCode: t.zipCode ?? '',
    labelCount: t.labelCount ?? 0,
    upc: t.upc ?? '',
    canSplit: t.canSplit,
    trackingId: x.trackingIds ?? '',
    createdAt: t.createdAt.getTime(),
    updatedAt: t.updatedAt.getTime(),
  };
  if (x.boardUuid != null) out.boardUuid = x.boardUuid;
  if (x.boardName != null) out.boardName = x.boardName;
  if (x.nickName != null) out.nickName = x.nickName;
  return out;
}
