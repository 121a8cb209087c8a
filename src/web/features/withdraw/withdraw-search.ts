// The search params of the withdraw lists: filters, sort (isDesc: newest first by default), page
// (0-based) and size (SPEC §9 withdraw sizes 20, 50, 100, 500, 1000) live in the URL. A value that
// does not parse falls back to its default or is dropped instead of failing the route; defaults stay
// out of the URL (lib/list-search.ts).
// - /user/withdraw-request: orderId, status, cardId (listWithdrawRequests).
// - /user/withdraw-orders: orderId, and a status that is NOT sent (SPEC §2 "the status filter is not
//   sent in the call"): it filters the rows of the page on screen.
// - /admin/withdraw-list: orderId, status, userId, cardId (listAdminWithdrawRequests; the export
//   takes the same, the payment file all but the status).
import * as v from 'valibot';
import { AWAITING_PAY_WITHDRAW_STATUS, WITHDRAW_STATUSES } from '../../../../machines/withdraw.statuses';
import { PAGE_SIZE_OPTIONS } from '../../components/ui/pager';
import { definedOnly, idParam, isDescParam, LIST_SEARCH_DEFAULTS, oneOf, pageParam, sizeParam } from '../../lib/list-search';
import type { AdminWithdrawListQuery, PaymentFileFilters, WithdrawExportFilters, WithdrawListQuery, WithdrawOrdersQuery } from './withdraw-api';

export const WITHDRAW_SIZE_OPTIONS = PAGE_SIZE_OPTIONS.withdraw;
export const WITHDRAW_SEARCH_DEFAULTS = LIST_SEARCH_DEFAULTS;

export const withdrawRequestSearchSchema = v.object({
  orderId: idParam,
  status: oneOf(WITHDRAW_STATUSES),
  cardId: idParam,
  isDesc: isDescParam,
  page: pageParam,
  size: sizeParam,
});
export type WithdrawRequestSearch = v.InferOutput<typeof withdrawRequestSearchSchema>;

/** What listWithdrawRequests is asked for: the URL's values, blanks left out. */
export function withdrawRequestQuery(search: WithdrawRequestSearch): WithdrawListQuery {
  return definedOnly({ ...search });
}

export const withdrawOrdersSearchSchema = v.object({
  orderId: idParam,
  status: oneOf(WITHDRAW_STATUSES),
  isDesc: isDescParam,
  page: pageParam,
  size: sizeParam,
});
export type WithdrawOrdersSearch = v.InferOutput<typeof withdrawOrdersSearchSchema>;

/** What listWithdrawOrders is asked for: everything but the status (SPEC §2). */
export function withdrawOrdersQuery(search: WithdrawOrdersSearch): WithdrawOrdersQuery {
  const { orderId, isDesc, page, size } = search;
  return definedOnly({ orderId, isDesc, page, size });
}

export const adminWithdrawSearchSchema = v.object({
  orderId: idParam,
  status: oneOf(WITHDRAW_STATUSES),
  userId: idParam,
  cardId: idParam,
  isDesc: isDescParam,
  page: pageParam,
  size: sizeParam,
});
export type AdminWithdrawSearch = v.InferOutput<typeof adminWithdrawSearchSchema>;

/** What listAdminWithdrawRequests is asked for. */
export function adminWithdrawQuery(search: AdminWithdrawSearch): AdminWithdrawListQuery {
  return definedOnly({ ...search });
}

/** What the export link carries: the same filters, no paging. */
export function adminWithdrawExportFilters(search: AdminWithdrawSearch): WithdrawExportFilters {
  const { orderId, status, userId, cardId, isDesc } = search;
  return definedOnly({ orderId, status, userId, cardId, isDesc });
}

/**
 * What the payment file takes when no line is chosen: the filters but the status (the file holds
 * waited lines only), or null when the status filter asks for other lines (the file would not be
 * what the list shows).
 */
export function paymentFileFilters(search: AdminWithdrawSearch): PaymentFileFilters | null {
  if (search.status !== undefined && search.status !== AWAITING_PAY_WITHDRAW_STATUS) return null;
  const { orderId, userId, cardId, isDesc } = search;
  return definedOnly({ orderId, userId, cardId, isDesc });
}
