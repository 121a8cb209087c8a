// A withdraw line's shapes (withdraw_requests: one card's part of a withdraw order): its stored row,
// its public orderId and its wire form, card fields masked. One module that the withdraw service, the
// line's entity (whose audit keeps the wire form) and the files read, so none imports the other for it.
import type { components } from '../../api/schema';
import type { withdrawRequests } from '../db/schema/money.ts';
import { masked } from './card-crypto.ts';
import { fromCents } from './cents.ts';

export type LineRow = typeof withdrawRequests.$inferSelect;
type WithdrawRequestOut = components['schemas']['WithdrawRequest'];

/**
 * The public orderId of a stored order_id.
 *
 * The contract carries orderId as an integer; withdraw_orders.order_id (the text the lines and
 * links reference) is the decimal text of the order's own serial id, taken from the sequence before
 * the insert, so the public orderId is withdraw_orders.id and order_id = String(id). Nothing else
 * ever writes order_id.
 */
export const publicOrderId = (orderId: string): number => Number(orderId);
/** A line as every response shows it (card fields masked; the contract keeps SPEC's *Encrypt names for the masks). */
export function lineOut(r: LineRow, nickName?: string): WithdrawRequestOut {
  const accountName = masked(r.accountNameLast4);
  const cardNo = r.cardNoEncrypt ? masked(r.cardNoLast4) : '';
  return {
    id: r.id,
    userId: r.userId,
    ...(nickName !== undefined ? { nickName } : {}),
    orderId: publicOrderId(r.orderId),
    cardId: r.cardId,
    paymentType: r.paymentType,
    accountNameEncrypt: accountName,
    cardNoEncrypt: cardNo,
    accountName,
    cardNo,
    address: r.address,
    withdrawAmount: fromCents(r.withdrawAmount),
    userNote: r.userNote,
    status: r.status,
    cancelFlag: r.cancelFlag,
    adminNote: r.adminNote,
    adminNote2: r.adminNote2,
    createdAt: r.createdAt.getTime(),
    updatedAt: r.updatedAt.getTime(),
  };
}
