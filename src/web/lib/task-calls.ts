// Calls two features make alike, here because features do not import each other: the admin's
// accept / reject of a claimed task (the board's claim list and the task list), and the member's
// confirmation that an application's money arrived (/user/apply-list and the withdraw receipt).
// All are silent: the caller shows what they came to (SPEC §8: success is a result whose status is succ).
import type { ApiClient } from '../../api/client';
import { outcomeOf, saysSucc, type ApiOutcome } from '../../api/outcome';
import type { components } from '../../api/schema';

export type ClaimDecision = 'accept' | 'reject';

/** POST /api/task/accept/{id} or /api/task/reject/{id}. */
export function decideClaim(api: ApiClient, decision: ClaimDecision, taskId: number): Promise<ApiOutcome<unknown>> {
  const params = { path: { id: taskId } };
  return outcomeOf(
    decision === 'accept' ? api.POST('/api/task/accept/{id}', { params, silent: true }) : api.POST('/api/task/reject/{id}', { params, silent: true }),
    { succeeded: saysSucc, noAnswer: 'fail' },
  );
}

/** POST /api/trade/user/collect/confirm {paymentApplyId}: the member confirms the money of one application arrived. */
export function confirmCollect(api: ApiClient, paymentApplyId: number): Promise<ApiOutcome<components['schemas']['PaymentApplyResult']>> {
  return outcomeOf(api.POST('/api/trade/user/collect/confirm', { body: { paymentApplyId }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}
