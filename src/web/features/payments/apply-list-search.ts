// The search params of /user/apply-list and /admin/apply-list: page (0-based) and size, and for the
// admin side the filters of listPaymentApplies (status, applicant userId, mainId) and the sort
// (isDesc). A value that does not parse falls back to its default or is dropped instead of failing
// the route; defaults stay out of the URL (lib/list-search.ts).
import * as v from 'valibot';
import { PAYMENT_STATUSES } from '../../../../machines/payment.statuses';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import { definedOnly, idParam, isDescParam, LIST_SEARCH_DEFAULTS, oneOf, pageParam, sizeParam } from '../../lib/list-search';
import type { PaymentListQuery } from './payments-api';

export { LIST_SIZE_OPTIONS as APPLY_LIST_SIZE_OPTIONS } from '../../lib/list-search';

/** /user/apply-list: SPEC §2 page size 20. */
export const userApplyListSearchSchema = v.object({
  page: pageParam,
  size: sizeParam,
});
export type UserApplyListSearch = v.InferOutput<typeof userApplyListSearchSchema>;
export const USER_APPLY_LIST_SEARCH_DEFAULTS = { page: 0, size: DEFAULT_PAGE_SIZE } as const;

/** The member's own applications, newest first. */
export function userApplyListQuery(search: UserApplyListSearch): PaymentListQuery {
  return { page: search.page, size: search.size, isDesc: true };
}

export const adminApplyListSearchSchema = v.object({
  status: oneOf(PAYMENT_STATUSES),
  userId: idParam,
  mainId: idParam,
  isDesc: isDescParam,
  page: pageParam,
  size: sizeParam,
});
export type AdminApplyListSearch = v.InferOutput<typeof adminApplyListSearchSchema>;
export const ADMIN_APPLY_LIST_SEARCH_DEFAULTS = LIST_SEARCH_DEFAULTS;

/** What listPaymentApplies is asked for: the URL's values, blanks left out. */
export function adminApplyListQuery(search: AdminApplyListSearch): PaymentListQuery {
  return definedOnly({ ...search });
}
