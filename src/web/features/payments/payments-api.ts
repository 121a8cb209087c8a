// The calls behind the payment screens (SPEC §2 /user/apply-list, /admin/apply-list, the apply
// dialog of /user/my-task; §7 "Payments", "Tasks" GET /api/task/apply/exist):
// - the list (listPaymentApplies) answers an empty page on failure (the client has shown why); the
//   member's own list (loadMyPaymentApplies) is silent and throws its failure instead (LoadFailure,
//   lib/list-route.ts), which /user/apply-list says in place of its table;
// - which tasks already have an application (checkTaskApplyExists) is silent and answers "none
//   has one" on failure: the buttons then follow the task machine alone and the server still
//   refuses a second application ('该任务已申请付款');
// - the state-changing calls (applyPayment, agreePayment, confirmPayment; confirmCollect in lib/task-calls.ts) are
//   (and applyPaymentForArrived) are silent and return an Outcome: each screen words its own toast (SPEC §8 '申请成功', '操作成功', or
//   the server's msg). A refusal comes as an error code (the server refuses what the payment or task
//   machine refuses, with the machine's words) or as A00000 whose data.status is not 'succ' (a second
//   application); both count as failure.
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
