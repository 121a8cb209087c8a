// The calls behind the payment screens (SPEC §2 /user/apply-list, /admin/apply-list, the apply
// dialog of /user/my-task; §7 "Payments", GET /api/task/apply/exist):
// - the admin list answers an empty page on failure (the client has shown why); the member's own
//   list throws it (LoadFailure, lib/list-route.ts), said in place of the table;
// - checkTaskApplyExists answers "none has one" on failure (the server still refuses a second);
// - the changes (applyPayment, applyPaymentForArrived, agreePayment, confirmPayment) are silent and
//   return an outcome, each screen wording its own toast (SPEC §8); a refusal is an error code or an
//   A00000 whose data.status is not 'succ'. confirmCollect is in lib/task-calls.ts.
import type { ApiClient } from '../../../api/client';
import { outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components, operations } from '../../../api/schema';
import { loadedOrThrow } from '../../lib/list-route';

type Schemas = components['schemas'];
export type PaymentApply = Schemas['PaymentApply'];
/** A member's task, as the apply dialog and its button read it. */
export type Task = Schemas['Task'];
export type PaymentApplyPage = Schemas['PaymentApplyPage'];
export type PaymentApplyStatus = Schemas['PaymentApplyStatus'];
type PaymentApplyResult = Schemas['PaymentApplyResult'];
type PayArrivedResult = Schemas['PayArrivedResult'];
export type PayApplyRequest = Schemas['PayApplyRequest'];
export type PayAgreeRequest = Schemas['PayAgreeRequest'];
export type AppUser = Schemas['User'];

type Paged = { page: number; size: number; isDesc: boolean };
export type PaymentListQuery = NonNullable<operations['listPaymentApplies']['parameters']['query']> & Paged;

/** What a state-changing call came to; `msg` is the server's words ('' when it gave none). */
export type Outcome = ApiOutcome<PaymentApplyResult>;

// ---------------------------------------------------------------- reads

const EMPTY_PAGE: PaymentApplyPage = { content: [], totalPages: 0 };

/** GET /api/apply/list/page: a member's own applications, or (admin side) everyone's with the filters. */
export async function loadPaymentApplies(api: ApiClient, query: PaymentListQuery): Promise<PaymentApplyPage> {
  const outcome = await outcomeOf(api.GET('/api/apply/list/page', { params: { query } }));
  return outcome.ok ? (outcome.data ?? EMPTY_PAGE) : EMPTY_PAGE;
}

export const EMPTY_APPLY_PAGE = EMPTY_PAGE;

/** GET /api/apply/list/page: the member's own applications; a failure is thrown. */
export async function loadMyPaymentApplies(api: ApiClient, query: PaymentListQuery): Promise<PaymentApplyPage> {
  const outcome = await outcomeOf(api.GET('/api/apply/list/page', { params: { query }, silent: true }), { noAnswer: 'fail' });
  return loadedOrThrow(outcome) ?? EMPTY_PAGE;
}

/**
 * GET /api/task/apply/exist: for each of `taskIds`, whether it has a payment application (an id
 * the answer leaves out has none). Silent: when the call fails every task counts as without one,
 * so the buttons follow the task machine and the server still refuses a second application.
 */
export async function loadApplyExists(api: ApiClient, taskIds: readonly number[]): Promise<Record<number, boolean>> {
  if (taskIds.length === 0) return {};
  const outcome = await outcomeOf(api.GET('/api/task/apply/exist', { params: { query: { taskIds: taskIds.join(',') } }, silent: true }), { noAnswer: 'fail' });
  const records: Record<string, boolean> = (outcome.ok && outcome.data?.applyRecords) || {};
  return Object.fromEntries(taskIds.map((id) => [id, records[String(id)] === true]));
}

// ---------------------------------------------------------------- changes

/** POST /api/trade/user/pay/apply {taskId, bonus, note}. */
export function applyPayment(api: ApiClient, body: PayApplyRequest): Promise<Outcome> {
  return outcomeOf(api.POST('/api/trade/user/pay/apply', { body, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/**
 * POST /api/trade/user/pay/apply-arrived {taskId, bonus, note} (decision 053): the arrived units of a
 * partly arrived task split off into a sub-task and applied for, in one call. The answer names both
 * tasks (the original, then the sub-task).
 */
export function applyPaymentForArrived(api: ApiClient, body: PayApplyRequest): Promise<ApiOutcome<PayArrivedResult>> {
  return outcomeOf(api.POST('/api/trade/user/pay/apply-arrived', { body, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/trade/admin/pay/agree {paymentApplyId, bonus?} (no bonus: keep the one asked for). */
export function agreePayment(api: ApiClient, body: PayAgreeRequest): Promise<Outcome> {
  return outcomeOf(api.POST('/api/trade/admin/pay/agree', { body, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/trade/admin/pay/confirm {paymentApplyId}. */
export function confirmPayment(api: ApiClient, paymentApplyId: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/trade/admin/pay/confirm', { body: { paymentApplyId }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}
