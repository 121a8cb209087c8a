// The call behind the admin home (getAdminHome: every count in one call, the day read in this
// browser's timezone). Silent: the page shows a failure in place of its cards, so a toast would
// say it twice; the session signals still flow. No answer, or an answer without counts, is a
// failure too, not a rejection.
import type { ApiClient } from '../../../api/client';
import { anyResult, outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components } from '../../../api/schema';

export type AdminHome = components['schemas']['AdminHome'];

/** GET /api/home/admin?timezone=: the counts, or the failure (code and the server's words). */
export function loadAdminHome(api: ApiClient, timezone: number): Promise<ApiOutcome<AdminHome>> {
  return outcomeOf(api.GET('/api/home/admin', { params: { query: { timezone } }, silent: true }), { succeeded: anyResult, noAnswer: 'fail' });
}

export type ContestedParcel = components['schemas']['ContestedParcel'];
export type ContestedAssignment = components['schemas']['ContestedAssignRequest'];

/** GET /api/match/admin/contested: the parcels several members contest (decision 096). */
export function loadContested(api: ApiClient): Promise<ApiOutcome<ContestedParcel[]>> {
  return outcomeOf(api.GET('/api/match/admin/contested', { silent: true }), { succeeded: anyResult, noAnswer: 'fail' });
}

/** POST /api/match/admin/contested/assign: the admin's one step (every waiting record's units). */
export function assignContested(api: ApiClient, body: ContestedAssignment) {
  return outcomeOf(api.POST('/api/match/admin/contested/assign', { body, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}
